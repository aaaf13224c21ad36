import { useState } from 'react';
import { AsyncContent } from '../../shared/components/AsyncContent';
import { Time } from '../../shared/components/Time';
import { useLoadable } from '../../shared/loadable-slice';
import { SaveOutcomeMessage } from '../../shared/components/SaveOutcomeMessage';
import type { SaveOutcome } from '../../shared/save-outcome';
import { useAppStore } from '../app/app-store';
import { historyList, usePortsStore } from './ports-store';

export function IpHistoryPanel({ portId }: { portId: string }) {
  const [page, setPage] = useState(1);
  const { loadable, retry } = useLoadable(usePortsStore, historyList, portId, page);
  const exportIpHistory = usePortsStore((store) => store.exportIpHistory);
  const [exporting, setExporting] = useState(false);
  const saveTextFile = useAppStore((store) => store.saveTextFile);
  const [exported, setExported] = useState<{ outcome: SaveOutcome; rows: number | null } | null>(null);
  const totalPages = loadable?.data?.pagination.totalPages ?? 1;
  const exportCsv = async () => {
    setExporting(true);
    setExported(null);
    const result = await exportIpHistory(portId);
    if (!result.ok) {
      setExporting(false);
      setExported({ outcome: { status: 'failed', error: result.error }, rows: null });
      return;
    }
    const { fileName, csv, rows } = result.value;
    const outcome = await saveTextFile({ fileName, content: csv, type: 'text/csv' });
    setExporting(false);
    setExported({ outcome, rows });
  };
  return (
    <section className="panel" aria-labelledby="history-heading">
      <h2 id="history-heading">IP history</h2>
      <p>
        <button type="button" className="button" disabled={exporting} onClick={() => void exportCsv()}>
          {exporting ? 'Exporting…' : 'Export CSV'}
        </button>
      </p>
      <SaveOutcomeMessage
        outcome={exported?.outcome ?? null}
        failedTitle="Could not export the IP history"
        detail={exported?.rows != null ? `${exported.rows} rows.` : undefined}
      />
      <AsyncContent loadable={loadable} what="IP history" onRetry={retry} empty={<p>No IP history yet.</p>}>
        {(view) =>
          view.data.length === 0 ? (
            <p>No IP history yet.</p>
          ) : (
            <table className="table" aria-label="IP history">
              <thead>
                <tr>
                  <th scope="col">IP</th>
                  <th scope="col">Assigned</th>
                  <th scope="col">Released</th>
                  <th scope="col">Trigger</th>
                  <th scope="col">Receipt</th>
                </tr>
              </thead>
              <tbody>
                {view.data.map((row) => (
                  <tr key={`${row.ip}|${row.assignedAt}`}>
                    <th scope="row">
                      <code>{row.ip}</code>
                    </th>
                    <td>
                      <Time iso={row.assignedAt} />
                    </td>
                    <td>
                      {row.releasedAt ? (
                        <Time iso={row.releasedAt} />
                      ) : (
                        <span className="badge">current</span>
                      )}
                    </td>
                    <td>{row.trigger}</td>
                    <td className="small">
                      {row.receipt
                        ? `${row.receipt.trigger} · from ${row.receipt.previousIp} in ${(row.receipt.tookMs / 1000).toFixed(1)} s${row.receipt.sameIp ? ' · same IP' : ''}`
                        : '—'}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )
        }
      </AsyncContent>
      <nav className="pager" aria-label="IP history pages">
        <button
          type="button"
          className="button button--small"
          disabled={page <= 1}
          onClick={() => setPage(page - 1)}
        >
          Newer
        </button>
        <span>
          Page {page} of {Math.max(1, totalPages)}
        </span>
        <button
          type="button"
          className="button button--small"
          disabled={page >= totalPages}
          onClick={() => setPage(page + 1)}
        >
          Older
        </button>
      </nav>
    </section>
  );
}
