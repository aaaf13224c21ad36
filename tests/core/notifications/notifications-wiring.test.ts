import { describe, expect, it } from 'vitest';
import type { RaisedAlert } from '../../../src-main/core/alerts/alert-center';
import type { AlertKind } from '../../../src-main/core/alerts/alert-rules';
import type { OsNotice } from '../../../src-main/core/notifications/notification-kinds';
import { attachNotifications } from '../../../src-main/core/notifications/notifications-wiring';
import { FakeClock } from '../../../src-main/core/runtime/fake-clock';
import type { TopUpNotice } from '../../../src-main/core/topups/topup-watcher';
import { EventBus } from '../../../src-main/core/events';
import type { PortHealthChanged } from '../../../src-shared/contract';

function setup() {
  const shown: OsNotice[] = [];
  let focused = false;
  const settings = {
    notifications: {
      'rotation-new-ip': true,
      'rotation-same-ip': true,
      'rotation-failed': true,
      'relocation-done': true,
      'port-health': true,
    },
    alerts: { disabledKinds: [] as AlertKind[] },
  };
  const events = new EventBus(() => undefined);
  const wiring = attachNotifications({
    notifier: { show: (notice) => shown.push(notice) },
    isWindowFocused: () => focused,
    clock: new FakeClock(),
    settings: { get: () => settings },
    events,
    labelOf: (_profileId, portId) => (portId === 'port_1' ? 'Berlin' : null),
  });
  return { shown, settings, wiring, events, setFocused: (value: boolean) => (focused = value) };
}

const alert = (kind: AlertKind, key = `${kind}:p1:sub_1`): RaisedAlert => ({
  id: `a-${key}`,
  key,
  kind,
  profileId: 'p1',
  subjectId: 'sub_1',
  level: 'warning',
  title: 'Traffic low: Residential 10 GB',
  message: '0.9 GB of 10 GB left.',
  raisedAt: '2026-01-01T00:00:00.000Z',
});

const credited: TopUpNotice = {
  profileId: 'p1',
  topUpId: 'tu_1',
  kind: 'credited',
  title: 'Top-up of 50.00 USD credited',
  body: '50.00 USD was added to your balance.',
};

describe('usage alerts and top-ups as OS notifications', () => {
  it('shows a raised alert and a top-up outcome while no window has focus', () => {
    const { shown, wiring } = setup();
    expect(wiring.alert(alert('traffic_low'))).toBe('shown');
    expect(wiring.topUp(credited)).toBe('shown');
    expect(shown).toEqual([
      {
        kind: 'usage-alert',
        title: 'Traffic low: Residential 10 GB',
        body: '0.9 GB of 10 GB left.',
        dedupeKey: 'alert:traffic_low:p1:sub_1',
        route: '/subscriptions/sub_1',
      },
      {
        kind: 'topup',
        title: 'Top-up of 50.00 USD credited',
        body: '50.00 USD was added to your balance.',
        dedupeKey: 'topup:p1:tu_1:credited',
        route: '/topups/tu_1',
      },
    ]);
  });

  it('shows neither while a window has focus (the window shows them already)', () => {
    const { shown, wiring, setFocused } = setup();
    setFocused(true);
    expect(wiring.alert(alert('traffic_low'))).toBe('focused');
    expect(wiring.topUp(credited)).toBe('focused');
    expect(shown).toEqual([]);
    setFocused(false);
    expect(wiring.topUp({ ...credited, kind: 'purchase_completed', title: 'Plan purchased' })).toBe('shown');
    expect(shown.map((n) => n.title)).toEqual(['Plan purchased']);
  });

  it('follows the alert kinds the user turned off, read when the alert arrives', () => {
    const { shown, settings, wiring } = setup();
    settings.alerts.disabledKinds = ['traffic_low'];
    expect(wiring.alert(alert('traffic_low'))).toBe('declined');
    expect(wiring.alert(alert('port_expiring', 'port_expiring:p1:mp_1'))).toBe('shown');
    settings.alerts.disabledKinds = [];
    expect(wiring.alert(alert('traffic_low', 'traffic_low:p1:sub_2'))).toBe('shown');
    expect(shown.map((n) => n.dedupeKey)).toEqual([
      'alert:port_expiring:p1:mp_1',
      'alert:traffic_low:p1:sub_2',
    ]);
  });

  it('tells one top-up outcome once, even when two paths report it', () => {
    const { shown, wiring } = setup();
    wiring.topUp(credited);
    expect(wiring.topUp(credited)).toBe('duplicate');
    expect(wiring.topUp({ ...credited, kind: 'purchase_failed', title: 'Plan not purchased' })).toBe('shown');
    expect(shown).toHaveLength(2);
  });

  it('still honours the rotation preferences for the kinds that have one', () => {
    const { shown, settings, wiring } = setup();
    settings.notifications['relocation-done'] = false;
    const notice = {
      profileId: 'p1',
      portId: 'mp_1',
      label: 'Berlin',
      state: 'active' as const,
      message: 'The port is active in DE.',
    };
    expect(wiring.relocation(notice)).toBe('disabled');
    expect(shown).toEqual([]);
  });
});

describe('a port down or back up (its health checks) as an OS notification', () => {
  const change = (
    previous: PortHealthChanged['previous'],
    status: PortHealthChanged['status'],
    overrides: Partial<PortHealthChanged> = {},
  ): PortHealthChanged => ({
    profileId: 'p1',
    kind: 'port',
    id: 'port_1',
    previous,
    status,
    statusSince: '2026-01-01T00:15:00.000Z',
    failuresInARow: status === 'down' ? 3 : 0,
    lastCheck: {
      at: '2026-01-01T00:15:00.000Z',
      ok: status !== 'down',
      status: status === 'down' ? 503 : 200,
      connectMs: 3,
      firstByteMs: status === 'down' ? null : 40,
      exitIp: status === 'down' ? null : '10.0.0.7',
      asn: null,
      country: null,
      errorKind: status === 'down' ? 'unavailable' : null,
      error: status === 'down' ? 'Modem offline: not answering.' : null,
    },
    ...overrides,
  });

  it('tells of a port going down and of it coming back, with its label and route', () => {
    const { shown, events } = setup();
    events.emit('ports:healthChanged', change('up', 'down'));
    events.emit('ports:healthChanged', change('down', 'up', { statusSince: '2026-01-01T00:25:00.000Z' }));
    expect(shown).toEqual([
      {
        kind: 'port-health',
        title: 'Port down: Berlin',
        body: '3 health checks in a row failed: Modem offline: not answering.',
        dedupeKey: 'port-health:p1:port_1:down:2026-01-01T00:15:00.000Z',
        route: '/ports/port_1',
      },
      {
        kind: 'port-health',
        title: 'Port back up: Berlin',
        body: 'Its health checks pass again (exit IP 10.0.0.7).',
        dedupeKey: 'port-health:p1:port_1:up:2026-01-01T00:25:00.000Z',
        route: '/ports/port_1',
      },
    ]);
  });

  it('says nothing of a first good check, of other targets, or when the user turned the kind off', () => {
    const { shown, events, settings } = setup();
    events.emit('ports:healthChanged', change('unknown', 'up'));
    events.emit('ports:healthChanged', change('up', 'down', { kind: 'localProxy', id: 'lp_1' }));
    events.emit('ports:healthChanged', change('up', 'down', { kind: 'subscription', id: 'sub_1' }));
    settings.notifications['port-health'] = false;
    events.emit('ports:healthChanged', change('up', 'down'));
    expect(shown).toEqual([]);
  });
});
