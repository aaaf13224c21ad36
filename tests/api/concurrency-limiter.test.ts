import { describe, expect, it } from 'vitest';
import { ConcurrencyLimiter } from '../../src-main/api/concurrency-limiter';

function deferred(): { promise: Promise<void>; resolve: () => void; reject: (e: Error) => void } {
  let resolve!: () => void;
  let reject!: (e: Error) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('ConcurrencyLimiter', () => {
  it('runs at most `limit` tasks at once, in arrival order', async () => {
    const limiter = new ConcurrencyLimiter(2);
    const gates = [deferred(), deferred(), deferred(), deferred()];
    const started: number[] = [];
    const runs = gates.map((gate, index) =>
      limiter.run(async () => {
        started.push(index);
        await gate.promise;
        return index;
      }),
    );
    const settled = Promise.allSettled(runs);
    await tick();
    expect(started).toEqual([0, 1]);
    expect([limiter.active, limiter.queued]).toEqual([2, 2]);

    gates[1]!.resolve();
    await tick();
    expect(started).toEqual([0, 1, 2]);
    gates[0]!.reject(new Error('task failed'));
    await tick();
    expect(started).toEqual([0, 1, 2, 3]);
    gates[2]!.resolve();
    gates[3]!.resolve();

    const results = await settled;
    expect(results.map((r) => r.status)).toEqual(['rejected', 'fulfilled', 'fulfilled', 'fulfilled']);
    expect([limiter.active, limiter.queued]).toEqual([0, 0]);
  });

  it('drops a waiting task when its signal aborts, and refuses an already aborted one', async () => {
    const limiter = new ConcurrencyLimiter(1);
    const gate = deferred();
    const first = limiter.run(() => gate.promise);
    const controller = new AbortController();
    let ran = false;
    const waiting = limiter.run(() => {
      ran = true;
      return Promise.resolve();
    }, controller.signal);
    await tick();
    expect(limiter.queued).toBe(1);
    controller.abort(new Error('user left'));
    await expect(waiting).rejects.toThrow('user left');
    expect(limiter.queued).toBe(0);
    await expect(limiter.run(() => Promise.resolve(), controller.signal)).rejects.toThrow('user left');
    gate.resolve();
    await first;
    expect(ran).toBe(false);
    expect(limiter.active).toBe(0);
  });

  it('refuses a limit below 1', () => {
    expect(() => new ConcurrencyLimiter(0)).toThrow(RangeError);
    expect(() => new ConcurrencyLimiter(1.5)).toThrow(RangeError);
    expect(() => new ConcurrencyLimiter(6, { backgroundLimit: 0 })).toThrow(RangeError);
  });

  it('keeps a third of the slots from background tasks: 4 of 6 by default', async () => {
    const limiter = new ConcurrencyLimiter(6);
    expect([limiter.backgroundLimit, limiter.perKeyLimit]).toEqual([4, 4]);
    const gate = deferred();
    const started: string[] = [];
    const task = (name: string) => () => {
      started.push(name);
      return gate.promise;
    };
    const runs = [
      ...Array.from({ length: 6 }, (_, i) => limiter.run(task(`bg${i}`), { lane: 'background' })),
      limiter.run(task('ui0')),
      limiter.run(task('ui1')),
      limiter.run(task('ui2')),
    ];
    await tick();
    expect(started).toEqual(['bg0', 'bg1', 'bg2', 'bg3', 'ui0', 'ui1']);
    expect([limiter.active, limiter.queued]).toEqual([6, 3]);
    gate.resolve();
    await Promise.all(runs);
    expect(started).toHaveLength(9);
  });

  it('caps one key, so that another key still gets a slot', async () => {
    const limiter = new ConcurrencyLimiter(6, { perKeyLimit: 3 });
    const gate = deferred();
    const started: string[] = [];
    const task = (name: string) => () => {
      started.push(name);
      return gate.promise;
    };
    const runs = [
      ...Array.from({ length: 5 }, (_, i) => limiter.run(task(`usage${i}`), { key: 'usage' })),
      limiter.run(task('catalog'), { key: 'catalog' }),
    ];
    await tick();
    expect(started).toEqual(['usage0', 'usage1', 'usage2', 'catalog']);
    gate.resolve();
    await Promise.all(runs);
  });

  it('starts waiting interactive tasks before waiting background ones, each in arrival order', async () => {
    const limiter = new ConcurrencyLimiter(1);
    const first = deferred();
    const started: string[] = [];
    const record = (name: string) => () => {
      started.push(name);
      return Promise.resolve();
    };
    const runs = [
      limiter.run(() => first.promise),
      limiter.run(record('bg1'), { lane: 'background' }),
      limiter.run(record('bg2'), { lane: 'background' }),
      limiter.run(record('ui1')),
      limiter.run(record('ui2')),
    ];
    await tick();
    first.resolve();
    await Promise.all(runs);
    expect(started).toEqual(['ui1', 'ui2', 'bg1', 'bg2']);
  });
});
