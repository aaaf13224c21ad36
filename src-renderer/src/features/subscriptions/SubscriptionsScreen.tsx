import type { Subscription } from '../../../../src-main/api/api-types';
import { AsyncContent } from '../../shared/components/AsyncContent';
import { RadioGroup, type RadioOption } from '../../shared/components/RadioGroup';
import { RefreshButton } from '../../shared/components/RefreshButton';
import { Screen } from '../../shared/components/Screen';
import { StatusBadge } from '../../shared/components/StatusBadge';
import { Time } from '../../shared/components/Time';
import { SubscriptionStringTest } from '../proxy-test/SubscriptionStringTest';
import { TestProxyButton } from '../proxy-test/TestProxyButton';
import { formatBytes, percentOf } from '../../shared/format/format';
import { useLoadable } from '../../shared/loadable-slice';
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

const PRODUCTS: Record<string, string> = { residential: 'Residential', 'mobile-gb': 'Mobile GB' };

export function TrafficBar({ used, total }: { used: number; total: number }) {
  const percent = percentOf(used, total);
  const text = `${formatBytes(used)} of ${formatBytes(total)}`;
  return (
    <div className="traffic">
      <meter
        className="traffic__meter"
        min={0}
        max={Math.max(total, 1)}
        value={Math.min(used, Math.max(total, 1))}
        low={total * 0.75}
        high={total * 0.9}
        optimum={0}
        aria-label={`Traffic used: ${text}`}
      />
      <span className="traffic__text" title={`${used} of ${total} bytes`}>
        {text}
        {percent === null ? '' : ` (${percent}%)`}
      </span>
    </div>
  );
}

function SubscriptionsTable({ subscriptions }: { subscriptions: Subscription[] }) {
  return (
    <div className="table-wrap">
      <table className="table" aria-label="Traffic subscriptions">
        <thead>
          <tr>
            <th scope="col">Subscription</th>
            <th scope="col">Product</th>
            <th scope="col">Status</th>
            <th scope="col">Traffic used</th>
            <th scope="col">Expires</th>
            <th scope="col" className="numeric">
              Sub-users
            </th>
            <th scope="col">Proxy test</th>
          </tr>
        </thead>
        <tbody>
          {subscriptions.map((subscription) => (
            <tr key={subscription.id}>
              <th scope="row">
                {subscription.label || <span className="muted">(no label)</span>}
                <div className="muted small">
                  <code>{subscription.id}</code>
                </div>
              </th>
              <td>{PRODUCTS[subscription.productId] ?? subscription.productId}</td>
              <td>
                <StatusBadge status={subscription.status} />
              </td>
              <td>
                <TrafficBar used={subscription.trafficUsedBytes} total={subscription.trafficTotalBytes} />
              </td>
              <td>
                {subscription.expiresAt ? (
                  <Time iso={subscription.expiresAt} />
                ) : (
                  <span className="muted">Never</span>
                )}
                {subscription.autoRenew ? <div className="muted small">renews automatically</div> : null}
              </td>
              <td className="numeric">{subscription.subUserCount}</td>
              <td>
                <TestProxyButton
                  target={{ kind: 'subscription', subscriptionId: subscription.id, protocol: 'http' }}
                  label={subscription.label || subscription.id}
                />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function SubscriptionsScreen() {
  const filter = useSubscriptionsStore((store) => store.filter);
  const setFilter = useSubscriptionsStore((store) => store.setFilter);
  const { loadable, retry: refresh } = useLoadable(useSubscriptionsStore, subscriptionLists, filter);
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
            <SubscriptionsTable subscriptions={subscriptions} />
            <SubscriptionStringTest
              subscriptions={subscriptions.map((s) => ({ id: s.id, label: s.label || s.id }))}
            />
          </>
        )}
      </AsyncContent>
    </Screen>
  );
}
