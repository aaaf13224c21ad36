import { useMemo, useState } from 'react';
import type { Subscription } from '../../../../src-shared/api-types';
import { DataTable, type DataColumn } from '../../shared/components/DataTable';
import { StatusBadge } from '../../shared/components/StatusBadge';
import { Time } from '../../shared/components/Time';
import { formatBytes } from '../../shared/format/format';
import { useLoadable } from '../../shared/loadable-slice';
import { useNow } from '../../shared/ticker';
import { TestAllResults, type NamedTarget } from '../proxy-test/TestAllResults';
import { TestProxyButton } from '../proxy-test/TestProxyButton';
import {
  averagePace,
  daysUntilRunOut,
  FORECAST_DAYS,
  forecastText,
  hasExpired,
  matchesSearch,
  recentPace,
  sortSubscriptions,
  type SubscriptionSortKey,
} from './subscription-list';
import { subscriptionHref } from './subscription-route';
import { TrafficBar } from './TrafficBar';
import { usageReports, useSubscriptionsStore, type UsageQuery } from './subscriptions-store';
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
});

const SORTS: readonly { key: SubscriptionSortKey; label: string }[] = [
  { key: 'label', label: 'Label' },
  { key: 'used', label: 'Share used' },
  { key: 'remaining', label: 'Remaining' },
  { key: 'expires', label: 'Expiry' },
  { key: 'forecast', label: 'Runs out soonest' },
];

const subscriptionKey = (s: Subscription) => s.id;
const subscriptionName = (s: Subscription) => s.label || s.id;

export function SubscriptionsList({ subscriptions }: { subscriptions: Subscription[] }) {
  const search = useSubscriptionsStore((store) => store.search);
  const sort = useSubscriptionsStore((store) => store.sort);
  const setSearch = useSubscriptionsStore((store) => store.setSearch);
  const setSort = useSubscriptionsStore((store) => store.setSort);
  const nowMs = useNow();
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  // Only the forecast sort needs the usage reports: other sorts do not re-sort as they arrive.
  const usage = useSubscriptionsStore((store) => (sort.key === 'forecast' ? store.usage : null));
  const forecastOf = useMemo(
    () => (s: Subscription) => {
      if (hasExpired(s, nowMs)) return null;
      // The 7-day pace where it was read; rows not shown yet sort by the pace since creation.
      const report = usage?.[usageReports.key(recentQuery(s.id, nowMs))]?.data;
      const pace = report ? recentPace(report, s.createdAt, nowMs) : averagePace(s, nowMs);
      return daysUntilRunOut(s.trafficRemainingBytes, pace);
    },
    [nowMs, usage],
  );
  const rows = useMemo(
    () =>
      sortSubscriptions(
        subscriptions.filter((s) => matchesSearch(s, search)),
        sort,
        forecastOf,
      ),
    [subscriptions, search, sort, forecastOf],
  );
  const columns: DataColumn<Subscription>[] = [
    {
      id: 'label',
      header: 'Subscription',
      rowHeader: true,
      cell: (s) => (
        <>
          <a href={subscriptionHref(s.id)}>{s.label || <span className="muted">(no label)</span>}</a>
          <div className="muted small cell-detail">
            <code>{s.id}</code>
          </div>
        </>
      ),
    },
    {
      id: 'test',
      header: 'Proxy test',
      cell: (s) => <TestProxyButton target={mainUserTarget(s).target} label={s.label || s.id} />,
    },
    { id: 'product', header: 'Product', cell: (s) => PRODUCTS[s.productId] ?? s.productId },
    { id: 'status', header: 'Status', cell: (s) => <StatusBadge status={s.status} /> },
    {
      id: 'traffic',
      header: 'Traffic used',
      cell: (s) => (
        <>
          <TrafficBar used={s.trafficUsedBytes} total={s.trafficTotalBytes} />
          <div className="muted small cell-detail">{formatBytes(s.trafficRemainingBytes)} left</div>
        </>
      ),
    },
    {
      id: 'forecast',
      header: 'Forecast',
      cell: (s) => <ForecastCell subscription={s} nowMs={nowMs} />,
    },
    {
      id: 'expires',
      header: 'Expires',
      cell: (s) => (s.expiresAt ? <Time iso={s.expiresAt} /> : <span className="muted">Never</span>),
    },
    { id: 'renew', header: 'Auto-renew', cell: (s) => (s.autoRenew ? 'On' : 'Off') },
    { id: 'subusers', header: 'Sub-users', className: 'numeric', cell: (s) => s.subUserCount },
  ];
  return (
    <>
      <div className="toolbar">
        <label className="field field--inline">
          <span>Search</span>
          <input type="search" value={search} onChange={(event) => setSearch(event.target.value)} />
        </label>
        <label className="field field--inline">
          <span>Sort by</span>
          <select
            value={sort.key}
            onChange={(event) => setSort({ ...sort, key: event.target.value as SubscriptionSortKey })}
          >
            {SORTS.map((option) => (
              <option key={option.key} value={option.key}>
                {option.label}
              </option>
            ))}
          </select>
        </label>
        <button
          type="button"
          className="button button--quiet"
          title={sort.direction === 'asc' ? 'Sort descending instead' : 'Sort ascending instead'}
          onClick={() => setSort({ ...sort, direction: sort.direction === 'asc' ? 'desc' : 'asc' })}
        >
          {sort.direction === 'asc' ? '↑ Ascending' : '↓ Descending'}
        </button>
        <span className="muted small" role="status">
          {rows.length === subscriptions.length
            ? `${rows.length} subscriptions`
            : `${rows.length} of ${subscriptions.length} subscriptions`}
        </span>
      </div>
      {rows.length === 0 ? (
        <p className="empty">No subscription matches “{search}”.</p>
      ) : (
        <DataTable
          label="Traffic subscriptions"
          rows={rows}
          columns={columns}
          rowKey={subscriptionKey}
          rowName={subscriptionName}
          selected={selected}
          onSelectedChange={setSelected}
          rowHeight={56}
        />
      )}
      <TestAllResults
        what={selected.size > 0 ? 'selected subscriptions' : 'subscriptions shown'}
        targets={(selected.size > 0 ? rows.filter((s) => selected.has(s.id)) : rows).map(mainUserTarget)}
      />
    </>
  );
}
