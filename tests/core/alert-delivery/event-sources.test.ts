import { describe, expect, it } from 'vitest';
import {
  DeliveryEventSources,
  eventId,
  type PublishedEvent,
} from '../../../src-main/core/alert-delivery/event-sources';
import { EventBus } from '../../../src-main/core/events';
import { FakeClock } from '../../../src-main/core/runtime/fake-clock';
import type { MobilePortView, PortSchedule } from '../../../src-shared/contract';
import type { Subscription } from '../../../src-shared/api-types';
import { DELIVERY_EVENT_SCHEMAS } from '../../../src-shared/contract/alert-routing-events';

const HOUR = 3_600_000;

function port(overrides: Partial<MobilePortView> = {}): MobilePortView {
  return {
    id: 'mp_1',
    label: 'Berlin',
    status: 'active',
    country: 'DE',
    city: null,
    carrier: 'tmo',
    carrierName: 'T',
    networkType: '5G',
    currentIp: '203.0.113.1',
    ipChangedAt: '2026-01-01T00:00:00.000Z',
    endpoint: { host: 'gw.example', port: 8000 },
    username: 'u',
    password: 'port-password-secret',
    rotation: { mode: 'manual' },
    minRotationIntervalSeconds: 30,
    planId: 'plan',
    autoRenew: false,
    createdAt: '2025-01-01T00:00:00.000Z',
    expiresAt: new Date(Date.UTC(2026, 0, 1) + 100 * HOUR).toISOString(),
    hasRotationLink: true,
    ...overrides,
  } as MobilePortView;
}

function setUp(owner = true) {
  const clock = new FakeClock();
  const events = new EventBus();
  const published: PublishedEvent[] = [];
  const sources = new DeliveryEventSources({
    publish: (event) => {
      // What the service does first: the documented payload, nothing more.
      DELIVERY_EVENT_SCHEMAS[event.type].parse(event.data);
      published.push(event);
    },
    now: () => clock.now(),
    ownsJobs: () => owner,
  });
  sources.listen(events);
  return { clock, events, published, sources };
}

describe('the adapter from the app’s events to delivery events', () => {
  it('turns usage alerts into traffic events and leaves expiries to the hours list', () => {
    const { events, published } = setUp();
    const alert = {
      id: 'alert-1',
      key: 'k',
      profileId: 'p',
      level: 'warning' as const,
      title: 't',
      message: '2 GB left.',
      raisedAt: '2026-01-01T00:00:00.000Z',
    };
    events.emit('alerts:raised', {
      alert: { ...alert, kind: 'sub_user_cap_80', subjectId: 'sub_1/su_2', screen: 'subscriptions' },
    });
    events.emit('alerts:raised', {
      alert: { ...alert, id: 'alert-2', kind: 'port_expiring', subjectId: 'mp_1', screen: 'ports' },
    });
    expect(published).toEqual([
      {
        id: eventId('traffic.below_threshold', 'alert-1'),
        type: 'traffic.below_threshold',
        data: {
          profileId: 'p',
          subscriptionId: 'sub_1',
          subUserId: 'su_2',
          reason: 'sub_user_cap_80',
          message: '2 GB left.',
        },
      },
    ]);
  });

  it('reports a port down when the service’s status leaves active, and up when it is back; never its password', () => {
    const { events, clock, published } = setUp();
    events.emit('ports:changed', { profileId: 'p', changed: [port()] });
    expect(published).toHaveLength(0);
    events.emit('ports:changed', { profileId: 'p', changed: [port({ status: 'offline' })] });
    void clock.advance(60_000);
    events.emit('ports:changed', { profileId: 'p', changed: [port({ status: 'active' })] });
    expect(published.map((e) => e.type)).toEqual(['port.down', 'port.up']);
    expect(published[0]?.data).toEqual({
      profileId: 'p',
      portId: 'mp_1',
      label: 'Berlin',
      reason: 'The service reports it as offline.',
      since: '2026-01-01T00:00:00.000Z',
    });
    expect(JSON.stringify(published)).not.toContain('port-password-secret');
  });

  it('sends each expiry threshold once (72, 24, 6, 1 hours), only the nearest after a gap, then expired', async () => {
    const { events, clock, published, sources } = setUp();
    const sub = {
      id: 'sub_1',
      label: 'Resi',
      expiresAt: new Date(Date.UTC(2026, 0, 1) + 30 * HOUR).toISOString(),
      autoRenew: false,
    };
    events.emit('subscriptions:changed', { profileId: 'p', changed: [sub as Subscription] });
    events.emit('ports:changed', {
      profileId: 'p',
      changed: [port(), port({ id: 'mp_2', autoRenew: true })],
    });
    // 30 h left on the subscription: past 72 h, so its 72 h warning; the port has 100 h left.
    expect(published.map((e) => [e.type, (e.data as { thresholdHours?: number }).thresholdHours])).toEqual([
      ['subscription.expiring', 72],
    ]);
    expect(sources.nextExpiryCheck()).toBe(Date.UTC(2026, 0, 1) + 6 * HOUR);
    await clock.advance(29.5 * HOUR); // 30 min left on the subscription (24 h and 6 h and 1 h all passed): only 1 h
    sources.checkExpiries();
    sources.checkExpiries();
    await clock.advance(HOUR);
    sources.checkExpiries();
    const types = published.map(
      (e) => `${e.type}:${(e.data as { thresholdHours?: number }).thresholdHours ?? ''}`,
    );
    expect(types).toEqual([
      'subscription.expiring:72',
      'subscription.expiring:1',
      'port.expiring:72',
      'subscription.expired:',
    ]);
    // Ids come from the subject, its expiry and the threshold: the same in another process after a restart.
    expect(published[1]?.id).toBe(eventId('subscription.expiring', 'p', 'sub_1', sub.expiresAt, '1'));
    sources.checkExpiries();
    expect(published).toHaveLength(4);
  });

  it('reports a schedule once at 3 failures in a row, a failing local proxy, rotations that kept or repeated an IP, and top-ups', () => {
    const { events, published, sources } = setUp();
    const schedule = (failures: number): PortSchedule =>
      ({
        profileId: 'p',
        portId: 'mp_1',
        consecutiveFailures: failures,
        lastRuns: [
          {
            at: `2026-01-01T00:0${failures}:00.000Z`,
            trigger: 'schedule',
            result: 'failed',
            previousIp: null,
            newIp: null,
            error: 'Timed out.',
          },
        ],
      }) as unknown as PortSchedule;
    for (const failures of [1, 2, 3, 4])
      events.emit('schedules:changed', { profileId: 'p', paused: false, schedules: [schedule(failures)] });
    events.emit('localProxies:changed', {
      proxies: [
        {
          id: 'lp_1',
          label: 'Chrome',
          profileId: 'p',
          listenError: 'Port 24000 is in use.',
          lastError: null,
        },
      ],
    } as never);
    // A failing upstream fails every connection: the same kind again within 30 minutes is not reported.
    const upstreamError = (at: string) => ({
      proxies: [
        {
          id: 'lp_1',
          label: 'Chrome',
          profileId: 'p',
          listenError: null,
          lastError: { at, kind: 'upstream_refused', status: null, message: 'Refused.', detail: null },
        },
      ],
    });
    events.emit('localProxies:changed', upstreamError('2026-01-01T00:00:01.000Z') as never);
    events.emit('localProxies:changed', upstreamError('2026-01-01T00:00:02.000Z') as never);
    events.emit('ports:rotation', {
      profileId: 'p',
      portId: 'mp_1',
      phase: 'finished',
      trigger: 'button',
      receipt: { id: 'r1', sameIp: true, ip: '203.0.113.1', untilNew: null },
    } as never);
    events.emit('ports:rotation', {
      profileId: 'p',
      portId: 'mp_1',
      phase: 'finished',
      trigger: 'button',
      receipt: {
        id: 'r2',
        sameIp: false,
        ip: '203.0.113.9',
        untilNew: { lastN: 5, maxTries: 3, reachedNewIp: false },
      },
    } as never);
    sources.topUp({
      profileId: 'p',
      topUpId: 'tu_1',
      kind: 'credited',
      title: 'Top-up credited',
      body: '$50.00 credited.',
    });
    sources.topUp({ profileId: 'p', topUpId: 'tu_1', kind: 'purchase_completed', title: 'x', body: 'y' });
    sources.topUp({
      profileId: 'p',
      topUpId: 'tu_2',
      kind: 'purchase_failed',
      title: 'x',
      body: 'Sold out.',
    });
    expect(published.map((e) => e.type)).toEqual([
      'schedule.failing',
      'local_proxy.failing',
      'local_proxy.failing',
      'rotation.unchanged',
      'rotation.repeated',
      'topup.credited',
      'purchase.failed',
    ]);
    expect(published[0]?.data).toMatchObject({ consecutiveFailures: 3, lastError: 'Timed out.' });
  });

  it('takes a rotation’s verdict where it has one: unchanged, repeat (with when it was seen), nothing for clean or drift', () => {
    const { events, published } = setUp();
    const rotation = (id: string, verdict: Record<string, unknown>) =>
      events.emit('ports:rotation', {
        profileId: 'p',
        portId: 'mp_1',
        phase: 'finished',
        trigger: 'schedule',
        // The service said the IP changed; the check through the port says what happened.
        receipt: { id, sameIp: false, ip: '203.0.113.9', untilNew: null, verdict },
      } as never);
    rotation('r1', { kind: 'unchanged', exitIp: '203.0.113.1', seenBefore: null });
    rotation('r2', {
      kind: 'repeat',
      exitIp: '203.0.113.7',
      seenBefore: { portId: 'mp_2', at: '2026-01-01T00:00:00.000Z' },
    });
    rotation('r3', { kind: 'clean', exitIp: '203.0.113.8', seenBefore: null });
    rotation('r4', { kind: 'drift', exitIp: '198.51.100.4', seenBefore: null });
    expect(published.map((event) => [event.type, event.data])).toEqual([
      ['rotation.unchanged', { profileId: 'p', portId: 'mp_1', label: null, ip: '203.0.113.1' }],
      [
        'rotation.repeated',
        {
          profileId: 'p',
          portId: 'mp_1',
          label: null,
          ip: '203.0.113.7',
          seenAt: '2026-01-01T00:00:00.000Z',
        },
      ],
    ]);
  });

  it('reports a port down and up from its health checks, which then speak for it instead of the service’s status', () => {
    const { events, published, sources } = setUp();
    events.emit('ports:changed', { profileId: 'p', changed: [port()] });
    const change = (previous: 'up' | 'down' | 'unknown', status: 'up' | 'down', at: string) =>
      sources.portHealth({
        profileId: 'p',
        kind: 'port',
        id: 'mp_1',
        previous,
        status,
        since: Date.parse(at),
        failuresInARow: status === 'down' ? 3 : 0,
        error: status === 'down' ? 'Modem offline: not answering.' : null,
      });
    change('up', 'down', '2026-01-01T00:15:00.000Z');
    // The service still says active: the checks know better, and nothing is sent for it.
    events.emit('ports:changed', { profileId: 'p', changed: [port({ status: 'offline' })] });
    events.emit('ports:changed', { profileId: 'p', changed: [port({ status: 'active' })] });
    change('down', 'up', '2026-01-01T00:25:00.000Z');
    // A subscription's checks are not a port's.
    sources.portHealth({
      profileId: 'p',
      kind: 'subscription',
      id: 'sub_1',
      previous: 'up',
      status: 'down',
      since: 0,
      failuresInARow: 3,
      error: 'x',
    });
    expect(published.map((event) => [event.id, event.type, event.data])).toEqual([
      [
        eventId('port.down', 'p', 'mp_1', '2026-01-01T00:15:00.000Z'),
        'port.down',
        {
          profileId: 'p',
          portId: 'mp_1',
          label: null,
          reason: 'Modem offline: not answering.',
          since: '2026-01-01T00:15:00.000Z',
        },
      ],
      [
        eventId('port.up', 'p', 'mp_1', '2026-01-01T00:25:00.000Z'),
        'port.up',
        { profileId: 'p', portId: 'mp_1', label: null, downSince: '2026-01-01T00:15:00.000Z' },
      ],
    ]);
  });

  it('publishes nothing from the app’s events in a process that does not own the jobs', () => {
    const { events, published, sources } = setUp(false);
    events.emit('ports:changed', { profileId: 'p', changed: [port()] });
    events.emit('ports:changed', { profileId: 'p', changed: [port({ status: 'offline' })] });
    sources.topUp({ profileId: 'p', topUpId: 'tu_1', kind: 'credited', title: 't', body: 'b' });
    expect(published).toHaveLength(0);
  });
});
