import { useState } from 'react';
import type { IpcError } from '../../../../src-shared/contract';
import { callApi } from '../../api/window-api';
import { ErrorMessage } from '../../shared/components/ErrorMessage';
import { useLoadable } from '../../shared/loadable-slice';
import { usePorts } from '../ports/ports-hooks';
import { traySlice, usePortsStore } from '../ports/ports-store';
import { PickList } from './PickList';

/** The tray menu's limit (`tray:setPinned` refuses more). */
const TRAY_PINNED_MAX = 20;

const plural = (count: number) => `${count} port${count === 1 ? '' : 's'}`;

/**
 * Settings → Desktop: which ports the tray menu lists, for all ports at once (a port's page pins it
 * one at a time). The pins keep their order; ports pinned here go after those already pinned.
 */
export function TrayPinsSetting() {
  const tray = useLoadable(usePortsStore, traySlice).loadable;
  const ports = usePorts().loadable;
  const applyTray = usePortsStore((store) => store.applyTray);
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<IpcError | null>(null);
  const pinned = tray?.data?.pinnedPortIds ?? null;
  const rows = ports?.data ?? null;

  const save = async (portIds: string[]) => {
    setSaving(true);
    const result = await callApi((api) => api.tray.setPinned({ portIds }));
    setSaving(false);
    setError(result.ok ? null : result.error);
    if (result.ok) applyTray(result.value);
  };
  const current = pinned ?? [];
  return (
    <div className="settings-subsection">
      <PickList
        legend="Ports in the tray menu"
        hint="The tray rotates a pinned port in one click; the first one is what the global shortcut rotates. With nothing pinned the tray lists every port when there are at most five."
        items={
          // Until the pins are read a click could drop the others: nothing to tick before then.
          pinned === null
            ? null
            : (rows?.map((row) => ({
                id: row.id,
                name: row.label.trim() || row.id,
                hint: `${row.carrierName} ${row.networkType}${row.label.trim() ? '' : ' · no label'}`,
              })) ?? null)
        }
        chosen={current}
        absent={rows ? current.filter((id) => !rows.some((row) => row.id === id)) : []}
        absentHint="Not a port of this account any more."
        noun="port"
        saving={saving}
        maxOn={TRAY_PINNED_MAX}
        status={
          pinned === null || rows === null ? (
            tray?.error || ports?.error ? (
              <ErrorMessage
                error={(tray?.error ?? ports?.error)!}
                title="Could not read the ports or the tray"
              />
            ) : (
              <p className="muted">Reading your ports…</p>
            )
          ) : rows.length === 0 ? (
            <p className="muted">This account has no ports.</p>
          ) : (
            <p className="muted small">
              {pinned.length === 0 ? 'None pinned.' : `${plural(pinned.length)} pinned.`}
            </p>
          )
        }
        testId="tray-pins"
        onToggle={(id, on) => void save(on ? [...current, id] : current.filter((known) => known !== id))}
        onSetMany={(ids, on) =>
          void save(on ? [...current, ...ids] : current.filter((known) => !ids.includes(known)))
        }
      />
      {error ? <ErrorMessage error={error} title="Could not change the tray" /> : null}
    </div>
  );
}
