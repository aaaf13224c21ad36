import { ApiError, type MobilePort } from '../../api';
import type { MobilePortView, RelocationProgress } from '../../../src-shared/contract';
import type { Lifecycle } from '../domain-service';
import type { Clock } from '../runtime/clock';
import { DeadlineJob, describeError } from '../runtime/deadline-job';
import type { ApiCaller } from '../session/api-caller';
import { type JobSection, updateProfileEntry } from '../storage/job-section';

/** Relocations per profile, per port. */
export type RelocationsState = Record<string, Record<string, RelocationProgress>>;

/** What the tracker tells when a relocation ends (ports-sched wires OS notifications to it). */
export interface RelocationNotice {
  profileId: string;
  portId: string;
  label: string;
  state: 'active' | 'failed';
  message: string;
}

export interface RelocationTrackerOptions {
  api: Pick<ApiCaller, 'forProfile'>;
  clock: Clock;
  store: JobSection<RelocationsState>;
  /** `PortsService.publish`: every read reaches every window as `ports:changed`. */
  publish: (profileId: string, changed: MobilePortView[], relocations: RelocationProgress[]) => void;
  toView: (port: MobilePort) => MobilePortView;
  notify?: (notice: RelocationNotice) => void;
  /** Waits between reads: the n-th read waits `backoffMs[n]` (the last one repeats). */
  backoffMs?: readonly number[];
  /** Finished relocations are kept this long (for the UI), then dropped. Default one day. */
  keepFinishedMs?: number;
  log?: (line: string) => void;
}

/** 15 s, 30 s, 60 s, then every 2 minutes (the spec: a new modem is usually online within 2 minutes). */
const RELOCATION_BACKOFF_MS = [15_000, 30_000, 60_000, 120_000] as const;
const DAY_MS = 86_400_000;

const iso = (ms: number): string => new Date(ms).toISOString();

/**
 * Follows relocated ports until they are `active` again. The tracking lives in the job store, so a
 * restart resumes it; the wait for the next read comes from there too (`DeadlineJob`). Runs only in
 * the process that owns background jobs: elsewhere `track` is not called and the UI reads on demand.
 */
export class RelocationTracker implements Lifecycle {
  readonly name = 'relocation tracker';
  private readonly job: DeadlineJob;
  private readonly backoffMs: readonly number[];
  private readonly keepFinishedMs: number;
  private readonly log: (line: string) => void;

  constructor(private readonly options: RelocationTrackerOptions) {
    this.backoffMs = options.backoffMs ?? RELOCATION_BACKOFF_MS;
    this.keepFinishedMs = options.keepFinishedMs ?? DAY_MS;
    this.log = options.log ?? (() => undefined);
    this.job = new DeadlineJob({
      name: 'relocation-tracker',
      clock: options.clock,
      nextDeadline: () => this.nextDeadline(),
      run: () => this.checkDue(),
      log: this.log,
    });
  }

  start(): void {
    this.job.start();
  }

  stop(): Promise<void> {
    return this.job.stop();
  }

  /** Starts following a port the service just accepted a relocation for; stored before it returns. */
  async track(profileId: string, port: MobilePortView): Promise<RelocationProgress> {
    const now = this.options.clock.now();
    const progress: RelocationProgress =
      port.status === 'provisioning'
        ? {
            portId: port.id,
            state: 'provisioning',
            startedAt: iso(now),
            nextCheckAt: iso(now + this.delay(0)),
            checks: 0,
            message: null,
          }
        : {
            portId: port.id,
            state: 'active',
            startedAt: iso(now),
            nextCheckAt: null,
            checks: 0,
            message: activeMessage(port),
          };
    await this.options.store.update((current) => {
      const state = current ?? {};
      (state[profileId] ??= {})[port.id] = progress;
      return state;
    });
    this.job.trigger('relocation started');
    return progress;
  }

  /** Relocations of a profile: in progress, and finished ones kept for a while. */
  async list(profileId: string): Promise<RelocationProgress[]> {
    return Object.values((await this.options.store.read())?.[profileId] ?? {});
  }

  private delay(checks: number): number {
    return this.backoffMs[Math.min(checks, this.backoffMs.length - 1)] ?? 120_000;
  }

  private async nextDeadline(): Promise<number | null> {
    const state = (await this.options.store.read()) ?? {};
    let next: number | null = null;
    for (const ports of Object.values(state)) {
      for (const progress of Object.values(ports)) {
        const at =
          progress.nextCheckAt !== null
            ? Date.parse(progress.nextCheckAt)
            : Date.parse(progress.startedAt) + this.keepFinishedMs;
        if (next === null || at < next) next = at;
      }
    }
    return next;
  }

  /** Reads every port whose check is due; drops finished entries past `keepFinishedMs`. */
  private async checkDue(): Promise<void> {
    const now = this.options.clock.now();
    const state = (await this.options.store.read()) ?? {};
    for (const [profileId, ports] of Object.entries(state)) {
      for (const progress of Object.values(ports)) {
        if (progress.nextCheckAt === null) {
          if (Date.parse(progress.startedAt) + this.keepFinishedMs <= now) {
            await this.save(profileId, progress.portId, null);
          }
          continue;
        }
        if (Date.parse(progress.nextCheckAt) > now) continue;
        await this.check(profileId, progress);
      }
    }
  }

  private async check(profileId: string, progress: RelocationProgress): Promise<void> {
    const { api, clock } = this.options;
    const checks = progress.checks + 1;
    let port: MobilePort;
    try {
      port = await api.forProfile(profileId, 'authenticated', (client) =>
        client.getMobilePort(progress.portId),
      );
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) {
        await this.finish(profileId, { ...progress, checks }, null, 'failed', 'The port no longer exists.');
        return;
      }
      // Offline, a 5xx, a locked key: keep following it with the same backoff.
      this.log(`[relocation-tracker] cannot read ${progress.portId}: ${describeError(error)}`);
      const retry = { ...progress, checks, nextCheckAt: iso(clock.now() + this.delay(checks)) };
      await this.save(profileId, progress.portId, retry);
      return;
    }
    const view = this.options.toView(port);
    if (port.status === 'provisioning') {
      const waiting = { ...progress, checks, nextCheckAt: iso(clock.now() + this.delay(checks)) };
      await this.save(profileId, port.id, waiting);
      this.options.publish(profileId, [view], [waiting]);
      return;
    }
    if (port.status === 'active') {
      await this.finish(profileId, { ...progress, checks }, view, 'active', activeMessage(view));
      return;
    }
    await this.finish(
      profileId,
      { ...progress, checks },
      view,
      'failed',
      `The port is ${port.status} and will not come online; contact support if this is unexpected.`,
    );
  }

  private async finish(
    profileId: string,
    progress: RelocationProgress,
    view: MobilePortView | null,
    state: 'active' | 'failed',
    message: string,
  ): Promise<void> {
    const done: RelocationProgress = { ...progress, state, nextCheckAt: null, message };
    await this.save(profileId, progress.portId, done);
    this.options.publish(profileId, view ? [view] : [], [done]);
    try {
      this.options.notify?.({
        profileId,
        portId: progress.portId,
        label: view?.label ?? progress.portId,
        state,
        message,
      });
    } catch (error) {
      this.log(`[relocation-tracker] notify failed: ${describeError(error)}`);
    }
  }

  private async save(profileId: string, portId: string, progress: RelocationProgress | null): Promise<void> {
    await updateProfileEntry(this.options.store, profileId, portId, progress);
  }
}

function activeMessage(port: Pick<MobilePortView, 'label' | 'endpoint'>): string {
  return `${port.label} is active on its new modem: ${port.endpoint.host} (HTTP ${port.endpoint.httpPort}, SOCKS5 ${port.endpoint.socksPort}).`;
}
