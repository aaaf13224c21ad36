import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createSystemClock, isAbortError, MAX_TIMER_DELAY_MS } from '../../../src-main/core/runtime/clock';

const DAY = 24 * 60 * 60 * 1000;

describe('createSystemClock', () => {
  let delays: number[];

  beforeEach(() => {
    vi.useFakeTimers({ now: Date.UTC(2026, 0, 1) });
    delays = [];
    const realSetTimeout = globalThis.setTimeout;
    const recordingSetTimeout = (handler: () => void, delay?: number): ReturnType<typeof setTimeout> => {
      delays.push(delay ?? 0);
      return realSetTimeout(handler, delay);
    };
    vi.spyOn(globalThis, 'setTimeout').mockImplementation(recordingSetTimeout);
  });

  afterEach(() => {
    vi.restoreAllMocks();
    vi.useRealTimers();
  });

  it('reads the wall clock', () => {
    expect(createSystemClock().now()).toBe(Date.UTC(2026, 0, 1));
  });

  it('sleeps beyond 24.8 days in timers no longer than setTimeout honours, ending exactly on time', async () => {
    const clock = createSystemClock({ wallCheckMs: Number.MAX_SAFE_INTEGER });
    let done = false;
    void clock.sleep(30 * DAY).then(() => (done = true));
    await vi.advanceTimersByTimeAsync(30 * DAY - 1);
    expect(done).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(done).toBe(true);
    expect(Math.max(...delays)).toBe(MAX_TIMER_DELAY_MS);
    expect(delays).toEqual([MAX_TIMER_DELAY_MS, 30 * DAY - MAX_TIMER_DELAY_MS]);
  });

  it('looks at the wall clock once a minute, so a suspended machine wakes at most a minute late', async () => {
    const clock = createSystemClock();
    let done = false;
    void clock.sleep(2 * 60 * 60 * 1000).then(() => (done = true));
    // A suspend: the wall clock jumps three hours while timers (monotonic) do not move.
    vi.setSystemTime(Date.now() + 3 * 60 * 60 * 1000);
    await vi.advanceTimersByTimeAsync(59_999);
    expect(done).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(done).toBe(true);
    expect(delays.every((delay) => delay <= 60_000)).toBe(true);
  });

  it('cancels a sleep through its signal, rejecting with an AbortError and leaving no timer', async () => {
    const clock = createSystemClock();
    const controller = new AbortController();
    const sleeping = clock.sleep(10 * DAY, controller.signal);
    await vi.advanceTimersByTimeAsync(1000);
    controller.abort();
    const error = await sleeping.catch((caught: unknown) => caught);
    expect(isAbortError(error)).toBe(true);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('rejects with the reason given to abort (an AbortError for a non-Error reason), and at once for a signal already aborted', async () => {
    const clock = createSystemClock();
    await expect(clock.sleep(10, AbortSignal.abort('edited'))).rejects.toMatchObject({
      name: 'AbortError',
      message: 'edited',
    });
    const controller = new AbortController();
    const sleeping = clock.sleep(1000, controller.signal);
    controller.abort(new Error('stopping'));
    await expect(sleeping).rejects.toThrow('stopping');
  });

  it('yields to the event loop even for a zero or negative sleep, and refuses NaN', async () => {
    const clock = createSystemClock();
    let done = false;
    void clock.sleep(-5).then(() => (done = true));
    await Promise.resolve();
    expect(done).toBe(false);
    await vi.advanceTimersByTimeAsync(0);
    expect(done).toBe(true);
    expect(() => clock.sleep(Number.NaN)).toThrow(RangeError);
  });
});
