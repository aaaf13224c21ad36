import { useEffect, useId } from 'react';
import type { TopUp } from '../../../../src-main/api/api-types';
import { AsyncContent } from '../../shared/components/AsyncContent';
import { RefreshButton } from '../../shared/components/RefreshButton';
import { Screen } from '../../shared/components/Screen';
import { StatusBadge } from '../../shared/components/StatusBadge';
import { Time } from '../../shared/components/Time';
import { formatUsd } from '../../shared/format/format';
import { useTopUpsStore, type TopUpStatusFilter } from './topups-store';

const STATUS_FILTERS: readonly { value: TopUpStatusFilter; label: string }[] = [
  { value: 'all', label: 'All statuses' },
  { value: 'awaiting_payment', label: 'Awaiting payment' },
  { value: 'verifying', label: 'Verifying' },
  { value: 'credited', label: 'Credited' },
  { value: 'rejected', label: 'Rejected' },
  { value: 'expired', label: 'Expired' },
];

function TopUpsTable({ topUps }: { topUps: TopUp[] }) {
  return (
    <div className="table-wrap">
      <table className="table" aria-label="Top-ups">
        <thead>
          <tr>
            <th scope="col">Created</th>
            <th scope="col" className="numeric">
              Amount
            </th>
            <th scope="col">Coin / network</th>
            <th scope="col">Status</th>
            <th scope="col">Credited</th>
          </tr>
        </thead>
        <tbody>
          {topUps.map((topUp) => (
            <tr key={topUp.id}>
              <th scope="row">
                <Time iso={topUp.createdAt} />
                <div className="muted small">
                  <code>{topUp.id}</code>
                </div>
              </th>
              <td className="numeric money">{formatUsd(topUp.amountUsd)}</td>
              <td>
                {topUp.amountCrypto} {topUp.coin}
                <div className="muted small">{topUp.network}</div>
              </td>
              <td>
                <StatusBadge status={topUp.status} />
                {topUp.purchase ? (
                  <div className="muted small">with purchase: {topUp.purchase.planName}</div>
                ) : null}
              </td>
              <td>
                {topUp.creditedUsd ? (
                  <>
                    <span className="money">{formatUsd(topUp.creditedUsd)}</span>
                    <div className="muted small">
                      <Time iso={topUp.creditedAt} />
                    </div>
                  </>
                ) : (
                  <span className="muted">—</span>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function TopUpsScreen() {
  const query = useTopUpsStore((store) => store.query);
  const loadable = useTopUpsStore((store) => store.page);
  const setStatus = useTopUpsStore((store) => store.setStatus);
  const goToPage = useTopUpsStore((store) => store.goToPage);
  const load = useTopUpsStore((store) => store.load);
  const statusId = useId();
  // Also when the page falls back to idle: the account changed and its top-ups were dropped.
  const idle = loadable.status === 'idle';
  useEffect(() => {
    void load();
  }, [load, idle]);
  const refresh = () => void load(true);
  const pagination = loadable.data?.pagination;
  const busy = loadable.status === 'loading';
  return (
    <Screen
      title="Top-ups"
      description="Crypto top-ups of the account balance."
      actions={<RefreshButton onRefresh={refresh} busy={busy} what="top-ups" />}
    >
      <div className="toolbar">
        <div className="field">
          <label htmlFor={statusId}>Status</label>
          <select
            id={statusId}
            value={query.status}
            onChange={(event) => void setStatus(event.target.value as TopUpStatusFilter)}
          >
            {STATUS_FILTERS.map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            ))}
          </select>
        </div>
      </div>
      <AsyncContent
        loadable={loadable}
        what="top-ups"
        onRetry={refresh}
        isEmpty={(page) => page.data.length === 0}
        empty={<p>No top-ups{query.status === 'all' ? '' : ' with this status'}.</p>}
      >
        {(page) => <TopUpsTable topUps={page.data} />}
      </AsyncContent>
      {pagination && pagination.totalPages > 1 ? (
        <nav className="pager" aria-label="Top-up pages">
          <button
            type="button"
            className="button"
            disabled={busy || query.page <= 1}
            onClick={() => void goToPage(query.page - 1)}
          >
            Previous
          </button>
          <span aria-live="polite">
            Page {pagination.page} of {pagination.totalPages} ({pagination.total} top-ups)
          </span>
          <button
            type="button"
            className="button"
            disabled={busy || query.page >= pagination.totalPages}
            onClick={() => void goToPage(query.page + 1)}
          >
            Next
          </button>
        </nav>
      ) : pagination ? (
        <p className="muted">{pagination.total === 1 ? '1 top-up' : `${pagination.total} top-ups`}</p>
      ) : null}
    </Screen>
  );
}
