import { hrefOf } from '../../shared/routes';
import { Time } from '../../shared/components/Time';
import { useAppStore } from './app-store';
import { connectionLabel, connectionTone } from './connection-status';

const PROFILE_KINDS: Record<string, string> = {
  demo: '',
  environment: 'from the environment',
  account: '',
};

/** Always visible: the connection state from main, the active profile, and a "Check now" button. */
export function StatusBar() {
  const state = useAppStore((store) => store.state);
  const checking = useAppStore((store) => store.checking);
  const actionError = useAppStore((store) => store.actionError);
  const checkConnection = useAppStore((store) => store.checkConnection);
  if (!state) return null;
  const { connection, activeProfile } = state;
  const kind = activeProfile ? PROFILE_KINDS[activeProfile.kind] : '';
  // A refused or missing key is fixed in Settings; say where, from wherever the user is.
  const needsKey =
    activeProfile?.kind === 'account' &&
    (connection.status === 'key_rejected' || !activeProfile.key.configured);
  return (
    <footer className="status-bar">
      <div className="status-bar__connection">
        <span className={`status-dot status-dot--${connectionTone(connection.status)}`} aria-hidden="true" />
        {/* Only the state and its sentence are announced; the ticking "checked … ago" is not. */}
        <span role="status" aria-live="polite" className="status-bar__live">
          <span className="status-bar__label" data-testid="connection-status" data-status={connection.status}>
            {connectionLabel(connection.status)}
          </span>{' '}
          <span className="status-bar__message">{connection.message}</span>
        </span>
        {needsKey ? (
          <a href={hrefOf('settings')} className="status-bar__fix">
            Fix the key in Settings
          </a>
        ) : null}
        {/* Online is kept true by every answer the service gives, not by the last check: saying
            "checked 36 min ago" then reads as stale. The time matters when something is wrong. */}
        {connection.checkedAt && connection.status !== 'online' ? (
          <span className="status-bar__time">
            last checked <Time iso={connection.checkedAt} relative />
          </span>
        ) : null}
      </div>
      <div className="status-bar__profile">
        <span className="muted">Profile:</span>{' '}
        {activeProfile ? (
          <strong data-testid="active-profile">
            {activeProfile.name}
            {kind ? <span className="muted"> ({kind})</span> : null}
          </strong>
        ) : (
          <span>none</span>
        )}
        {state.mode === 'web' ? <span className="badge">web mode</span> : null}
      </div>
      {activeProfile ? (
        <button
          type="button"
          className="button button--small"
          onClick={() => void checkConnection()}
          disabled={checking || connection.status === 'checking'}
        >
          {checking ? 'Checking…' : 'Check now'}
        </button>
      ) : null}
      {actionError ? (
        <p className="status-bar__error" role="alert">
          {actionError.message}
        </p>
      ) : null}
    </footer>
  );
}
