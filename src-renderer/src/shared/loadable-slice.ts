import { useEffect, useEffectEvent } from 'react';
import type { StoreApi, UseBoundStore } from 'zustand';
import type { IpcResult } from '../../../src-shared/contract';
import { loading, needsLoad, settled, type Loadable } from './loadable';

/**
 * Everything a store repeated for each list it reads from main: skip a load that is not needed, keep
 * the data while refreshing, drop an answer that arrives after a reset (another account) or after a
 * newer request, remember what was asked so that it can be asked again (after a reconnect), and let
 * pushed changes be merged into whatever was loaded. One slice serves a family of lists under string
 * keys (`US|mobile`); a store with a single list uses one key.
 */

type Store<S> = Pick<StoreApi<S>, 'getState' | 'setState'>;

/** Where the slice keeps one key's Loadable inside the store's state. */
export interface SlicePlace<S, T> {
  read: (state: S, key: string) => Loadable<T> | undefined;
  write: (state: S, key: string, value: Loadable<T>) => Partial<S>;
  /** Keys that hold something (for reloads and merges). */
  keys: (state: S) => string[];
}

/** The field is a map from key to Loadable (`countries: { all: …, mobile: … }`). */
export function inMap<S, T>(field: keyof S): SlicePlace<S, T> {
  const mapOf = (state: S) => state[field] as Partial<Record<string, Loadable<T>>>;
  return {
    read: (state, key) => mapOf(state)[key],
    write: (state, key, value) => ({ [field]: { ...mapOf(state), [key]: value } }) as Partial<S>,
    keys: (state) => Object.keys(mapOf(state)),
  };
}

/** The field is one Loadable (`ports`): the slice's only key is `''`. */
export function inField<S, T>(field: keyof S): SlicePlace<S, T> {
  return {
    read: (state) => state[field] as Loadable<T>,
    write: (_state, _key, value) => ({ [field]: value }) as Partial<S>,
    keys: (state) => ((state[field] as Loadable<T>).status === 'idle' ? [] : ['']),
  };
}

export interface LoadableSliceOptions<S, T, A extends readonly unknown[]> {
  place: SlicePlace<S, T>;
  /** Names the list a query reads; one Loadable per key. Omit for a single list. */
  key?: (...args: A) => string;
  fetch: (...args: A) => Promise<IpcResult<T>>;
  /**
   * Reads several lists in one call (one answer per query, in order). With it, `loadMany` asks once
   * and writes every answer in one store update; without it, `loadMany` loads each list on its own.
   */
  fetchMany?: (queries: A[]) => Promise<IpcResult<T>[]>;
  /**
   * A forced load while one is in flight starts anyway and the newest answer wins (a page the user
   * has just asked for). By default the load in flight is kept and the forced one is skipped.
   */
  supersede?: boolean;
  /** Other state to write with a successful answer (e.g. which query the data belongs to). */
  alongside?: (value: T, args: A) => Partial<S>;
}

export interface LoadableSlice<S, T, A extends readonly unknown[]> {
  key: (...args: A) => string;
  read: (state: S, key: string) => Loadable<T> | undefined;
  /** Loads unless the list is loaded or loading; `force` reloads (Refresh, Retry). */
  load: (args: A, force?: boolean) => Promise<void>;
  /** `load` for several lists: those that need it are marked, asked for and written together. */
  loadMany: (queries: A[], force?: boolean) => Promise<void>;
  /** Loads again every list that holds something: events may have been missed. */
  reloadLoaded: () => Promise<void>;
  /** Applies `change` to the data of every loaded list (pushed changes); the status stays. */
  updateLoaded: (change: (data: T, args: A) => T) => void;
  /** Forgets requests in flight and what was asked: the store was reset (another account). */
  forget: () => void;
  /**
   * Puts data main sent unasked (its snapshot in the first state) in place as if `args` had been
   * loaded; nothing when that list is loaded or loading already.
   */
  seed: (args: A, data: T) => void;
}

export function createLoadableSlice<S, T, A extends readonly unknown[]>(
  store: Store<S>,
  options: LoadableSliceOptions<S, T, A>,
): LoadableSlice<S, T, A> {
  const { place, fetch, fetchMany, supersede = false, alongside } = options;
  const keyOf = options.key ?? (() => '');
  /** The request whose answer may still land, per key; a reset or a newer request replaces it. */
  const inFlight = new Map<string, symbol>();
  const argsByKey = new Map<string, A>();

  async function load(args: A, force = false): Promise<void> {
    const key = keyOf(...args);
    const current = place.read(store.getState(), key);
    if (!(supersede && force) && !needsLoad(current, force)) return;
    const request = Symbol(key);
    inFlight.set(key, request);
    argsByKey.set(key, args);
    store.setState((state) => place.write(state, key, loading(place.read(state, key))));
    const result = await fetch(...args);
    if (inFlight.get(key) !== request) return;
    inFlight.delete(key);
    store.setState((state) => ({
      ...place.write(state, key, settled(place.read(state, key), result)),
      ...(result.ok && alongside ? alongside(result.value, args) : {}),
    }));
  }

  async function loadMany(queries: A[], force = false): Promise<void> {
    if (!fetchMany) {
      await Promise.all(queries.map((args) => load(args, force)));
      return;
    }
    const wanted = new Map<string, A>();
    for (const args of queries) {
      const key = keyOf(...args);
      if (!wanted.has(key) && ((supersede && force) || needsLoad(place.read(store.getState(), key), force)))
        wanted.set(key, args);
    }
    if (wanted.size === 0) return;
    const requests = new Map<string, symbol>();
    for (const [key, args] of wanted) {
      requests.set(key, Symbol(key));
      inFlight.set(key, requests.get(key) as symbol);
      argsByKey.set(key, args);
    }
    const write = (state: S, each: (key: string, index: number) => Loadable<T> | null): Partial<S> => {
      let next = state;
      let patch: Partial<S> = {};
      [...wanted.keys()].forEach((key, index) => {
        const value = each(key, index);
        if (value === null) return;
        patch = { ...patch, ...place.write(next, key, value) };
        next = { ...next, ...patch };
      });
      return patch;
    };
    store.setState((state) => write(state, (key) => loading(place.read(state, key))));
    const results = await fetchMany([...wanted.values()]);
    store.setState((state) => {
      let alongsideAll: Partial<S> = {};
      const patch = write(state, (key, index) => {
        const result = results[index];
        // Dropped: a reset or a newer request since (its answer is the one that lands).
        if (!result || inFlight.get(key) !== requests.get(key)) return null;
        inFlight.delete(key);
        if (result.ok && alongside)
          alongsideAll = { ...alongsideAll, ...alongside(result.value, wanted.get(key) as A) };
        return settled(place.read(state, key), result);
      });
      return { ...patch, ...alongsideAll };
    });
  }

  return {
    key: keyOf,
    read: place.read,
    load,
    loadMany,
    reloadLoaded: async () => {
      const keys = place.keys(store.getState()).filter((key) => argsByKey.has(key));
      await loadMany(
        keys.map((key) => argsByKey.get(key) as A),
        true,
      );
    },
    updateLoaded: (change) => {
      store.setState((state) => {
        let patch: Partial<S> = {};
        let next = state;
        for (const key of place.keys(state)) {
          const current = place.read(next, key);
          const args = argsByKey.get(key);
          if (!current || current.data === null || !args) continue;
          const data = change(current.data, args);
          if (data === current.data) continue;
          patch = { ...patch, ...place.write(next, key, { ...current, data }) };
          next = { ...next, ...patch };
        }
        return patch;
      });
    },
    forget: () => {
      inFlight.clear();
      argsByKey.clear();
    },
    seed: (args, data) => {
      const key = keyOf(...args);
      if (!needsLoad(place.read(store.getState(), key), false)) return;
      argsByKey.set(key, args);
      store.setState((state) => place.write(state, key, { status: 'ready', data, error: null }));
    },
  };
}

/**
 * Reads one list of a slice and asks for it: on mount (which also retries a failed load), whenever
 * the query changes, and whenever the list falls back to idle (the account changed and it was dropped).
 */
export function useLoadable<S, T, A extends readonly unknown[]>(
  useStore: UseBoundStore<StoreApi<S>>,
  slice: LoadableSlice<S, T, A>,
  ...args: A
): { loadable: Loadable<T> | undefined; retry: () => void } {
  const key = slice.key(...args);
  const loadable = useStore((state) => slice.read(state, key));
  const idle = !loadable || loadable.status === 'idle';
  // The key names the query, so it (not the arguments' identity) decides when to ask again.
  const loadNow = useEffectEvent(() => void slice.load(args));
  useEffect(() => {
    loadNow();
  }, [key, idle]);
  return { loadable, retry: () => void slice.load(args, true) };
}
