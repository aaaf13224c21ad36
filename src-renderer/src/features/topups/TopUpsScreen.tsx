import { useEffect, useId, useMemo } from 'react';
import './topups-table.css';
import type { TopUp } from '../../../../src-shared/api-types';
import { AsyncContent } from '../../shared/components/AsyncContent';
import { DataTable, type DataColumn } from '../../shared/table/DataTable';
import { RefreshButton } from '../../shared/components/RefreshButton';
import { Screen } from '../../shared/components/Screen';
import { StatusBadge } from '../../shared/components/StatusBadge';
import { Time } from '../../shared/components/Time';
import { formatUsd } from '../../shared/format/format';
import { SaveOutcomeMessage } from '../../shared/components/SaveOutcomeMessage';
import { NetworkName } from '../catalog/CatalogNames';
import { TopUpWizard } from './TopUpWizard';
import { useTopUpWizardStore } from './topup-wizard-store';
import { PER_PAGE_CHOICES, useTopUpsStore, type TopUpStatusFilter } from './topups-store';

const STATUS_FILTERS: readonly { value: TopUpStatusFilter; label: string }[] = [
  { value: 'all', label: 'All statuses' },
  { value: 'awaiting_payment', label: 'Awaiting payment' },
  { value: 'verifying', label: 'Verifying' },
  { value: 'credited', label: 'Credited' },
  { value: 'rejected', label: 'Rejected' },
  { value: 'expired', label: 'Expired' },
];

const topUpKey = (topUp: TopUp) => topUp.id;

/** A decimal amount (never a float) as a key that sorts in its order: "9.99" before "10.5". */
function decimalKey(amount: string): string {
  const [whole = '', fraction = ''] = amount.replace(/^-/, '').split('.');
  return `${whole.padStart(24, '0')}.${fraction.padEnd(18, '0')}`;
}
const topUpName = (topUp: TopUp) => topUp.id;

/**
 * A page of top-ups on the shared table (header sort, columns, keyboard: Enter opens one). Filtering
 * is the service's (the status above, over every page), so the table adds no filters of its own:
 * counts of one page would say nothing of the others.
 */
function TopUpsTable({ topUps }: { topUps: TopUp[] }) {
  const openTopUp = useTopUpWizardStore((store) => store.openTopUp);
  const columns = useMemo<DataColumn<TopUp>[]>(
    () => [
      {
        id: 'created',
        header: 'Created',
        rowHeader: true,
        className: 'col-topup-created',
        sortValue: (topUp) => Date.parse(topUp.createdAt),
        text: (topUp) => `${topUp.createdAt} · ${topUp.id}`,
        cell: (topUp) => (
          <>
            <Time iso={topUp.createdAt} />
            <div className="muted small cell-detail">
              <code>{topUp.id}</code>
            </div>
          </>
        ),
      },
      {
        id: 'amount',
        header: 'Amount',
        className: 'numeric money',
        sortValue: (topUp) => decimalKey(topUp.amountUsd),
        text: (topUp) => formatUsd(topUp.amountUsd),
        cell: (topUp) => formatUsd(topUp.amountUsd),
      },
      {
        id: 'coin',
        header: 'Coin / network',
        sortValue: (topUp) => `${topUp.coin} ${topUp.network}`,
        text: (topUp) => `${topUp.amountCrypto} ${topUp.coin} (${topUp.network})`,
        cell: (topUp) => (
          <>
            {topUp.amountCrypto} {topUp.coin}
            <div className="muted small cell-detail">
              <NetworkName coinCode={topUp.coin} networkId={topUp.network} />
            </div>
          </>
        ),
      },
      {
        id: 'status',
        header: 'Status',
        sortValue: (topUp) => topUp.status,
        text: (topUp) =>
          topUp.purchase ? `${topUp.status} · with purchase: ${topUp.purchase.planName}` : topUp.status,
        cell: (topUp) => (
          <>
            <StatusBadge status={topUp.status} />
            {topUp.purchase ? (
              <div className="muted small cell-detail">with purchase: {topUp.purchase.planName}</div>
            ) : null}
          </>
        ),
      },
      {
        id: 'credited',
        header: 'Credited',
        sortValue: (topUp) => (topUp.creditedUsd === null ? null : decimalKey(topUp.creditedUsd)),
        text: (topUp) => (topUp.creditedUsd ? formatUsd(topUp.creditedUsd) : ''),
        cell: (topUp) =>
          topUp.creditedUsd ? (
            <>
              <span className="money">{formatUsd(topUp.creditedUsd)}</span>
              <div className="muted small cell-detail">
                <Time iso={topUp.creditedAt} />
              </div>
            </>
          ) : (
            <span className="muted">—</span>
          ),
      },
      {
        id: 'actions',
        header: 'Actions',
        className: 'col-topup-actions',
        alwaysShown: true,
        noExport: true,
        cell: (topUp) => (
          <button
            type="button"
            className="button button--small"
            aria-label={`Open top-up ${topUp.id}`}
            onClick={() => openTopUp(topUp)}
          >
            Open
          </button>
        ),
      },
    ],
    [openTopUp],
  );
  return (
    <DataTable
      label="Top-ups"
      listId="topups"
      rows={topUps}
      rowKey={topUpKey}
      rowName={topUpName}
      columns={columns}
      onOpen={openTopUp}
      rowHeight={52}
    />
  );
}

export function TopUpsScreen() {
  const query = useTopUpsStore((store) => store.query);
  const loadable = useTopUpsStore((store) => store.page);
  const setStatus = useTopUpsStore((store) => store.setStatus);
  const goToPage = useTopUpsStore((store) => store.goToPage);
  const load = useTopUpsStore((store) => store.load);
  const setPerPage = useTopUpsStore((store) => store.setPerPage);
  const exporting = useTopUpsStore((store) => store.exporting);
  const exported = useTopUpsStore((store) => store.exported);
  const exportCsv = useTopUpsStore((store) => store.exportCsv);
  const startWizard = useTopUpWizardStore((store) => store.start);
  const statusId = useId();
  const perPageId = useId();
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
      actions={
        <>
          <button type="button" className="button button--primary" onClick={startWizard}>
            Add funds
          </button>
          <RefreshButton onRefresh={refresh} busy={busy} what="top-ups" />
        </>
      }
    >
      <TopUpWizard />
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
        <div className="field">
          <label htmlFor={perPageId}>Per page</label>
          <select
            id={perPageId}
            value={query.perPage}
            onChange={(event) => void setPerPage(Number(event.target.value))}
          >
            {PER_PAGE_CHOICES.map((size) => (
              <option key={size} value={size}>
                {size}
              </option>
            ))}
          </select>
        </div>
        <button type="button" className="button" disabled={exporting} onClick={() => void exportCsv()}>
          {exporting ? 'Exporting…' : 'Export CSV'}
        </button>
      </div>
      <SaveOutcomeMessage outcome={exported} failedTitle="The CSV was not exported" />
      <AsyncContent
        loadable={loadable}
        what="top-ups"
        onRetry={refresh}
        isEmpty={(page) => page.data.length === 0}
        empty={
          query.status === 'all' ? (
            <div className="empty-state">
              <p>No top-ups yet.</p>
              <button type="button" className="button button--primary" onClick={startWizard}>
                Add funds
              </button>
            </div>
          ) : (
            <p>No top-ups with this status.</p>
          )
        }
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
