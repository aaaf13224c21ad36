import { useState } from 'react';
import type { IpcError } from '../../../../src-main/ipc/contract';
import { AsyncContent } from '../../shared/components/AsyncContent';
import { ErrorMessage } from '../../shared/components/ErrorMessage';
import { Time } from '../../shared/components/Time';
import { useLoadable } from '../../shared/loadable-slice';
import { historyList, usePortsStore } from './ports-store';

/** Saves text as a file from the page: works the same in the desktop window and in a browser. */
export function downloadText(fileName: string, text: string, type = 'text/csv;charset=utf-8'): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
  // After the click has been handled: revoking at once can cancel the download in some browsers.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

export function IpHistoryPanel({ portId }: { portId: string }) {
  const [page, setPage] = useState(1);
  const { loadable, retry } = useLoadable(usePortsStore, historyList, portId, page);
  const exportIpHistory = usePortsStore((store) => store.exportIpHistory);
  const [exporting, setExporting] = useState(false);
  const [exportError, setExportError] = useState<IpcError | null>(null);
  const [exported, setExported] = useState<string | null>(null);
  const totalPages = loadable?.data?.pagination.totalPages ?? 1;
  const exportCsv = async () => {
    setExporting(true);
    const result = await exportIpHistory(portId);
    setExporting(false);
    if (!result.ok) {
      setExportError(result.error);
      return;
    }
    setExportError(null);
    downloadText(result.value.fileName, result.value.csv);
    setExported(`${result.value.rows} rows saved as ${result.value.fileName}.`);
  };
  return (
    <section className="panel" aria-labelledby="history-heading">
      <h2 id="history-heading">IP history</h2>
      <p>
        <button type="button" className="button" disabled={exporting} onClick={() => void exportCsv()}>
          {exporting ? 'Exporting…' : 'Export CSV'}
        </button>{' '}
        {exported ? (
          <span role="status" className="muted">
            {exported}
          </span>
        ) : null}
      </p>
      {exportError ? <ErrorMessage error={exportError} title="Could not export the IP history" /> : null}
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
