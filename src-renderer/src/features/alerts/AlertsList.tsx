import { useState } from 'react';
import type { AlertView, AttentionScreen, IpcError } from '../../../../src-shared/contract';
import { AsyncContent } from '../../shared/components/AsyncContent';
import { ErrorMessage } from '../../shared/components/ErrorMessage';
import { Time } from '../../shared/components/Time';
import { useLoadable } from '../../shared/loadable-slice';
import { alertsList, useAlertsStore } from './alerts-store';

/**
 * The in-app list of alerts whose cause still stands (main judges them by the Overview's model),
 * newest first, each dismissable; with `screen`, only the alerts about that screen's subjects.
 */
export function AlertsList({
  screen,
  subjectHref,
}: {
  screen?: AttentionScreen;
  /** The page of an alert's subject, where the app has one: its title links there. */
  subjectHref?: (alert: AlertView) => string | null;
}) {
  const { loadable: all, retry } = useLoadable(useAlertsStore, alertsList);
  const loadable =
    all && screen && all.data ? { ...all, data: all.data.filter((alert) => alert.screen === screen) } : all;
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
                <AlertTitle alert={alert} href={subjectHref?.(alert) ?? null} />{' '}
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

function AlertTitle({ alert, href }: { alert: AlertView; href: string | null }) {
  return <strong>{href ? <a href={href}>{alert.title}</a> : alert.title}</strong>;
}
