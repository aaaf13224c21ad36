import type { Subscription } from '../../../src-shared/api-types';
import type { MobilePortView } from '../../../src-shared/contract';
import type { ProbeOutcome, ProbeRequest } from '../proxy-test/proxy-probe';
import type { BackgroundJob } from '../runtime/background-jobs';
import type { Clock } from '../runtime/clock';
import { describeError } from '../runtime/deadline-job';
import type { HealthStore, StoredCheck } from './health-store';
import { nextStatus, replayStatus, type StatusThresholds, type TargetStatus } from './health-status';

/** The store's key of a port's checks. */
export const portTargetKey = (profileId: string, portId: string): string => `${profileId}|port|${portId}`;
/** The store's key of a subscription's main user's checks. */
export const subscriptionTargetKey = (profileId: string, subscriptionId: string): string =>
  `${profileId}|subscription|${subscriptionId}`;
/**
 * The store's key of a local proxy's checks: by its id alone (a local proxy of the demo or of
 * `PROXY_MANAGER_API_KEY` keeps its history across runs, though that profile's id changes).
 */
export const localProxyTargetKey = (localProxyId: string): string => `local-proxy|${localProxyId}`;

/** A running local proxy as a check reaches it: its listening address and local login, if any. */
interface LocalProxyCheckTarget {
  id: string;
  /** The profile of its upstream in this run (whose check URL it asks: the demo's echo in the demo). */
  profileId: string;
  host: string;
  port: number;
  auth: { username: string; password: string } | null;
}

export interface HealthCheckPolicy extends StatusThresholds {
  /** Seconds between two checks of a port; 0: off. */
  portsEverySeconds: number;
  /** Seconds between two checks of a subscription's main user; 0 (the default): off. */
  subscriptionsEverySeconds?: number;
  /** Seconds between two checks of a running local proxy; 0 or absent: off. */
  localProxiesEverySeconds?: number;
}

type HealthTargetKind = 'port' | 'subscription' | 'localProxy';

/** What a check was of: a port, a subscription (through its main user), or a local proxy. */
interface HealthTarget {
  profileId: string;
  kind: HealthTargetKind;
  id: string;
}

export interface HealthStatusChange extends HealthTarget {
  previous: TargetStatus['status'];
  status: TargetStatus;
  check: StoredCheck;
}

export interface HealthCheckJobOptions {
  clock: Clock;
  /** The store, or null when it cannot be opened (checks then run and are not kept). */
  store: () => HealthStore | null;
  profileIds: () => string[];
  /** A profile's ports with their credentials (main's snapshot, read again when older than a few minutes). */
  ports: (profileId: string) => Promise<readonly MobilePortView[]>;
  /** A profile's subscriptions with their main user's credentials; needed when their checks are on. */
  subscriptions?: (profileId: string) => Promise<readonly Subscription[]>;
  /** The local proxies listening in this process; needed when their checks are on. */
  localProxies?: () => Promise<readonly LocalProxyCheckTarget[]>;
  policy: () => HealthCheckPolicy;
  /** What a check asks through the port: the sandbox's echo in the demo, the user's URL otherwise. */
  checkUrlFor: (profileId: string) => string;
  /** One request through the proxy (`probeProxy` with the check's deadline). */
  probe: (request: ProbeRequest) => Promise<ProbeOutcome>;
  onStatusChange?: (change: HealthStatusChange) => void;
  /** Told of every check (self-heal counts failures in a row from it). */
  onCheck?: (target: HealthTarget, status: TargetStatus, check: StoredCheck) => void;
  /** 0-1; the jitter of each next check (±10 % of the interval). Default `Math.random`. */
  random?: () => number;
  /**
   * The first checks wait this long after the job starts (the app's start is busy enough, and a
   * restart should not look like a burst). Default 60 s.
   */
  startDelayMs?: number;
  /** Checks under way at once at most (a slow port never holds up the others). Default 8. */
  concurrency?: number;
  deadlineMs?: number;
  log?: (line: string) => void;
}

interface Target extends HealthTarget {
  key: string;
  proxy: Pick<ProbeRequest, 'host' | 'port' | 'username' | 'password'>;
  intervalMs: number;
  nextAt: number;
}

const DEFAULT_CONCURRENCY = 8;
const DEFAULT_DEADLINE_MS = 10_000;
/** The list of ports is read again this often (new, removed or relocated ports). */
const TARGETS_MAX_AGE_MS = 5 * 60_000;
/** With checks off or nothing to check, the job looks at the settings and ports again this often. */
const IDLE_RECHECK_MS = 60_000;
const JITTER = 0.1;
const DEFAULT_START_DELAY_MS = 60_000;

/**
 * Health checks through every active port, in the job owner only: one request through the gateway
 * with the port's credentials to the check URL, every `portsEverySeconds` (±10 % jitter) per port.
 * Starts are paced evenly over the interval (1,000 ports at 5 minutes: one every 0.3 s), never in a
 * burst, with at most `concurrency` under way. Each check goes into the health store and moves the
 * port's up/down status (down after `downAfter` failures in a row, up after `upAfter` successes).
 */
export class HealthCheckJob implements BackgroundJob {
  readonly name = 'health checks';
  private abort: AbortController | null = null;
  private loopDone: Promise<void> = Promise.resolve();
  private targets: Target[] = [];
  private targetsReadAt = Number.NEGATIVE_INFINITY;
  private intervals = '';
  private lastStartAt = Number.NEGATIVE_INFINITY;
  private readonly inFlight = new Set<Promise<void>>();
  private readonly statuses = new Map<string, TargetStatus>();
  private busy = false;
  private idleWaiters: (() => void)[] = [];
  private readonly random: () => number;

  constructor(private readonly options: HealthCheckJobOptions) {
    this.random = options.random ?? Math.random;
  }

  start(): void {
    if (this.abort) return;
    const abort = new AbortController();
    this.abort = abort;
    this.loopDone = this.loop(abort.signal).catch((error: unknown) => {
      if (!abort.signal.aborted) this.log(`[health] the check loop stopped: ${describeError(error)}`);
    });
  }

  async stop(): Promise<void> {
    const abort = this.abort;
    if (!abort) return;
    this.abort = null;
    abort.abort();
    await this.loopDone;
    await Promise.allSettled([...this.inFlight]);
    this.targets = [];
    this.targetsReadAt = Number.NEGATIVE_INFINITY;
  }

  /** The status this process has for a target (from its checks); null before its first check here. */
  status(key: string): TargetStatus | null {
    return this.statuses.get(key) ?? null;
  }

  /**
   * Resolves once the job waits for its next check with none under way (tests step a fake clock,
   * then wait for this).
   */
  whenIdle(): Promise<void> {
    if (!this.busy && this.inFlight.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private setBusy(busy: boolean): void {
    this.busy = busy;
    this.wakeIdle();
  }

  private wakeIdle(): void {
    if (this.busy || this.inFlight.size > 0) return;
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const wake of waiters) wake();
  }

  private async loop(signal: AbortSignal): Promise<void> {
    const { clock } = this.options;
    const startDelay = this.options.startDelayMs ?? DEFAULT_START_DELAY_MS;
    if (startDelay > 0) {
      try {
        await clock.sleep(startDelay, signal);
      } catch {
        return;
      }
    }
    while (!signal.aborted) {
      this.setBusy(true);
      const policy = this.options.policy();
      let waitMs = IDLE_RECHECK_MS;
      await this.refreshTargets(clock.now(), policy, signal);
      const next = this.earliest();
      if (next) {
        // Evenly spread: starts come at the targets' summed rate, never closer than that.
        const perMs = this.targets.reduce((sum, target) => sum + 1 / target.intervalMs, 0);
        const gapMs = 1 / perMs;
        const at = Math.max(next.nextAt, this.lastStartAt + gapMs);
        const now = clock.now();
        if (at <= now) {
          if (this.inFlight.size >= (this.options.concurrency ?? DEFAULT_CONCURRENCY)) {
            await Promise.race(this.inFlight);
            continue;
          }
          this.lastStartAt = now;
          next.nextAt = now + next.intervalMs * (1 + JITTER * (2 * this.random() - 1));
          this.launch(next, policy);
          continue;
        }
        waitMs = Math.min(at - now, TARGETS_MAX_AGE_MS);
      }
      this.setBusy(false);
      try {
        await clock.sleep(waitMs, signal);
      } catch {
        return;
      }
    }
  }

  private earliest(): Target | null {
    let best: Target | null = null;
    for (const target of this.targets) if (!best || target.nextAt < best.nextAt) best = target;
    return best;
  }

  /**
   * Reads every profile's ports (and subscriptions and local proxies, when their checks are on) again
   * when the list is old or the intervals changed: new ones join, gone ones leave, known ones keep their next time.
   */
  private async refreshTargets(now: number, policy: HealthCheckPolicy, signal: AbortSignal): Promise<void> {
    const portsMs = policy.portsEverySeconds * 1000;
    const subscriptionsMs = (policy.subscriptionsEverySeconds ?? 0) * 1000;
    const localMs = (policy.localProxiesEverySeconds ?? 0) * 1000;
    const intervals = `${portsMs}|${subscriptionsMs}|${localMs}`;
    const previous = new Map(this.targets.map((target) => [target.key, target]));
    // Local proxies live in this process: read at every pass, so one started joins at the next wake.
    const local = await this.localTargets(now, localMs, previous);
    if (now - this.targetsReadAt < TARGETS_MAX_AGE_MS && intervals === this.intervals) {
      this.targets = [...this.targets.filter((target) => target.kind !== 'localProxy'), ...local];
      return;
    }
    this.targetsReadAt = now;
    this.intervals = intervals;
    const next: Target[] = [];
    const add = (target: Omit<Target, 'nextAt'>) =>
      next.push({ ...target, nextAt: previous.get(target.key)?.nextAt ?? now });
    for (const profileId of this.options.profileIds()) {
      const kept = (kind: Target['kind']) =>
        [...previous.values()].filter((target) => target.profileId === profileId && target.kind === kind);
      if (portsMs > 0) {
        try {
          for (const port of await this.options.ports(profileId)) {
            // A port being moved or expired answers 503/403 by design: that is not an outage.
            if (port.status !== 'active') continue;
            add({
              key: portTargetKey(profileId, port.id),
              profileId,
              kind: 'port',
              id: port.id,
              proxy: {
                host: port.endpoint.host,
                port: port.endpoint.httpPort,
                username: port.username,
                password: port.password,
              },
              intervalMs: portsMs,
            });
          }
        } catch (error) {
          // Keep checking what was known: the API being down says nothing about the proxies.
          this.log(`[health] cannot read the ports of ${profileId}: ${describeError(error)}`);
          next.push(...kept('port'));
        }
      }
      if (subscriptionsMs > 0 && this.options.subscriptions) {
        try {
          for (const sub of await this.options.subscriptions(profileId)) {
            // Expired or out of traffic: the gateway refuses by design (403), not an outage.
            if (sub.status !== 'active') continue;
            add({
              key: subscriptionTargetKey(profileId, sub.id),
              profileId,
              kind: 'subscription',
              id: sub.id,
              proxy: {
                host: sub.endpoint.host,
                port: sub.endpoint.httpPort,
                username: sub.username,
                password: sub.password,
              },
              intervalMs: subscriptionsMs,
            });
          }
        } catch (error) {
          this.log(`[health] cannot read the subscriptions of ${profileId}: ${describeError(error)}`);
          next.push(...kept('subscription'));
        }
      }
      if (signal.aborted) return;
    }
    this.targets = [...next, ...local];
  }

  /** The local proxies listening now (none when their checks are off); known ones keep their next time. */
  private async localTargets(now: number, localMs: number, previous: Map<string, Target>): Promise<Target[]> {
    if (localMs <= 0 || !this.options.localProxies) return [];
    try {
      return (await this.options.localProxies()).map((proxy) => {
        const key = localProxyTargetKey(proxy.id);
        return {
          key,
          profileId: proxy.profileId,
          kind: 'localProxy' as const,
          id: proxy.id,
          // Without a local login the local proxy ignores the header: any name does.
          proxy: { host: proxy.host, port: proxy.port, ...(proxy.auth ?? { username: '', password: '' }) },
          intervalMs: localMs,
          nextAt: previous.get(key)?.nextAt ?? now,
        };
      });
    } catch (error) {
      this.log(`[health] cannot read the local proxies: ${describeError(error)}`);
      return [...previous.values()].filter((target) => target.kind === 'localProxy');
    }
  }

  private launch(target: Target, policy: HealthCheckPolicy): void {
    const run = this.check(target, policy).catch((error: unknown) => {
      this.log(`[health] the check of ${target.id} failed to run: ${describeError(error)}`);
    });
    const tracked = run.finally(() => {
      this.inFlight.delete(tracked);
      this.wakeIdle();
    });
    this.inFlight.add(tracked);
  }

  private async check(target: Target, policy: HealthCheckPolicy): Promise<void> {
    const { profileId, kind, id } = target;
    const outcome = await this.options.probe({
      protocol: 'http',
      ...target.proxy,
      echoUrl: this.options.checkUrlFor(profileId),
      deadlineMs: this.options.deadlineMs ?? DEFAULT_DEADLINE_MS,
    });
    const check = storedCheckOf(outcome, this.options.clock.now());
    const store = this.options.store();
    if (store) {
      try {
        store.record(target.key, check);
      } catch (error) {
        this.log(`[health] cannot store the check of ${id}: ${describeError(error)}`);
      }
    }
    const before = this.statuses.get(target.key) ?? this.replayed(target.key, store, policy);
    const after = nextStatus(before, check, policy);
    this.statuses.set(target.key, after);
    this.options.onCheck?.({ profileId, kind, id }, after, check);
    if (after.status !== before.status) {
      this.options.onStatusChange?.({
        profileId,
        kind,
        id,
        previous: before.status,
        status: after,
        check,
      });
    }
  }

  /** The status before this process's first check of the target: the stored checks replayed. */
  private replayed(key: string, store: HealthStore | null, policy: HealthCheckPolicy): TargetStatus {
    // The newest check was just recorded: replay the ones before it.
    const checks = store?.recentChecks(key).slice(1).reverse() ?? [];
    return replayStatus(checks, policy);
  }

  private log(line: string): void {
    this.options.log?.(line);
  }
}

/** A probe's outcome as stored: the gateway's own words first, else the explained failure. */
function storedCheckOf(outcome: ProbeOutcome, at: number): StoredCheck {
  const failure = outcome.failure;
  return {
    at,
    ok: outcome.ok,
    status: failure ? failure.status : 200,
    connectMs: outcome.timings.connectMs,
    firstByteMs: outcome.timings.firstByteMs,
    exitIp: outcome.exit?.ip ?? null,
    asn: outcome.exit?.asn ?? null,
    country: outcome.exit?.country ?? null,
    errorKind: failure?.kind ?? null,
    error: failure ? (failure.detail ?? failure.message).slice(0, 300) : null,
  };
}
