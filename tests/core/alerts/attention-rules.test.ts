import { describe, expect, it } from 'vitest';
import type { MobilePort, Subscription, TopUp } from '../../../src-shared/api-types';
import { ALERT_KINDS, evaluateAlerts, type AlertPolicy } from '../../../src-main/core/alerts/alert-rules';
import { daysFromNow, describePurchase } from '../../../src-main/core/alerts/attention-words';
import { attentionItems, type OverviewInput } from '../../../src-main/core/overview/overview-rules';

/*
 * One model decides each item about a port or a subscription, its level, its deadline and its
 * words; the alerts are raised from the same items. Each test here is a disagreement issue 31 found.
 */

const NOW = Date.parse('2026-06-01T00:00:00.000Z');
const HOUR = 3_600_000;
const GB = 1_000_000_000;

const port = (overrides: Partial<MobilePort> = {}): MobilePort =>
  ({
    id: 'port-1',
    label: 'Social QA',
    status: 'active',
    autoRenew: false,
    expiresAt: new Date(NOW + 47.99 * HOUR).toISOString(),
    ...overrides,
  }) as MobilePort;

const subscription = (overrides: Partial<Subscription> = {}): Subscription =>
  ({
    id: 'sub-1',
    productId: 'mobile-gb',
    label: 'Social accounts',
    planId: 'mgb-5',
    status: 'active',
    trafficTotalBytes: 5 * GB,
    trafficUsedBytes: 4.65 * GB,
    trafficRemainingBytes: 0.35 * GB,
    expiresAt: '2026-06-20T00:00:00.000Z',
    autoRenew: true,
    subUserCount: 0,
    createdAt: '2026-05-01T00:00:00.000Z',
    ...overrides,
  }) as Subscription;

const allOn = Object.fromEntries(ALERT_KINDS.map((kind) => [kind, true])) as AlertPolicy['enabled'];
const policy: AlertPolicy = {
  enabled: allOn,
  traffic: { percent: 10 },
  runsOutWithinDays: 3,
  expiryWarningDays: 3,
};

const input = (overrides: Partial<OverviewInput> = {}): OverviewInput => ({
  profileId: 'p',
  now: NOW,
  policy,
  ports: [],
  subscriptions: [],
  topUps: [],
  schedules: [],
  proxyTests: [],
  alerts: [],
  localProxies: [],
  ...overrides,
});

describe('the attention model', () => {
  it('words one day count everywhere: 47.99 hours read the same in the alert and on the overview', () => {
    expect(daysFromNow(47.99 * HOUR)).toBe('in 2 days');
    expect(daysFromNow(16 * HOUR)).toBe('within a day');
    const [alert] = evaluateAlerts({ profileId: 'p', now: new Date(NOW), ports: [port()] }, policy).filter(
      (check) => check.holds,
    );
    const [item] = attentionItems(input({ ports: [port() as never] }));
    expect(item?.title).toBe('Port “Social QA” expires in 2 days');
    expect(alert?.title).toBe(item?.title);
    expect(alert?.message).toBe(item?.detail);
    expect(item).toMatchObject({ levelWord: 'Soon', dueIn: 'in 2 days', screen: 'ports' });
    expect(item?.alertKey).toBe(alert?.key);
  });

  it('raises no alert once the item is only worth knowing (auto-renew on)', () => {
    const renewing = port({ autoRenew: true });
    expect(
      evaluateAlerts({ profileId: 'p', now: new Date(NOW), ports: [renewing] }, policy).filter(
        (c) => c.holds,
      ),
    ).toEqual([]);
    expect(attentionItems(input({ ports: [renewing as never] }))).toEqual([
      expect.objectContaining({ level: 'info', levelWord: 'FYI', alertKey: null }),
    ]);
  });

  it('gives low traffic its forecast as deadline, so it sorts among dated items', () => {
    // 0.35 GB left at 0.175 GB a day: runs out in 2 days, before a port expiring in 2.9 days.
    const later = port({
      id: 'port-2',
      label: 'Later',
      expiresAt: new Date(NOW + 2.9 * 24 * HOUR).toISOString(),
    });
    const items = attentionItems(
      input({ ports: [later as never], subscriptions: [subscription()], pace: { 'sub-1': 0.175 * GB } }),
    );
    expect(items.map((item) => item.kind)).toEqual(['subscription_traffic_low', 'port_expiring']);
    expect(items[0]).toMatchObject({
      dueAt: new Date(NOW + 48 * HOUR).toISOString(),
      dueIsForecast: true,
      dueIn: 'in 2 days',
    });
    expect(items[0]?.detail).toContain('At the recent pace it runs out in 2 days.');
  });

  it('names what a top-up buys, and offers that payment on its subscription instead of a new top-up', () => {
    expect(describePurchase({ planName: 'Mobile 5 GB', quantity: 1 })).toBe('5 GB');
    expect(describePurchase({ planName: 'Mobile 5 GB', quantity: 3 })).toBe('15 GB');
    expect(describePurchase({ planName: 'Dedicated mobile port, 7 days', quantity: 1 })).toBe(
      'Dedicated mobile port, 7 days',
    );
    const topUp = {
      id: 'tu-1',
      status: 'awaiting_payment',
      final: false,
      amountUsd: '30.00',
      coin: 'USDT',
      network: 'tron',
      amountCrypto: '30.000001',
      expiresAt: new Date(NOW + 0.5 * HOUR).toISOString(),
      txidDeadline: new Date(NOW + 72.5 * HOUR).toISOString(),
      confirmations: 0,
      confirmationsRequired: 19,
      purchase: {
        planId: 'mgb-5',
        planName: 'Mobile 5 GB',
        quantity: 1,
        options: { subscriptionId: 'sub-1' },
        promoCode: null,
        total: '30.00',
        status: 'pending',
        orderId: null,
        failureReason: null,
      },
    } as unknown as TopUp;
    const items = attentionItems(
      input({
        subscriptions: [subscription()],
        topUps: [
          {
            topUpId: 'tu-1',
            status: 'awaiting_payment',
            amountUsd: '30.00',
            coin: 'USDT',
            network: 'tron',
            confirmations: 0,
            confirmationsRequired: 19,
            txidDeadline: topUp.txidDeadline,
            topUp,
          },
        ],
      }),
    );
    const payment = items.find((item) => item.kind === 'topup_awaiting_payment');
    expect(payment?.title).toBe(
      'Top-up of 30.00 USD buying 5 GB for “Social accounts” is waiting for your payment',
    );
    expect(payment?.screen).toBe('topups');
    const low = items.find((item) => item.kind === 'subscription_traffic_low');
    expect(low?.detail).toContain('A top-up buying 5 GB is waiting for payment.');
    expect(low?.action).toEqual({ kind: 'continue_top_up', label: 'Continue that payment', topUpId: 'tu-1' });
  });
});
