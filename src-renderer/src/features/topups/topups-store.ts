import { create } from 'zustand';
import type { TopUp, TopUpPage, TopUpStatus } from '../../../../src-shared/api-types';
import { callApi } from '../../api/window-api';
import { idle, type Loadable } from '../../shared/loadable';
import { createLoadableSlice, inField, type LoadableSlice } from '../../shared/loadable-slice';
import { mergeById } from '../../shared/merge-by-id';
import type { SaveOutcome } from '../../shared/save-outcome';
import { useAppStore } from '../app/app-store';

export type TopUpStatusFilter =
  'all' | Extract<TopUpStatus, 'awaiting_payment' | 'verifying' | 'credited' | 'rejected' | 'expired'>;

export const TOP_UPS_PER_PAGE = 20;
/** The service's `perPage` range is 1-100; these are the sizes offered. */
export const PER_PAGE_CHOICES = [20, 50, 100] as const;

export interface TopUpQuery {
  status: TopUpStatusFilter;
  page: number;
  perPage: number;
}

/**
 * Top-ups of the active account, one page at a time. A new query supersedes the one in flight, so a
 * late answer for a page the user has left is dropped. The watcher's changes are merged as they come.
 */
interface TopUpsStore {
  query: TopUpQuery;
  page: Loadable<TopUpPage>;
  /** The query `page` holds (its data may be of an older query while a new one loads). */
  loadedQuery: TopUpQuery | null;
  setStatus: (status: TopUpStatusFilter) => Promise<void>;
  goToPage: (page: number) => Promise<void>;
  setPerPage: (perPage: number) => Promise<void>;
  exporting: boolean;
  /** What became of the last export: saved (and where), downloaded, cancelled or why it failed. */
  exported: SaveOutcome | null;
  /**
   * Every top-up of the status filter (all pages) as CSV, made in main, then saved through the app
   * store's one way to save a file (a save dialog on the desktop, the browser's download in web mode).
   */
  exportCsv: () => Promise<void>;
  load: (force?: boolean) => Promise<void>;
  /** Loads the page again if it was loaded (after a reconnect: changes may have been missed). */
  reloadLoaded: () => Promise<void>;
  /**
   * Top-ups that main says changed (`topups:changed`): replaced where they are on the page, so a
   * status change shows at once; a new one is put first on page 1 when it fits the status filter.
   */
  applyChanges: (changed: TopUp[]) => void;
  reset: () => void;
}

const sameQuery = (a: TopUpQuery | null, b: TopUpQuery) =>
  a !== null && a.status === b.status && a.page === b.page && a.perPage === b.perPage;

const empty = () => ({
  query: { status: 'all', page: 1, perPage: TOP_UPS_PER_PAGE } as TopUpQuery,
  exporting: false,
  exported: null,
  page: idle<TopUpPage>(),
  loadedQuery: null,
});

const fits = (query: TopUpQuery, topUp: TopUp) => query.status === 'all' || topUp.status === query.status;

export const useTopUpsStore = create<TopUpsStore>()((set, get) => ({
  ...empty(),

  setStatus: async (status) => {
    set((store) => ({ query: { ...store.query, status, page: 1 } }));
    await get().load(true);
  },

  setPerPage: async (perPage) => {
    const size = Math.min(100, Math.max(1, Math.floor(perPage)));
    set((store) => ({ query: { ...store.query, perPage: size, page: 1 } }));
    await get().load(true);
  },

  exportCsv: async () => {
    if (get().exporting) return;
    const { status } = get().query;
    set({ exporting: true, exported: null });
    const result = await callApi((api) => api.topups.exportCsv(status === 'all' ? {} : { status }));
    const exported: SaveOutcome = result.ok
      ? await useAppStore
          .getState()
          .saveTextFile({ fileName: result.value.fileName, content: result.value.csv, type: 'text/csv' })
      : { status: 'failed', error: result.error };
    set({ exporting: false, exported });
  },

  goToPage: async (page) => {
    set((store) => ({ query: { ...store.query, page: Math.max(1, Math.floor(page)) } }));
    await get().load(true);
  },

  load: async (force = false) => {
    const { query, page, loadedQuery } = get();
    const otherQuery = page.status === 'ready' && !sameQuery(loadedQuery, query);
    await topUpPages.load([query], force || otherQuery);
  },

  reloadLoaded: () => topUpPages.reloadLoaded(),

  applyChanges: (changed) =>
    topUpPages.updateLoaded((page, [query]) => {
      let placedCount = 0;
      const data = mergeById(page.data, changed, (current, added) => {
        const placed = query.page === 1 ? added.filter((topUp) => fits(query, topUp)) : [];
        placedCount = placed.length;
        if (placedCount === 0) return current;
        // The page keeps its size: what a new top-up pushes off it is on page 2 now.
        return [...placed, ...current].slice(0, Math.max(page.pagination.perPage, current.length));
      });
      if (data === page.data) return page;
      const total = page.pagination.total + placedCount;
      const pages = Math.ceil(total / Math.max(1, page.pagination.perPage));
      return {
        data,
        pagination: { ...page.pagination, total, totalPages: Math.max(page.pagination.totalPages, pages) },
      };
    }),

  reset: () => {
    topUpPages.forget();
    set(empty());
  },
}));

const topUpPages: LoadableSlice<TopUpsStore, TopUpPage, [TopUpQuery]> = createLoadableSlice(useTopUpsStore, {
  place: inField<TopUpsStore, TopUpPage>('page'),
  fetch: (query: TopUpQuery) =>
    callApi((api) =>
      api.topups.list({
        page: query.page,
        perPage: query.perPage,
        ...(query.status === 'all' ? {} : { status: query.status }),
      }),
    ),
  supersede: true,
  alongside: (_page, [query]) => ({ loadedQuery: query }),
});
