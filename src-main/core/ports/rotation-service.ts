import { randomUUID } from 'node:crypto';
import { type MobilePort, ProxyServiceError, type RotationResult } from '../../api';
import type {
  ExitIpVerification,
  MobilePortView,
  ProxyExit,
  RotateManyOutcome,
  RotationReceipt,
  RotationTrigger,
  RotationVerdict,
} from '../../../src-shared/contract';
import { toIpcError } from '../wire-error';
import { AppError } from '../errors';
import type { EventSink } from '../events';
import type { Clock } from '../runtime/clock';
import { describeError } from '../runtime/deadline-job';
import type { ApiCaller } from '../session/api-caller';
import type { JobSection } from '../storage/job-section';
import { judgeRotation, type SeenIp } from './rotation-verdict';

export interface RotateOptions {
  /** Repeat (waiting out the cooldown) until the IP is not among the port's last `lastN` IPs. */
  untilNew?: { lastN: number; maxTries: number };
  /** Repeat (waiting out the cooldown) until the verdict is `clean`, at most `maxTries` rotations. */
  untilUnique?: { maxTries: number };
}

/**
 * What the scheduler, the tray and the shortcut call to rotate a port. Single-flight per
 * (profile, port): concurrent callers share one request and one receipt. Rejects with the API
 * client's error (`retryAfterMs` on a 429) or an `AppError`.
 */
interface RotatePort {
  rotate(
    profileId: string,
    portId: string,
    trigger: RotationTrigger,
    options?: RotateOptions,
  ): Promise<RotationReceipt>;
}

/** Receipts per profile, per port, oldest first. */
export type ReceiptsState = Record<string, Record<string, RotationReceipt[]>>;

/**
 * Reads the exit through the port itself (the proxy test): the echo's IP with its ASN and country
 * when it says them, or only an IP; null when it cannot tell.
 */
export type VerifyExitIp = (profileId: string, port: MobilePort) => Promise<ProxyExit | string | null>;

/** Where a rotation's IP counts as a repeat: seen within `hours`, or among the port's last `rotations` IPs. */
interface RepeatWindow {
  hours: number;
  rotations: number;
}

export interface RotationServiceOptions {
  api: Pick<ApiCaller, 'forProfile'>;
  clock: Clock;
  events: EventSink;
  receipts: JobSection<ReceiptsState>;
  /** Tells every window about the port's new IP (`PortsService.publish`). */
  publishPort?: (profileId: string, port: MobilePortView) => void;
  verifyExitIp?: VerifyExitIp;
  /** The repeat window of verdicts (settings); default 24 hours or the last 50 rotations. */
  repeatWindow?: () => RepeatWindow;
  /** The port's exit as last seen by a health check (the ASN a rotation's exit is compared with). */
  lastCheckedExit?: (profileId: string, portId: string) => { asn: number | null } | null;
  /** The ASN of an IP from the offline data set, for an echo that does not say it. */
  lookupAsn?: (ip: string) => number | null;
  /** Re-checks of an exit still on the old IP after a rotation, with these waits. Default 1, 2, 4 s. */
  verifyBackoffMs?: readonly number[];
  /** Receipts kept per port (newest win). Default 50. */
  receiptsPerPort?: number;
  /** Gap between the starts of a bulk rotation's ports. Default 250 ms. */
  bulkStaggerMs?: number;
  newId?: () => string;
  log?: (line: string) => void;
}

const DEFAULT_RECEIPTS_PER_PORT = 50;
const DEFAULT_REPEAT_WINDOW: RepeatWindow = { hours: 24, rotations: 50 };
const DEFAULT_VERIFY_BACKOFF_MS = [1_000, 2_000, 4_000];
/** The service's page size limit for the IP history. */
const IP_HISTORY_PAGE_MAX = 100;
const DEFAULT_BULK_STAGGER_MS = 250;
/** "Rotate until new" waits at most this long for one cooldown (the spec's is 30 s). */
const MAX_COOLDOWN_WAIT_MS = 10 * 60_000;

const iso = (ms: number): string => new Date(ms).toISOString();

/**
 * Rotates mobile ports and keeps a receipt of each rotation. One request per (profile, port) at a
 * time: a tray click, a schedule and a button pressed together share it and its receipt. A rotation
 * whose answer is lost (network error, timeout) is never sent again: the port is read again and the
 * receipt, or the error, says what happened.
 */
export class RotationService implements RotatePort {
  private readonly inFlight = new Map<string, Promise<RotationReceipt>>();
  private readonly receiptsPerPort: number;
  private readonly bulkStaggerMs: number;
  private readonly newId: () => string;
  private readonly log: (line: string) => void;

  constructor(private readonly options: RotationServiceOptions) {
    this.receiptsPerPort = options.receiptsPerPort ?? DEFAULT_RECEIPTS_PER_PORT;
    this.bulkStaggerMs = options.bulkStaggerMs ?? DEFAULT_BULK_STAGGER_MS;
    this.newId = options.newId ?? randomUUID;
    this.log = options.log ?? (() => undefined);
  }

  /**
   * Rotates `portId` of `profileId` now. A caller arriving while a rotation of that port is in
   * flight gets that rotation's receipt (its own `trigger` and `options` are not used).
   */
  rotate(
    profileId: string,
    portId: string,
    trigger: RotationTrigger,
    options: RotateOptions = {},
  ): Promise<RotationReceipt> {
    const key = `${profileId}\u0000${portId}`;
    const running = this.inFlight.get(key);
    if (running) return running;
    const promise = this.rotateAndAnnounce(profileId, portId, trigger, options).finally(() => {
      this.inFlight.delete(key);
    });
    this.inFlight.set(key, promise);
    return promise;
  }

  /**
   * Rotates several ports, starts staggered by `bulkStaggerMs`; a port whose last receipt says it
   * is still in its cooldown waits for it, so that no port is asked before it may rotate.
   */
  async rotateMany(
    profileId: string,
    portIds: readonly string[],
    trigger: RotationTrigger = 'bulk',
  ): Promise<RotateManyOutcome[]> {
    const unique = [...new Set(portIds)];
    const state = (await this.options.receipts.read()) ?? {};
    const { clock } = this.options;
    const startAt = clock.now();
    return Promise.all(
      unique.map(async (portId, index): Promise<RotateManyOutcome> => {
        try {
          const last = state[profileId]?.[portId]?.at(-1);
          const cooldownEnd = last ? Date.parse(last.nextRotationAvailableAt) : 0;
          const at = Math.max(startAt + index * this.bulkStaggerMs, cooldownEnd);
          const wait = at - clock.now();
          if (wait > 0) await clock.sleep(Math.min(wait, MAX_COOLDOWN_WAIT_MS));
          return { portId, ok: true, receipt: await this.rotate(profileId, portId, trigger) };
        } catch (error) {
          return { portId, ok: false, error: toIpcError(error, this.log) };
        }
      }),
    );
  }

  /** The port's receipts, newest first. */
  async receipts(profileId: string, portId: string): Promise<RotationReceipt[]> {
    const state = await this.options.receipts.read();
    return [...(state?.[profileId]?.[portId] ?? [])].reverse();
  }

  /** Every port's receipts of a profile, newest first, in one read (the health scores of many ports). */
  async receiptsByPort(profileId: string): Promise<Record<string, RotationReceipt[]>> {
    const state = await this.options.receipts.read();
    return Object.fromEntries(
      Object.entries(state?.[profileId] ?? {}).map(([portId, list]) => [portId, [...list].reverse()]),
    );
  }

  /** The newest receipt of each port of a profile (the tray's tooltip, the scheduler's cooldowns). */
  async latestReceipts(profileId: string): Promise<Record<string, RotationReceipt>> {
    const state = await this.options.receipts.read();
    const latest: Record<string, RotationReceipt> = {};
    for (const [portId, list] of Object.entries(state?.[profileId] ?? {})) {
      const last = list.at(-1);
      if (last) latest[portId] = last;
    }
    return latest;
  }

  private async rotateAndAnnounce(
    profileId: string,
    portId: string,
    trigger: RotationTrigger,
    options: RotateOptions,
  ): Promise<RotationReceipt> {
    const { events } = this.options;
    events.emit('ports:rotation', { profileId, portId, phase: 'started', trigger });
    try {
      const receipt = options.untilUnique
        ? await this.rotateUntilUnique(profileId, portId, trigger, options.untilUnique.maxTries)
        : options.untilNew
          ? await this.rotateUntilNew(profileId, portId, trigger, options.untilNew)
          : await this.rotateOnce(profileId, portId, trigger, null);
      events.emit('ports:rotation', { profileId, portId, phase: 'finished', trigger, receipt });
      return receipt;
    } catch (error) {
      events.emit('ports:rotation', {
        profileId,
        portId,
        phase: 'failed',
        trigger,
        error: toIpcError(error, this.log),
      });
      throw error;
    }
  }

  private async rotateUntilNew(
    profileId: string,
    portId: string,
    trigger: RotationTrigger,
    untilNew: { lastN: number; maxTries: number },
  ): Promise<RotationReceipt> {
    const { api, clock } = this.options;
    // Newest first; the first entry is the IP the port has now.
    const history = await api.forProfile(profileId, 'authenticated', (client) =>
      client.getMobileIpHistory(portId, { page: 1, perPage: untilNew.lastN }),
    );
    let recent = history.data.map((entry) => entry.ip).slice(0, untilNew.lastN);
    const startedAt = clock.now();
    let first: RotationReceipt | null = null;
    let last: RotationReceipt | null = null;
    let reachedNewIp = false;
    let attempts = 0;
    for (let attempt = 1; attempt <= untilNew.maxTries; attempt += 1) {
      if (last) await this.waitForCooldown(last);
      const context = { lastN: untilNew.lastN, maxTries: untilNew.maxTries, reachedNewIp: false };
      last = await this.rotateOnce(profileId, portId, trigger, context);
      attempts = attempt;
      first ??= last;
      reachedNewIp = !recent.includes(last.ip);
      if (reachedNewIp) break;
      recent = [last.ip, ...recent].slice(0, untilNew.lastN);
    }
    if (!first || !last) throw new AppError('internal_error', 'Rotate until new made no attempt');
    const finishedAt = clock.now();
    return {
      ...last,
      previousIp: first.previousIp,
      sameIp: last.ip === first.previousIp,
      startedAt: iso(startedAt),
      finishedAt: iso(finishedAt),
      tookMs: finishedAt - startedAt,
      attempts,
      untilNew: { ...untilNew, reachedNewIp },
    };
  }

  /**
   * Rotates until the verdict is `clean`, waiting out each cooldown, at most `maxTries` times. Stops
   * early on `unknown` too: when the port cannot be checked, more rotations would not tell either.
   */
  private async rotateUntilUnique(
    profileId: string,
    portId: string,
    trigger: RotationTrigger,
    maxTries: number,
  ): Promise<RotationReceipt> {
    const { clock } = this.options;
    const startedAt = clock.now();
    let first: RotationReceipt | null = null;
    let last: RotationReceipt | null = null;
    let attempts = 0;
    for (let attempt = 1; attempt <= maxTries; attempt += 1) {
      if (last) await this.waitForCooldown(last);
      last = await this.rotateOnce(profileId, portId, trigger, null);
      attempts = attempt;
      first ??= last;
      const kind = last.verdict?.kind ?? 'unknown';
      if (kind === 'clean' || kind === 'unknown') break;
    }
    if (!first || !last) throw new AppError('internal_error', 'Rotate until unique made no attempt');
    const finishedAt = clock.now();
    return {
      ...last,
      previousIp: first.previousIp,
      sameIp: last.ip === first.previousIp,
      startedAt: iso(startedAt),
      finishedAt: iso(finishedAt),
      tookMs: finishedAt - startedAt,
      attempts,
      untilUnique: { maxTries, reachedClean: last.verdict?.kind === 'clean' },
    };
  }

  private async waitForCooldown(previous: RotationReceipt): Promise<void> {
    const { clock } = this.options;
    const wait = Date.parse(previous.nextRotationAvailableAt) - clock.now();
    if (wait > 0) await clock.sleep(Math.min(wait, MAX_COOLDOWN_WAIT_MS));
  }

  /** One rotation request (never repeated), its receipt stored before it is returned. */
  private async rotateOnce(
    profileId: string,
    portId: string,
    trigger: RotationTrigger,
    untilNew: RotationReceipt['untilNew'],
  ): Promise<RotationReceipt> {
    const { api, clock } = this.options;
    // Read first: the IP and its time before the rotation are what an unknown outcome is judged by.
    const before = await api.forProfile(profileId, 'authenticated', (client) => client.getMobilePort(portId));
    const startedAt = clock.now();
    let result: RotationResult;
    let confirmedBy: RotationReceipt['confirmedBy'] = 'answer';
    try {
      result = await api.forProfile(profileId, 'authenticated', (client) => client.rotateMobilePort(portId));
    } catch (error) {
      if (!(error instanceof ProxyServiceError) || !error.outcomeUnknown) throw error;
      result = await this.judgeUnknownOutcome(profileId, before, error);
      confirmedBy = 'reread';
    }
    const finishedAt = clock.now();
    const after: MobilePort = { ...before, currentIp: result.ip, ipChangedAt: result.rotatedAt };
    const checked = await this.verify(profileId, after, result.previousIp);
    const receipt: RotationReceipt = {
      id: this.newId(),
      portId,
      previousIp: result.previousIp,
      ip: result.ip,
      sameIp: result.ip === result.previousIp,
      startedAt: iso(startedAt),
      finishedAt: iso(finishedAt),
      tookMs: finishedAt - startedAt,
      nextRotationAvailableAt: result.nextRotationAvailableAt,
      trigger,
      attempts: 1,
      confirmedBy,
      untilNew,
      verification: checked.verification,
      verdict: checked.verdict,
    };
    await this.store(profileId, receipt);
    const { rotationLink, ...view } = after;
    this.options.publishPort?.(profileId, { ...view, hasRotationLink: typeof rotationLink === 'string' });
    return receipt;
  }

  /**
   * The rotation's answer was lost. Read the port again: a new IP time means the rotation happened
   * (report it); the old one means it did not (say so). Either way nothing is sent again.
   */
  private async judgeUnknownOutcome(
    profileId: string,
    before: MobilePort,
    cause: ProxyServiceError,
  ): Promise<RotationResult> {
    let now: MobilePort;
    try {
      now = await this.options.api.forProfile(profileId, 'authenticated', (client) =>
        client.getMobilePort(before.id),
      );
    } catch {
      // Still cannot tell: the original error says "the request may or may not have taken effect".
      throw cause;
    }
    if (now.ipChangedAt !== before.ipChangedAt || now.currentIp !== before.currentIp) {
      const changedAt = Date.parse(now.ipChangedAt);
      return {
        ip: now.currentIp,
        previousIp: before.currentIp,
        rotatedAt: now.ipChangedAt,
        nextRotationAvailableAt: iso(changedAt + now.minRotationIntervalSeconds * 1000),
      };
    }
    throw new AppError(
      'rotation_not_confirmed',
      `The answer to the rotation was lost, and the port still has ` +
        `${now.currentIp} since ${now.ipChangedAt}: the rotation did not happen. Nothing was sent twice; ` +
        'rotate again when the connection is back.',
      [],
      cause,
    );
  }

  /**
   * Checks through the port that traffic leaves from a new IP, and judges it. An exit still on the
   * old IP while the service answered a new one is checked again after 1, 2 and 4 s (a modem can
   * take a moment to move its traffic) before it is called `unchanged`.
   */
  private async verify(
    profileId: string,
    port: MobilePort,
    previousIp: string,
  ): Promise<{ verification: ExitIpVerification | null; verdict: RotationVerdict | null }> {
    if (!this.options.verifyExitIp) return { verification: null, verdict: null };
    const backoff = this.options.verifyBackoffMs ?? DEFAULT_VERIFY_BACKOFF_MS;
    let exit = await this.readExit(profileId, port);
    let checks = 1;
    while (exit?.ip === previousIp && port.currentIp !== previousIp && checks <= backoff.length) {
      await this.options.clock.sleep(backoff[checks - 1] ?? 0);
      exit = await this.readExit(profileId, port);
      checks += 1;
    }
    const verification = exit ? { exitIp: exit.ip, matches: exit.ip === port.currentIp } : null;
    try {
      const verdict = judgeRotation({
        portId: port.id,
        previousIp,
        serviceIp: port.currentIp,
        exit,
        checks,
        expectedAsn: await this.expectedAsn(profileId, port.id),
        expectedCountry: port.country,
        seen: exit && exit.ip !== previousIp ? await this.seenIps(profileId, port.id, port.ipChangedAt) : [],
      });
      return { verification, verdict };
    } catch (error) {
      this.log(`[rotation] cannot judge the rotation of ${port.id}: ${describeError(error)}`);
      return { verification, verdict: null };
    }
  }

  private async readExit(
    profileId: string,
    port: MobilePort,
  ): Promise<Pick<ProxyExit, 'ip' | 'asn' | 'country'> | null> {
    try {
      const found = await this.options.verifyExitIp?.(profileId, port);
      if (!found) return null;
      const exit = typeof found === 'string' ? { ip: found, asn: null, country: null } : found;
      return {
        ip: exit.ip,
        asn: exit.asn ?? this.options.lookupAsn?.(exit.ip) ?? null,
        country: exit.country,
      };
    } catch (error) {
      this.log(`[rotation] exit IP check of ${port.id} failed: ${describeError(error)}`);
      return null;
    }
  }

  /** The ASN the port's traffic left through before: its last judged rotation, else its last health check. */
  private async expectedAsn(profileId: string, portId: string): Promise<number | null> {
    const state = await this.options.receipts.read();
    const fromReceipts = [...(state?.[profileId]?.[portId] ?? [])]
      .reverse()
      .find((receipt) => typeof receipt.verdict?.asn === 'number')?.verdict?.asn;
    return fromReceipts ?? this.options.lastCheckedExit?.(profileId, portId)?.asn ?? null;
  }

  /**
   * IPs within the repeat window: this port's history from the service (its last `rotations` IPs,
   * and any assigned within `hours`), and what the app's receipts saw on the profile's other ports
   * within `hours`. The rotation's own new entry (assigned at `assignedAt`) is left out.
   */
  private async seenIps(profileId: string, portId: string, assignedAt: string): Promise<SeenIp[]> {
    const window = this.options.repeatWindow?.() ?? DEFAULT_REPEAT_WINDOW;
    const since = this.options.clock.now() - window.hours * 3_600_000;
    const seen: SeenIp[] = [];
    const history = await this.options.api.forProfile(profileId, 'authenticated', (client) =>
      client.getMobileIpHistory(portId, {
        page: 1,
        perPage: Math.min(IP_HISTORY_PAGE_MAX, window.rotations + 1),
      }),
    );
    const ownAt = Date.parse(assignedAt);
    const entries = history.data.filter((entry) => Date.parse(entry.assignedAt) !== ownAt);
    entries.forEach((entry, index) => {
      const at = Date.parse(entry.assignedAt);
      if (index < window.rotations || at >= since) seen.push({ ip: entry.ip, portId, at });
    });
    const state = await this.options.receipts.read();
    for (const [otherId, list] of Object.entries(state?.[profileId] ?? {})) {
      if (otherId === portId) continue;
      for (const receipt of list) {
        const at = Date.parse(receipt.finishedAt);
        if (at < since) continue;
        seen.push({ ip: receipt.ip, portId: otherId, at }, { ip: receipt.previousIp, portId: otherId, at });
      }
    }
    return seen.sort((a, b) => b.at - a.at);
  }

  /** The rotation happened whatever the disk says: a failed write is logged, not thrown. */
  private async store(profileId: string, receipt: RotationReceipt): Promise<void> {
    try {
      await this.options.receipts.update((current) => {
        const state: ReceiptsState = current ?? {};
        const ports = (state[profileId] ??= {});
        const list = [...(ports[receipt.portId] ?? []), receipt];
        ports[receipt.portId] = list.slice(-this.receiptsPerPort);
        return state;
      });
    } catch (error) {
      this.log(`[rotation] cannot store the receipt of ${receipt.portId}: ${describeError(error)}`);
    }
  }
}
