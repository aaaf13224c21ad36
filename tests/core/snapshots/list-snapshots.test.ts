import { describe, expect, it } from 'vitest';
import { ListSnapshots } from '../../../src-main/core/snapshots/list-snapshots';

/** A read the test answers when it wants (a request in flight). */
function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((done, fail) => {
    resolve = done;
    reject = fail;
  });
  return { promise, resolve, reject };
}

const flush = () => new Promise((done) => setImmediate(done));

describe('ListSnapshots', () => {
  it('reads the service when it has no snapshot, then serves the snapshot while it is fresh', async () => {
    let now = 1_000;
    const snapshots = new ListSnapshots({ now: () => now, freshForMs: 5_000 });
    let reads = 0;
    const read = () => Promise.resolve(['a', ++reads]);
    expect(await snapshots.serve('p1', 'ports', { read })).toEqual({
      value: ['a', 1],
      asOf: 1_000,
      revalidating: false,
    });
    now = 5_999;
    expect(await snapshots.serve('p1', 'ports', { read })).toMatchObject({ value: ['a', 1], revalidating: false });
    expect(reads).toBe(1);
  });

  it('serves an old snapshot at once and reads the service again behind it (stale-while-revalidate)', async () => {
    let now = 0;
    const snapshots = new ListSnapshots({ now: () => now, freshForMs: 5_000 });
    await snapshots.serve('p1', 'ports', { read: () => Promise.resolve('first') });
    now = 60_000;
    const pending = deferred<string>();
    const revalidated: [string, string, number][] = [];
    const served = await snapshots.serve('p1', 'ports', {
      read: () => pending.promise,
      revalidated: (before, after, asOf) => revalidated.push([before, after, asOf]),
    });
    // The old list, at once, saying that a read is under way.
    expect(served).toEqual({ value: 'first', asOf: 0, revalidating: true });
    // A second screen meanwhile joins that read instead of sending another.
    let second = 0;
    await snapshots.serve('p1', 'ports', { read: () => Promise.resolve(`other ${++second}`) });
    expect(second).toBe(0);
    now = 60_500;
    pending.resolve('second');
    await flush();
    expect(revalidated).toEqual([['first', 'second', 60_500]]);
    expect(snapshots.get('p1', 'ports')).toEqual({ value: 'second', asOf: 60_500 });
    expect(snapshots.revalidating('p1', 'ports')).toBe(false);
  });

  it('waits for the service with `fresh` (Refresh), and tells what changed', async () => {
    const snapshots = new ListSnapshots({ now: () => 0 });
    await snapshots.serve('p1', 'ports', { read: () => Promise.resolve(1) });
    const changes: number[][] = [];
    const served = await snapshots.serve('p1', 'ports', {
      fresh: true,
      read: () => Promise.resolve(2),
      revalidated: (before, after) => changes.push([before, after]),
    });
    expect(served.value).toBe(2);
    expect(changes).toEqual([[1, 2]]);
  });

  it('drops an answer that arrives for a profile whose account changed meanwhile (account guard)', async () => {
    const snapshots = new ListSnapshots({ now: () => 0 });
    const pending = deferred<string>();
    const served = snapshots.serve('p1', 'ports', { read: () => pending.promise });
    // The key or base URL of p1 changed (or it was deleted) while its list was being read.
    snapshots.forget('p1');
    pending.resolve("the old account's ports");
    // The caller that asked gets its answer (the window drops it by its profile id)...
    expect((await served).value).toBe("the old account's ports");
    // ...but main keeps nothing of it: the next screen reads the new account.
    expect(snapshots.get('p1', 'ports')).toBeNull();
    expect(await snapshots.serve('p1', 'ports', { read: () => Promise.resolve('new') })).toMatchObject({
      value: 'new',
    });
    // A background job's read started before a change is dropped the same way.
    const generation = snapshots.generation('p1');
    snapshots.forget('p1');
    expect(snapshots.store('p1', 'ports', 'late', generation)).toBe(false);
    expect(snapshots.get('p1', 'ports')).toBeNull();
    // Other profiles keep theirs.
    await snapshots.serve('p2', 'ports', { read: () => Promise.resolve('p2 ports') });
    snapshots.forget('p1');
    expect(snapshots.get('p2', 'ports')?.value).toBe('p2 ports');
  });

  it('keeps the snapshot when a background read fails, and says so', async () => {
    let now = 0;
    const snapshots = new ListSnapshots({ now: () => now, freshForMs: 1 });
    await snapshots.serve('p1', 'ports', { read: () => Promise.resolve('kept') });
    now = 10;
    const failed: unknown[] = [];
    const served = await snapshots.serve('p1', 'ports', {
      read: () => Promise.reject(new Error('offline')),
      failed: (kept) => failed.push(kept),
    });
    expect(served.value).toBe('kept');
    await flush();
    expect(failed).toEqual([{ value: 'kept', asOf: 0 }]);
    expect(snapshots.get('p1', 'ports')?.value).toBe('kept');
  });

  it('applies pushed changes to the lists of one profile, and keeps a bounded number of lists', async () => {
    const snapshots = new ListSnapshots({ now: () => 0, maxListsPerProfile: 2 });
    for (const list of ['topups:a', 'topups:b', 'topups:c']) {
      await snapshots.serve('p1', list, { read: () => Promise.resolve([list]) });
    }
    expect(snapshots.get('p1', 'topups:a')).toBeNull();
    snapshots.update<string[]>(
      'p1',
      (list) => list.startsWith('topups:'),
      (value) => [...value, 'changed'],
    );
    expect(snapshots.get('p1', 'topups:c')?.value).toEqual(['topups:c', 'changed']);
  });
});
