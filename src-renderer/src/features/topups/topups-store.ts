import { create } from 'zustand';
import type { TopUpPage, TopUpStatus } from '../../../../src-main/api/api-types';
import { callApi } from '../../api/window-api';
import { idle, loading, settled, type Loadable } from '../../shared/loadable';

export type TopUpStatusFilter =
  'all' | Extract<TopUpStatus, 'awaiting_payment' | 'verifying' | 'credited' | 'rejected' | 'expired'>;

export const TOP_UPS_PER_PAGE = 20;

export interface TopUpQuery {
  status: TopUpStatusFilter;
  page: number;
}

/**
 * Top-ups of the active account, one page at a time. The query is part of the state so that a late
 * answer for a page the user has left is dropped. The wizard and the watcher's updates come later.
 */
interface TopUpsStore {
  query: TopUpQuery;
  page: Loadable<TopUpPage>;
  /** The query `page` holds (its data may be of an older query while a new one loads). */
  loadedQuery: TopUpQuery | null;
  setStatus: (status: TopUpStatusFilter) => Promise<void>;
  goToPage: (page: number) => Promise<void>;
  load: (force?: boolean) => Promise<void>;
  reset: () => void;
}

const sameQuery = (a: TopUpQuery | null, b: TopUpQuery) =>
  a !== null && a.status === b.status && a.page === b.page;

export const useTopUpsStore = create<TopUpsStore>()((set, get) => ({
  query: { status: 'all', page: 1 },
  page: idle(),
  loadedQuery: null,

  setStatus: async (status) => {
    set({ query: { status, page: 1 } });
    await get().load(true);
  },

  goToPage: async (page) => {
    set((store) => ({ query: { ...store.query, page: Math.max(1, Math.floor(page)) } }));
    await get().load(true);
  },

  load: async (force = false) => {
    const { query, page, loadedQuery } = get();
    if (!force && page.status === 'loading') return;
    if (!force && page.status === 'ready' && sameQuery(loadedQuery, query)) return;
    set({ page: loading(page) });
    const result = await callApi((api) =>
      api.topups.list({
        page: query.page,
        perPage: TOP_UPS_PER_PAGE,
        ...(query.status === 'all' ? {} : { status: query.status }),
      }),
    );
    // A newer query (or a reset) started meanwhile: its own load owns the screen.
    if (get().query !== query) return;
    set((store) => ({
      page: settled(store.page, result),
      loadedQuery: result.ok ? query : store.loadedQuery,
    }));
  },

  reset: () => set({ query: { status: 'all', page: 1 }, page: idle(), loadedQuery: null }),
}));
