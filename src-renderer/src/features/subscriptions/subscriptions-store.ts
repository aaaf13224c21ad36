import { create } from 'zustand';
import type { Subscription } from '../../../../src-main/api/api-types';
import { callApi } from '../../api/window-api';
import { loading, needsLoad, settled, type Loadable } from '../../shared/loadable';

export type SubscriptionProductFilter = 'all' | 'residential' | 'mobile-gb';

/**
 * Traffic subscriptions of the active account, cached per product filter. Sub-users, usage and
 * writes join this store in later slices.
 */
interface SubscriptionsStore {
  filter: SubscriptionProductFilter;
  lists: Partial<Record<SubscriptionProductFilter, Loadable<Subscription[]>>>;
  setFilter: (filter: SubscriptionProductFilter) => void;
  load: (filter: SubscriptionProductFilter, force?: boolean) => Promise<void>;
  reset: () => void;
}

/** Bumped by `reset`: answers to calls made before it belong to the previous account. */
let generation = 0;

export const useSubscriptionsStore = create<SubscriptionsStore>()((set, get) => ({
  filter: 'all',
  lists: {},

  setFilter: (filter) => set({ filter }),

  load: async (filter, force = false) => {
    const current = get().lists[filter];
    if (!needsLoad(current, force)) return;
    const mine = generation;
    set((store) => ({ lists: { ...store.lists, [filter]: loading(current) } }));
    const result = await callApi((api) =>
      api.subscriptions.list(filter === 'all' ? undefined : { productId: filter }),
    );
    if (mine !== generation) return;
    set((store) => ({ lists: { ...store.lists, [filter]: settled(store.lists[filter], result) } }));
  },

  reset: () => {
    generation += 1;
    set({ lists: {} });
  },
}));
