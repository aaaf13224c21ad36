import { useState } from 'react';
import type { IpcError } from '../../../../src-shared/contract';
import { ErrorMessage } from '../../shared/components/ErrorMessage';
import { useLoadable } from '../../shared/loadable-slice';
import { useAppStore } from '../app/app-store';
import { traySlice, usePortsStore } from './ports-store';

/**
 * Whether the desktop tray menu lists this port (`tray:setPinned`). Only in the desktop app: web
 * mode has no tray. The first pinned port is the one the global shortcut rotates.
 */
export function TrayPinPanel({ portId }: { portId: string }) {
  const desktop = useAppStore((store) => store.state?.mode === 'desktop');
  if (!desktop) return null;
  return <TrayPinControls portId={portId} />;
}

function TrayPinControls({ portId }: { portId: string }) {
  const { loadable } = useLoadable(usePortsStore, traySlice);
  const pinToTray = usePortsStore((store) => store.pinToTray);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<IpcError | null>(null);
  const pinned = loadable?.data?.pinnedPortIds ?? null;
  const position = pinned ? pinned.indexOf(portId) : -1;
  const change = async (pin: boolean, first = false) => {
    setBusy(true);
    const result = await pinToTray(portId, pin, first);
    setBusy(false);
    setError(result.ok ? null : result.error);
  };
  return (
    <section className="panel" aria-labelledby="tray-pin-heading">
      <h2 id="tray-pin-heading">Tray</h2>
      <label className="checkbox-field">
        <input
          type="checkbox"
          checked={position >= 0}
          // Unknown until the pins are read: a click then could drop the others.
          disabled={busy || pinned === null}
          onChange={(event) => void change(event.target.checked)}
        />{' '}
        Show in the tray menu
      </label>
      {position === 0 ? (
        <p className="muted small">First in the menu: the global shortcut rotates this port.</p>
      ) : position > 0 ? (
        <p>
          <button
            type="button"
            className="button button--quiet"
            disabled={busy}
            onClick={() => void change(true, true)}
          >
            Make first (the global shortcut rotates it)
          </button>
        </p>
      ) : null}
      <p className="muted small">
        The tray rotates a pinned port in one click. With nothing pinned it lists every port when there are at
        most five.
      </p>
      {error ? <ErrorMessage error={error} title="Could not change the tray" /> : null}
    </section>
  );
}
