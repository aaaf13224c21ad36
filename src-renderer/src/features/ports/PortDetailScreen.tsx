import type { PortRow } from '../../../../src-shared/contract';
import { ErrorMessage } from '../../shared/components/ErrorMessage';
import { useLoadable } from '../../shared/loadable-slice';
import { PortDetail } from './PortDetail';
import { portDetails, usePortsStore } from './ports-store';

/**
 * A port's detail. The list carries no credentials, so the whole port (password, endpoint, plan) is
 * read for the detail (`ports:get`); until it comes, the port's name and a loading line show.
 */
export function PortDetailScreen({ row }: { row: PortRow }) {
  const { loadable, retry } = useLoadable(usePortsStore, portDetails, row.id);
  const open = usePortsStore((store) => store.open);
  const port = loadable?.data;
  if (port) return <PortDetail port={port} />;
  return (
    <section className="screen port-detail" aria-labelledby="port-detail-heading" aria-busy="true">
      <p>
        <button type="button" className="link-button" onClick={() => open(null)}>
          ← All ports
        </button>
      </p>
      <h1 id="port-detail-heading" tabIndex={-1}>
        {row.label || row.id}
      </h1>
      {loadable?.status === 'error' && loadable.error ? (
        <ErrorMessage error={loadable.error} title="Could not load the port" onRetry={retry} />
      ) : (
        <p className="muted loading" role="status">
          Loading the port…
        </p>
      )}
    </section>
  );
}
