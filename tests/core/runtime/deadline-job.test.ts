import { afterEach, describe, expect, it, vi } from 'vitest';
import { createSystemClock, MAX_TIMER_DELAY_MS } from '../../../src-main/core/runtime/clock';
import { DeadlineJob, type DeadlineRunContext } from '../../../src-main/core/runtime/deadline-job';
import { FakeClock } from '../../../src-main/core/runtime/fake-clock';

const START = Date.UTC(2026, 0, 1);
const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;

/** What the job did, in order: reads of the store, sleeps (with their length) and runs. */
type Event = string;

/** A stand-in for a feature's stored schedule: the job only ever learns the deadline from here. */
interface Store {
  deadline: number | null;
}

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((done) => (resolve = done));
  return { promise, resolve };
}

function setup(options: {
  store: Store;
  clock?: FakeClock;
  work?: (context: DeadlineRunContext, store: Store, clock: FakeClock) => Promise<void> | void;
  retryAfterErrorMs?: number;
}) {
  const clock = options.clock ?? new FakeClock(START);
  const events: Event[] = [];
  const logs: string[] = [];
  const at = (): string => `${(clock.now() - START) / HOUR}h`;
  const recordingClock = {
    now: () => clock.now(),
    sleep: (ms: number, signal?: AbortSignal) => {
      events.push(`sleep ${ms / HOUR}h @${at()}`);
      return clock.sleep(ms, signal);
    },
  };
  const job = new DeadlineJob({
    name: 'test-job',
    clock: recordingClock,
    nextDeadline: () => {
      events.push(`read @${at()}`);
      return options.store.deadline;
    },
    run: async (context) => {
      events.push(`run ${context.reason} @${at()}`);
      await options.work?.(context, options.store, clock);
    },
    log: (line) => logs.push(line),
    retryAfterErrorMs: options.retryAfterErrorMs ?? HOUR / 2,
  });
  const take = (): Event[] => events.splice(0);
  return { clock, job, events, take, logs };
}

/** Work that does its job once and schedules the next one an hour later. */
const everyHour = (_context: DeadlineRunContext, store: Store, clock: FakeClock): void => {
  store.deadline = clock.now() + HOUR;
};

describe('DeadlineJob', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('waits for the stored deadline, runs, then asks the store again', async () => {
    const store: Store = { deadline: START + 2 * HOUR };
    const { clock, job, take } = setup({ store, work: everyHour });
    job.start();
    await clock.settle();
    expect(take()).toEqual(['read @0h', 'sleep 2h @0h']);
    expect(job.state).toBe('waiting');
    await clock.advance(4 * HOUR);
    expect(take()).toEqual([
      'read @2h',
      'run deadline @2h',
      'read @2h',
      'sleep 1h @2h',
      'read @3h',
      'run deadline @3h',
      'read @3h',
      'sleep 1h @3h',
      'read @4h',
      'run deadline @4h',
      'read @4h',
      'sleep 1h @4h',
    ]);
    await job.stop();
  });

  it('stays idle without a deadline until a trigger, then reads the edited schedule', async () => {
    const store: Store = { deadline: null };
    const { clock, job, take } = setup({
      store,
      work: (_context, schedule) => {
        schedule.deadline = null;
      },
    });
    job.start();
    await clock.advance(5 * HOUR);
    expect(take()).toEqual(['read @0h']);
    expect(job.state).toBe('idle');
    store.deadline = START + 6 * HOUR;
    job.trigger('schedule edited');
    await clock.settle();
    expect(take()).toEqual(['read @5h', 'sleep 1h @5h']);
    await clock.advance(2 * HOUR);
    expect(take()).toEqual(['read @6h', 'run deadline @6h', 'read @6h']);
    expect(job.state).toBe('idle');
    await job.stop();
  });

  it('runs at once, without sleeping, when the stored deadline has already passed', async () => {
    const store: Store = { deadline: START - 3 * DAY };
    const { clock, job, take } = setup({ store, work: everyHour });
    job.start();
    await clock.settle();
    expect(take()).toEqual(['read @0h', 'run deadline @0h', 'read @0h', 'sleep 1h @0h']);
    await job.stop();
  });

  it('waits out a deadline more than 24.8 days away in one sleep and runs on it', async () => {
    const store: Store = { deadline: START + 30 * DAY };
    const { clock, job, take } = setup({ store, work: (_c, s) => void (s.deadline = null) });
    job.start();
    await clock.settle();
    expect(take()).toEqual(['read @0h', `sleep ${30 * 24}h @0h`]);
    await clock.advance(30 * DAY - 1);
    expect(take()).toEqual([]);
    await clock.advance(1);
    expect(take()).toEqual([`read @${30 * 24}h`, `run deadline @${30 * 24}h`, `read @${30 * 24}h`]);
    await job.stop();
  });

  it('runs on a 40-day deadline exactly, with the real system clock under fake timers', async () => {
    vi.useFakeTimers({ now: START });
    const runs: number[] = [];
    const store: Store = { deadline: START + 40 * DAY };
    const job = new DeadlineJob({
      name: 'long',
      // One timer per 24.8 days rather than one a minute: the same code path, fewer steps.
      clock: createSystemClock({ wallCheckMs: MAX_TIMER_DELAY_MS }),
      nextDeadline: () => store.deadline,
      run: () => {
        runs.push(Date.now());
        store.deadline = null;
        return Promise.resolve();
      },
      log: () => undefined,
    });
    job.start();
    await vi.advanceTimersByTimeAsync(40 * DAY - 1);
    expect(runs).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(runs).toEqual([START + 40 * DAY]);
    await job.stop();
    expect(vi.getTimerCount()).toBe(0);
  });

  it('resumes from storage after a restart: a new job waits for what is left of the stored deadline', async () => {
    const clock = new FakeClock(START);
    const store: Store = { deadline: START + 5 * HOUR };
    const first = setup({ store, clock, work: everyHour });
    first.job.start();
    await clock.advance(2 * HOUR);
    await first.job.stop('app quits');
    expect(first.take()).toEqual(['read @0h', 'sleep 5h @0h']);
    expect(clock.sleeps.at(-1)?.outcome).toBe('aborted');

    const second = setup({ store, clock, work: everyHour });
    second.job.start('app started');
    await clock.advance(3 * HOUR);
    expect(second.take()).toEqual([
      'read @2h',
      'sleep 3h @2h',
      'read @5h',
      'run deadline @5h',
      'read @5h',
      'sleep 1h @5h',
    ]);
    expect(first.events).toEqual([]);
    await second.job.stop();
  });

  it('stop cancels the wait: nothing runs afterwards and no sleeper is left', async () => {
    const store: Store = { deadline: START + HOUR };
    const { clock, job, take, logs } = setup({ store, work: everyHour });
    job.start();
    await clock.settle();
    await job.stop('user quit');
    expect(job.state).toBe('stopped');
    expect(clock.pending).toEqual([]);
    await clock.advance(10 * HOUR);
    expect(take()).toEqual(['read @0h', 'sleep 1h @0h']);
    expect(logs).toEqual(['[test-job] start (start)', '[test-job] stop (user quit)']);
    job.trigger('ignored while stopped');
    await clock.settle();
    expect(take()).toEqual([]);
  });

  it('stop during a run aborts its signal and resolves only after the run has finished', async () => {
    const store: Store = { deadline: START };
    const release = deferred();
    let signal: AbortSignal | undefined;
    let finished = false;
    const { clock, job, take } = setup({
      store,
      work: async (context, schedule) => {
        signal = context.signal;
        await release.promise;
        schedule.deadline = null;
        finished = true;
      },
    });
    job.start();
    await clock.settle();
    expect(job.state).toBe('running');
    let stopped = false;
    const stopping = job.stop().then(() => (stopped = true));
    await clock.settle();
    expect(signal?.aborted).toBe(true);
    expect(stopped).toBe(false);
    release.resolve();
    await stopping;
    expect(finished).toBe(true);
    expect(take()).toEqual(['read @0h', 'run deadline @0h']);
  });

  it('a trigger during a wait ends it and waits for the edited deadline instead', async () => {
    const store: Store = { deadline: START + 10 * HOUR };
    const { clock, job, take } = setup({ store, work: (_c, s) => void (s.deadline = null) });
    job.start();
    await clock.advance(HOUR);
    store.deadline = START + 3 * HOUR;
    job.trigger('schedule edited');
    await clock.settle();
    expect(take()).toEqual(['read @0h', 'sleep 10h @0h', 'read @1h', 'sleep 2h @1h']);
    expect(clock.sleeps.map((sleep) => sleep.outcome)).toEqual(['aborted', 'pending']);
    await clock.advance(2 * HOUR);
    expect(take()).toEqual(['read @3h', 'run deadline @3h', 'read @3h']);
    await job.stop();
  });

  it('a trigger that makes work due now runs it at once, telling the run why', async () => {
    const store: Store = { deadline: START + 10 * HOUR };
    const { clock, job, take } = setup({ store, work: everyHour });
    job.start();
    await clock.advance(HOUR);
    store.deadline = clock.now();
    job.trigger('rotate now');
    await clock.settle();
    expect(take()).toEqual([
      'read @0h',
      'sleep 10h @0h',
      'read @1h',
      'run rotate now @1h',
      'read @1h',
      'sleep 1h @1h',
    ]);
    await job.stop();
  });

  it('triggers during a run make it read again once after the run, never overlapping runs', async () => {
    const store: Store = { deadline: START };
    let release = deferred();
    let running = 0;
    let mostAtOnce = 0;
    const { clock, job, take } = setup({
      store,
      work: async (_context, schedule, fakeClock) => {
        running += 1;
        mostAtOnce = Math.max(mostAtOnce, running);
        await release.promise;
        schedule.deadline = fakeClock.now() + HOUR;
        running -= 1;
      },
    });
    job.start();
    await clock.settle();
    expect(take()).toEqual(['read @0h', 'run deadline @0h']);
    // Three edits while the first run is busy; one of them makes work due again.
    job.trigger('edited 1');
    job.trigger('edited 2');
    job.trigger('edited 3');
    const firstRelease = release;
    release = deferred();
    firstRelease.resolve();
    await clock.settle();
    // The run stored +1h: the triggers only cause one more read, which finds nothing due.
    expect(take()).toEqual(['read @0h', 'sleep 1h @0h']);

    // Triggers while reading and waiting, too: still one run at a time.
    await clock.advance(HOUR);
    expect(take()).toEqual(['read @1h', 'run deadline @1h']);
    for (let index = 0; index < 5; index += 1) job.trigger(`burst ${index}`);
    const secondRelease = release;
    release = deferred();
    secondRelease.resolve();
    await clock.settle();
    expect(take()).toEqual(['read @1h', 'sleep 1h @1h']);
    expect(mostAtOnce).toBe(1);
    release.resolve();
    await job.stop();
  });

  it('a trigger during a run whose edit leaves work due runs it exactly once more', async () => {
    const store: Store = { deadline: START };
    const release = deferred();
    let runs = 0;
    const { clock, job, take } = setup({
      store,
      work: async (_context, schedule, fakeClock) => {
        runs += 1;
        if (runs === 1) {
          await release.promise;
          schedule.deadline = fakeClock.now() + HOUR;
          // What the edit made due lands after the run stored its own next deadline.
          schedule.deadline = fakeClock.now();
          return;
        }
        schedule.deadline = fakeClock.now() + HOUR;
      },
    });
    job.start();
    await clock.settle();
    job.trigger('rotate now');
    job.trigger('rotate now again');
    release.resolve();
    await clock.settle();
    expect(take()).toEqual([
      'read @0h',
      'run deadline @0h',
      'read @0h',
      'run rotate now @0h',
      'read @0h',
      'sleep 1h @0h',
    ]);
    expect(runs).toBe(2);
    await job.stop();
  });

  it('logs a failed run without secrets, keeps going, and waits before retrying work still due', async () => {
    const store: Store = { deadline: START };
    let attempts = 0;
    const { clock, job, take, logs } = setup({
      store,
      retryAfterErrorMs: HOUR / 2,
      work: (_context, schedule, fakeClock) => {
        attempts += 1;
        if (attempts === 1) {
          throw new Error('GET https://api.example/v1/ports/rotate?key=sk_live_SECRET failed');
        }
        schedule.deadline = fakeClock.now() + HOUR;
      },
    });
    job.start();
    await clock.settle();
    expect(take()).toEqual(['read @0h', 'run deadline @0h', 'read @0h', 'sleep 0.5h @0h']);
    expect(logs.join('\n')).toContain('[test-job] run failed (deadline): Error: GET https://api.example');
    expect(logs.join('\n')).not.toContain('sk_live_SECRET');
    await clock.advance(HOUR);
    expect(take()).toEqual(['read @0.5h', 'run deadline @0.5h', 'read @0.5h', 'sleep 1h @0.5h']);
    expect(job.state).toBe('waiting');
    await job.stop();
  });

  it('after a failure follows the backoff the work stored, and a trigger still runs at once', async () => {
    const store: Store = { deadline: START };
    const { clock, job, take } = setup({
      store,
      work: (context, schedule, fakeClock) => {
        if (context.reason === 'deadline') {
          schedule.deadline = fakeClock.now() + 2 * HOUR;
          throw new Error('503 from the service');
        }
        schedule.deadline = null;
      },
    });
    job.start();
    await clock.settle();
    expect(take()).toEqual(['read @0h', 'run deadline @0h', 'read @0h', 'sleep 2h @0h']);
    await clock.advance(2 * HOUR);
    expect(take()).toEqual(['read @2h', 'run deadline @2h', 'read @2h', 'sleep 2h @2h']);
    store.deadline = clock.now();
    job.trigger('retry now');
    await clock.settle();
    expect(take()).toEqual(['read @2h', 'run retry now @2h', 'read @2h']);
    await job.stop();
  });

  it('a trigger during the pause after a failure runs the work at once', async () => {
    const store: Store = { deadline: START };
    let attempts = 0;
    const { clock, job, take } = setup({
      store,
      work: (_context, schedule, fakeClock) => {
        attempts += 1;
        if (attempts === 1) throw new Error('network down');
        schedule.deadline = fakeClock.now() + HOUR;
      },
    });
    job.start();
    await clock.advance(HOUR / 6);
    expect(take()).toEqual(['read @0h', 'run deadline @0h', 'read @0h', 'sleep 0.5h @0h']);
    job.trigger('user pressed retry');
    await clock.settle();
    expect(take()).toEqual([
      `read @${1 / 6}h`,
      `run user pressed retry @${1 / 6}h`,
      `read @${1 / 6}h`,
      `sleep 1h @${1 / 6}h`,
    ]);
    await job.stop();
  });

  it('pauses work that stays due after ten runs in a row instead of spinning', async () => {
    const store: Store = { deadline: START };
    const { clock, job, take, logs } = setup({ store });
    job.start();
    await clock.settle();
    const events = take();
    expect(events.filter((event) => event.startsWith('run'))).toHaveLength(10);
    expect(events.at(-1)).toBe('sleep 0.5h @0h');
    expect(logs.at(-1)).toContain('still due after 10 runs in a row');
    await clock.advance(HOUR / 2);
    expect(take().filter((event) => event.startsWith('run'))).toHaveLength(10);
    await job.stop();
  });

  it('retries a store that fails to answer after the error delay', async () => {
    let failing = true;
    const logs: string[] = [];
    const clock = new FakeClock(START);
    const runs: number[] = [];
    const job = new DeadlineJob({
      name: 'flaky-store',
      clock,
      nextDeadline: () => {
        if (failing) throw new Error('EIO: i/o error');
        return runs.length === 0 ? START : null;
      },
      run: () => {
        runs.push(clock.now());
        return Promise.resolve();
      },
      log: (line) => logs.push(line),
      retryAfterErrorMs: 1000,
    });
    job.start();
    await clock.settle();
    expect(logs).toContain('[flaky-store] cannot read the next deadline: Error: EIO: i/o error');
    failing = false;
    await clock.advance(1000);
    expect(runs).toEqual([START + 1000]);
    expect(clock.sleepDurations).toEqual([1000]);
    await job.stop();
  });

  it('starts once, and can be started again after a stop', async () => {
    const store: Store = { deadline: START + HOUR };
    const { clock, job, take } = setup({ store, work: everyHour });
    job.start();
    job.start();
    await clock.settle();
    expect(take()).toEqual(['read @0h', 'sleep 1h @0h']);
    await job.stop();
    await job.stop();
    job.start('again');
    await clock.advance(HOUR);
    expect(take()).toEqual([
      'read @0h',
      'sleep 1h @0h',
      'read @1h',
      'run deadline @1h',
      'read @1h',
      'sleep 1h @1h',
    ]);
    await job.stop();
  });
});
