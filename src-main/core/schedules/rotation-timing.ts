/**
 * When a scheduled rotation runs next: pure, so the scheduler, the port list ("next run") and the tray
 * all agree, and the rules are tested with plain dates.
 *
 * Rules: never inside the port's cooldown or a `Retry-After`; after a sleep or a long pause, one missed
 * run happens at once (never a burst); failures back off 2^n (capped) but never past the next regular
 * run, so a schedule keeps firing after any number of failures; jitter only ever delays a run.
 */
import { Cron } from 'croner';
import type { RotationCadence } from '../../../src-shared/rotation-rules';

const BACKOFF_BASE_MS = 30_000;
const BACKOFF_CAP_MS = 15 * 60_000;

export interface RotationTiming {
  cadence: RotationCadence;
  /** A run is delayed by a random 0..jitterSeconds. */
  jitterSeconds: number;
  /** Fixed delay of this port within a staggered group (index × stagger). */
  offsetSeconds: number;
}

export interface RotationRunState {
  /** The regular slot the last run (or the schedule's creation) belonged to; jitter and offset excluded. */
  anchorAt: string;
  consecutiveFailures: number;
  /** The port's `nextRotationAvailableAt`, or the end of a `Retry-After`. */
  notBefore: string | null;
}

/** The first regular slot strictly after `after`. */
export function nextSlot(cadence: RotationCadence, after: Date): Date | null {
  if (cadence.kind === 'every') return new Date(after.getTime() + cadence.seconds * 1000);
  const cron = new Cron(cadence.expression, {
    ...(cadence.timezone ? { timezone: cadence.timezone } : {}),
    paused: true,
  });
  return cron.nextRun(after);
}

export function backoffMs(consecutiveFailures: number): number {
  if (consecutiveFailures <= 0) return 0;
  return Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** (consecutiveFailures - 1));
}

export interface PlannedRun {
  /** When to rotate. */
  at: Date;
  /**
   * The regular slot this run stands for, stored as the next `anchorAt` once it ran. A retry after a
   * failure stands for the slot that failed, so the regular rhythm continues from there.
   */
  slot: Date;
  /** True when regular slots were missed (sleep, pause, app closed) and this run stands for them all. */
  caughtUp: boolean;
  /** True when this is a retry after a failure, earlier than the next regular slot. */
  retry: boolean;
}

/**
 * The next run after `state`, seen at `now`. `random` is in [0, 1) and decides the jitter, so a
 * caller that stores its random draw gets the same answer back after a restart.
 */
export function planNextRun(
  timing: RotationTiming,
  state: RotationRunState,
  now: Date,
  random: number,
): PlannedRun | null {
  const anchor = new Date(state.anchorAt);
  let slot = nextSlot(timing.cadence, anchor);
  if (!slot) return null;
  const extraMs = (timing.offsetSeconds + random * timing.jitterSeconds) * 1000;
  let caughtUp = false;
  if (slot.getTime() + extraMs < now.getTime()) {
    // Missed slots collapse into one run now; the following slots count from the latest missed one.
    caughtUp = true;
    for (let guard = 0; guard < 100_000; guard += 1) {
      const following = nextSlot(timing.cadence, slot);
      if (!following || following.getTime() > now.getTime()) break;
      slot = following;
    }
  }
  let at = caughtUp ? now : new Date(slot.getTime() + extraMs);
  let retry = false;
  if (state.consecutiveFailures > 0) {
    const retryAt = new Date(now.getTime() + backoffMs(state.consecutiveFailures));
    if (caughtUp || retryAt < at) {
      // Never hammer a failing port, and never wait past the next regular slot to try again.
      retry = !caughtUp;
      at = retryAt;
      if (retry) slot = anchor;
    }
  }
  if (state.notBefore !== null) {
    const notBefore = new Date(state.notBefore);
    if (notBefore > at) at = notBefore;
  }
  return { at, slot, caughtUp, retry };
}
