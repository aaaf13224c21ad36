import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { PortHealthPanel } from '../../../../src-renderer/src/features/ports/PortHealthPanel';
import { usePortsStore } from '../../../../src-renderer/src/features/ports/ports-store';
import { RotatePanel } from '../../../../src-renderer/src/features/ports/RotatePanel';
import type { PortHealth, PortHealthHistory, RotationVerdict } from '../../../../src-shared/contract';
import { ok } from '../../support/fake-api';
import { useFakeApi } from '../../support/renderer-test-kit';
import { receipt } from './port-fixtures';

const verdict = (kind: RotationVerdict['kind'], message: string): RotationVerdict => ({
  kind,
  exitIp: '100.85.7.7',
  asn: 65001,
  country: 'FR',
  expectedAsn: 64600,
  expectedCountry: 'US',
  seenBefore: null,
  checks: 1,
  message,
});

const health = (overrides: Partial<PortHealth> = {}): PortHealth => ({
  portId: 'port_1',
  status: 'down',
  statusSince: '2026-03-10T11:45:00.000Z',
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
    error: 'Modem offline: The modem of mobile port port_1 is not answering.',
  },
  uptime24h: 0.75,
  uptime30d: 0.99,
  checks24h: 12,
  checks30d: 300,
  latency24h: { connectP50: 3, connectP95: 9, firstByteP50: 120, firstByteP95: 480, firstByteMax: 900 },
  rotations30d: 4,
  uniqueIpRatio30d: 0.75,
  unchanged30d: 1,
  repeated30d: 1,
  drift30d: 1,
  lastVerdict: verdict('drift', '100.85.7.7 leaves through AS65001 instead of AS64600.'),
  ...overrides,
});

const history = (range: '24h' | '30d'): PortHealthHistory => {
  const count = range === '24h' ? 96 : 30;
  const step = range === '24h' ? 15 * 60_000 : 86_400_000;
  return {
    portId: 'port_1',
    range,
    segments: Array.from({ length: count }, (_, i) => ({
      start: new Date(Date.parse('2026-03-09T12:00:00.000Z') + i * step).toISOString(),
      checks: i < 2 ? 0 : 3,
      failures: i === count - 1 ? 3 : i === count - 2 ? 1 : 0,
      firstByteP50: i < 2 ? null : 100 + i,
      firstByteP95: i < 2 ? null : 400 + i,
    })),
    recent: [],
  };
};

describe('Port health panel', () => {
  const fake = useFakeApi(() => ({
    'ports:health': () => ok([health(), health({ portId: 'port_2', status: 'up' })]),
    'ports:healthHistory': ({ range }) => ok(history(range ?? '24h')),
    'ports:receipts': () => ok([]),
  }));

  it('shows the status with the gateway’s words, the scores, and an uptime bar of 96 quarter hours', async () => {
    const { container } = render(<PortHealthPanel portId="port_1" />);
    expect(await screen.findByText('Down')).toBeTruthy();
    expect(screen.getByText(/Modem offline: The modem of mobile port port_1/)).toBeTruthy();
    expect(screen.getByText(/75\.00 % \(12 checks\)/)).toBeTruthy();
    expect(screen.getByText(/p50 120 ms · p95 480 ms · max 900 ms/)).toBeTruthy();
    expect(screen.getByText(/unchanged 1 · repeated 1 · drift 1/)).toBeTruthy();
    expect(screen.getByText('drift')).toBeTruthy();
    const bar = await screen.findByRole('img', {
      name: /Uptime .* over the last 24 hours: 4 of 282 checks failed/,
    });
    expect(bar.querySelectorAll('rect')).toHaveLength(96);
    expect(container.querySelectorAll('.uptime-bar__down')).toHaveLength(1);
    expect(container.querySelectorAll('.uptime-bar__partial')).toHaveLength(1);
    expect(container.querySelectorAll('.uptime-bar__none')).toHaveLength(2);
    fireEvent.click(screen.getByLabelText('30 days'));
    const month = await screen.findByRole('img', { name: /over the last 30 days/ });
    expect(month.querySelectorAll('rect')).toHaveLength(30);
    expect(fake.current.callsTo('ports:health')).toEqual([{ portId: 'port_1' }]);
    expect(fake.current.callsTo('ports:healthHistory')).toEqual([
      { portId: 'port_1', range: '24h' },
      { portId: 'port_1', range: '30d' },
    ]);
  });

  it('keeps every port’s scores in the store for the list (one call, in the list’s order)', async () => {
    await usePortsStore.getState().loadHealth();
    expect(usePortsStore.getState().health.data?.map((entry) => [entry.portId, entry.status])).toEqual([
      ['port_1', 'down'],
      ['port_2', 'up'],
    ]);
    expect(fake.current.callsTo('ports:health')).toEqual([undefined]);
  });

  it('says so when a port has not been checked yet', async () => {
    fake.current.handle('ports:health', () =>
      ok([
        health({
          status: 'unknown',
          statusSince: null,
          failuresInARow: 0,
          lastCheck: null,
          lastVerdict: null,
        }),
      ]),
    );
    render(<PortHealthPanel portId="port_1" />);
    expect(await screen.findByText('Not checked yet')).toBeTruthy();
  });
});

describe('the rotation receipt’s verdict', () => {
  const fake = useFakeApi(() => ({ 'ports:receipts': () => ok([]) }));

  it.each([
    ['unchanged', 'The rotation kept the IP 100.85.1.2.'],
    ['repeat', '100.85.7.7 is an IP this port had before (2026-03-10T10:00:00.000Z).'],
    ['drift', '100.85.7.7 leaves through AS65001 instead of AS64600.'],
  ] as const)('shows %s with its sentence', async (kind, message) => {
    fake.current.handle('ports:receipts', () => ok([receipt({ verdict: verdict(kind, message) })]));
    render(<RotatePanel portId="port_1" label="Sneaker drops LA" />);
    expect(await screen.findByText(message)).toBeTruthy();
    expect(screen.getByText(kind)).toBeTruthy();
  });
});

describe('rotating until a clean IP from the port page', () => {
  const fake = useFakeApi(() => ({
    'ports:receipts': () => ok([]),
    'ports:rotate': () =>
      ok(
        receipt({
          attempts: 2,
          untilUnique: { maxTries: 3, reachedClean: true },
          verdict: verdict('clean', '100.85.7.7 is new and on the port’s network.'),
        }),
      ),
  }));

  it('sends untilUnique 3 and shows how many rotations it took', async () => {
    render(<RotatePanel portId="port_1" label="Sneaker drops LA" />);
    fireEvent.click(await screen.findByLabelText(/Until a clean IP/));
    fireEvent.click(screen.getByRole('button', { name: /^Rotate now/ }));
    expect(await screen.findByText('A clean IP after 2 rotation(s)')).toBeTruthy();
    expect(fake.current.callsTo('ports:rotate')).toEqual([{ portId: 'port_1', untilUnique: 3 }]);
  });
});
