import { accountKey, useAppStore } from '../features/app/app-store';
import { useCatalogStore } from '../features/catalog/catalog-store';
import { useOverviewStore } from '../features/overview/overview-store';
import { usePortsStore } from '../features/ports/ports-store';
import { useProxyTestStore } from '../features/proxy-test/proxy-test-store';
import { useSubscriptionsStore } from '../features/subscriptions/subscriptions-store';
import { useTopUpWizardStore } from '../features/topups/topup-wizard-store';
import { useTopUpsStore } from '../features/topups/topups-store';
import { useBulkStore } from '../shared/bulk/bulk-store';

/**
 * The stores whose data belongs to one account. Each one's `reset()` puts back its empty state (the
 * same as its first state) and drops the answers still in flight. The catalog is public, but it is
 * read from the account's base URL, so it goes too. A new account-scoped store is added here.
 */
const ACCOUNT_SCOPED_STORES: readonly { getState: () => { reset: () => void } }[] = [
  usePortsStore,
  useSubscriptionsStore,
  useTopUpsStore,
  useTopUpWizardStore,
  useCatalogStore,
  useProxyTestStore,
  useOverviewStore,
  useBulkStore,
];

export function resetAccountScopedStores(): void {
  for (const store of ACCOUNT_SCOPED_STORES) store.getState().reset();
}

/**
 * Resets the account-scoped stores whenever the active account changes (switch, new profile, demo
 * start or stop, another base URL), so that no screen shows one account's data under another's name.
 * The one place that does so; answers the unsubscribe function.
 */
export function watchAccountScope(): () => void {
  return useAppStore.subscribe((current, previous) => {
    if (accountKey(current.state) !== accountKey(previous.state)) resetAccountScopedStores();
  });
}
