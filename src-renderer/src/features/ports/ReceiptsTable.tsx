import { useEffect, useMemo } from 'react';
import type { RotationReceipt } from '../../../../src-shared/contract';
import { Time } from '../../shared/components/Time';
import { formatDateTime, humanize } from '../../shared/format/format';
import { DataTable, type DataColumn, type DataFilter } from '../../shared/table/DataTable';
import { useAppStore } from '../app/app-store';
import { verdictText } from './PortHealthPanel';
import { usePortsStore } from './ports-store';

const outcomeText = (receipt: RotationReceipt) => (receipt.sameIp ? 'Same IP' : 'New IP');
const verdictOf = (receipt: RotationReceipt) => (receipt.verdict ? verdictText(receipt.verdict.kind) : null);
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

const RECEIPT_COLUMNS: readonly DataColumn<RotationReceipt>[] = [
  {
    id: 'finished',
    header: 'Finished',
    className: 'col-receipt-time',
    // Local time; the exact UTC on hover (`Time`), and in the CSV.
    cell: (receipt) => <Time iso={receipt.finishedAt} />,
    sortValue: (receipt) => receipt.finishedAt,
  },
  {
    id: 'trigger',
    header: 'Trigger',
    cell: (receipt) => humanize(receipt.trigger),
    sortValue: (receipt) => humanize(receipt.trigger),
  },
  {
    id: 'from',
    header: 'From',
    cell: (receipt) => <code>{receipt.previousIp}</code>,
    sortValue: (receipt) => receipt.previousIp,
  },
  {
    id: 'to',
    header: 'To',
    rowHeader: true,
    cell: (receipt) => <code>{receipt.ip}</code>,
    sortValue: (receipt) => receipt.ip,
  },
  {
    id: 'outcome',
    header: 'Outcome',
    cell: (receipt) => (
      <span className={receipt.sameIp ? 'badge badge--warn' : 'badge badge--ok'}>{outcomeText(receipt)}</span>
    ),
    sortValue: outcomeText,
  },
  {
    id: 'verdict',
    header: 'Verdict',
    cell: (receipt) => verdictOf(receipt) ?? <span className="muted">—</span>,
    sortValue: verdictOf,
    text: (receipt) =>
      receipt.verdict ? `${verdictText(receipt.verdict.kind)}: ${receipt.verdict.message}` : '',
  },
  {
    id: 'took',
    header: 'Took',
    className: 'numeric',
    cell: (receipt) => seconds(receipt.tookMs),
    sortValue: (receipt) => receipt.tookMs,
    text: (receipt) => String(receipt.tookMs),
  },
  {
    id: 'attempts',
    header: 'Rotations',
    className: 'numeric',
    hiddenByDefault: true,
    cell: (receipt) => receipt.attempts,
    sortValue: (receipt) => receipt.attempts,
    text: (receipt) => String(receipt.attempts),
  },
  {
    id: 'confirmed',
    header: 'Confirmed by',
    hiddenByDefault: true,
    cell: (receipt) => (receipt.confirmedBy === 'answer' ? 'The answer' : 'Reading the port again'),
    sortValue: (receipt) => receipt.confirmedBy,
  },
];

const RECEIPT_FILTERS: readonly DataFilter<RotationReceipt>[] = [
  { id: 'trigger', label: 'Trigger', value: (receipt) => humanize(receipt.trigger) },
  { id: 'outcome', label: 'Outcome', value: outcomeText, order: ['New IP', 'Same IP'] },
  {
    id: 'verdict',
    label: 'Verdict',
    value: (receipt) => verdictOf(receipt) ?? 'None',
    order: ['clean', 'repeat', 'drift', 'unchanged', 'not checked', 'None'],
  },
];

const receiptKey = (receipt: RotationReceipt) => receipt.id;
// A row's name (a selectable table's checkbox label) in the window's one date format.
const receiptName = (receipt: RotationReceipt) =>
  `rotation to ${receipt.ip} at ${formatDateTime(receipt.finishedAt)}`;
const receiptSearchText = (receipt: RotationReceipt) =>
  [receipt.previousIp, receipt.ip, receipt.trigger, outcomeText(receipt), verdictOf(receipt) ?? ''].join(' ');

const NO_RECEIPTS: RotationReceipt[] = [];

/**
 * Every receipt main kept for a port (and this session's newest), on the shared table: filters by
 * trigger, outcome and verdict with their counts, search by IP, sort (newest first), saved views, CSV.
 */
export function ReceiptsTable({ portId }: { portId: string }) {
  const stored = usePortsStore((store) => store.receipts[portId]?.data) ?? NO_RECEIPTS;
  const latest = usePortsStore((store) => store.rotations[portId]?.receipt);
  const saveTextFile = useAppStore((store) => store.saveTextFile);
  const loadReceipts = usePortsStore((store) => store.loadReceipts);
  // Read once (the Rotate panel beside it asks for the same list: one call).
  useEffect(() => void loadReceipts(portId), [portId, loadReceipts]);
  const receipts = useMemo(
    () => (latest && !stored.some((receipt) => receipt.id === latest.id) ? [...stored, latest] : stored),
    [stored, latest],
  );
  return (
    <section className="panel" aria-labelledby={`receipts-${portId}`}>
      <h2 id={`receipts-${portId}`}>Receipt history</h2>
      {receipts.length === 0 ? (
        <p className="muted">No rotation receipts yet: each rotation from this app leaves one here.</p>
      ) : (
        <DataTable
          label="Rotation receipts"
          listId="receipts"
          rows={receipts}
          rowKey={receiptKey}
          rowName={receiptName}
          columns={RECEIPT_COLUMNS}
          filters={RECEIPT_FILTERS}
          searchText={receiptSearchText}
          searchLabel="Search receipts"
          initialSort={{ column: 'finished', direction: 'descending' }}
          exportCsv={{ fileName: `receipts-${portId}`, save: saveTextFile }}
          rowHeight={36}
          height={280}
        />
      )}
    </section>
  );
}
