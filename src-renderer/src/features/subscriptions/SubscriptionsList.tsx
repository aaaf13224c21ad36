import { useCallback, useMemo, useState } from 'react';
import './subscriptions-table.css';
import type { Subscription } from '../../../../src-shared/api-types';
import type { SubscriptionHealth } from '../../../../src-shared/contract';
import { DataTable, type DataColumn, type DataFilter } from '../../shared/table/DataTable';
import { StatusBadge } from '../../shared/components/StatusBadge';
import { Time } from '../../shared/components/Time';
import { formatBytes, humanize } from '../../shared/format/format';
import { EXPIRY_WINDOWS, expiryWindow } from '../../shared/table/table-model';
import { useLoadable } from '../../shared/loadable-slice';
import { useNow } from '../../shared/ticker';
import { useAppStore } from '../app/app-store';
import { TestAllButton, TestAllResults, type NamedTarget } from '../proxy-test/TestAllResults';
import { TestProxyButton } from '../proxy-test/TestProxyButton';
import {
  averagePace,
  daysUntilRunOut,
  FORECAST_DAYS,
  forecastText,
  hasExpired,
  recentPace,
} from './subscription-list';
import { subscriptionHref } from './subscription-route';
import { HEALTH_WORDS, healthRank, healthWord, SubscriptionHealthCell } from './SubscriptionHealthSummary';
import { TrafficBar } from './TrafficBar';
import { healthScores, usageReports, useSubscriptionsStore, type UsageQuery } from './subscriptions-store';
import { presetRange } from './usage-range';

export const PRODUCTS: Record<string, string> = { residential: 'Residential', 'mobile-gb': 'Mobile GB' };

/** The usage query of a subscription's last 7 days (today included), shared with the detail's preset. */
const recentQuery = (subscriptionId: string, nowMs: number): UsageQuery => ({
  subscriptionId,
  ...presetRange(FORECAST_DAYS, nowMs),
});

/**
 * "Runs out in about N days" at the last 7 days' pace. The usage is read per subscription, so it is
 * read only for the rows on screen (the table mounts only those) and kept in the store: scrolling
 * back or opening the detail's 7-day usage asks nothing again.
 */
function ForecastCell({ subscription, nowMs }: { subscription: Subscription; nowMs: number }) {
  // Expired: nothing runs out any more, and its usage is not read for a forecast.
  if (hasExpired(subscription, nowMs)) return <span className="muted">expired: no forecast</span>;
  return <PaceForecast subscription={subscription} nowMs={nowMs} />;
}

function PaceForecast({ subscription, nowMs }: { subscription: Subscription; nowMs: number }) {
  const { loadable } = useLoadable(useSubscriptionsStore, usageReports, recentQuery(subscription.id, nowMs));
  if (subscription.trafficRemainingBytes <= 0) return <>{forecastText(0)}</>;
  const report = loadable?.data;
  if (!report) {
    return loadable?.status === 'error' ? (
      <span className="muted" title={loadable.error?.message}>
        no forecast (usage not read)
      </span>
    ) : (
      <span className="muted">reading usage…</span>
    );
  }
  const days = daysUntilRunOut(
    subscription.trafficRemainingBytes,
    recentPace(report, subscription.createdAt, nowMs),
  );
  return <>{forecastText(days) ?? <span className="muted">no use yet</span>}</>;
}

/** A subscription's main user through the proxy test (HTTP port, no targeting). */
const mainUserTarget = (s: Subscription): NamedTarget => ({
  target: { kind: 'subscription', subscriptionId: s.id, protocol: 'http' },
  label: s.label || s.id,
  href: subscriptionHref(s.id),
});

const subscriptionKey = (s: Subscription) => s.id;
const subscriptionName = (s: Subscription) => s.label || s.id;
const searchText = (s: Subscription) => [s.label, s.id, s.username, s.planId].join(' ');
const shareUsed = (s: Subscription) =>
  s.trafficTotalBytes > 0 ? s.trafficUsedBytes / s.trafficTotalBytes : 0;

/** Traffic left as a filter: what a power user triages by. */
const TRAFFIC_LEFT = ['None left', 'Under 10% left', '10-50% left', 'Over 50% left'] as const;
function trafficLeft(s: Subscription): string {
  if (s.trafficRemainingBytes <= 0) return 'None left';
  const left = s.trafficTotalBytes > 0 ? s.trafficRemainingBytes / s.trafficTotalBytes : 1;
  return left < 0.1 ? 'Under 10% left' : left <= 0.5 ? '10-50% left' : 'Over 50% left';
}

type HealthIndex = ReadonlyMap<string, SubscriptionHealth>;

/** One lookup per row: the rows themselves stay as the list read them. */
const indexHealth = (health: readonly SubscriptionHealth[] | null | undefined): HealthIndex =>
  new Map((health ?? []).map((entry) => [entry.subscriptionId, entry]));

function subscriptionFilters(nowMs: number, health: HealthIndex): DataFilter<Subscription>[] {
  return [
    { id: 'status', label: 'Status', value: (s) => humanize(s.status) },
    { id: 'health', label: 'Health', value: (s) => healthWord(health.get(s.id)), order: HEALTH_WORDS },
    { id: 'product', label: 'Product', value: (s) => PRODUCTS[s.productId] ?? s.productId },
    { id: 'traffic', label: 'Traffic left', value: trafficLeft, order: TRAFFIC_LEFT },
    {
      id: 'expiry',
      label: 'Expires',
      value: (s) => expiryWindow(s.expiresAt, nowMs) ?? 'Never',
      order: [...EXPIRY_WINDOWS, 'Never'],
    },
    { id: 'renew', label: 'Auto-renew', value: (s) => (s.autoRenew ? 'On' : 'Off') },
  ];
}

const HOUR_MS = 3_600_000;

export function SubscriptionsList({ subscriptions }: { subscriptions: Subscription[] }) {
  const nowMs = useNow();
  const saveTextFile = useAppStore((store) => store.saveTextFile);
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [shown, setShown] = useState<readonly Subscription[]>(subscriptions);
  // The 7-day pace where it was read (the rows on screen read theirs); others sort by the pace since
  // creation. Read as the forecast is sorted, not on every usage report that arrives.
  const forecastOf = useCallback(
    (s: Subscription) => {
      if (hasExpired(s, nowMs)) return null;
      const usage = useSubscriptionsStore.getState().usage;
      const report = usage[usageReports.key(recentQuery(s.id, nowMs))]?.data;
      const pace = report ? recentPace(report, s.createdAt, nowMs) : averagePace(s, nowMs);
      return daysUntilRunOut(s.trafficRemainingBytes, pace);
    },
    [nowMs],
  );
  // Every subscription's scores in one read (a patch when the checks move one up or down).
  const healthData = useLoadable(useSubscriptionsStore, healthScores, null).loadable?.data;
  const health = useMemo(() => indexHealth(healthData), [healthData]);
  const hour = Math.floor(nowMs / HOUR_MS);
  const filters = useMemo(() => subscriptionFilters(hour * HOUR_MS, health), [hour, health]);
  const columns = useMemo<DataColumn<Subscription>[]>(
    () => [
      {
        id: 'label',
        header: 'Subscription',
        rowHeader: true,
        className: 'col-subscription',
        sortValue: (s) => s.label || s.id,
        text: (s) => `${s.label || '(no label)'} · ${s.id}`,
        cell: (s) => (
          <>
            <a href={subscriptionHref(s.id)} tabIndex={-1}>
              {s.label || <span className="muted">(no label)</span>}
            </a>
            <div className="muted small cell-detail">
              <code>{s.id}</code>
            </div>
          </>
        ),
      },
      {
        id: 'product',
        header: 'Product',
        className: 'col-product',
        sortValue: (s) => PRODUCTS[s.productId] ?? s.productId,
        cell: (s) => PRODUCTS[s.productId] ?? s.productId,
      },
      {
        id: 'status',
        header: 'Status',
        className: 'col-sub-status',
        sortValue: (s) => s.status,
        text: (s) => humanize(s.status),
        cell: (s) => <StatusBadge status={s.status} />,
      },
      {
        id: 'health',
        header: 'Health',
        className: 'col-sub-health',
        // Subscriptions' checks are off by default: shown, the column would say "Not checked" on
        // every row and cut the names short at 1280 px. The Health filter counts it either way.
        hiddenByDefault: true,
        // Checks pass, Down, Not checked: in that order ascending.
        sortValue: (s) => healthRank(health.get(s.id)),
        text: (s) => healthWord(health.get(s.id)),
        cell: (s) => <SubscriptionHealthCell health={health.get(s.id)} />,
      },
      {
        id: 'traffic',
        header: 'Traffic used',
        className: 'col-traffic',
        sortValue: shareUsed,
        text: (s) => `${formatBytes(s.trafficUsedBytes)} of ${formatBytes(s.trafficTotalBytes)}`,
        cell: (s) => (
          <>
            <TrafficBar used={s.trafficUsedBytes} total={s.trafficTotalBytes} />
            <div className="muted small cell-detail">{formatBytes(s.trafficRemainingBytes)} left</div>
          </>
        ),
      },
      {
        id: 'remaining',
        header: 'Remaining',
        className: 'col-remaining numeric',
        hiddenByDefault: true,
        sortValue: (s) => s.trafficRemainingBytes,
        text: (s) => formatBytes(s.trafficRemainingBytes),
        cell: (s) => formatBytes(s.trafficRemainingBytes),
      },
      {
        id: 'forecast',
        header: 'Forecast',
        className: 'col-forecast',
        sortValue: forecastOf,
        text: (s) => forecastText(forecastOf(s)) ?? '',
        cell: (s) => <ForecastCell subscription={s} nowMs={nowMs} />,
      },
      {
        id: 'expires',
        header: 'Expires',
        className: 'col-sub-expires',
        sortValue: (s) => (s.expiresAt === null ? null : Date.parse(s.expiresAt)),
        text: (s) => s.expiresAt ?? 'Never',
        cell: (s) => (s.expiresAt ? <Time iso={s.expiresAt} /> : <span className="muted">Never</span>),
      },
      {
        id: 'renew',
        header: 'Auto-renew',
        className: 'col-renew',
        sortValue: (s) => (s.autoRenew ? 'On' : 'Off'),
        cell: (s) => (s.autoRenew ? 'On' : 'Off'),
      },
      {
        id: 'subusers',
        header: 'Sub-users',
        className: 'col-subusers numeric',
        sortValue: (s) => s.subUserCount,
        text: (s) => String(s.subUserCount),
        cell: (s) => s.subUserCount,
      },
      {
        id: 'test',
        header: 'Proxy test',
        className: 'col-sub-test',
        alwaysShown: true,
        noExport: true,
        cell: (s) => (
          <TestProxyButton target={mainUserTarget(s).target} label={s.label || s.id} showResult={false} />
        ),
      },
    ],
    [forecastOf, nowMs, health],
  );
  const chosen = selected.size > 0 ? subscriptions.filter((s) => selected.has(s.id)) : shown;
  const what = selected.size > 0 ? 'selected subscriptions' : 'subscriptions shown';
  return (
    <>
      <DataTable
        label="Traffic subscriptions"
        listId="subscriptions"
        rows={subscriptions}
        columns={columns}
        filters={filters}
        searchText={searchText}
        searchLabel="Search subscriptions"
        initialSort={{ column: 'label', direction: 'ascending' }}
        rowKey={subscriptionKey}
        rowName={subscriptionName}
        selected={selected}
        onSelectedChange={setSelected}
        onOpen={openSubscription}
        exportCsv={{ fileName: 'subscriptions', save: saveTextFile }}
        rowHeight={52}
        onShownChange={setShown}
        // In the table's toolbar (as on Ports): a line of its own under the table took rows away.
        tools={
          <TestAllButton what={`${what} (${chosen.length})`} targets={() => chosen.map(mainUserTarget)} />
        }
      />
      <TestAllResults what={what} targets={chosen.map(mainUserTarget)} withButton={false} />
    </>
  );
}

const openSubscription = (s: Subscription) => {
  window.location.hash = subscriptionHref(s.id);
};
