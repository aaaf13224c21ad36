/**
 * The usage poller: on one `DeadlineJob`, refreshes every profile's subscriptions, the sub-users of
 * the subscriptions chosen for sub-user alerts, and the ports, then turns what it read into alerts.
 *
 * - One request per list per cycle; cycles never overlap (the deadline job runs one at a time).
 * - Faster while a window is visible, slower in the tray: the shell calls `setWindowVisible`.
 * - A network error or timeout pauses that profile with backoff (offline); the next success resumes.
 *   Other errors back off too; a 429 waits at least its `Retry-After`.
 * - An answer for a profile that is gone or has background jobs off by the time it arrives is dropped
 *   (no samples, no alerts), after Mullvad's account-data cache: the answer names the account it was
 *   asked for, and only the current one's is kept.
 * - The 7-day pace comes from the poller's own samples of `trafficUsedBytes` (job store); with samples
 *   spanning less than a day there is no forecast yet (the usage report is not read for it).
 */
import { ProxyServiceError, type MobilePort, type SubUser, type Subscription } from '../../api';
import type { AlertCenter } from '../alerts/alert-center';
import { type AlertPolicy, evaluateAlerts } from '../alerts/alert-rules';
import { type Clock, isAbortError } from '../runtime/clock';
import { DeadlineJob } from '../runtime/deadline-job';
import type { JobSection } from '../storage/job-section';

const DAY_MS = 86_400_000;
const PACE_WINDOW_MS = 7 * DAY_MS;
/** Samples closer together than this replace each other (the pace needs days, not minutes). */
const SAMPLE_SPACING_MS = 15 * 60_000;
const BACKOFF = { firstMs: 30_000, maxMs: 30 * 60_000 } as const;

/** `[epoch ms, trafficUsedBytes]`, oldest first. */
type UsageSample = [number, number];

export interface UsagePollerState {
  /** Samples per profile id, per subscription id. */
  samples: Record<string, Record<string, UsageSample[]>>;
}

export interface PollerPolicy extends AlertPolicy {
  /** Subscription ids whose sub-users are read each cycle (for the cap alerts). */
  subUserAlertSubscriptions: readonly string[];
  visibleIntervalMs: number;
  trayIntervalMs: number;
}

export interface UsagePollerOptions {
  clock: Clock;
  /** Profiles with background jobs on, now. */
  profiles: () => readonly string[];
  subscriptions: {
    refresh(profileId: string): Promise<Subscription[]>;
    refreshSubUsers(profileId: string, subscriptionId: string): Promise<{ data: SubUser[] }>;
  };
  ports: { refresh(profileId: string): Promise<readonly MobilePort[] | readonly unknown[]> };
  store: JobSection<UsagePollerState>;
  alerts: Pick<AlertCenter, 'apply'>;
  policy: () => PollerPolicy;
  /** Whether a window is showing (the shell tells; web mode: always true). */
  windowVisible?: boolean;
  /** Subscribes to settings changes (`SettingsStore.subscribe`): each reads the deadline again. */
  settingsChanges?: (listener: () => void) => unknown;
  /** Subscribes to profile changes (`ProfilesService.onChange`); see `RESCHEDULING_CHANGES`. */
  profileChanges?: (listener: (change: { kind: string }) => void) => unknown;
  log?: (line: string) => void;
}

/**
 * A profile that only lives in memory (the demo, a key from the environment) changes no setting:
 * without these the poller would first read it at whatever deadline it was already waiting for.
 */
const RESCHEDULING_CHANGES = new Set(['created', 'key', 'connection']);

interface ProfileSchedule {
  nextDue: number;
  failures: number;
  /** Paused after a network error or timeout until `nextDue`. */
  offline: boolean;
}

export class UsagePoller {
  readonly name = 'usage-poller';
  private readonly job: DeadlineJob;
  private readonly schedules = new Map<string, ProfileSchedule>();
  private windowVisible: boolean;

  constructor(private readonly options: UsagePollerOptions) {
    this.windowVisible = options.windowVisible ?? true;
    this.job = new DeadlineJob({
      name: this.name,
      clock: options.clock,
      nextDeadline: () => this.nextDeadline(),
      run: ({ signal }) => this.cycle(signal),
      ...(options.log ? { log: options.log } : {}),
    });
    options.settingsChanges?.(() => this.reschedule('settings changed'));
    options.profileChanges?.((change) => {
      if (RESCHEDULING_CHANGES.has(change.kind)) this.reschedule(`profile ${change.kind}`);
    });
  }

  start(reason = 'start'): void {
    this.job.start(reason);
  }

  stop(reason = 'stop'): Promise<void> {
    return this.job.stop(reason);
  }

  /** The shell's hook: a window shown or hidden (tray). Showing one polls on the faster interval. */
  setWindowVisible(visible: boolean): void {
    if (visible === this.windowVisible) return;
    this.windowVisible = visible;
    // Shorten a tray wait to the window's interval; a backoff or offline pause stays as it is.
    if (visible) {
      const limit = this.options.clock.now() + this.options.policy().visibleIntervalMs;
      for (const schedule of this.schedules.values()) {
        if (schedule.failures === 0 && schedule.nextDue > limit) schedule.nextDue = limit;
      }
    }
    this.job.trigger(visible ? 'window shown' : 'window hidden');
  }

  /** Settings or profiles changed: read the deadline again. */
  reschedule(reason: string): void {
    this.job.trigger(reason);
  }

  /** What the poller knows of a profile (for tests and the status line). */
  status(profileId: string): Readonly<ProfileSchedule> | undefined {
    return this.schedules.get(profileId);
  }

  private interval(): number {
    const policy = this.options.policy();
    return this.windowVisible ? policy.visibleIntervalMs : policy.trayIntervalMs;
  }

  private nextDeadline(): number | null {
    const profiles = this.options.profiles();
    for (const id of [...this.schedules.keys()]) if (!profiles.includes(id)) this.schedules.delete(id);
    let next: number | null = null;
    for (const profileId of profiles) {
      let schedule = this.schedules.get(profileId);
      if (!schedule) {
        // A new profile (or a start) is read at once.
        schedule = { nextDue: this.options.clock.now(), failures: 0, offline: false };
        this.schedules.set(profileId, schedule);
      }
      next = next === null ? schedule.nextDue : Math.min(next, schedule.nextDue);
    }
    return next;
  }

  private async cycle(signal: AbortSignal): Promise<void> {
    for (const profileId of this.options.profiles()) {
      if (signal.aborted) return;
      const schedule = this.schedules.get(profileId);
      if (!schedule || schedule.nextDue > this.options.clock.now()) continue;
      try {
        await this.pollProfile(profileId);
        schedule.failures = 0;
        schedule.offline = false;
        schedule.nextDue = this.options.clock.now() + this.interval();
      } catch (error) {
        if (isAbortError(error)) return;
        this.backOff(profileId, schedule, error);
      }
    }
  }

  private backOff(profileId: string, schedule: ProfileSchedule, error: unknown): void {
    schedule.failures += 1;
    const kind = error instanceof ProxyServiceError ? error.kind : null;
    schedule.offline = kind === 'network' || kind === 'timeout';
    const backoff = Math.min(BACKOFF.maxMs, BACKOFF.firstMs * 2 ** (schedule.failures - 1));
    const retryAfter = (error as { retryAfterMs?: unknown }).retryAfterMs;
    const wait = typeof retryAfter === 'number' ? Math.max(retryAfter, backoff) : backoff;
    schedule.nextDue = this.options.clock.now() + wait;
    const why = error instanceof Error ? error.message : String(error);
    this.options.log?.(
      `[${this.name}] ${profileId}: ${schedule.offline ? 'offline, paused' : 'failed'} (${why}); next in ${Math.round(wait / 1000)} s`,
    );
  }

  /** Still a profile to keep answers for (the account guard). */
  private current(profileId: string): boolean {
    return this.options.profiles().includes(profileId);
  }

  private async pollProfile(profileId: string): Promise<void> {
    const policy = this.options.policy();
    const subscriptions = await this.options.subscriptions.refresh(profileId);
    if (!this.current(profileId)) return;
    const subUsers: Record<string, SubUser[]> = {};
    const capAlerts = policy.enabled.sub_user_cap_80 || policy.enabled.sub_user_cap_100;
    if (capAlerts) {
      for (const sub of subscriptions) {
        if (!policy.subUserAlertSubscriptions.includes(sub.id) || sub.subUserCount === 0) continue;
        subUsers[sub.id] = (await this.options.subscriptions.refreshSubUsers(profileId, sub.id)).data;
        if (!this.current(profileId)) return;
      }
    }
    const ports = (await this.options.ports.refresh(profileId)) as MobilePort[];
    if (!this.current(profileId)) return;
    const now = this.options.clock.now();
    const pace = await this.recordSamples(profileId, subscriptions, now);
    if (!this.current(profileId)) return;
    await this.options.alerts.apply(
      evaluateAlerts(
        { profileId, now: new Date(now), subscriptions, subUsers, dailyPaceBytes: pace, ports },
        policy,
      ),
    );
  }

  /**
   * Bytes a day over the stored samples of the last 7 days, per subscription id, where they span at
   * least a day (the overview's traffic forecast; nothing is read).
   */
  async paceOf(profileId: string): Promise<Record<string, number>> {
    const state = await this.options.store.read();
    const pace: Record<string, number> = {};
    for (const [subscriptionId, samples] of Object.entries(state?.samples[profileId] ?? {})) {
      const first = samples[0];
      const last = samples.at(-1);
      if (!first || !last || last[0] - first[0] < DAY_MS) continue;
      pace[subscriptionId] = ((last[1] - first[1]) * DAY_MS) / (last[0] - first[0]);
    }
    return pace;
  }

  /** Stores this read's samples (before alerts go out) and gives the pace where samples allow. */
  private async recordSamples(
    profileId: string,
    subscriptions: readonly Subscription[],
    now: number,
  ): Promise<Record<string, number>> {
    const pace: Record<string, number> = {};
    await this.options.store.update((current) => {
      const state: UsagePollerState = current ?? { samples: {} };
      const ofProfile: Record<string, UsageSample[]> = {};
      for (const sub of subscriptions) {
        let samples = (state.samples[profileId]?.[sub.id] ?? []).filter(
          ([at, used]) => at >= now - PACE_WINDOW_MS && at <= now && used <= sub.trafficUsedBytes,
        );
        const last = samples.at(-1);
        if (last && now - last[0] < SAMPLE_SPACING_MS && samples.length > 1) samples = samples.slice(0, -1);
        samples.push([now, sub.trafficUsedBytes]);
        ofProfile[sub.id] = samples;
        const first = samples[0] as UsageSample;
        const span = now - first[0];
        if (span >= DAY_MS) pace[sub.id] = ((sub.trafficUsedBytes - first[1]) * DAY_MS) / span;
      }
      return { samples: { ...state.samples, [profileId]: ofProfile } };
    });
    return pace;
  }
}
