import { create } from 'zustand';
import type { IpcError, ProxyTestResult, ProxyTestTargetInput } from '../../../../src-shared/contract';
import { callApi } from '../../api/window-api';

/** One target's latest test: running, or its last result (kept with its `checkedAt`) or call error. */
export interface ProxyTestEntry {
  running: boolean;
  result: ProxyTestResult | null;
  error: IpcError | null;
}

/** A stable key for a target: the same port or string tested twice replaces its own row. */
export function targetKey(target: ProxyTestTargetInput): string {
  if (target.kind === 'port') return `port:${target.portId}:${target.protocol ?? 'http'}`;
  const t = target.targeting ?? {};
  const targeting = (['country', 'state', 'city', 'asn', 'zip', 'session'] as const)
    .map((name) => (t[name] === undefined || t[name] === '' ? '' : `${name}=${String(t[name])}`))
    .filter(Boolean)
    .join('&');
  return `sub:${target.subscriptionId}:${target.subUserId ?? ''}:${target.protocol}:${targeting}`;
}

interface ProxyTestStore {
  entries: Record<string, ProxyTestEntry>;
  /** Tests one target; its previous result stays shown until the new one arrives. */
  test: (target: ProxyTestTargetInput) => Promise<void>;
  /** "Test all": main runs them a few at a time; each row is updated when the answer comes. */
  testMany: (targets: ProxyTestTargetInput[]) => Promise<void>;
  reset: () => void;
}

const running = (entry: ProxyTestEntry | undefined): ProxyTestEntry => ({
  running: true,
  result: entry?.result ?? null,
  error: null,
});

/**
 * Proxy tests of the active account. Answers of an account left meanwhile are dropped (`reset`
 * bumps the generation), so a result never shows under another account's name.
 */
export const useProxyTestStore = create<ProxyTestStore>()((set, get) => {
  let generation = 0;
  const mark = (keys: string[]) =>
    set((store) => {
      const entries = { ...store.entries };
      for (const key of keys) entries[key] = running(entries[key]);
      return { entries };
    });
  const finish = (key: string, entry: Partial<ProxyTestEntry>) =>
    set((store) => ({
      entries: {
        ...store.entries,
        [key]: { result: store.entries[key]?.result ?? null, error: null, ...entry, running: false },
      },
    }));

  return {
    entries: {},

    test: async (target) => {
      const key = targetKey(target);
      if (get().entries[key]?.running) return;
      const mine = generation;
      mark([key]);
      const answer = await callApi((api) => api.proxy.test({ target }));
      if (mine !== generation) return;
      if (answer.ok) finish(key, { result: answer.value });
      else finish(key, { error: answer.error });
    },

    testMany: async (targets) => {
      if (targets.length === 0) return;
      const keys = targets.map(targetKey);
      const mine = generation;
      mark(keys);
      // The contract takes at most 200 per call: larger selections go in slices.
      for (let start = 0; start < targets.length; start += 200) {
        const slice = targets.slice(start, start + 200);
        const answer = await callApi((api) => api.proxy.testMany({ targets: slice }));
        if (mine !== generation) return;
        slice.forEach((_, index) => {
          const key = keys[start + index] as string;
          if (answer.ok) finish(key, { result: answer.value[index] ?? null });
          else finish(key, { error: answer.error });
        });
      }
    },

    reset: () => {
      generation += 1;
      set({ entries: {} });
    },
  };
});
