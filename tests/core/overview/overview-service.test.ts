import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AttentionItem, HealthSnapshot } from '../../../src-shared/contract';
import { FakeClock } from '../../../src-main/core/runtime/fake-clock';
import {
  portByLabel,
  SEEDED_PORT_LABELS,
  SEEDED_SUBSCRIPTION_LABELS,
  subscriptionByLabel,
  TEST_START_TIME,
  TestSandbox,
} from '@proxy-manager/sandbox/testing';
import { createHarness, type Harness } from '../support/core-harness';

/*
 * `overview:get` through the composition root and the guarded dispatcher, in the demo against the
 * sandbox's seeded account (seed 7): what it lists, in what order, with which action, and that it
 * reads each whole list at most once instead of asking item by item.
 */

const DAY_S = 86_400;

const titles = (snapshot: HealthSnapshot) => snapshot.items.map((item) => item.title);
const itemOf = (snapshot: HealthSnapshot, kind: AttentionItem['kind'], subjectId: string) =>
  snapshot.items.find((item) => item.kind === kind && item.subject.id === subjectId);

describe('the overview, built in main from what it holds', () => {
  let sandbox: TestSandbox;
  let clock: FakeClock;
  let h: Harness;

  /** API requests the sandbox saw since the last call, as `METHOD path` (query left out). */
  const requestsSince = async (): Promise<string[]> => {
    const seen = (await sandbox.requests()).map(
      (request) => `${request.method} ${request.path.replace(/\?.*$/, '')}`,
    );
    await sandbox.control('DELETE', '/requests');
    return seen;
  };

  beforeEach(async () => {
    sandbox = await TestSandbox.start();
    clock = new FakeClock(Date.parse(TEST_START_TIME));
    h = await createHarness(sandbox, { clock });
    await h.call('demo:start');
    await requestsSince();
  });

  afterEach(async () => {
    await h.core.dispose();
    await sandbox.close();
  });

  it('lists the seeded account’s trouble, most urgent first, each with its one-click action', async () => {
    const snapshot = await h.call('overview:get');
    // One read of each whole list, never one per port or subscription.
    const first = await requestsSince();
    expect(first.filter((r) => r === 'GET /api/v1/v1/mobile')).toHaveLength(1);
    expect(first.filter((r) => r === 'GET /api/v1/v1/residential/subscriptions')).toHaveLength(1);
    expect(first.filter((r) => /\/v1\/mobile\/|\/subscriptions\//.test(r))).toEqual([]);

    const socialQa = await portByLabel(sandbox, SEEDED_PORT_LABELS.expiringSoon);
    const seo = await subscriptionByLabel(sandbox, SEEDED_SUBSCRIPTION_LABELS.expiringSoon);
    const nearlyDepleted = await subscriptionByLabel(sandbox, SEEDED_SUBSCRIPTION_LABELS.nearlyDepleted);

    expect(snapshot.allGood).toBe(false);
    expect(snapshot.expiryWarningDays).toBe(3);
    expect(itemOf(snapshot, 'port_expiring', socialQa.id)).toMatchObject({
      level: 'warning',
      title: `Port “${SEEDED_PORT_LABELS.expiringSoon}” expires within a day`,
      dueAt: socialQa.expiresAt,
      action: { kind: 'enable_auto_renew', target: 'port', id: socialQa.id },
      route: `/ports/${socialQa.id}`,
    });
    expect(itemOf(snapshot, 'subscription_expiring', seo.id)).toMatchObject({
      level: 'warning',
      title: `Subscription “${seo.label}” expires in 2 days`,
      action: { kind: 'enable_auto_renew', target: 'subscription', id: seo.id },
    });
    expect(itemOf(snapshot, 'subscription_traffic_low', nearlyDepleted.id)).toMatchObject({
      level: 'warning',
      action: { kind: 'top_up' },
      route: `/subscriptions/${nearlyDepleted.id}`,
    });
    // The soonest deadline first among warnings: the port (a day) before the subscription (2 days).
    expect(
      titles(snapshot).indexOf(`Port “${SEEDED_PORT_LABELS.expiringSoon}” expires within a day`),
    ).toBeLessThan(titles(snapshot).indexOf(`Subscription “${seo.label}” expires in 2 days`));
    expect(snapshot.totals).toMatchObject({ ports: 4, pendingTopUps: 0, schedules: 0 });
    expect(snapshot.sources.ports.state).toBe('read');
    await requestsSince();

    // Asked again: everything comes from what main holds.
    const again = await h.call('overview:get');
    expect(again.items.map((item) => item.id)).toEqual(snapshot.items.map((item) => item.id));
    expect(again.sources.ports.state).toBe('held');
    expect(await requestsSince()).toEqual([]);

    // Refresh (the screen's button, `health --refresh`): each list read once more, whatever is held.
    const refreshed = await h.call('overview:get', { refresh: true });
    expect(refreshed.sources.ports.state).toBe('read');
    const reread = await requestsSince();
    expect(reread.filter((r) => r === 'GET /api/v1/v1/mobile')).toHaveLength(1);
    expect(reread.filter((r) => r === 'GET /api/v1/v1/residential/subscriptions')).toHaveLength(1);
  });

  it('puts ports with auto-renew off before those that renew themselves, within the alert window', async () => {
    await h.call('settings:update', { alerts: { expiryWarningDays: 7 } });
    const snapshot = await h.call('overview:get');
    const ports = snapshot.items.filter((item) => item.kind === 'port_expiring');
    expect(ports.map((item) => [item.subject.label, item.level])).toEqual([
      [SEEDED_PORT_LABELS.expiringSoon, 'warning'],
      [SEEDED_PORT_LABELS.relocated, 'warning'],
      [SEEDED_PORT_LABELS.berlin, 'info'],
    ]);
    expect(ports[2]?.title).toMatch(/^Port “Berlin price monitor” renews in \d days$/);
  });

  it('follows a change main makes (auto-renew turned on) without reading the list again', async () => {
    const socialQa = await portByLabel(sandbox, SEEDED_PORT_LABELS.expiringSoon);
    await h.call('overview:get');
    await h.call('ports:update', { portId: socialQa.id, autoRenew: true });
    await requestsSince();
    const after = await h.call('overview:get');
    expect(itemOf(after, 'port_expiring', socialQa.id)).toMatchObject({
      level: 'info',
      action: { kind: 'open' },
    });
    expect(await requestsSince()).toEqual([]);
  });

  it('lists a top-up waiting for payment with its deadline, and a port whose last proxy test failed', async () => {
    const topUp = await h.call('topups:create', {
      amountUsd: '50.00',
      coin: 'USDT',
      network: 'tron',
      attemptId: '5b0c1a34-6a2f-4b67-9f1e-2f0a3b4c5d6e',
    });
    const berlin = await portByLabel(sandbox, SEEDED_PORT_LABELS.berlin);
    // The credentials lookup fails twice (the client retries once): the test reports a failure.
    await sandbox.fault({ match: `/v1/mobile/${berlin.id}`, status: 500, times: 2 });
    const [test] = await h.call('proxy:testMany', {
      targets: [{ kind: 'port', portId: berlin.id, protocol: 'http' }],
    });
    expect(test?.ok).toBe(false);
    await requestsSince();

    const snapshot = await h.call('overview:get');
    expect(itemOf(snapshot, 'topup_awaiting_payment', topUp.id)).toMatchObject({
      level: 'warning',
      title: 'Top-up of 50.00 USD is waiting for your payment',
      detail: `Send ${topUp.amountCrypto} USDT so that it arrives before the rate lock ends.`,
      dueAt: topUp.expiresAt,
      action: { kind: 'continue_top_up', topUpId: topUp.id },
      route: `/topups/${topUp.id}`,
    });
    expect(itemOf(snapshot, 'proxy_test_failed', berlin.id)).toMatchObject({
      level: 'error',
      action: { kind: 'test_again', portId: berlin.id },
    });
    // Errors first.
    expect(snapshot.items[0]?.kind).toBe('proxy_test_failed');
    expect(snapshot.totals.pendingTopUps).toBe(1);
    // The top-up's deadline came from the create's answer: no top-up was read for it; at most the
    // one list read of the open top-ups (one request per open status) was made.
    const topUpReads = (await requestsSince()).filter((r) => r.includes('/topups'));
    expect(topUpReads.every((r) => r === 'GET /api/v1/v1/topups')).toBe(true);
    expect(topUpReads.length).toBeLessThanOrEqual(4);

    // A passing test clears the item.
    await h.call('proxy:test', { target: { kind: 'port', portId: berlin.id, protocol: 'http' } });
    expect(itemOf(await h.call('overview:get'), 'proxy_test_failed', berlin.id)).toBeUndefined();
  });

  it('shows an expired subscription as expired, and a port that has run out as expired', async () => {
    await sandbox.advance(3 * DAY_S);
    await clock.advance(3 * DAY_S * 1000);
    const snapshot = await h.call('overview:get');
    const seo = await subscriptionByLabel(sandbox, SEEDED_SUBSCRIPTION_LABELS.expiringSoon);
    const socialQa = await portByLabel(sandbox, SEEDED_PORT_LABELS.expiringSoon);
    expect(itemOf(snapshot, 'subscription_expired', seo.id)).toMatchObject({
      level: 'error',
      title: `Subscription “${seo.label}” expired 1 day ago`,
    });
    expect(itemOf(snapshot, 'port_expired', socialQa.id)).toMatchObject({ level: 'error' });
    expect(snapshot.allGood).toBe(false);
  });

  it('adds the open alerts the items do not already say, once each, and leaves out dismissed ones', async () => {
    const priceMonitoring = await subscriptionByLabel(sandbox, SEEDED_SUBSCRIPTION_LABELS.withSubUsers);
    await h.call('settings:update', { alerts: { subUserAlertSubscriptions: [priceMonitoring.id] } });
    // The usage poller reads the demo profile at once and raises its alerts.
    await h.core.start();
    for (let turn = 0; turn < 50 && (await h.call('alerts:list')).length < 4; turn += 1)
      await clock.advance(100);
    const alerts = await h.call('alerts:list');
    expect(alerts.map((alert) => alert.kind).sort()).toEqual([
      'port_expiring',
      'sub_user_cap_100',
      'subscription_expiring',
      'traffic_low',
    ]);

    const snapshot = await h.call('overview:get');
    const alertItems = snapshot.items.filter((item) => item.kind === 'alert');
    // The expiry and low-traffic alerts are the port and subscription items already listed.
    expect(alertItems.map((item) => item.alertKind)).toEqual(['sub_user_cap_100']);
    const cap = alerts.find((alert) => alert.kind === 'sub_user_cap_100');
    expect(alertItems[0]).toMatchObject({
      level: 'error',
      title: cap?.title,
      action: { kind: 'dismiss_alert', alertId: cap?.id },
      route: `/subscriptions/${priceMonitoring.id}`,
    });

    await h.call('alerts:dismiss', { alertId: cap?.id ?? '' });
    const after = await h.call('overview:get');
    expect(after.items.filter((item) => item.kind === 'alert')).toEqual([]);
  });

  it('never says all good when a list could not be read', async () => {
    await sandbox.fault({ match: '/v1/mobile', status: 503, times: 4 });
    const snapshot = await h.call('overview:get');
    expect(snapshot.sources.ports.state).toBe('failed');
    expect(snapshot.allGood).toBe(false);
  });
});
