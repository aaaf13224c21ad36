import { accountKey, useAppStore } from '../features/app/app-store';
import { useCatalogStore } from '../features/catalog/catalog-store';
import { usePortsStore } from '../features/ports/ports-store';
import { useSubscriptionsStore } from '../features/subscriptions/subscriptions-store';
import { useTopUpsStore } from '../features/topups/topups-store';

/**
 * Drops every list read from the service when the active account changes (switch, new profile, demo
 * start or stop, another base URL), so that no screen shows one account's data under another's name.
 * Answers the unsubscribe function.
 */
export function dropAccountDataOnSwitch(): () => void {
  return useAppStore.subscribe((current, previous) => {
    if (accountKey(current.state) === accountKey(previous.state)) return;
    usePortsStore.getState().reset();
    useSubscriptionsStore.getState().reset();
    useTopUpsStore.getState().reset();
    useCatalogStore.getState().reset();
  });
}
