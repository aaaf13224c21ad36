import { AlertsList } from '../alerts/AlertsList';
import { SubscriptionStringTest } from '../proxy-test/SubscriptionStringTest';
import { AsyncContent } from '../../shared/components/AsyncContent';
import { RadioGroup, type RadioOption } from '../../shared/components/RadioGroup';
import { RefreshButton } from '../../shared/components/RefreshButton';
import { Screen } from '../../shared/components/Screen';
import { useLoadable } from '../../shared/loadable-slice';
import { SubscriptionDetail } from './SubscriptionDetail';
import { PRODUCTS, SubscriptionsList } from './SubscriptionsList';
import { useSelectedSubscriptionId } from './subscription-route';
import {
  subscriptionLists,
  useSubscriptionsStore,
  type SubscriptionProductFilter,
} from './subscriptions-store';

const FILTERS: readonly RadioOption<SubscriptionProductFilter>[] = [
  { value: 'all', label: 'All' },
  { value: 'residential', label: 'Residential' },
  { value: 'mobile-gb', label: 'Mobile GB' },
];

function SubscriptionsOverview() {
  const filter = useSubscriptionsStore((store) => store.filter);
  const setFilter = useSubscriptionsStore((store) => store.setFilter);
  const { loadable } = useLoadable(useSubscriptionsStore, subscriptionLists, filter);
  // Refresh and Retry wait for the service (`fresh`), not main's snapshot.
  const refresh = () => void useSubscriptionsStore.getState().load(filter, true);
  return (
    <Screen
      title="Subscriptions"
      description="Traffic subscriptions billed per GB, with their usage and sub-users."
      actions={
        <RefreshButton onRefresh={refresh} busy={loadable?.status === 'loading'} what="subscriptions" />
      }
    >
      <div className="toolbar">
        <RadioGroup legend="Product" value={filter} options={FILTERS} onChange={setFilter} segmented />
      </div>
      <AsyncContent
        loadable={loadable}
        what="subscriptions"
        onRetry={refresh}
        empty={<p>No traffic subscriptions{filter === 'all' ? '' : ` for ${PRODUCTS[filter]}`}.</p>}
      >
        {(subscriptions) => (
          <>
            <SubscriptionsList subscriptions={subscriptions} />
            <SubscriptionStringTest
              subscriptions={subscriptions.map((s) => ({ id: s.id, label: s.label || s.id }))}
            />
          </>
        )}
      </AsyncContent>
      <AlertsList screen="subscriptions" />
    </Screen>
  );
}

export function SubscriptionsScreen() {
  const selected = useSelectedSubscriptionId();
  return selected === null ? <SubscriptionsOverview /> : <SubscriptionDetail id={selected} />;
}
