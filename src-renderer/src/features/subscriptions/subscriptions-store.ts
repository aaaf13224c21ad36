import { create } from 'zustand';
import type { SubUser, Subscription, UsageReport } from '../../../../src-shared/api-types';
import type {
  CallInput,
  IpcResult,
  PortHealthChanged,
  RendererApi,
  SubscriptionHealth,
  SubUserRow,
  SubUsersListView,
} from '../../../../src-shared/contract';
import { callApi } from '../../api/window-api';
import type { Loadable } from '../../shared/loadable';
import { createLoadableSlice, inMap, type LoadableSlice } from '../../shared/loadable-slice';
import { mergeById } from '../../shared/merge-by-id';
import { rowsOfTable } from '../../shared/wire-table';

export type SubscriptionProductFilter = 'all' | 'residential' | 'mobile-gb';

/** A subscription's sub-users as the screens show them (`subscriptions:subUsers`'s table as rows). */
export interface SubUserRows {
  rows: SubUserRow[];
  limit: number | null;
}

export interface UsageQuery {
  subscriptionId: string;
  from: string;
  to: string;
  subUserId?: string | undefined;
}

/**
 * Traffic subscriptions of the active account: the lists per product filter, one subscription's
 * detail, its sub-users and its usage reports, and every write on them. Writes answer the
 * `IpcResult` so that a form can put the server's field errors on its fields.
 */
interface SubscriptionsStore {
  filter: SubscriptionProductFilter;
  lists: Partial<Record<SubscriptionProductFilter, Loadable<Subscription[]>>>;
  details: Partial<Record<string, Loadable<Subscription>>>;
  subUsers: Partial<Record<string, Loadable<SubUserRows>>>;
  usage: Partial<Record<string, Loadable<UsageReport>>>;
  /**
   * Scores from the health checks through each subscription's main user (`subscriptions:health`),
   * keyed `*` (the list's Health cell) or by subscription id (its page reads only its own).
   */
  health: Partial<Record<string, Loadable<SubscriptionHealth[]>>>;
  setFilter: (filter: SubscriptionProductFilter) => void;
  load: (filter: SubscriptionProductFilter, force?: boolean) => Promise<void>;
  /** Main's snapshot of the whole list sent with the first state: in place at once, as if loaded. */
  seed: (subscriptions: Subscription[]) => void;
  /** Loads again every list that was loaded (after a reconnect: changes may have been missed). */
  reloadLoaded: () => Promise<void>;
  /**
   * Subscriptions that main says changed (`subscriptions:changed`): replaced in place in every list
   * and detail; a new one is added to the lists whose filter it matches. `subUsers` replaces the
   * sub-user lists it names.
   */
  applyChanges: (
    changed: Subscription[],
    subUsers?: Record<string, SubUserRow[]>,
    removed?: string[],
  ) => void;
  update: (input: CallInput<'subscriptions:update'>) => Promise<IpcResult<Subscription>>;
  resetPassword: (subscriptionId: string) => Promise<IpcResult<Subscription>>;
  createSubUser: (input: CallInput<'subscriptions:createSubUser'>) => Promise<IpcResult<SubUser>>;
  updateSubUser: (input: CallInput<'subscriptions:updateSubUser'>) => Promise<IpcResult<SubUser>>;
  deleteSubUser: (subscriptionId: string, subUserId: string) => Promise<IpcResult<{ deleted: true }>>;
  createSubUsers: (
    input: CallInput<'subscriptions:createSubUsers'>,
  ) => ReturnType<RendererSubscriptions['createSubUsers']>;
  exportCredentials: (
    input: CallInput<'subscriptions:exportCredentials'>,
  ) => ReturnType<RendererSubscriptions['exportCredentials']>;
  exportUsage: (input: UsageQuery) => ReturnType<RendererSubscriptions['exportUsage']>;
  buildProxyString: (
    input: CallInput<'subscriptions:buildProxyString'>,
  ) => ReturnType<RendererSubscriptions['buildProxyString']>;
  /**
   * `ports:healthChanged` of kind `subscription`: the checks moved a subscription up or down. Its
   * status, since and last check change at once wherever its scores are held (the list's Health
   * cell, its page's summary); the uptime and latency come with the next read.
   */
  applyHealthChange: (change: PortHealthChanged) => void;
  /** Reads the health scores of every subscription (`null`) or of one. */
  loadHealth: (subscriptionId: string | null, force?: boolean) => Promise<void>;
  reset: () => void;
}

type RendererSubscriptions = RendererApi['subscriptions'];

const empty = () => ({ lists: {}, details: {}, subUsers: {}, usage: {}, health: {} });

const matches = (filter: SubscriptionProductFilter, subscription: Subscription) =>
  filter === 'all' || subscription.productId === filter;

/** What the list keeps of a sub-user a write answered whole: its row, without the password. */
function toSubUserRow(subUser: SubUser | SubUserRow): SubUserRow {
  return {
    id: subUser.id,
    label: subUser.label,
    username: subUser.username,
    trafficLimitBytes: subUser.trafficLimitBytes,
    trafficUsedBytes: subUser.trafficUsedBytes,
    enabled: subUser.enabled,
    createdAt: subUser.createdAt,
  };
}

function replaceSubUser(view: SubUserRows, subUser: SubUser): SubUserRows {
  return { ...view, rows: mergeById(view.rows, [toSubUserRow(subUser)]) };
}

/** The columns this page reads (`SUB_USER_ROW_COLUMNS` in the contract; the type checks they are the same). */
const SUB_USER_COLUMNS: SubUsersListView['columns'] = [
  'id',
  'label',
  'username',
  'trafficLimitBytes',
  'trafficUsedBytes',
  'enabled',
  'createdAt',
];

/** `subscriptions:subUsers`'s table as rows. */
function rowsOfSubUsersList(view: SubUsersListView): SubUserRows {
  const rows = rowsOfTable(view, SUB_USER_COLUMNS, (values) => ({
    id: values[0],
    label: values[1],
    username: values[2],
    trafficLimitBytes: values[3],
    trafficUsedBytes: values[4],
    enabled: values[5],
    createdAt: values[6],
  }));
  return { rows, limit: view.limit };
}

export const useSubscriptionsStore = create<SubscriptionsStore>()((set, get) => {
  /** A subscription main answered after a write: every list and the detail show it. */
  const learned = (subscription: Subscription) => get().applyChanges([subscription]);
  const subUserChanged = (subscriptionId: string, change: (view: SubUserRows) => SubUserRows) =>
    subUserLists.updateLoaded((view, [id]) => (id === subscriptionId ? change(view) : view));

  return {
    filter: 'all',
    ...empty(),

    setFilter: (filter) => set({ filter }),
    load: (filter, force = false) => subscriptionLists.load(force ? [filter, true] : [filter], force),
    seed: (subscriptions) => {
      const { filter } = get();
      subscriptionLists.seed(
        [filter],
        subscriptions.filter((subscription) => matches(filter, subscription)),
      );
    },
    reloadLoaded: async () => {
      await Promise.all([
        subscriptionLists.reloadLoaded(),
        subscriptionDetails.reloadLoaded(),
        subUserLists.reloadLoaded(),
        healthScores.reloadLoaded(),
      ]);
    },
    applyChanges: (changed, subUsers, removed) => {
      const gone = new Set(removed ?? []);
      subscriptionLists.updateLoaded((list, [filter]) => {
        const merged = mergeById(list, changed, (current, added) => {
          const fitting = added.filter((subscription) => matches(filter, subscription));
          return fitting.length === 0 ? current : [...current, ...fitting];
        });
        return gone.size ? merged.filter((subscription) => !gone.has(subscription.id)) : merged;
      });
      subscriptionDetails.updateLoaded(
        (current, [id]) => changed.find((subscription) => subscription.id === id) ?? current,
      );
      if (subUsers) {
        subUserLists.updateLoaded((view, [id]) => {
          const rows = subUsers[id];
          // Rows only: a main of an older version may still send whole sub-users.
          return rows ? { ...view, rows: rows.map(toSubUserRow) } : view;
        });
      }
    },
    loadHealth: (subscriptionId, force = false) => healthScores.load([subscriptionId], force),
    applyHealthChange: (change) =>
      healthScores.updateLoaded((entries) =>
        entries.map((entry) =>
          entry.subscriptionId === change.id
            ? {
                ...entry,
                status: change.status,
                statusSince: change.statusSince,
                failuresInARow: change.failuresInARow,
                lastCheck: change.lastCheck,
              }
            : entry,
        ),
      ),
    update: async (input) => {
      const result = await callApi((api) => api.subscriptions.update(input));
      if (result.ok) learned(result.value);
      return result;
    },
    resetPassword: async (subscriptionId) => {
      const result = await callApi((api) => api.subscriptions.resetPassword({ subscriptionId }));
      if (result.ok) learned(result.value);
      return result;
    },
    createSubUser: async (input) => {
      const result = await callApi((api) => api.subscriptions.createSubUser(input));
      if (result.ok) subUserChanged(input.subscriptionId, (view) => replaceSubUser(view, result.value));
      return result;
    },
    updateSubUser: async (input) => {
      const result = await callApi((api) => api.subscriptions.updateSubUser(input));
      if (result.ok) subUserChanged(input.subscriptionId, (view) => replaceSubUser(view, result.value));
      // An answer that may or may not have been applied: read the list again rather than guess.
      else if (result.error.outcomeUnknown) void subUserLists.load([input.subscriptionId], true);
      return result;
    },
    deleteSubUser: async (subscriptionId, subUserId) => {
      const result = await callApi((api) => api.subscriptions.deleteSubUser({ subscriptionId, subUserId }));
      if (result.ok || result.error.code === 'not_found') {
        subUserChanged(subscriptionId, (view) => ({
          ...view,
          rows: view.rows.filter((subUser) => subUser.id !== subUserId),
        }));
      }
      return result;
    },
    createSubUsers: async (input) => {
      const result = await callApi((api) => api.subscriptions.createSubUsers(input));
      if (result.ok) {
        subUserChanged(input.subscriptionId, (view) =>
          result.value.created.reduce(replaceSubUser, { ...view, limit: result.value.limit ?? view.limit }),
        );
      }
      return result;
    },
    exportCredentials: (input) => callApi((api) => api.subscriptions.exportCredentials(input)),
    exportUsage: (input) => callApi((api) => api.subscriptions.exportUsage(usageInput(input))),
    buildProxyString: (input) => callApi((api) => api.subscriptions.buildProxyString(input)),
    reset: () => {
      subscriptionLists.forget();
      subscriptionDetails.forget();
      subUserLists.forget();
      usageReports.forget();
      healthScores.forget();
      set(empty());
    },
  };
});

const usageInput = ({ subscriptionId, from, to, subUserId }: UsageQuery) =>
  subUserId ? { subscriptionId, from, to, subUserId } : { subscriptionId, from, to };

/** `fresh`: Refresh, Retry and a reconnect wait for the service instead of main's snapshot. */
export const subscriptionLists: LoadableSlice<
  SubscriptionsStore,
  Subscription[],
  [SubscriptionProductFilter, fresh?: boolean]
> = createLoadableSlice<SubscriptionsStore, Subscription[], [SubscriptionProductFilter, fresh?: boolean]>(
  useSubscriptionsStore,
  {
    place: inMap<SubscriptionsStore, Subscription[]>('lists'),
    key: (filter: SubscriptionProductFilter) => filter,
    fetch: (filter, fresh) =>
      callApi((api) =>
        api.subscriptions.list(
          filter === 'all'
            ? fresh
              ? { fresh }
              : undefined
            : { productId: filter, ...(fresh ? { fresh } : {}) },
        ),
      ),
  },
);

export const subscriptionDetails: LoadableSlice<SubscriptionsStore, Subscription, [string]> =
  createLoadableSlice(useSubscriptionsStore, {
    place: inMap<SubscriptionsStore, Subscription>('details'),
    key: (id: string) => id,
    fetch: (subscriptionId) => callApi((api) => api.subscriptions.get({ subscriptionId })),
  });

/** Every subscription's scores (`null`, the list's) or one subscription's (its page's). */
export const healthScores: LoadableSlice<SubscriptionsStore, SubscriptionHealth[], [string | null]> =
  createLoadableSlice(useSubscriptionsStore, {
    place: inMap<SubscriptionsStore, SubscriptionHealth[]>('health'),
    // No subscription id is `*`: the whole list's key cannot meet one subscription's.
    key: (subscriptionId: string | null) => subscriptionId ?? '*',
    fetch: (subscriptionId) =>
      callApi((api) => api.subscriptions.health(subscriptionId === null ? undefined : { subscriptionId })),
  });

/** Decoded inside `callApi`: a table of other columns is a failed call on screen, not a spinner left turning. */
function fetchSubUsers(subscriptionId: string): Promise<IpcResult<SubUserRows>> {
  return callApi(async (api) => {
    const result = await api.subscriptions.subUsers({ subscriptionId });
    return result.ok ? { ok: true, value: rowsOfSubUsersList(result.value) } : result;
  });
}

export const subUserLists: LoadableSlice<SubscriptionsStore, SubUserRows, [string]> = createLoadableSlice(
  useSubscriptionsStore,
  {
    place: inMap<SubscriptionsStore, SubUserRows>('subUsers'),
    key: (id: string) => id,
    fetch: fetchSubUsers,
  },
);

/**
 * At most `limit` calls at once, the rest queued in order: the list asks the last 7 days of every
 * row it shows (a screenful at a time), which must not become 30 requests at once against the API.
 */
export function concurrencyLimit(limit: number): <T>(run: () => Promise<T>) => Promise<T> {
  let active = 0;
  const waiting: (() => void)[] = [];
  return async (run) => {
    // A finished call hands its slot to the next in line, so a newcomer cannot slip in between.
    if (active >= limit) await new Promise<void>((resolve) => waiting.push(resolve));
    else active += 1;
    try {
      return await run();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else active -= 1;
    }
  };
}

const USAGE_CONCURRENCY = 4;
const usageLimit = concurrencyLimit(USAGE_CONCURRENCY);

export const usageReports: LoadableSlice<SubscriptionsStore, UsageReport, [UsageQuery]> = createLoadableSlice(
  useSubscriptionsStore,
  {
    place: inMap<SubscriptionsStore, UsageReport>('usage'),
    key: (query: UsageQuery) => [query.subscriptionId, query.from, query.to, query.subUserId ?? ''].join('|'),
    // The newest range the user asked for wins over one still in flight.
    supersede: true,
    fetch: (query) => usageLimit(() => callApi((api) => api.subscriptions.usage(usageInput(query)))),
  },
);
