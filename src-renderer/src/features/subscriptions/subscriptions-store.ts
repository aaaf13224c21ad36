import { create } from 'zustand';
import type { Subscription } from '../../../../src-main/api/api-types';
import { callApi } from '../../api/window-api';
import type { Loadable } from '../../shared/loadable';
import { createLoadableSlice, inMap, type LoadableSlice } from '../../shared/loadable-slice';
import { mergeById } from '../../shared/merge-by-id';

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
  /** Loads again every list that was loaded (after a reconnect: changes may have been missed). */
  reloadLoaded: () => Promise<void>;
  /**
   * Subscriptions that main says changed (`subscriptions:changed`): replaced in place in every list;
   * a new one is added to the lists whose filter it matches.
   */
  applyChanges: (changed: Subscription[]) => void;
  reset: () => void;
}

const empty = () => ({ lists: {} });

const matches = (filter: SubscriptionProductFilter, subscription: Subscription) =>
  filter === 'all' || subscription.productId === filter;

export const useSubscriptionsStore = create<SubscriptionsStore>()((set) => ({
  filter: 'all',
  ...empty(),

  setFilter: (filter) => set({ filter }),
  load: (filter, force = false) => subscriptionLists.load([filter], force),
  reloadLoaded: () => subscriptionLists.reloadLoaded(),
  applyChanges: (changed) =>
    subscriptionLists.updateLoaded((list, [filter]) =>
      mergeById(list, changed, (current, added) => {
        const fitting = added.filter((subscription) => matches(filter, subscription));
        return fitting.length === 0 ? current : [...current, ...fitting];
      }),
    ),
  reset: () => {
    subscriptionLists.forget();
    set(empty());
  },
}));

export const subscriptionLists: LoadableSlice<
  SubscriptionsStore,
  Subscription[],
  [SubscriptionProductFilter]
> = createLoadableSlice(useSubscriptionsStore, {
  place: inMap<SubscriptionsStore, Subscription[]>('lists'),
  key: (filter: SubscriptionProductFilter) => filter,
  fetch: (filter) =>
    callApi((api) => api.subscriptions.list(filter === 'all' ? undefined : { productId: filter })),
});
