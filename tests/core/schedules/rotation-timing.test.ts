import { describe, expect, it } from 'vitest';
import { cronError } from '../../../src-shared/rotation-rules';
import {
  backoffMs,
  nextSlot,
  planNextRun,
  type RotationRunState,
  type RotationTiming,
} from '../../../src-main/core/schedules/rotation-timing';

const T0 = '2026-06-01T00:00:00.000Z';
const at = (seconds: number) => new Date(Date.parse(T0) + seconds * 1000);
const every = (seconds: number, extra: Partial<RotationTiming> = {}): RotationTiming => ({
  cadence: { kind: 'every', seconds },
  jitterSeconds: 0,
  offsetSeconds: 0,
  ...extra,
});
const fresh = (extra: Partial<RotationRunState> = {}): RotationRunState => ({
  anchorAt: T0,
  consecutiveFailures: 0,
  notBefore: null,
  ...extra,
});

describe('planNextRun', () => {
  it('runs every N seconds from the anchor', () => {
    const plan = planNextRun(every(300), fresh(), at(10), 0);
    expect(plan).toEqual({ at: at(300), slot: at(300), caughtUp: false, retry: false });
  });

  it('jitter delays within its bounds and never runs early', () => {
    const timing = every(300, { jitterSeconds: 60 });
    const draws = [0, 0.25, 0.5, 0.999];
    const times = draws.map(
      (r) => (planNextRun(timing, fresh(), at(0), r)?.at.getTime() ?? 0) - at(300).getTime(),
    );
    expect(times).toEqual([0, 15_000, 30_000, 59_940]);
    for (const delay of times) expect(delay).toBeGreaterThanOrEqual(0);
  });

  it('a group offset shifts the run but not the slot', () => {
    const plan = planNextRun(every(300, { offsetSeconds: 40 }), fresh(), at(0), 0);
    expect(plan?.at).toEqual(at(340));
    expect(plan?.slot).toEqual(at(300));
  });

  it('after a long pause, one run now stands for every missed slot (no burst)', () => {
    const plan = planNextRun(every(60), fresh(), at(3_600 + 30), 0);
    expect(plan).toEqual({ at: at(3_630), slot: at(3_600), caughtUp: true, retry: false });
    // The run after it follows the rhythm from the latest missed slot.
    const following = planNextRun(
      every(60),
      fresh({ anchorAt: plan?.slot.toISOString() ?? '' }),
      at(3_631),
      0,
    );
    expect(following?.at).toEqual(at(3_660));
  });

  it('never inside the cooldown or a Retry-After', () => {
    const plan = planNextRun(every(30), fresh({ notBefore: at(45).toISOString() }), at(1), 0);
    expect(plan?.at).toEqual(at(45));
  });

  it('backs off 2^n after failures, capped, and never past the next regular slot', () => {
    expect([1, 2, 3, 4, 5, 6, 10].map(backoffMs)).toEqual([
      30_000, 60_000, 120_000, 240_000, 480_000, 900_000, 900_000,
    ]);
    // Every 10 minutes; the run at 600 failed (anchor 600) and the retry comes 30 s later.
    const failedOnce = planNextRun(
      every(600),
      fresh({ anchorAt: at(600).toISOString(), consecutiveFailures: 1 }),
      at(601),
      0,
    );
    expect(failedOnce).toEqual({ at: at(631), slot: at(600), caughtUp: false, retry: true });
    // After many failures the backoff (15 min) is longer than the interval: the regular slot wins.
    const failedOften = planNextRun(
      every(600),
      fresh({ anchorAt: at(600).toISOString(), consecutiveFailures: 10 }),
      at(601),
      0,
    );
    expect(failedOften).toEqual({ at: at(1_200), slot: at(1_200), caughtUp: false, retry: false });
  });

  it('keeps firing after 10 consecutive failures: runs stay at most one interval apart', () => {
    let state = fresh();
    let now = at(0);
    const runs: number[] = [];
    for (let attempt = 0; attempt < 30; attempt += 1) {
      const plan = planNextRun(every(120), state, now, 0);
      if (!plan) throw new Error('no plan');
      runs.push((plan.at.getTime() - Date.parse(T0)) / 1000);
      now = plan.at;
      state = {
        anchorAt: plan.slot.toISOString(),
        consecutiveFailures: state.consecutiveFailures + 1,
        notBefore: null,
      };
    }
    const gaps = runs.slice(1).map((value, index) => value - (runs[index] ?? 0));
    expect(Math.max(...gaps)).toBeLessThanOrEqual(120);
    expect(runs.length).toBe(30);
  });

  it('follows a cron expression in the given time zone', () => {
    const timing: RotationTiming = {
      cadence: { kind: 'cron', expression: '0 */15 * * * *', timezone: 'Etc/UTC' },
      jitterSeconds: 0,
      offsetSeconds: 0,
    };
    expect(planNextRun(timing, fresh(), at(1), 0)?.at).toEqual(at(900));
    expect(nextSlot(timing.cadence, at(900))).toEqual(at(1_800));
  });
});

describe('cronError', () => {
  it('accepts 5 and 6 field expressions', () => {
    expect(cronError('*/5 * * * *')).toBeNull();
    expect(cronError('30 */5 * * * *')).toBeNull();
  });

  it('refuses garbage, wrong field counts and rotations closer than 30 s', () => {
    expect(cronError('every five minutes')).toMatch(/5 fields/);
    expect(cronError('* * * *')).toMatch(/5 fields/);
    expect(cronError('99 * * * *')).toMatch(/Not a valid cron expression/);
    expect(cronError('*/10 * * * * *')).toMatch(/at least 30 seconds/);
  });
});
