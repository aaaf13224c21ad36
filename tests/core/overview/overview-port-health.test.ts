import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { manualPort, TestSandbox } from '@proxy-manager/sandbox/testing';
import type { MobilePortView } from '../../../src-shared/contract';
import { attentionItems, type PortHealthAttention } from '../../../src-main/core/overview/overview-rules';
import { portRoute } from '../../../src-main/core/notifications/notice-routes';
import { createHarness, type Harness } from '../support/core-harness';

const entry = (overrides: Partial<PortHealthAttention> = {}): PortHealthAttention => ({
  portId: 'port_1',
  label: 'Berlin',
  status: 'up',
  statusSince: '2026-03-10T12:00:00.000Z',
  failuresInARow: 0,
  lastError: null,
  lastVerdict: 'clean',
  unchanged30d: 0,
  ...overrides,
});

const NOW = Date.parse('2026-03-10T12:00:00.000Z');

/** The one model's items with the health checks' view as its only input beside the ports. */
const itemsFor = (portHealth: PortHealthAttention[], ports: MobilePortView[] = []) =>
  attentionItems({
    profileId: 'prof_work',
    now: NOW,
    policy: { traffic: { percent: 10 }, trafficBySubscription: {}, expiryWarningDays: 3 },
    ports,
    subscriptions: [],
    topUps: [],
    schedules: [],
    proxyTests: [],
    alerts: [],
    localProxies: [],
    portHealth,
  });

describe('port health in the overview', () => {
  it('a port down is Now (error) with the gateway’s words; a kept IP is Soon (warning); the rest is quiet', () => {
    const items = itemsFor([
      entry({ status: 'down', failuresInARow: 3, lastError: 'Modem offline: not answering.' }),
      entry({ portId: 'port_2', label: '', lastVerdict: 'unchanged', unchanged30d: 2 }),
      entry({ portId: 'port_3', lastVerdict: 'repeat' }),
      entry({ portId: 'port_4', status: 'unknown', lastVerdict: null }),
    ]);
    expect(items.map((item) => [item.id, item.level])).toEqual([
      ['port_down:port_1', 'error'],
      ['port_rotation_unchanged:port_2', 'warning'],
    ]);
    expect(items[0]).toMatchObject({
      title: 'Port “Berlin” is down: 3 health checks in a row failed',
      detail: 'Modem offline: not answering.',
      route: portRoute('port_1'),
      levelWord: 'Now',
      screen: 'ports',
    });
    expect(items[1]).toMatchObject({ levelWord: 'Soon', screen: 'ports' });
    expect(items[1]?.title).toBe('The last rotation of “port_2” did not change its IP');
    expect(items[1]?.detail).toContain('2 rotation(s) in 30 days');
  });

  it('is judged with the other rules’ items, most urgent first', () => {
    const renewing = {
      id: 'port_9',
      label: 'Renews',
      status: 'active',
      autoRenew: true,
      expiresAt: new Date(NOW + 24 * 3_600_000).toISOString(),
    } as MobilePortView;
    const items = itemsFor([entry({ status: 'down', lastVerdict: 'unchanged' })], [renewing]);
    expect(items.map((item) => [item.kind, item.levelWord])).toEqual([
      ['port_down', 'Now'],
      ['port_rotation_unchanged', 'Soon'],
      ['port_expiring', 'FYI'],
    ]);
  });
});

describe('the overview after a rotation that kept its IP (the demo, through the composition root)', () => {
  let sandbox: TestSandbox;
  let h: Harness;

  beforeEach(async () => {
    sandbox = await TestSandbox.start();
    await sandbox.advance(60);
    h = await createHarness(sandbox);
    await h.call('demo:start');
  });

  afterEach(async () => {
    await h.core.dispose();
    await sandbox.close();
  });

  it('shows a Soon item for the port, and none once a rotation changed the IP', async () => {
    const port = await manualPort(sandbox);
    await sandbox.control('POST', '/mobile/same-ip', { portId: port.id });
    const receipt = await h.call('ports:rotate', { portId: port.id });
    expect(receipt.verdict?.kind).toBe('unchanged');
    const snapshot = await h.call('overview:get', { refresh: false });
    expect(snapshot.items).toContainEqual(
      expect.objectContaining({ id: `port_rotation_unchanged:${port.id}`, level: 'warning' }),
    );
    expect(snapshot.allGood).toBe(false);
    const [scores] = await h.call('ports:health', { portId: port.id });
    expect(scores).toMatchObject({ unchanged30d: 1, lastVerdict: { kind: 'unchanged' } });
    await sandbox.advance(30);
    const again = await h.call('ports:rotate', { portId: port.id, untilUnique: 2 });
    expect(again.verdict?.kind).toBe('clean');
    const after = await h.call('overview:get', { refresh: false });
    expect(after.items.map((item) => item.id)).not.toContain(`port_rotation_unchanged:${port.id}`);
  });
});
