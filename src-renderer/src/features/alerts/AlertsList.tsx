import { useState } from 'react';
import type { IpcError } from '../../../../src-shared/contract';
import { AsyncContent } from '../../shared/components/AsyncContent';
import { ErrorMessage } from '../../shared/components/ErrorMessage';
import { Time } from '../../shared/components/Time';
import { useLoadable } from '../../shared/loadable-slice';
import { alertsList, useAlertsStore } from './alerts-store';

/** The in-app list of alerts, newest first, each dismissable. */
export function AlertsList() {
  const { loadable, retry } = useLoadable(useAlertsStore, alertsList);
  const dismiss = useAlertsStore((store) => store.dismiss);
  const [error, setError] = useState<IpcError | null>(null);
  return (
    <section aria-labelledby="alerts-title" className="card">
      <h2 id="alerts-title">Alerts</h2>
      {error ? <ErrorMessage error={error} title="Could not dismiss" /> : null}
      <AsyncContent
        loadable={loadable}
        what="alerts"
        onRetry={retry}
        empty={<p className="muted">No alerts.</p>}
      >
        {(alerts) => (
          <ul className="alerts" aria-label="Alerts">
            {alerts.map((alert) => (
              <li key={alert.id} className={`alert alert--${alert.level}`}>
                <strong>{alert.title}</strong>{' '}
                <span className="muted small">
                  <Time iso={alert.raisedAt} relative />
                </span>
                <p>{alert.message}</p>
                <button
                  type="button"
                  className="button button--quiet"
                  aria-label={`Dismiss ${alert.title}`}
                  onClick={() =>
                    void dismiss(alert.id).then((result) => setError(result.ok ? null : result.error))
                  }
                >
                  Dismiss
                </button>
              </li>
            ))}
          </ul>
        )}
      </AsyncContent>
    </section>
  );
}
