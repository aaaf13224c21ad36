import { AsyncContent } from '../../shared/components/AsyncContent';
import { RefreshButton } from '../../shared/components/RefreshButton';
import { Screen } from '../../shared/components/Screen';
import { StatusBadge } from '../../shared/components/StatusBadge';
import { Time } from '../../shared/components/Time';
import { TestAllResults } from '../proxy-test/TestAllResults';
import { TestProxyButton } from '../proxy-test/TestProxyButton';
import { usePorts } from './ports-hooks';
import type { MobilePortView } from '../../../../src-main/ipc/contract';

export function rotationText(port: Pick<MobilePortView, 'rotation'>): string {
  if (port.rotation.mode === 'manual') return 'Manual';
  if (port.rotation.mode === 'interval')
    return port.rotation.intervalMinutes === null
      ? 'On a timer'
      : `Every ${port.rotation.intervalMinutes} min`;
  return port.rotation.mode;
}

function PortsTable({ ports }: { ports: MobilePortView[] }) {
  return (
    <div className="table-wrap">
      <table className="table" aria-label="Mobile ports">
        <thead>
          <tr>
            <th scope="col">Port</th>
            <th scope="col">Status</th>
            <th scope="col">Location</th>
            <th scope="col">Carrier</th>
            <th scope="col">Current IP</th>
            <th scope="col">Rotation</th>
            <th scope="col">Expires</th>
            <th scope="col">Proxy test</th>
          </tr>
        </thead>
        <tbody>
          {ports.map((port) => (
            <tr key={port.id}>
              <th scope="row">
                {port.label || <span className="muted">(no label)</span>}
                <div className="muted small">
                  <code>{port.id}</code>
                </div>
              </th>
              <td>
                <StatusBadge status={port.status} />
              </td>
              <td>
                {port.country}
                {port.city ? ` · ${port.city}` : ''}
              </td>
              <td>
                {port.carrierName} <span className="badge">{port.networkType}</span>
              </td>
              <td>
                <code>{port.currentIp}</code>
                <div className="muted small">
                  changed <Time iso={port.ipChangedAt} relative />
                </div>
              </td>
              <td>{rotationText(port)}</td>
              <td>
                <Time iso={port.expiresAt} />
              </td>
              <td>
                <TestProxyButton target={{ kind: 'port', portId: port.id }} label={port.label || port.id} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function PortsScreen() {
  const { loadable, refresh } = usePorts();
  return (
    <Screen
      title="Ports"
      description="Dedicated 4G/5G mobile ports: their exit IP, location and rotation."
      actions={<RefreshButton onRefresh={refresh} busy={loadable?.status === 'loading'} what="ports" />}
    >
      <AsyncContent
        loadable={loadable}
        what="ports"
        onRetry={refresh}
        empty={<p>This account has no mobile ports yet.</p>}
      >
        {(ports) => (
          <>
            <PortsTable ports={ports} />
            <TestAllResults
              what="ports"
              targets={ports.map((port) => ({
                target: { kind: 'port', portId: port.id },
                label: port.label || port.id,
              }))}
            />
          </>
        )}
      </AsyncContent>
    </Screen>
  );
}
