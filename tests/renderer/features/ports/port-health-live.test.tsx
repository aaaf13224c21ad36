import { act, render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { connectEventBridge } from '../../../../src-renderer/src/app/event-bridge';
import { PortHealthPanel } from '../../../../src-renderer/src/features/ports/PortHealthPanel';
import { PortsScreen } from '../../../../src-renderer/src/features/ports/PortsScreen';
import { usePortsStore } from '../../../../src-renderer/src/features/ports/ports-store';
import type { PortHealth, PortHealthChanged, PortHealthHistory } from '../../../../src-shared/contract';
import { ok } from '../../support/fake-api';
import { appState, countries, port, portsAnswer } from '../../support/fixtures';
import { settle, useFakeApi } from '../../support/renderer-test-kit';

/*
 * `ports:healthChanged` through the one event bridge: the Ports list's Health cell and the open
 * Health tab show the new status at once, without reading `ports:health` again.
 */

const scores = (portId: string, status: PortHealth['status']): PortHealth => ({
  portId,
  status,
  statusSince: '2026-03-10T11:00:00.000Z',
  failuresInARow: 0,
  lastCheck: null,
  uptime24h: 1,
  uptime30d: 1,
  checks24h: 96,
  checks30d: 2880,
  latency24h: { connectP50: 3, connectP95: 5, firstByteP50: 100, firstByteP95: 200, firstByteMax: 300 },
  rotations30d: 0,
  uniqueIpRatio30d: null,
  unchanged30d: 0,
  repeated30d: 0,
  drift30d: 0,
  lastVerdict: null,
});

const history: PortHealthHistory = { portId: 'port_1', range: '24h', segments: [], recent: [] };

const down = (overrides: Partial<PortHealthChanged> = {}): PortHealthChanged => ({
  profileId: 'prof_work',
  kind: 'port',
  id: 'port_1',
  previous: 'up',
  status: 'down',
  statusSince: '2026-03-10T11:55:00.000Z',
  failuresInARow: 3,
  lastCheck: {
    at: '2026-03-10T11:55:00.000Z',
    ok: false,
    status: 503,
    connectMs: 1,
    firstByteMs: 2,
    exitIp: null,
    asn: null,
    country: null,
    errorKind: 'unavailable',
    error: 'Modem offline: not answering.',
  },
  ...overrides,
});

describe('a port’s health, live', () => {
  const fake = useFakeApi(() => ({
    'app:getState': () => ok(appState()),
    'ports:list': () =>
      ok(portsAnswer([port({ id: 'port_1', label: 'Austin' }), port({ id: 'port_2', label: 'Berlin' })])),
    'catalog:countries': () => ok(countries()),
    'catalog:citiesOf': () => ok({}),
    'ports:health': (input) =>
      ok(
        [scores('port_1', 'up'), scores('port_2', 'up')].filter(
          (s) => !input?.portId || s.portId === input.portId,
        ),
      ),
    'ports:healthHistory': () => ok(history),
  }));

  const healthCells = () => {
    const table = screen.getByRole('table', { name: 'Mobile ports' });
    const headers = within(table).getAllByRole('columnheader');
    const at = headers.findIndex((header) => header.textContent?.includes('Health'));
    return within(table)
      .getAllByRole('row')
      .filter((row) => row.getAttribute('aria-hidden') !== 'true')
      .slice(1)
      .map((row) => row.querySelectorAll('th, td')[at]?.textContent);
  };

  it('changes the list’s Health cell and the open Health tab at once, reading nothing again', async () => {
    const disconnect = connectEventBridge({ onConnected: null });
    await settle();
    render(
      <>
        <PortsScreen />
        <PortHealthPanel portId="port_1" />
      </>,
    );
    await screen.findAllByText('Up');
    await settle();
    expect(healthCells()).toEqual(['Up', 'Up']);
    const panel = screen.getByRole('region', { name: 'Health' });
    expect(within(panel).getAllByRole('status')[0]?.textContent).toMatch(/^Up/);
    const reads = fake.current.callsTo('ports:health').length;

    act(() => fake.current.emit('ports:healthChanged', down()));
    expect(healthCells()).toEqual(['Down', 'Up']);
    expect(within(panel).getByText(/3 failed check\(s\) in a row/).textContent).toMatch(/^Down/);
    expect(within(panel).getByText(/Modem offline: not answering\./)).toBeTruthy();
    expect(usePortsStore.getState().portHealth.port_1?.data?.[0]).toMatchObject({
      status: 'down',
      statusSince: '2026-03-10T11:55:00.000Z',
    });
    expect(fake.current.callsTo('ports:health')).toHaveLength(reads);

    // Another profile's port, a local proxy's change, or a malformed payload change nothing.
    act(() => {
      fake.current.emit('ports:healthChanged', down({ id: 'port_2', profileId: 'prof_other' }));
      fake.current.emit('ports:healthChanged', down({ id: 'port_2', kind: 'localProxy' }));
      fake.current.emit('ports:healthChanged', { id: 'port_2', status: 'down' });
    });
    expect(healthCells()).toEqual(['Down', 'Up']);

    act(() =>
      fake.current.emit(
        'ports:healthChanged',
        down({
          previous: 'down',
          status: 'up',
          failuresInARow: 0,
          lastCheck: { ...down().lastCheck, ok: true, status: 200, errorKind: null, error: null },
        }),
      ),
    );
    expect(healthCells()).toEqual(['Up', 'Up']);
    expect(within(panel).queryByText(/failed check\(s\) in a row/)).toBeNull();
    disconnect();
  });
});
