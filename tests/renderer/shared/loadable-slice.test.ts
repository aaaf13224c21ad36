import { describe, expect, it } from 'vitest';
import { create } from 'zustand';
import type { IpcResult } from '../../../src-shared/contract';
import { idle, type Loadable } from '../../../src-renderer/src/shared/loadable';
import { createLoadableSlice, inField, inMap } from '../../../src-renderer/src/shared/loadable-slice';
import { deferred, fail, ok } from '../support/fake-api';

interface TestStore {
  lists: Partial<Record<string, Loadable<string[]>>>;
  one: Loadable<string[]>;
  query: string | null;
}

function setup() {
  const store = create<TestStore>()(() => ({ lists: {}, one: idle(), query: null }));
  const calls: string[] = [];
  const answers = new Map<string, Promise<IpcResult<string[]>>>();
  const fetch = (query: string) => {
    calls.push(query);
    return answers.get(query) ?? Promise.resolve(ok([query]));
  };
  const keyed = createLoadableSlice(store, {
    place: inMap<TestStore, string[]>('lists'),
    key: (query: string) => query,
    fetch,
  });
  const single = createLoadableSlice(store, {
    place: inField<TestStore, string[]>('one'),
    fetch,
    supersede: true,
    alongside: (_value, [query]) => ({ query }),
  });
  return { store, calls, answers, keyed, single };
}

describe('loadable slice', () => {
  it('loads once per key, again on force, and keeps the data while a refresh fails', async () => {
    const { store, calls, answers, keyed } = setup();
    await keyed.load(['US']);
    await keyed.load(['US']);
    await keyed.load(['DE']);
    expect(calls).toEqual(['US', 'DE']);
    answers.set('US', Promise.resolve(fail('timeout', 'Timed out.')));
    await keyed.load(['US'], true);
    expect(store.getState().lists.US).toEqual({
      status: 'error',
      data: ['US'],
      error: { code: 'timeout', message: 'Timed out.' },
    });
  });

  it('by default keeps the load in flight and skips a forced one', async () => {
    const { calls, answers, keyed } = setup();
    const slow = deferred<IpcResult<string[]>>();
    answers.set('US', slow.promise);
    const first = keyed.load(['US']);
    await keyed.load(['US'], true);
    slow.resolve(ok(['US']));
    await first;
    expect(calls).toEqual(['US']);
  });

  it('with supersede, lets the newest forced load win and writes what goes along with it', async () => {
    const { store, answers, single } = setup();
    const slow = deferred<IpcResult<string[]>>();
    answers.set('page 1', slow.promise);
    const first = single.load(['page 1']);
    await single.load(['page 2'], true);
    slow.resolve(ok(['stale']));
    await first;
    expect(store.getState().one.data).toEqual(['page 2']);
    expect(store.getState().query).toBe('page 2');
  });

  it('drops answers in flight once forgotten (a reset)', async () => {
    const { store, answers, keyed } = setup();
    const slow = deferred<IpcResult<string[]>>();
    answers.set('US', slow.promise);
    const load = keyed.load(['US']);
    keyed.forget();
    store.setState({ lists: {} });
    slow.resolve(ok(['old account']));
    await load;
    expect(store.getState().lists).toEqual({});
  });

  it('reloads what was loaded with the same arguments, and nothing else', async () => {
    const { calls, keyed } = setup();
    await keyed.load(['US']);
    await keyed.load(['DE']);
    calls.length = 0;
    await keyed.reloadLoaded();
    expect(calls.sort()).toEqual(['DE', 'US']);
  });

  it('updates the data of every loaded list, keeping its status, with the arguments of each', async () => {
    const { store, keyed } = setup();
    await keyed.load(['US']);
    await keyed.load(['DE']);
    keyed.updateLoaded((data, [query]) => (query === 'US' ? [...data, 'changed'] : data));
    expect(store.getState().lists.US).toEqual({ status: 'ready', data: ['US', 'changed'], error: null });
    expect(store.getState().lists.DE?.data).toEqual(['DE']);
  });

  it('loads several lists with one fetch and one update, skipping what is loaded, dropping what a reset forgot', async () => {
    const store = create<TestStore>()(() => ({ lists: {}, one: idle(), query: null }));
    const batches: string[][] = [];
    let pending = deferred<IpcResult<string[]>[]>();
    const many = createLoadableSlice(store, {
      place: inMap<TestStore, string[]>('lists'),
      key: (query: string) => query,
      fetch: (query) => Promise.resolve(ok([query])),
      fetchMany: (queries) => {
        batches.push(queries.map(([query]) => query));
        return pending.promise;
      },
    });
    let updates = 0;
    store.subscribe(() => (updates += 1));
    const first = many.loadMany([['US'], ['DE'], ['US']]);
    expect(store.getState().lists.US?.status).toBe('loading');
    pending.resolve([ok(['us']), fail('not_found', 'No such country.')]);
    await first;
    expect(batches).toEqual([['US', 'DE']]);
    expect(updates).toBe(2);
    expect(store.getState().lists.US).toEqual({ status: 'ready', data: ['us'], error: null });
    expect(store.getState().lists.DE?.error?.code).toBe('not_found');
    // US is loaded: only DE (failed) is asked again.
    pending = deferred();
    const second = many.loadMany([['US'], ['DE']]);
    expect(batches).toEqual([['US', 'DE'], ['DE']]);
    many.forget();
    pending.resolve([ok(['de'])]);
    await second;
    expect(store.getState().lists.DE?.status).toBe('loading');
  });

  it('without fetchMany, loadMany loads each list on its own', async () => {
    const { calls, keyed } = setup();
    await keyed.loadMany([['US'], ['DE']]);
    expect(calls).toEqual(['US', 'DE']);
  });
});
