import { z } from 'zod';
import { SCHEDULE_RUN_LOG_MAX, type ScheduleRun } from '../../../src-shared/contract/schedules';
import { MAX_EVERY_SECONDS, MAX_JITTER_SECONDS, MIN_EVERY_SECONDS } from '../../../src-shared/rotation-rules';

/**
 * The scheduler's part of the job-state store (`state.json`, section `rotation-schedules`): what
 * must survive a crash or a restart. Times are ISO strings; nothing here is secret.
 */
export const ROTATION_SCHEDULES_SECTION = 'rotation-schedules';

const iso = z.iso.datetime({ offset: true });

const cadenceSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('every'), seconds: z.int().min(MIN_EVERY_SECONDS).max(MAX_EVERY_SECONDS) }),
  z.object({
    kind: z.literal('cron'),
    expression: z.string().min(1),
    timezone: z.string().min(1).optional(),
  }),
]);

const runSchema = z.object({
  at: iso,
  trigger: z.enum(['schedule', 'catch-up', 'retry']),
  result: z.enum(['new-ip', 'same-ip', 'failed', 'rate-limited', 'skipped-offline']),
  previousIp: z.string().nullable(),
  newIp: z.string().nullable(),
  error: z.string().nullable(),
});

const storedScheduleSchema = z.object({
  profileId: z.string().min(1),
  portId: z.string().min(1),
  cadence: cadenceSchema,
  jitterSeconds: z.int().min(0).max(MAX_JITTER_SECONDS),
  staggerSeconds: z.int().min(0),
  offsetSeconds: z.int().min(0),
  /** The regular slot the last run stood for (or the schedule's creation time). */
  anchorAt: iso,
  consecutiveFailures: z.int().min(0),
  /** The port's `nextRotationAvailableAt`, or the end of a `Retry-After`. */
  notBefore: iso.nullable(),
  /** The random draw in [0, 1) deciding the planned run's jitter: a restart plans the same run. */
  jitterDraw: z.number().min(0).max(1),
  /**
   * The next run as planned right after the last outcome (a backoff counts from the failure, not
   * from whenever it is read): when, the regular slot it stands for, and whether it is a retry.
   * Null when the cadence has no further run.
   */
  planned: z.object({ at: iso, slot: iso, retry: z.boolean() }).nullable(),
  /**
   * Written before the rotation is sent, cleared with its outcome: found set at start, the app
   * stopped mid-rotation, so that slot counts as done (never rotated twice for one slot).
   */
  inFlight: z.object({ slot: iso, at: iso, trigger: runSchema.shape.trigger }).nullable(),
  /** Newest first, at most `SCHEDULE_RUN_LOG_MAX`. */
  runs: z.array(runSchema).max(SCHEDULE_RUN_LOG_MAX),
});
export type StoredSchedule = z.infer<typeof storedScheduleSchema>;

const rotationSchedulesStateSchema = z.object({
  paused: z.boolean(),
  schedules: z.array(storedScheduleSchema),
});
export type RotationSchedulesState = z.infer<typeof rotationSchedulesStateSchema>;

export const EMPTY_ROTATION_SCHEDULES: RotationSchedulesState = { paused: false, schedules: [] };

/**
 * One feature's section of the job-state store, as the scheduler uses it (the shape of
 * `JobStateSection` in `core/storage/job-state-store.ts`): `update` resolves once the new value
 * is on disk, so an intent written with it survives a crash.
 */
export interface StateSection<T> {
  get(): T;
  update(mutate: (draft: T) => T | void): Promise<T>;
}

/** A section kept in memory: for tests, and for a process that has no job-state store. */
export class MemoryStateSection<T> implements StateSection<T> {
  private value: T;
  writes = 0;

  constructor(initial: T) {
    this.value = structuredClone(initial);
  }

  get(): T {
    return this.value;
  }

  update(mutate: (draft: T) => T | void): Promise<T> {
    const draft = structuredClone(this.value);
    const next = mutate(draft) ?? draft;
    this.value = next;
    this.writes += 1;
    return Promise.resolve(next);
  }
}

export function addRun(schedule: StoredSchedule, run: ScheduleRun): void {
  schedule.runs.unshift(run);
  if (schedule.runs.length > SCHEDULE_RUN_LOG_MAX) schedule.runs.length = SCHEDULE_RUN_LOG_MAX;
}

/** A stored section read and written asynchronously (a `JobSection` of `state.json`). */
export interface AsyncJobSection<T> {
  read(): Promise<T | undefined>;
  update(mutate: (current: T | undefined) => T): Promise<T>;
}

/**
 * The scheduler's state over an asynchronous job section: read and checked once (`load`, before
 * the scheduler starts), then kept in memory and written through on every update (resolving once
 * stored). Updates apply to the value in memory, without a copy: a whole-state copy per run was
 * most of the scheduler's cost with 100 ports (see the heap benchmark). When a write fails the
 * update rejects and memory stays ahead of the file; the next successful write stores both.
 */
export class CachedStateSection implements StateSection<RotationSchedulesState> {
  private value: RotationSchedulesState = structuredClone(EMPTY_ROTATION_SCHEDULES);
  /** Updates run one after another, each on the value the previous one left. */
  private chain: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly section: AsyncJobSection<unknown>,
    private readonly log: (line: string) => void = () => undefined,
  ) {}

  async load(): Promise<void> {
    const stored = await this.section.read();
    if (stored === undefined) return;
    const parsed = rotationSchedulesStateSchema.safeParse(stored);
    if (parsed.success) this.value = parsed.data;
    else this.log('[rotation-scheduler] the stored schedules were damaged; starting without them');
  }

  get(): RotationSchedulesState {
    return this.value;
  }

  update(
    mutate: (draft: RotationSchedulesState) => RotationSchedulesState | void,
  ): Promise<RotationSchedulesState> {
    const result = this.chain.then(async () => {
      this.value = mutate(this.value) ?? this.value;
      const stored = this.value;
      await this.section.update(() => stored);
      return stored;
    });
    this.chain = result.catch(() => undefined);
    return result;
  }
}
