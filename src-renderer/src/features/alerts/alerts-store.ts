import { create } from 'zustand';
import type { AlertView, IpcResult } from '../../../../src-shared/contract';
import { callApi } from '../../api/window-api';
import { idle, type Loadable } from '../../shared/loadable';
import { createLoadableSlice, inField, type LoadableSlice } from '../../shared/loadable-slice';

/** How many alerts the in-app list keeps; main keeps its own history too. */
const ALERTS_SHOWN = 200;

/**
 * Alerts raised by main's alert center, for every profile (a background job may warn about an
 * account that is not the active one). `alerts:raised` adds to the list through the event bridge.
 */
interface AlertsStore {
  alerts: Loadable<AlertView[]>;
  load: (force?: boolean) => Promise<void>;
  reloadLoaded: () => Promise<void>;
  /** One alert pushed by main: first in the list, once (a replayed event is not shown twice). */
  applyRaised: (alert: AlertView) => void;
  dismiss: (alertId: string) => Promise<IpcResult<{ dismissed: boolean }>>;
}

export const useAlertsStore = create<AlertsStore>()((set, get) => ({
  alerts: idle<AlertView[]>(),
  load: (force = false) => alertsList.load([], force),
  reloadLoaded: () => alertsList.reloadLoaded(),
  applyRaised: (alert) => {
    const current = get().alerts;
    const list = current.data ?? [];
    if (list.some((known) => known.id === alert.id)) return;
    set({ alerts: { ...current, data: [alert, ...list].slice(0, ALERTS_SHOWN) } });
  },
  dismiss: async (alertId) => {
    const result = await callApi((api) => api.alerts.dismiss({ alertId }));
    if (result.ok) {
      const current = get().alerts;
      set({ alerts: { ...current, data: (current.data ?? []).filter((alert) => alert.id !== alertId) } });
    }
    return result;
  },
}));

export const alertsList: LoadableSlice<AlertsStore, AlertView[], []> = createLoadableSlice(useAlertsStore, {
  place: inField<AlertsStore, AlertView[]>('alerts'),
  fetch: () => callApi((api) => api.alerts.list()),
});
