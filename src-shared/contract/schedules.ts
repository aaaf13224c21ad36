import { z } from 'zod';
import {
  cronError,
  MAX_EVERY_SECONDS,
  MAX_JITTER_SECONDS,
  MIN_EVERY_SECONDS,
  type RotationCadence,
} from '../rotation-rules';
import { call, type DomainCalls, type DomainEvents, event } from './define';
import { noInput, resourceId } from './shared-inputs';

/** How many ports one `schedules:set` / `schedules:remove` may name (a whole account's worth). */
const SCHEDULE_PORTS_MAX = 1000;
/** Runs kept per port (oldest dropped first); `schedules:runs` answers all of them. */
export const SCHEDULE_RUN_LOG_MAX = 50;
/** Runs of each schedule carried by `schedules:list` and `schedules:changed` (newest first). */
export const SCHEDULE_RECENT_RUNS = 5;
const SCHEDULE_PORT_ID_MAX = 128;
const SCHEDULE_CRON_MAX = 200;
const SCHEDULE_TIMEZONE_MAX = 64;
export const MAX_STAGGER_SECONDS = 3_600;

export type ScheduleCadence = RotationCadence;

/** Why a scheduled run happened: its regular slot, one run standing for missed slots, or a retry after a failure. */
export type ScheduleRunTrigger = 'schedule' | 'catch-up' | 'retry';

/**
 * What one scheduled run did. `skipped-offline`: the service could not be reached, nothing was
 * sent; `rate-limited`: the service refused (429) and the next run waits out its `Retry-After`.
 */
export type ScheduleRunResult = 'new-ip' | 'same-ip' | 'failed' | 'rate-limited' | 'skipped-offline';

export interface ScheduleRun {
  /** ISO 8601 (UTC), when the run started. */
  at: string;
  trigger: ScheduleRunTrigger;
  result: ScheduleRunResult;
  previousIp: string | null;
  newIp: string | null;
  /** A sentence for the user; null on success. Never a key or a rotation link. */
  error: string | null;
}

/** One port's schedule as the renderer and the tray see it. */
export interface PortSchedule {
  profileId: string;
  portId: string;
  cadence: ScheduleCadence;
  jitterSeconds: number;
  /** The group's stagger when the port was set as part of a group (0 alone). */
  staggerSeconds: number;
  /** This port's fixed delay within its group: index × stagger. */
  offsetSeconds: number;
  /** ISO 8601; null while schedules are paused or the cadence has no further run. */
  nextRunAt: string | null;
  consecutiveFailures: number;
  /** Newest first, at most `SCHEDULE_RECENT_RUNS`. */
  lastRuns: ScheduleRun[];
}

export interface SchedulesView {
  /** The profile the schedules belong to (the active one for calls; any profile for events). */
  profileId: string;
  /** "Pause schedules": applies to every profile. */
  paused: boolean;
  schedules: PortSchedule[];
}

export type SchedulesChanged = SchedulesView;

const portId = resourceId('Choose a port', SCHEDULE_PORT_ID_MAX);
const portIds = z
  .array(portId)
  .min(1, 'Choose at least one port')
  .max(SCHEDULE_PORTS_MAX, `At most ${SCHEDULE_PORTS_MAX} ports at once`)
  .refine((ids) => new Set(ids).size === ids.length, 'A port is listed twice');

const cadence = z.discriminatedUnion('kind', [
  z.strictObject({
    kind: z.literal('every'),
    seconds: z
      .int()
      .min(MIN_EVERY_SECONDS, `At least every ${MIN_EVERY_SECONDS} seconds (the service's limit)`)
      .max(MAX_EVERY_SECONDS, 'At most every 7 days'),
  }),
  z
    .strictObject({
      kind: z.literal('cron'),
      expression: z.string().trim().min(1, 'Enter a cron expression').max(SCHEDULE_CRON_MAX),
      timezone: z.string().trim().min(1).max(SCHEDULE_TIMEZONE_MAX).optional(),
    })
    // Checked in main with the same parser the scheduler runs on, so what is accepted also runs.
    .superRefine((value, context) => {
      const expressionError = cronError(value.expression);
      if (expressionError) {
        context.addIssue({ code: 'custom', path: ['expression'], message: expressionError });
        return;
      }
      if (value.timezone !== undefined && cronError(value.expression, value.timezone)) {
        context.addIssue({ code: 'custom', path: ['timezone'], message: 'Not a known time zone' });
      }
    }),
]);

const seconds = (max: number, what: string) =>
  z.int().min(0, `${what} is 0 or more seconds`).max(max, `${what} is at most ${max} seconds`);

export const schedulesCalls = {
  'schedules:list': call<SchedulesView>('read')(noInput),
  /**
   * Sets (or replaces) the schedule of each port; with several ports, port i of the list runs
   * i × `staggerSeconds` after the slot, so a group never rotates all at once.
   */
  'schedules:set': call<SchedulesView>('rotate')(
    z.strictObject({
      portIds,
      cadence,
      jitterSeconds: seconds(MAX_JITTER_SECONDS, 'Jitter').default(0),
      staggerSeconds: seconds(MAX_STAGGER_SECONDS, 'Stagger').default(0),
    }),
  ),
  'schedules:remove': call<SchedulesView>('rotate')(z.strictObject({ portIds })),
  /** "Pause schedules": every schedule of every profile stops (and resumes with one catch-up run, not a burst). */
  'schedules:pause': call<SchedulesView>('rotate')(z.strictObject({ paused: z.boolean() })),
  /** The port's whole run log (newest first, at most `SCHEDULE_RUN_LOG_MAX`). */
  'schedules:runs': call<ScheduleRun[]>('read')(z.strictObject({ portId })),
} as const satisfies DomainCalls<'schedules'>;

export const schedulesEvents = {
  'schedules:changed': event<SchedulesChanged>(),
} as const satisfies DomainEvents<'schedules'>;
