import { describe, expect, it } from 'vitest';
import {
  buildPaymentsTrayItems,
  buildPortsTrayItems,
  EMPTY_PORTS_TRAY_STATE,
  type PortsTrayState,
  portsTrayTooltip,
  trayBadge,
  type TrayPort,
} from '../../../src-main/core/tray/tray-menu';

const NOW = Date.UTC(2026, 0, 1, 12);
const port = (id: string, overrides: Partial<TrayPort> = {}): TrayPort => ({
  portId: id,
  label: `Port ${id}`,
  currentIp: `10.0.0.${id}`,
  cooldownUntil: null,
  rotating: false,
  ...overrides,
});
const state = (overrides: Partial<PortsTrayState>): PortsTrayState => ({
  ...EMPTY_PORTS_TRAY_STATE,
  profileId: 'p1',
  nowMs: NOW,
  ...overrides,
});

describe('the ports part of the tray menu', () => {
  it('lists pinned ports with label and IP, each rotating on click, then Rotate all pinned', () => {
    const items = buildPortsTrayItems(state({ ports: [port('1'), port('2')], pinned: true }));
    expect(items).toEqual([
      {
        kind: 'action',
        label: 'Port 1 — 10.0.0.1',
        action: { type: 'rotate-port', portId: '1' },
        enabled: true,
      },
      {
        kind: 'action',
        label: 'Port 2 — 10.0.0.2',
        action: { type: 'rotate-port', portId: '2' },
        enabled: true,
      },
      {
        kind: 'action',
        label: 'Rotate Port 1 until new',
        action: { type: 'rotate-until-new', portId: '1' },
        enabled: true,
      },
      { kind: 'action', label: 'Rotate all pinned', action: { type: 'rotate-all-pinned' }, enabled: true },
    ]);
  });

  it('shows the seconds left of a cooldown on a disabled item, rounded up', () => {
    const items = buildPortsTrayItems(
      state({
        ports: [port('1', { cooldownUntil: NOW + 12_300 }), port('2', { cooldownUntil: NOW + 1 })],
        pinned: true,
      }),
    );
    expect(items.slice(0, 2)).toEqual([
      expect.objectContaining({ label: 'Port 1 — 10.0.0.1 (13 s)', enabled: false }),
      expect.objectContaining({ label: 'Port 2 — 10.0.0.2 (1 s)', enabled: false }),
    ]);
    // "Until new" waits out the cooldown itself; Rotate all pinned waits too.
    expect(items[2]).toMatchObject({ label: 'Rotate Port 1 until new', enabled: true });
    expect(items[3]).toMatchObject({ label: 'Rotate all pinned', enabled: false });
    const later = buildPortsTrayItems(
      state({ ports: [port('1', { cooldownUntil: NOW + 12_300 })], pinned: true, nowMs: NOW + 13_000 }),
    );
    expect(later[0]).toMatchObject({ label: 'Port 1 — 10.0.0.1', enabled: true });
  });

  it('disables a port while it rotates', () => {
    const [item, untilNew] = buildPortsTrayItems(state({ ports: [port('1', { rotating: true })] }));
    expect(item).toMatchObject({ label: 'Port 1 — 10.0.0.1 (rotating…)', enabled: false });
    expect(untilNew).toMatchObject({ action: { type: 'rotate-until-new', portId: '1' }, enabled: false });
  });

  it('offers Pause or Resume schedules only when there are schedules, and no Rotate all for unpinned ports', () => {
    const unpinned = buildPortsTrayItems(state({ ports: [port('1'), port('2')], pinned: false }));
    expect(unpinned.map((item) => (item.kind === 'action' ? item.action.type : item.kind))).toEqual([
      'rotate-port',
      'rotate-port',
      'rotate-until-new',
    ]);
    const running = buildPortsTrayItems(state({ ports: [port('1')], hasSchedules: true }));
    expect(running.slice(2)).toEqual([
      { kind: 'separator' },
      { kind: 'action', label: 'Pause schedules', action: { type: 'pause-schedules', paused: true } },
    ]);
    const paused = buildPortsTrayItems(state({ hasSchedules: true, schedulesPaused: true }));
    expect(paused).toEqual([
      { kind: 'action', label: 'Resume schedules', action: { type: 'pause-schedules', paused: false } },
    ]);
  });

  it('in a process that does not own the jobs, shows Pause schedules disabled and says another process runs them', () => {
    const items = buildPortsTrayItems(state({ hasSchedules: true, ownsSchedules: false }));
    expect(items).toEqual([
      {
        kind: 'action',
        label: 'Pause schedules (another Proxy Manager process runs them)',
        action: { type: 'pause-schedules', paused: true },
        enabled: false,
      },
    ]);
    const paused = buildPortsTrayItems(
      state({ hasSchedules: true, schedulesPaused: true, ownsSchedules: false }),
    );
    expect(paused[0]).toMatchObject({
      label: 'Resume schedules (another Proxy Manager process runs them)',
      enabled: false,
    });
  });

  it('says the last receipt in the tooltip', () => {
    expect(portsTrayTooltip(state({}))).toBe('Proxy Manager');
    const receipt = { label: 'Berlin', previousIp: '1.1.1.1', ip: '2.2.2.2', sameIp: false, at: '' };
    expect(portsTrayTooltip(state({ lastReceipt: receipt }))).toBe(
      'Proxy Manager — Berlin: 1.1.1.1 → 2.2.2.2',
    );
    expect(portsTrayTooltip(state({ lastReceipt: { ...receipt, ip: '1.1.1.1', sameIp: true } }))).toBe(
      'Proxy Manager — Berlin: same IP 1.1.1.1',
    );
  });

  it("lists pending payments (each carries its top-up's route), badges their count and says it in the tooltip", () => {
    expect(buildPaymentsTrayItems(state({}))).toEqual([]);
    expect(trayBadge(state({}))).toBe('');
    const payments = [
      { topUpId: 't1', text: 'Top-up of 50.00 USD: 1 of 2 confirmations' },
      { topUpId: 't2', text: 'Top-up of 25.00 USD: awaiting payment' },
    ];
    expect(buildPaymentsTrayItems(state({ payments }))).toEqual([
      {
        kind: 'action',
        label: 'Top-up of 50.00 USD: 1 of 2 confirmations',
        action: { type: 'open-route', route: '/topups/t1' },
      },
      {
        kind: 'action',
        label: 'Top-up of 25.00 USD: awaiting payment',
        action: { type: 'open-route', route: '/topups/t2' },
      },
    ]);
    expect(trayBadge(state({ payments }))).toBe('2');
    expect(portsTrayTooltip(state({ payments }))).toBe('Proxy Manager\n2 top-up payments pending');
    expect(portsTrayTooltip(state({ payments: payments.slice(1) }))).toBe(
      'Proxy Manager\n1 top-up payment pending',
    );
  });
});
