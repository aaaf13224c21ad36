import { create } from 'zustand';
import type {
  AttentionAction,
  AttentionGroup,
  AttentionItem,
  HealthSnapshot,
  IpcError,
  IpcResult,
} from '../../../../src-shared/contract';
import { callApi } from '../../api/window-api';
import { idle, type Loadable } from '../../shared/loadable';
import { createLoadableSlice, inField, type LoadableSlice } from '../../shared/loadable-slice';
import { useAlertsStore } from '../alerts/alerts-store';
import { usePortsStore } from '../ports/ports-store';
import { useProxyTestStore } from '../proxy-test/proxy-test-store';
import { useSubscriptionsStore } from '../subscriptions/subscriptions-store';

/** Events in a burst (a poll announces every port and subscription) make one read, this long after the last. */
export const REFRESH_DELAY_MS = 400;

/** Actions the store runs itself; the others (open, continue, top up) are navigation, in the screen. */
type CallAction = Extract<AttentionAction, { kind: 'enable_auto_renew' | 'test_again' | 'dismiss_alert' }>;

export const isCallAction = (action: AttentionAction): action is CallAction =>
  action.kind === 'enable_auto_renew' || action.kind === 'test_again' || action.kind === 'dismiss_alert';

/**
 * The overview of the active account: the health snapshot main builds (`overview:get`), read again
 * when main announces a change that may alter it, and the one-click actions of its items.
 */
interface OverviewStore {
  snapshot: Loadable<HealthSnapshot>;
  /** Items whose action is running, by item id. */
  acting: Record<string, boolean>;
  /** Why an item's action failed, by item id. */
  actionErrors: Record<string, IpcError>;
  load: (force?: boolean) => Promise<void>;
  /** Refresh: main reads the ports, subscriptions and open top-ups again before answering. */
  refresh: () => Promise<void>;
  reloadLoaded: () => Promise<void>;
  /** Something changed in main: read again soon, once per burst, when the overview was read at all. */
  refreshSoon: () => void;
  /** Runs an item's action and reads the overview again. */
  act: (item: AttentionItem) => Promise<IpcResult<unknown>>;
  /** Runs a group's action on every member (one after the other), then reads the overview again. */
  actAll: (group: AttentionGroup) => Promise<IpcResult<unknown>>;
  reset: () => void;
}

let pending: ReturnType<typeof setTimeout> | null = null;

function runAction(action: CallAction): Promise<IpcResult<unknown>> {
  switch (action.kind) {
    case 'enable_auto_renew':
      return action.target === 'port'
        ? usePortsStore.getState().update(action.id, { autoRenew: true })
        : useSubscriptionsStore.getState().update({ subscriptionId: action.id, autoRenew: true });
    case 'dismiss_alert':
      return useAlertsStore.getState().dismiss(action.alertId);
    case 'test_again':
      return testPort(action.portId, action.protocol);
  }
}

/** The proxy test through its store (so the Ports screen shows the same result); its failure is the result's. */
async function testPort(portId: string, protocol: 'http' | 'socks5'): Promise<IpcResult<unknown>> {
  const target = { kind: 'port' as const, portId, protocol };
  await useProxyTestStore.getState().test(target);
  const entry = Object.values(useProxyTestStore.getState().entries).find(
    (candidate) => candidate.result?.target.kind === 'port' && candidate.result.target.portId === portId,
  );
  if (entry?.error) return { ok: false, error: entry.error };
  return { ok: true, value: entry?.result ?? null };
}

export const useOverviewStore = create<OverviewStore>()((set, get) => ({
  snapshot: idle<HealthSnapshot>(),
  acting: {},
  actionErrors: {},
  load: (force = false) => overviewSlice.load([false], force),
  refresh: async () => {
    await overviewSlice.load([true], true);
    await useAlertsStore.getState().reloadLoaded();
  },
  reloadLoaded: () => overviewSlice.reloadLoaded(),
  refreshSoon: () => {
    if (get().snapshot.status === 'idle') return;
    if (pending !== null) clearTimeout(pending);
    pending = setTimeout(() => {
      pending = null;
      void get().load(true);
      // The alerts list is judged by the same model: a resolved cause leaves it with its item.
      void useAlertsStore.getState().reloadLoaded();
    }, REFRESH_DELAY_MS);
  },
  act: async (item) => {
    const { action } = item;
    if (!isCallAction(action) || get().acting[item.id]) return { ok: true, value: null };
    set((state) => ({ acting: { ...state.acting, [item.id]: true } }));
    const result = await runAction(action);
    set((state) => {
      const acting = { ...state.acting };
      delete acting[item.id];
      const actionErrors = { ...state.actionErrors };
      if (result.ok) delete actionErrors[item.id];
      else actionErrors[item.id] = result.error;
      return { acting, actionErrors };
    });
    if (result.ok) await Promise.all([get().load(true), useAlertsStore.getState().reloadLoaded()]);
    return result;
  },
  actAll: async (group) => {
    const { action } = group;
    if (!action || get().acting[group.id]) return { ok: true, value: null };
    set((state) => ({ acting: { ...state.acting, [group.id]: true } }));
    let failed: IpcResult<unknown> | null = null;
    // One after the other: a large account's 14 ports are 14 small writes, not a burst at the service.
    for (const id of action.ids) {
      const result =
        action.target === 'port'
          ? await usePortsStore.getState().update(id, { autoRenew: true })
          : await useSubscriptionsStore.getState().update({ subscriptionId: id, autoRenew: true });
      if (!result.ok && failed === null) failed = result;
    }
    const result = failed ?? { ok: true as const, value: null };
    set((state) => {
      const acting = { ...state.acting };
      delete acting[group.id];
      const actionErrors = { ...state.actionErrors };
      if (result.ok) delete actionErrors[group.id];
      else actionErrors[group.id] = result.error;
      return { acting, actionErrors };
    });
    await Promise.all([get().load(true), useAlertsStore.getState().reloadLoaded()]);
    return result;
  },
  reset: () => {
    if (pending !== null) clearTimeout(pending);
    pending = null;
    overviewSlice.forget();
    set({ snapshot: idle<HealthSnapshot>(), acting: {}, actionErrors: {} });
  },
}));

export const overviewSlice: LoadableSlice<OverviewStore, HealthSnapshot, [refresh: boolean]> =
  createLoadableSlice<OverviewStore, HealthSnapshot, [refresh: boolean]>(useOverviewStore, {
    place: inField<OverviewStore, HealthSnapshot>('snapshot'),
    // One snapshot whichever way it was asked for: the newest answer wins.
    key: () => '',
    supersede: true,
    fetch: (refresh: boolean) => callApi((api) => api.overview.get(refresh ? { refresh: true } : undefined)),
  });
