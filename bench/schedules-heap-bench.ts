/**
 * `npm run bench:schedules`: main-process heap before and after a simulated week of scheduled
 * rotations on 100 ports (goal: growth under 5 MB after GC).
 *
 *   node --expose-gc --import tsx bench/schedules-heap-bench.ts [--ports 100] [--days 7]
 *
 * The real `RotationScheduler` (DeadlineJob, planner, run log, events) runs on a manual clock over the
 * job section (serialised on every write, as the file store does, without the disk); rotations answer in-process like the service does (a new IP, a 30 s
 * cooldown, one in eight the same IP, one in twenty a 503), so a week takes seconds, not a week.
 * The cadences are a mix a power user might set (about 20,000 runs a week): every 30 minutes,
 * hourly with jitter, every 2 hours as a staggered group, and two cron schedules. Prints a table and one line `BENCH_RESULT {json}`.
 */
import { parseArgs } from 'node:util';
import { ApiError } from '../src-main/api/api-errors';
import { EventBus } from '../src-main/core/events';
import { type RotatePort, RotationScheduler } from '../src-main/core/schedules/rotation-scheduler';
import { CachedStateSection } from '../src-main/core/schedules/rotation-scheduler-state';
import { abortReason, type Clock } from '../src-main/core/runtime/clock';

const GOAL_BYTES = 5 * 1024 * 1024;
const PROFILE = 'bench-profile';

function readOptions(): { ports: number; days: number } {
  const { values } = parseArgs({
    options: { ports: { type: 'string', default: '100' }, days: { type: 'string', default: '7' } },
  });
  return { ports: Number(values.ports), days: Number(values.days) };
}

function gcHeap(): number {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('Run with node --expose-gc (see the header of this file).');
  for (let i = 0; i < 3; i += 1) gc();
  return process.memoryUsage().heapUsed;
}

/**
 * A manual clock like the tests' `FakeClock`, minus its record of every sleep (which grows with
 * every wake-up and would be counted as the scheduler's heap here).
 */
class BenchClock implements Clock {
  private current: number;
  private sleepers: { until: number; resolve: () => void }[] = [];

  constructor(start: number) {
    this.current = start;
  }

  now(): number {
    return this.current;
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return Promise.reject(abortReason(signal));
    return new Promise((resolve, reject) => {
      const sleeper = { until: this.current + Math.max(0, ms), resolve };
      this.sleepers.push(sleeper);
      signal?.addEventListener(
        'abort',
        () => {
          this.sleepers = this.sleepers.filter((other) => other !== sleeper);
          reject(abortReason(signal));
        },
        { once: true },
      );
    });
  }

  async advance(ms: number): Promise<void> {
    await this.runUntil(this.current + ms);
  }

  /** Wakes sleepers in due order, letting each woken job run to its next wait. */
  async runUntil(target: number): Promise<void> {
    await settle();
    for (;;) {
      const next = this.sleepers.reduce<(typeof this.sleepers)[number] | null>(
        (earliest, sleeper) => (earliest === null || sleeper.until < earliest.until ? sleeper : earliest),
        null,
      );
      if (!next || next.until > target) break;
      this.sleepers = this.sleepers.filter((sleeper) => sleeper !== next);
      this.current = next.until;
      next.resolve();
      await settle();
    }
    this.current = target;
    await settle();
  }
}

async function settle(): Promise<void> {
  for (let turn = 0; turn < 2; turn += 1) await new Promise<void>((resolve) => setImmediate(resolve));
}

/** A deterministic source in [0, 1). */
function lcg(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

async function main(): Promise<void> {
  const options = readOptions();
  const clock = new BenchClock(Date.UTC(2026, 0, 5));
  const random = lcg(42);
  const events = new EventBus();
  let emitted = 0;
  events.subscribe(() => (emitted += 1));
  const ips = new Map<string, string>();
  let rotations = 0;
  let failures = 0;
  const rotate: RotatePort = {
    rotate: (_profileId, portId) => {
      rotations += 1;
      const draw = random();
      if (draw < 0.05) {
        failures += 1;
        return Promise.reject(
          new ApiError(
            { status: 503, code: 'unavailable', message: 'The modem did not answer.' },
            {
              endpoint: 'POST /v1/mobile/{portId}/rotate',
              attempts: 1,
              outcomeUnknown: false,
              affects: null,
              idempotencyKey: null,
            },
          ),
        );
      }
      const previousIp = ips.get(portId) ?? '10.0.0.1';
      const ip =
        draw < 0.175
          ? previousIp
          : `10.${(rotations >> 16) & 255}.${(rotations >> 8) & 255}.${rotations & 255}`;
      ips.set(portId, ip);
      return Promise.resolve({
        previousIp,
        ip,
        sameIp: ip === previousIp,
        nextRotationAvailableAt: new Date(clock.now() + 30_000).toISOString(),
      });
    },
  };
  // Stands for `ports-jobs.json` without the disk: each write serialises the whole section, as the file store does.
  // Only the size is kept: the file store does not hold the text in memory either.
  let storedBytes = 0;
  let writes = 0;
  const state = new CachedStateSection({
    read: () => Promise.resolve(undefined),
    update: (mutate) => {
      // The cached section ignores the current value it is handed, so it is not parsed here.
      const value = mutate(undefined);
      storedBytes = JSON.stringify(value).length;
      writes += 1;
      return Promise.resolve(value);
    },
  });
  await state.load();
  const scheduler = new RotationScheduler({
    clock,
    state,
    rotate,
    events,
    activeProfileId: () => PROFILE,
    random,
    log: () => undefined,
  });
  await scheduler.start();
  const ids = Array.from({ length: options.ports }, (_, i) => `mp_${String(i).padStart(4, '0')}`);
  const quarter = Math.ceil(ids.length / 5);
  await scheduler.set(PROFILE, {
    portIds: ids.slice(0, quarter),
    cadence: { kind: 'every', seconds: 1800 },
    jitterSeconds: 30,
    staggerSeconds: 0,
  });
  await scheduler.set(PROFILE, {
    portIds: ids.slice(quarter, 2 * quarter),
    cadence: { kind: 'every', seconds: 7200 },
    jitterSeconds: 0,
    staggerSeconds: 15,
  });
  await scheduler.set(PROFILE, {
    portIds: ids.slice(2 * quarter, 3 * quarter),
    cadence: { kind: 'every', seconds: 3600 },
    jitterSeconds: 600,
    staggerSeconds: 0,
  });
  await scheduler.set(PROFILE, {
    portIds: ids.slice(3 * quarter, 4 * quarter),
    cadence: { kind: 'cron', expression: '*/30 * * * *' },
    jitterSeconds: 60,
    staggerSeconds: 5,
  });
  await scheduler.set(PROFILE, {
    portIds: ids.slice(4 * quarter),
    cadence: { kind: 'cron', expression: '0 */2 * * *', timezone: 'Europe/Berlin' },
    jitterSeconds: 0,
    staggerSeconds: 0,
  });
  // The first hour fills caches (croner, zod) that a running app has too.
  await clock.advance(3_600_000);
  await scheduler.settled();
  const before = gcHeap();
  const started = performance.now();
  const weekEnd = clock.now() + options.days * 86_400_000;
  const rotationsBefore = rotations;
  // Day by day, so that progress is visible and the fake clock's queue stays short.
  while (clock.now() < weekEnd) {
    await clock.runUntil(Math.min(weekEnd, clock.now() + 86_400_000));
    await scheduler.settled();
    console.log(
      `  day done: ${rotations - rotationsBefore} rotations, ${((performance.now() - started) / 1000).toFixed(0)} s`,
    );
  }
  const elapsedMs = performance.now() - started;
  const after = gcHeap();
  await scheduler.stop();
  const runsKept = ids.reduce((sum, id) => sum + scheduler.runs(PROFILE, id).length, 0);
  const growth = after - before;
  const result = {
    ports: options.ports,
    days: options.days,
    rotations: rotations - rotationsBefore,
    failures,
    runsKept,
    events: emitted,
    writes,
    stateBytes: storedBytes,
    heapBeforeBytes: before,
    heapAfterBytes: after,
    heapGrowthBytes: growth,
    heapGrowthMB: Number((growth / 1024 / 1024).toFixed(2)),
    goalMB: GOAL_BYTES / 1024 / 1024,
    passed: growth < GOAL_BYTES,
    simulatedInMs: Math.round(elapsedMs),
  };
  console.log(`Scheduled rotation: ${options.ports} ports for ${options.days} days (fake clock)`);
  console.log(
    `  rotations ${result.rotations} (failures ${failures}), runs kept ${runsKept}, events ${emitted}`,
  );
  console.log(
    `  heap after GC: ${(before / 1048576).toFixed(2)} MB -> ${(after / 1048576).toFixed(2)} MB (growth ${result.heapGrowthMB} MB, goal < 5 MB) ${result.passed ? 'PASS' : 'FAIL'}`,
  );
  console.log(`  simulated in ${(elapsedMs / 1000).toFixed(1)} s`);
  console.log(`BENCH_RESULT ${JSON.stringify(result)}`);
  if (!result.passed) process.exitCode = 1;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
