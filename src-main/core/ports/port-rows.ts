import type { MobilePort } from '../../api';
import {
  PORT_ROW_COLUMNS,
  type MobilePortView,
  type PortRow,
  type PortRowValues,
  type PortsListView,
} from '../../../src-shared/contract';
import type { ServedList } from '../snapshots/snapshot-list';

/** What the Ports list shows of a port: no password, no credentials, nothing only the detail reads. */
function toPortRow(port: MobilePort | MobilePortView | PortRow): PortRow {
  return {
    id: port.id,
    label: port.label,
    status: port.status,
    country: port.country,
    city: port.city,
    carrierName: port.carrierName,
    networkType: port.networkType,
    currentIp: port.currentIp,
    ipChangedAt: port.ipChangedAt,
    expiresAt: port.expiresAt,
    autoRenew: port.autoRenew,
    rotation: { mode: port.rotation.mode, intervalMinutes: port.rotation.intervalMinutes },
  };
}

function rowValues(row: PortRow): PortRowValues {
  return [
    row.id,
    row.label,
    row.status,
    row.country,
    row.city,
    row.carrierName,
    row.networkType,
    row.currentIp,
    row.ipChangedAt,
    row.expiresAt,
    row.autoRenew,
    row.rotation.mode,
    row.rotation.intervalMinutes,
  ];
}

/** `ports:list`'s answer: the rows as a table (`PORT_ROW_COLUMNS`), with whose and how fresh. */
export function portsListView(
  profileId: string,
  served: ServedList<MobilePortView | PortRow>,
): PortsListView {
  return {
    profileId,
    asOf: new Date(served.readAt).toISOString(),
    revalidating: served.revalidating,
    columns: PORT_ROW_COLUMNS,
    rows: served.items.map((port) => rowValues(toPortRow(port))),
  };
}
