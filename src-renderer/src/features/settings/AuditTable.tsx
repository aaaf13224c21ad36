import { useMemo } from 'react';
import type { AuditEntry } from '../../../../src-shared/contract';
import { ErrorMessage } from '../../shared/components/ErrorMessage';
import { RefreshButton } from '../../shared/components/RefreshButton';
import { Time } from '../../shared/components/Time';
import { formatDuration } from '../../shared/format/format';
import { DataTable, type DataColumn, type DataFilter } from '../../shared/table/DataTable';
import { useAppStore } from '../app/app-store';
import { useAutomationStore } from './automation-store';

/** An entry with a key of its own: entries have no id, and two calls can share a millisecond. */
interface AuditRow {
  key: string;
  entry: AuditEntry;
}

const viaText = (entry: AuditEntry) => entry.surface.toUpperCase();
const callerText = (entry: AuditEntry) => (entry.caller.kind === 'mcp' ? 'MCP server' : entry.caller.name);

const AUDIT_COLUMNS: readonly DataColumn<AuditRow>[] = [
  {
    id: 'time',
    header: 'Time',
    className: 'col-audit-time',
    // Local time; the exact UTC on hover (`Time`), and in the CSV.
    cell: ({ entry }) => <Time iso={entry.at} />,
    sortValue: ({ entry }) => entry.at,
  },
  {
    id: 'via',
    header: 'Via',
    className: 'col-audit-via',
    cell: ({ entry }) => viaText(entry),
    sortValue: ({ entry }) => viaText(entry),
  },
  {
    id: 'caller',
    header: 'Caller',
    cell: ({ entry }) => callerText(entry),
    sortValue: ({ entry }) => callerText(entry),
  },
  {
    id: 'call',
    header: 'Call',
    rowHeader: true,
    cell: ({ entry }) => entry.channel,
    sortValue: ({ entry }) => entry.channel,
  },
  {
    id: 'outcome',
    header: 'Outcome',
    cell: ({ entry }) => (
      <span className={entry.outcome === 'ok' ? 'badge badge--ok' : 'badge badge--bad'}>{entry.outcome}</span>
    ),
    sortValue: ({ entry }) => entry.outcome,
  },
  {
    id: 'duration',
    header: 'Duration',
    className: 'numeric col-audit-duration',
    cell: ({ entry }) => formatDuration(entry.durationMs),
    sortValue: ({ entry }) => entry.durationMs,
    text: ({ entry }) => String(entry.durationMs),
  },
];

const AUDIT_FILTERS: readonly DataFilter<AuditRow>[] = [
  { id: 'outcome', label: 'Outcome', value: ({ entry }) => entry.outcome },
  { id: 'via', label: 'Via', value: ({ entry }) => viaText(entry) },
  { id: 'caller', label: 'Caller', value: ({ entry }) => callerText(entry) },
];

const auditKey = (row: AuditRow) => row.key;
const auditName = (row: AuditRow) => `${row.entry.channel} at ${row.entry.at}`;
const auditSearchText = ({ entry }: AuditRow) =>
  [entry.channel, callerText(entry), viaText(entry), entry.outcome].join(' ');

/**
 * Settings → Automation's audit log on the shared table: filters by outcome, surface and caller with
 * their counts, search, sort by any header (newest first as it opens), saved views and CSV export.
 */
export function AuditTable() {
  const audit = useAutomationStore((store) => store.audit);
  const refresh = useAutomationStore((store) => store.refreshAudit);
  const saveTextFile = useAppStore((store) => store.saveTextFile);
  const busy = audit.status === 'loading';
  const entries = audit.data;
  const rows = useMemo(
    () => (entries ?? []).map((entry, index) => ({ key: `${entry.at}|${index}`, entry })),
    [entries],
  );
  return (
    <div className="settings-subsection">
      <h3>Audit log</h3>
      <p className="field__hint">
        Every MCP and REST call: when (your local time; UTC on hover), who, what, how it ended and how long it
        took. No inputs, no secrets.
      </p>
      <RefreshButton onRefresh={() => void refresh()} busy={busy} what="the audit log" />
      {audit.error ? <ErrorMessage error={audit.error} title="Could not read the audit log" /> : null}
      {rows.length === 0 ? (
        <p className="muted">No calls yet.</p>
      ) : (
        <DataTable
          label="Audit log"
          listId="audit"
          rows={rows}
          rowKey={auditKey}
          rowName={auditName}
          columns={AUDIT_COLUMNS}
          filters={AUDIT_FILTERS}
          searchText={auditSearchText}
          searchLabel="Search the audit log"
          initialSort={{ column: 'time', direction: 'descending' }}
          exportCsv={{ fileName: 'audit', save: saveTextFile }}
          rowHeight={36}
          height={360}
        />
      )}
    </div>
  );
}
