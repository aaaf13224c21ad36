import { useEffect } from 'react';
import { ErrorMessage } from '../../shared/components/ErrorMessage';
import { useUpdatesStore } from './updates-store';

/** Refusals worth a banner: a feed or a download that was not believed (not "offline"). */
const REFUSALS = new Set([
  'unknown_key',
  'bad_signature',
  'expired',
  'rollback',
  'malformed',
  'wrong_product',
  'too_large',
  'size_mismatch',
  'hash_mismatch',
]);

/** "Update available" with the notes, the download's progress, and what to do once it is verified. */
export function UpdateBanner() {
  const status = useUpdatesStore((store) => store.status);
  const busy = useUpdatesStore((store) => store.busy);
  const error = useUpdatesStore((store) => store.error);
  const dismissed = useUpdatesStore((store) => store.dismissedVersion);
  const { load, download, openInstaller, restart, dismiss } = useUpdatesStore.getState();
  useEffect(() => {
    void load();
  }, [load]);
  if (!status) return null;
  const { available, ready, progress, problem } = status;
  const refused = problem && REFUSALS.has(problem.reason) ? problem : null;
  if (!available && !ready && !refused) return null;
  const version = ready?.version ?? available?.version ?? '';
  if (!ready && !progress && !refused && dismissed === version) return null;
  return (
    <div className="jobs-banner update-banner" role="status" aria-label="Update" data-testid="update-banner">
      {ready?.kind === 'restart' ? (
        <p>
          <strong>Proxy Manager {ready.version} is installed.</strong> Restart to use it.{' '}
          <button
            type="button"
            className="button button--small"
            disabled={busy !== null}
            onClick={() => void restart()}
          >
            Restart
          </button>
        </p>
      ) : ready?.kind === 'installer' ? (
        <p>
          <strong>Proxy Manager {ready.version} is downloaded and verified:</strong> <code>{ready.path}</code>
          {ready.command ? (
            <>
              {' '}
              Install it with <code>{ready.command}</code>
            </>
          ) : null}{' '}
          <button
            type="button"
            className="button button--small"
            disabled={busy !== null}
            onClick={() => void openInstaller()}
          >
            Open installer
          </button>
        </p>
      ) : progress ? (
        <p>
          Downloading Proxy Manager {version}… {progress.percent}%{' '}
          <progress max={100} value={progress.percent} aria-label={`Downloading ${version}`} />
        </p>
      ) : available ? (
        <>
          <p>
            <strong>Update available: {available.version}</strong> (you have {status.currentVersion}).{' '}
            {status.installKind === 'unpackaged' ? (
              'Update this copy the way it was installed.'
            ) : (
              <button
                type="button"
                className="button button--small"
                disabled={busy !== null}
                onClick={() => void download()}
              >
                Download and verify
              </button>
            )}{' '}
            <button type="button" className="button button--small" onClick={() => dismiss(available.version)}>
              Later
            </button>
          </p>
          {available.notes ? (
            <details>
              <summary>Release notes</summary>
              <p className="update-banner__notes">{available.notes}</p>
            </details>
          ) : null}
        </>
      ) : null}
      {refused ? (
        <p data-testid="update-refused">
          <strong>An update was refused:</strong> {refused.message}
        </p>
      ) : null}
      {error ? <ErrorMessage error={error} title="The update did not go through" /> : null}
    </div>
  );
}
