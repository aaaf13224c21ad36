import { abortReason, checkDelay, type Clock } from './clock';

/** One call of `sleep`, as tests assert it. */
export interface SleepRecord {
  /** 1, 2, 3... in call order. */
  readonly id: number;
  /** `now()` when `sleep` was called. */
  readonly from: number;
  readonly ms: number;
  /** When it is due: `from + max(0, ms)`. */
  readonly until: number;
  outcome: 'pending' | 'woken' | 'aborted';
}

interface Sleeper {
  record: SleepRecord;
  resolve: () => void;
}

/**
 * A clock that moves only when told to. Lives in `src-main` (not `tests/support`) so that unit
 * tests, benchmarks and a web-mode test hook can all drive background jobs with it; nothing in
 * the app imports it, so it is not in the build.
 *
 * `advance`/`runUntil` wake sleepers one at a time in due order (ties in call order), set `now()`
 * to each one's due time, and let the woken code run to its next real wait before the next one:
 * a job that wakes, awaits a promise chain and sleeps again has done all that when `advance`
 * resolves. Code that waits on real I/O (a file write) is not "settled" by a turn of the loop;
 * await `whenSleeping()` / `whenSleepCalls(n)` for that: they resolve on the job's own next
 * `sleep` call, whatever happened before it.
 */
export class FakeClock implements Clock {
  private current: number;
  private readonly sleepers: Sleeper[] = [];
  private readonly records: SleepRecord[] = [];
  private readonly callWatchers: { count: number; resolve: () => void }[] = [];

  /** Default start: 2026-01-01T00:00:00Z, a fixed time so that logs and files are reproducible. */
  constructor(start: number | Date = Date.UTC(2026, 0, 1)) {
    this.current = typeof start === 'number' ? start : start.getTime();
  }

  now(): number {
    return this.current;
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    checkDelay(ms);
    if (signal?.aborted) return Promise.reject(abortReason(signal));
    const record: SleepRecord = {
      id: this.records.length + 1,
      from: this.current,
      ms,
      until: this.current + Math.max(0, ms),
      outcome: 'pending',
    };
    this.records.push(record);
    const promise = new Promise<void>((resolve, reject) => {
      const sleeper: Sleeper = { record, resolve };
      this.sleepers.push(sleeper);
      signal?.addEventListener(
        'abort',
        () => {
          const index = this.sleepers.indexOf(sleeper);
          if (index === -1) return;
          this.sleepers.splice(index, 1);
          record.outcome = 'aborted';
          reject(abortReason(signal));
        },
        { once: true },
      );
    });
    for (const watcher of [...this.callWatchers]) {
      if (this.records.length >= watcher.count) {
        this.callWatchers.splice(this.callWatchers.indexOf(watcher), 1);
        watcher.resolve();
      }
    }
    return promise;
  }

  /** Every `sleep` call so far, in call order (a copy; outcomes as they are now). */
  get sleeps(): readonly Readonly<SleepRecord>[] {
    return this.records.map((record) => ({ ...record }));
  }

  /** The durations asked for, in call order: the usual thing to assert. */
  get sleepDurations(): number[] {
    return this.records.map((record) => record.ms);
  }

  /** Sleeps still waiting, in due order. */
  get pending(): readonly Readonly<SleepRecord>[] {
    return this.dueOrder().map((sleeper) => ({ ...sleeper.record }));
  }

  /** Moves time forward by `ms`, waking every sleeper due by then (see the class comment). */
  advance(ms: number): Promise<void> {
    if (!Number.isFinite(ms) || ms < 0) throw new RangeError(`advance needs ms >= 0, got ${ms}`);
    return this.runUntil(this.current + ms);
  }

  /** Moves time forward to `time` (never back), waking every sleeper due by then in order. */
  async runUntil(time: number | Date): Promise<void> {
    const target = typeof time === 'number' ? time : time.getTime();
    if (target < this.current) throw new RangeError('A fake clock never goes back');
    await this.settle();
    for (;;) {
      const next = this.dueOrder()[0];
      if (!next || next.record.until > target) break;
      this.sleepers.splice(this.sleepers.indexOf(next), 1);
      this.current = next.record.until;
      next.record.outcome = 'woken';
      next.resolve();
      await this.settle();
    }
    this.current = target;
    await this.settle();
  }

  /** Wakes the earliest sleeper (moving time to it); false when nobody sleeps. */
  async runNext(): Promise<boolean> {
    const next = this.dueOrder()[0];
    if (!next) return false;
    await this.runUntil(next.record.until);
    return true;
  }

  /** Resolves once somebody is sleeping (at once if somebody already is). */
  whenSleeping(): Promise<void> {
    if (this.sleepers.length > 0) return Promise.resolve();
    return this.whenSleepCalls(this.records.length + 1);
  }

  /** Resolves once `sleep` has been called `count` times in all (at once if it already has). */
  whenSleepCalls(count: number): Promise<void> {
    if (this.records.length >= count) return Promise.resolve();
    return new Promise((resolve) => this.callWatchers.push({ count, resolve }));
  }

  /**
   * Lets everything already queued run: microtasks, then one macrotask turn (which drains the
   * microtasks those queue), twice, so that a chain of awaits after a wake-up reaches its end.
   */
  async settle(): Promise<void> {
    for (let turn = 0; turn < 2; turn += 1) {
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
  }

  private dueOrder(): Sleeper[] {
    return [...this.sleepers].sort((a, b) => a.record.until - b.record.until || a.record.id - b.record.id);
  }
}
