import { describe, expect, it } from 'vitest';
import { isAbortError } from '../../../src-main/core/runtime/clock';
import { FakeClock } from '../../../src-main/core/runtime/fake-clock';

const START = Date.UTC(2026, 0, 1);

describe('FakeClock', () => {
  it('starts at a fixed time and moves only when told to', async () => {
    const clock = new FakeClock();
    expect(clock.now()).toBe(START);
    await clock.advance(1500);
    expect(clock.now()).toBe(START + 1500);
    await clock.runUntil(new Date(START + 10_000));
    expect(clock.now()).toBe(START + 10_000);
    await expect(clock.runUntil(START)).rejects.toThrow(RangeError);
  });

  it('wakes sleepers in due order, with now() at each one due time, ties in call order', async () => {
    const clock = new FakeClock();
    const woke: string[] = [];
    const sleepThenNote = (name: string, ms: number): void => {
      void clock.sleep(ms).then(() => woke.push(`${name}@${clock.now() - START}`));
    };
    sleepThenNote('c', 300);
    sleepThenNote('a', 100);
    sleepThenNote('b1', 200);
    sleepThenNote('b2', 200);
    await clock.advance(250);
    expect(woke).toEqual(['a@100', 'b1@200', 'b2@200']);
    expect(clock.now()).toBe(START + 250);
    await clock.advance(50);
    expect(woke).toEqual(['a@100', 'b1@200', 'b2@200', 'c@300']);
  });

  it('lets a woken chain of awaits run to its next sleep before waking the next sleeper', async () => {
    const clock = new FakeClock();
    const steps: string[] = [];
    const job = async (): Promise<void> => {
      await clock.sleep(100);
      steps.push(`job woke @${clock.now() - START}`);
      await Promise.resolve();
      await new Promise((resolve) => setImmediate(resolve));
      steps.push('job did its work');
      await clock.sleep(100);
      steps.push(`job woke again @${clock.now() - START}`);
    };
    void job();
    void clock.sleep(150).then(() => steps.push(`other woke @${clock.now() - START}`));
    await clock.advance(1000);
    expect(steps).toEqual(['job woke @100', 'job did its work', 'other woke @150', 'job woke again @200']);
    expect(clock.sleepDurations).toEqual([100, 150, 100]);
  });

  it('records every sleep with its outcome, and rejects an aborted one with an AbortError', async () => {
    const clock = new FakeClock();
    const controller = new AbortController();
    const cancelled = clock.sleep(500, controller.signal).catch((error: unknown) => error);
    const kept = clock.sleep(200);
    controller.abort();
    expect(isAbortError(await cancelled)).toBe(true);
    await clock.advance(600);
    await kept;
    expect(clock.sleeps).toEqual([
      { id: 1, from: START, ms: 500, until: START + 500, outcome: 'aborted' },
      { id: 2, from: START, ms: 200, until: START + 200, outcome: 'woken' },
    ]);
    expect(clock.pending).toEqual([]);
    await expect(clock.sleep(1, AbortSignal.abort())).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('resolves whenSleeping / whenSleepCalls on the next sleep call, and runNext wakes the earliest', async () => {
    const clock = new FakeClock();
    let seen = false;
    const watching = clock.whenSleeping().then(() => (seen = true));
    await clock.settle();
    expect(seen).toBe(false);
    void clock.sleep(40);
    await watching;
    await clock.whenSleeping();
    const third = clock.whenSleepCalls(2);
    void clock.sleep(10);
    await third;
    expect(await clock.runNext()).toBe(true);
    expect(clock.now()).toBe(START + 10);
    expect(clock.pending.map((sleep) => sleep.ms)).toEqual([40]);
    expect(await clock.runNext()).toBe(true);
    expect(await clock.runNext()).toBe(false);
  });
});
