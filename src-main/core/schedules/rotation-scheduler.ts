import { ApiError, ProxyServiceError } from '../../api/api-errors';
import type {
  ParsedCallInput,
  PortSchedule,
  ScheduleRun,
  ScheduleRunResult,
  ScheduleRunTrigger,
  SchedulesView,
} from '../../../src-shared/contract';
import { SCHEDULE_RECENT_RUNS } from '../../../src-shared/contract/schedules';
import { AppError } from '../errors';
import type { EventSink } from '../events';
import type { Clock } from '../runtime/clock';
import { DeadlineJob, type DeadlineRunContext } from '../runtime/deadline-job';
import {
  addRun,
  type RotationSchedulesState,
  type StateSection,
  type StoredSchedule,
} from './rotation-scheduler-state';
import { planNextRun } from './rotation-timing';

/**
 * What a rotation answers, as far as the scheduler reads it (a subset of ports-main's
 * `RotationReceipt`).
 */
interface ScheduledRotationReceipt {
  previousIp: string;
  ip: string;
  sameIp: boolean;
  nextRotationAvailableAt: string;
}

/**
 * Rotates one port of one profile with that profile's own client; single-flight per port, so a
 * schedule, the tray and a button at the same moment send one request. Rejects with the API
 * client's errors (`retryAfterMs` on a 429, kind `network` when the service is unreachable).
 */
export interface RotatePort {
  rotate(profileId: string, portId: string, trigger: 'schedule'): Promise<ScheduledRotationReceipt>;
}

/** Told after every scheduled run (notifications). */
export type ScheduledRunListener = (profileId: string, portId: string, run: ScheduleRun) => void;

export interface RotationSchedulerOptions {
  clock: Clock;
  /** The `rotation-schedules` section of the job-state store. */
  state: StateSection<RotationSchedulesState>;
  rotate: RotatePort;
  events: EventSink;
  /** The active profile: `pause` answers with its view (the other profiles' are announced). */
  activeProfileId: () => string | null;
  /** In [0, 1); decides each run's jitter. */
  random?: () => number;
  onRun?: ScheduledRunListener;
  log?: (line: string) => void;
}

/**
 * A run later than its planned time by more than this (the system clock's wall check is a
 * minute) stands for missed slots: a sleep, a pause, the app closed.
 */
const LATE_TOLERANCE_MS = 60_000;

interface DueRun {
  at: Date;
  /** The regular slot the run stands for: the next anchor. */
  slot: Date;
  trigger: ScheduleRunTrigger;
}

const keyOf = (profileId: string, portId: string): string => `${profileId}\u0000${portId}`;

/**
 * Scheduled rotation: every port's schedule (every N seconds or cron, jitter, group stagger)
 * lives in the job-state store and the next run comes from `planNextRun`, so a restart resumes
 * by construction. Runs for every profile; the `schedules:*` calls (`SchedulesService`) show the
 * active one's.
 *
 * One `DeadlineJob` wakes at the earliest planned run; each due port is rotated without holding up
 * the others (a rotation takes 5-15 s), and its outcome moves its own plan: the next slot after a
 * success, a 2^n backoff (never past the next slot) after a failure, never before the port's
 * cooldown or a `Retry-After`. Start it only in the process that owns background jobs.
 */
export class RotationScheduler {
  private readonly job: DeadlineJob;
  private readonly random: () => number;
  private readonly log: (line: string) => void;
  /** Rotations under way, by port: excluded from the deadline until they settle. */
  private readonly inFlight = new Map<string, Promise<void>>();
  private started = false;
  private readonly plannedAtMemo = new WeakMap<
    StoredSchedule,
    { plannedAt: string; notBefore: string | null; ms: number }
  >();

  constructor(private readonly options: RotationSchedulerOptions) {
    this.random = options.random ?? Math.random;
    this.log = options.log ?? (() => undefined);
    this.job = new DeadlineJob({
      name: 'rotation-scheduler',
      clock: options.clock,
      nextDeadline: () => this.nextDeadline(),
      run: (context) => this.runDue(context),
      log: this.log,
    });
  }

  /**
   * Starts the job. A rotation found in flight was cut off by a crash or a quit: its slot counts as
   * done, recorded as failed with an outcome nobody knows (never sent again for that slot).
   */
  async start(): Promise<void> {
    if (this.started) return;
    this.started = true;
    const cutOff = this.options.state.get().schedules.filter((s) => s.inFlight !== null);
    const now = new Date(this.options.clock.now());
    if (cutOff.length > 0) {
      await this.options.state.update((draft) => {
        for (const schedule of draft.schedules) {
          if (!schedule.inFlight) continue;
          addRun(schedule, {
            at: schedule.inFlight.at,
            trigger: schedule.inFlight.trigger,
            result: 'failed',
            previousIp: null,
            newIp: null,
            error: 'The app stopped during this rotation; the IP history shows whether it happened.',
          });
          schedule.anchorAt = schedule.inFlight.slot;
          schedule.jitterDraw = this.random();
          schedule.inFlight = null;
          this.replan(schedule, now);
        }
      });
    }
    this.job.start('start');
  }

  /** Stops the job and waits for rotations under way to be recorded. */
  async stop(): Promise<void> {
    this.started = false;
    await this.job.stop('stop');
    await this.settled();
  }

  /** The job's state: `waiting` or `idle` between runs (tests and benchmarks wait for those). */
  get jobState(): DeadlineJob['state'] {
    return this.job.state;
  }

  /** Rotations the scheduler started that have not settled yet. */
  get rotationsUnderWay(): number {
    return this.inFlight.size;
  }

  /** Resolves once no rotation started by the scheduler is under way (tests, benchmarks, quit). */
  async settled(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight.values()]);
  }

  /** The machine woke up or came back online: plans are read again (one catch-up run, not a burst). */
  wake(reason: string): void {
    this.job.trigger(reason);
  }

  /**
   * A rotation of this port made elsewhere (tray, button) started a cooldown: no scheduled run
   * before it ends.
   */
  async noteCooldown(profileId: string, portId: string, nextRotationAvailableAt: string): Promise<void> {
    const schedule = this.find(this.options.state.get(), profileId, portId);
    if (!schedule || (schedule.notBefore !== null && schedule.notBefore >= nextRotationAvailableAt)) return;
    await this.options.state.update((draft) => {
      const target = this.find(draft, profileId, portId);
      if (target) target.notBefore = nextRotationAvailableAt;
    });
    this.changed(profileId);
  }

  // ---- calls ------------------------------------------------------------------------------------

  async set(profileId: string, input: ParsedCallInput<'schedules:set'>): Promise<SchedulesView> {
    const nowDate = new Date(this.options.clock.now());
    const now = nowDate.toISOString();
    await this.options.state.update((draft) => {
      input.portIds.forEach((portId, index) => {
        const existing = this.find(draft, profileId, portId);
        const schedule: StoredSchedule = {
          profileId,
          portId,
          cadence: input.cadence,
          jitterSeconds: input.jitterSeconds,
          staggerSeconds: input.portIds.length > 1 ? input.staggerSeconds : 0,
          offsetSeconds: index * input.staggerSeconds,
          anchorAt: now,
          consecutiveFailures: 0,
          // The port's cooldown is a fact about the port, not the schedule: it stays.
          notBefore: existing?.notBefore ?? null,
          jitterDraw: this.random(),
          planned: null,
          inFlight: existing?.inFlight ?? null,
          runs: existing?.runs ?? [],
        };
        this.replan(schedule, nowDate);
        if (existing) draft.schedules[draft.schedules.indexOf(existing)] = schedule;
        else draft.schedules.push(schedule);
      });
    });
    this.job.trigger('schedule set');
    return this.changed(profileId);
  }

  async remove(profileId: string, portIds: string[]): Promise<SchedulesView> {
    const removed = new Set(portIds);
    await this.options.state.update((draft) => {
      draft.schedules = draft.schedules.filter((s) => s.profileId !== profileId || !removed.has(s.portId));
    });
    this.job.trigger('schedule removed');
    return this.changed(profileId);
  }

  /** Pauses or resumes every schedule of every profile. */
  async pause(paused: boolean): Promise<SchedulesView> {
    await this.options.state.update((draft) => {
      draft.paused = paused;
    });
    this.job.trigger(paused ? 'paused' : 'resumed');
    const profiles = new Set(this.options.state.get().schedules.map((s) => s.profileId));
    const active = this.options.activeProfileId();
    for (const profileId of profiles) if (profileId !== active) this.changed(profileId);
    return active === null ? this.view('') : this.changed(active);
  }

  get paused(): boolean {
    return this.options.state.get().paused;
  }

  runs(profileId: string, portId: string): ScheduleRun[] {
    return [...(this.find(this.options.state.get(), profileId, portId)?.runs ?? [])];
  }

  view(profileId: string): SchedulesView {
    const state = this.options.state.get();
    const now = new Date(this.options.clock.now());
    return {
      profileId,
      paused: state.paused,
      schedules: state.schedules
        .filter((s) => s.profileId === profileId)
        .map((s) => this.toPortSchedule(s, state.paused, now)),
    };
  }

  /** When the port's next scheduled run is (for the list and the tray); null without one. */
  nextRunAt(profileId: string, portId: string): string | null {
    const state = this.options.state.get();
    const schedule = this.find(state, profileId, portId);
    if (!schedule || state.paused) return null;
    return this.shownRunAt(schedule, new Date(this.options.clock.now()));
  }

  // ---- the job ----------------------------------------------------------------------------------

  private nextDeadline(): number | null {
    const state = this.options.state.get();
    if (state.paused) return null;
    const now = new Date(this.options.clock.now());
    let earliest: number | null = null;
    for (const schedule of state.schedules) {
      if (this.inFlight.has(keyOf(schedule.profileId, schedule.portId))) continue;
      const at = this.dueRun(schedule, now)?.at.getTime();
      if (at !== undefined && (earliest === null || at < earliest)) earliest = at;
    }
    return earliest;
  }

  /** Starts every due rotation without waiting for it: one slow modem must not hold up the others. */
  private runDue(context: DeadlineRunContext): Promise<void> {
    const state = this.options.state.get();
    if (state.paused) return Promise.resolve();
    const now = new Date(context.now);
    for (const schedule of state.schedules) {
      const key = keyOf(schedule.profileId, schedule.portId);
      if (this.inFlight.has(key)) continue;
      const due = this.dueRun(schedule, now);
      if (!due || due.at.getTime() > context.now) continue;
      const task = this.runOne(schedule, due, now)
        .catch((error: unknown) => {
          this.log(`[rotation-scheduler] run of a port failed to record: ${String(error)}`);
        })
        .finally(() => {
          this.inFlight.delete(key);
          // Announced only now: while it was in flight the view shows no next run for the port.
          this.changed(schedule.profileId);
          this.job.trigger('run settled');
        });
      this.inFlight.set(key, task);
    }
    return Promise.resolve();
  }

  private async runOne(schedule: StoredSchedule, due: DueRun, now: Date): Promise<void> {
    const { profileId, portId } = schedule;
    const { trigger } = due;
    const at = now.toISOString();
    // The intent first: a crash during the rotation must not make the next start rotate this slot again.
    await this.options.state.update((draft) => {
      const target = this.find(draft, profileId, portId);
      if (target) target.inFlight = { slot: due.slot.toISOString(), at, trigger };
    });
    let run: ScheduleRun;
    let notBefore: string | null = null;
    let failed = false;
    let profileGone = false;
    try {
      const receipt = await this.options.rotate.rotate(profileId, portId, 'schedule');
      run = {
        at,
        trigger,
        result: receipt.sameIp ? 'same-ip' : 'new-ip',
        previousIp: receipt.previousIp,
        newIp: receipt.ip,
        error: null,
      };
      notBefore = receipt.nextRotationAvailableAt;
    } catch (error) {
      failed = true;
      profileGone = (error as { code?: unknown } | null)?.code === 'profile_not_found';
      const result = resultOfError(error);
      run = { at, trigger, result, previousIp: null, newIp: null, error: messageOf(error) };
      const retryAfterMs = error instanceof ApiError ? error.retryAfterMs : null;
      if (retryAfterMs !== null) notBefore = new Date(this.options.clock.now() + retryAfterMs).toISOString();
    }
    if (failed && profileGone) {
      // The profile was deleted: its schedules go with it rather than failing forever.
      await this.options.state.update((draft) => {
        draft.schedules = draft.schedules.filter((s) => s.profileId !== profileId);
      });
      this.log('[rotation-scheduler] a profile was deleted; its schedules were removed');
      this.changed(profileId);
      return;
    }
    await this.options.state.update((draft) => {
      const target = this.find(draft, profileId, portId);
      if (!target) return; // removed while it ran: its log goes with it
      target.inFlight = null;
      addRun(target, run);
      if (notBefore !== null) target.notBefore = notBefore;
      target.jitterDraw = this.random();
      // A failed slot is the anchor too: the retry stands for it (backoff grows, never past the
      // next slot), so a schedule keeps firing after any number of failures.
      target.anchorAt = due.slot.toISOString();
      target.consecutiveFailures = failed ? target.consecutiveFailures + 1 : 0;
      this.replan(target, new Date(this.options.clock.now()));
    });
    this.options.onRun?.(profileId, portId, run);
  }

  /**
   * Plans the next run right after an outcome (or a change), so a backoff counts from the
   * failure and a restart finds the same plan.
   */
  private replan(schedule: StoredSchedule, now: Date): void {
    const plan = planNextRun(this.timing(schedule), this.runState(schedule), now, schedule.jitterDraw);
    schedule.planned = plan
      ? { at: plan.at.toISOString(), slot: plan.slot.toISOString(), retry: plan.retry }
      : null;
  }

  /**
   * The stored plan as it stands at `now`: held back by a cooldown learnt since; a plan long past
   * (sleep, pause, app closed) is one catch-up run now, standing for the latest missed slot.
   */
  private dueRun(schedule: StoredSchedule, now: Date): DueRun | null {
    const { planned } = schedule;
    if (!planned) return null;
    let at = new Date(this.plannedAtMs(schedule, planned.at));
    let slot = new Date(planned.slot);
    let trigger: ScheduleRunTrigger = planned.retry ? 'retry' : 'schedule';
    if (now.getTime() - at.getTime() > LATE_TOLERANCE_MS) {
      const regular = planNextRun(
        this.timing(schedule),
        { anchorAt: schedule.anchorAt, consecutiveFailures: 0, notBefore: null },
        now,
        schedule.jitterDraw,
      );
      if (regular?.caughtUp && regular.slot > slot) slot = regular.slot;
      at = now;
      trigger = 'catch-up';
    }
    return { at, slot, trigger };
  }

  /**
   * The planned time held back by the cooldown, in epoch ms. Read for every schedule on every
   * turn of the job and every view, so it is parsed once per plan, not each time.
   */
  private plannedAtMs(schedule: StoredSchedule, plannedAt: string): number {
    const memo = this.plannedAtMemo.get(schedule);
    if (memo && memo.plannedAt === plannedAt && memo.notBefore === schedule.notBefore) return memo.ms;
    const notBefore = schedule.notBefore === null ? -Infinity : Date.parse(schedule.notBefore);
    const ms = Math.max(Date.parse(plannedAt), notBefore);
    this.plannedAtMemo.set(schedule, { plannedAt, notBefore: schedule.notBefore, ms });
    return ms;
  }

  /** For the list and the tray: a run that is due shows as now. */
  private shownRunAt(schedule: StoredSchedule, now: Date): string | null {
    const due = this.dueRun(schedule, now);
    if (!due) return null;
    return new Date(Math.max(due.at.getTime(), now.getTime())).toISOString();
  }

  private timing(schedule: StoredSchedule) {
    return {
      cadence: schedule.cadence,
      jitterSeconds: schedule.jitterSeconds,
      offsetSeconds: schedule.offsetSeconds,
    };
  }

  private runState(schedule: StoredSchedule) {
    // A failure's slot is the anchor, so its next regular slot is what the planner compares with.
    return {
      anchorAt: schedule.anchorAt,
      consecutiveFailures: schedule.consecutiveFailures,
      notBefore: schedule.notBefore,
    };
  }

  private toPortSchedule(schedule: StoredSchedule, paused: boolean, now: Date): PortSchedule {
    const running = this.inFlight.has(keyOf(schedule.profileId, schedule.portId));
    return {
      profileId: schedule.profileId,
      portId: schedule.portId,
      cadence: schedule.cadence,
      jitterSeconds: schedule.jitterSeconds,
      staggerSeconds: schedule.staggerSeconds,
      offsetSeconds: schedule.offsetSeconds,
      nextRunAt: paused || running ? null : this.shownRunAt(schedule, now),
      consecutiveFailures: schedule.consecutiveFailures,
      lastRuns: schedule.runs.slice(0, SCHEDULE_RECENT_RUNS),
    };
  }

  private find(state: RotationSchedulesState, profileId: string, portId: string): StoredSchedule | undefined {
    return state.schedules.find((s) => s.profileId === profileId && s.portId === portId);
  }

  private changed(profileId: string): SchedulesView {
    const view = this.view(profileId);
    this.options.events.emit('schedules:changed', view);
    return view;
  }
}

function resultOfError(error: unknown): ScheduleRunResult {
  if (error instanceof ProxyServiceError && error.kind === 'network') return 'skipped-offline';
  if (error instanceof ApiError && error.status === 429) return 'rate-limited';
  return 'failed';
}

/** Errors of the API client and the core are written for the user and carry no secret. */
function messageOf(error: unknown): string {
  if (error instanceof ProxyServiceError || error instanceof AppError) return error.message;
  return 'The rotation failed unexpectedly.';
}
