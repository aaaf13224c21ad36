import type { ReactNode } from 'react';
import type { AlertView } from '../../../../src-shared/contract';
import { AlertsList } from '../alerts/AlertsList';
import { alertsList, useAlertsStore } from '../alerts/alerts-store';
import { SubscriptionStringTest } from '../proxy-test/SubscriptionStringTest';
import { AsyncContent } from '../../shared/components/AsyncContent';
import { RadioGroup, type RadioOption } from '../../shared/components/RadioGroup';
import { RefreshButton } from '../../shared/components/RefreshButton';
import { Screen } from '../../shared/components/Screen';
import { useLoadable } from '../../shared/loadable-slice';
import { SubscriptionDetail } from './SubscriptionDetail';
import { PRODUCTS, SubscriptionsList } from './SubscriptionsList';
import { subscriptionHref, useSelectedSubscriptionId } from './subscription-route';
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

/**
 * A part of the screen under the list, closed until asked for: the table keeps the window's height
 * (and the wheel), and an open part takes only what it needs, scrolling inside itself past that.
 * Its content stays mounted while closed (a half-filled form keeps what was typed).
 */
/** An alert's subject is a subscription (`sub_1`) or one of its sub-users (`sub_1/su_2`): its page. */
const alertSubjectHref = (alert: AlertView) =>
  subscriptionHref(alert.subjectId.split('/')[0] || alert.subjectId);

function Extra({ summary, children }: { summary: ReactNode; children: ReactNode }) {
  return (
    <details className="screen-extra">
      <summary>{summary}</summary>
      <div className="screen-extra__body">{children}</div>
    </details>
  );
}

/** "Alerts 2": the subscriptions' alerts counted on the closed part, so none goes unseen. */
function AlertsSummary() {
  const { loadable } = useLoadable(useAlertsStore, alertsList);
  const count = loadable?.data?.filter((alert) => alert.screen === 'subscriptions').length ?? 0;
  return (
    <>
      Alerts{' '}
      <span className={count > 0 ? 'badge badge--warn' : 'badge badge--muted'}>
        {count}
        <span className="visually-hidden"> about subscriptions</span>
      </span>
    </>
  );
}

function SubscriptionsOverview() {
  const filter = useSubscriptionsStore((store) => store.filter);
  const setFilter = useSubscriptionsStore((store) => store.setFilter);
  const { loadable } = useLoadable(useSubscriptionsStore, subscriptionLists, filter);
  // Refresh and Retry wait for the service (`fresh`), not main's snapshot; the Health cells are read again too.
  const refresh = () => {
    const store = useSubscriptionsStore.getState();
    void store.load(filter, true);
    void store.loadHealth(null, true);
  };
  const subscriptions = loadable?.data ?? [];
  return (
    <Screen
      fill
      title="Subscriptions"
      description="Traffic subscriptions billed per GB, with their usage and sub-users."
      actions={
        <>
          <RadioGroup
            legend="Product"
            hideLegend
            value={filter}
            options={FILTERS}
            onChange={setFilter}
            segmented
          />
          <RefreshButton onRefresh={refresh} busy={loadable?.status === 'loading'} what="subscriptions" />
        </>
      }
    >
      <AsyncContent
        loadable={loadable}
        what="subscriptions"
        onRetry={refresh}
        empty={<p>No traffic subscriptions{filter === 'all' ? '' : ` for ${PRODUCTS[filter]}`}.</p>}
      >
        {(shown) => (
          <div className="fill-column">
            <SubscriptionsList subscriptions={shown} />
          </div>
        )}
      </AsyncContent>
      <div className="screen-extras">
        {subscriptions.length > 0 ? (
          <Extra summary="Test a proxy string">
            <SubscriptionStringTest
              subscriptions={subscriptions.map((s) => ({ id: s.id, label: s.label || s.id }))}
            />
          </Extra>
        ) : null}
        <Extra summary={<AlertsSummary />}>
          <AlertsList screen="subscriptions" subjectHref={alertSubjectHref} />
        </Extra>
      </div>
    </Screen>
  );
}

export function SubscriptionsScreen() {
  const selected = useSelectedSubscriptionId();
  return selected === null ? <SubscriptionsOverview /> : <SubscriptionDetail id={selected} />;
}
