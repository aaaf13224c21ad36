import { describe, expect, it } from 'vitest';
import type { MobilePort, SubUser, Subscription } from '../../../src-shared/api-types';
import { ALERT_KINDS, evaluateAlerts, type AlertPolicy } from '../../../src-main/core/alerts/alert-rules';
import { describeBytes } from '../../../src-main/core/alerts/attention-words';

const NOW = new Date('2026-06-01T00:00:00.000Z');
const GB = 1_000_000_000;

function subscription(overrides: Partial<Subscription> = {}): Subscription {
  return {
    id: 'sub-1',
    productId: 'residential',
    label: 'Scraping',
    planId: 'res-starter',
    status: 'active',
    trafficTotalBytes: 10 * GB,
    trafficUsedBytes: 5 * GB,
    trafficRemainingBytes: 5 * GB,
    expiresAt: '2026-07-01T00:00:00.000Z',
    autoRenew: true,
    username: 'u1',
    password: 'p1',
    endpoint: { host: 'h', httpPort: 1, socksPort: 2 },
    subUserCount: 0,
    createdAt: '2026-05-01T00:00:00.000Z',
    ...overrides,
  };
}

function subUser(overrides: Partial<SubUser> = {}): SubUser {
  return {
    id: 'su-1',
    label: 'Team A',
    username: 'u1_abcde',
    password: 'x',
    trafficLimitBytes: GB,
    trafficUsedBytes: 0,
    enabled: true,
    createdAt: '2026-05-01T00:00:00.000Z',
    ...overrides,
  };
}

function port(overrides: Partial<MobilePort> = {}): MobilePort {
  return {
    id: 'port-1',
    label: 'LA 5G',
    autoRenew: true,
    expiresAt: '2026-07-01T00:00:00.000Z',
    ...overrides,
  } as MobilePort;
}

const allOn = Object.fromEntries(ALERT_KINDS.map((kind) => [kind, true])) as AlertPolicy['enabled'];
const policy = (overrides: Partial<AlertPolicy> = {}): AlertPolicy => ({
  enabled: allOn,
  traffic: { percent: 10 },
  runsOutWithinDays: 3,
  expiryWarningDays: 3,
  ...overrides,
});

const holding = (checks: ReturnType<typeof evaluateAlerts>) =>
  checks.filter((c) => c.holds).map((c) => c.key);

describe('evaluateAlerts', () => {
  it('traffic below the percentage threshold holds; at the threshold it does not', () => {
    const low = subscription({ trafficRemainingBytes: GB - 1 });
    const exact = subscription({ trafficRemainingBytes: GB });
    expect(holding(evaluateAlerts({ profileId: 'p', now: NOW, subscriptions: [low] }, policy()))).toEqual([
      'traffic_low:p:sub-1',
    ]);
    expect(holding(evaluateAlerts({ profileId: 'p', now: NOW, subscriptions: [exact] }, policy()))).toEqual(
      [],
    );
  });

  it('a byte threshold and a per-subscription override replace the default', () => {
    const sub = subscription({ trafficRemainingBytes: 2 * GB });
    const byBytes = policy({ traffic: { bytes: 3 * GB } });
    expect(holding(evaluateAlerts({ profileId: 'p', now: NOW, subscriptions: [sub] }, byBytes))).toEqual([
      'traffic_low:p:sub-1',
    ]);
    const overridden = policy({
      traffic: { bytes: 3 * GB },
      trafficBySubscription: { 'sub-1': { percent: 5 } },
    });
    expect(holding(evaluateAlerts({ profileId: 'p', now: NOW, subscriptions: [sub] }, overridden))).toEqual(
      [],
    );
  });

  it('forecasts running out at the given pace', () => {
    const sub = subscription({ trafficRemainingBytes: 2 * GB });
    const fast = evaluateAlerts(
      { profileId: 'p', now: NOW, subscriptions: [sub], dailyPaceBytes: { 'sub-1': GB } },
      policy(),
    );
    const runsOut = fast.find((c) => c.kind === 'traffic_runs_out');
    expect(runsOut?.holds).toBe(true);
    expect(runsOut?.message).toContain('runs out in 2 days');
    const slow = evaluateAlerts(
      { profileId: 'p', now: NOW, subscriptions: [sub], dailyPaceBytes: { 'sub-1': GB / 2 } },
      policy(),
    );
    expect(slow.find((c) => c.kind === 'traffic_runs_out')?.holds).toBe(false);
    // Without a known pace, the rule says nothing (neither holds nor re-arms).
    const unknown = evaluateAlerts({ profileId: 'p', now: NOW, subscriptions: [sub] }, policy());
    expect(unknown.some((c) => c.kind === 'traffic_runs_out')).toBe(false);
  });

  it('sub-users at 80 % and at 100 % of their cap; no cap never holds', () => {
    const checks = evaluateAlerts(
      {
        profileId: 'p',
        now: NOW,
        subUsers: {
          'sub-1': [
            subUser({ id: 'a', trafficUsedBytes: 0.79 * GB }),
            subUser({ id: 'b', trafficUsedBytes: 0.8 * GB }),
            subUser({ id: 'c', trafficUsedBytes: GB }),
            subUser({ id: 'd', trafficLimitBytes: null, trafficUsedBytes: 100 * GB }),
          ],
        },
      },
      policy(),
    );
    expect(holding(checks)).toEqual(['sub_user_cap_80:p:sub-1/b', 'sub_user_cap_100:p:sub-1/c']);
  });

  it('expiry within the warning window without auto-renew', () => {
    const soon = '2026-06-03T00:00:00.000Z';
    const checks = evaluateAlerts(
      {
        profileId: 'p',
        now: NOW,
        subscriptions: [
          subscription({ id: 'renews', expiresAt: soon, autoRenew: true }),
          subscription({ id: 'lapses', expiresAt: soon, autoRenew: false }),
          subscription({ id: 'never', expiresAt: null, autoRenew: false }),
          subscription({ id: 'later', expiresAt: '2026-06-10T00:00:00.000Z', autoRenew: false }),
        ],
        ports: [port({ expiresAt: soon, autoRenew: false })],
      },
      policy(),
    );
    expect(holding(checks)).toEqual(['subscription_expiring:p:lapses', 'port_expiring:p:port-1']);
  });

  it('a kind turned off is not evaluated at all', () => {
    const sub = subscription({ trafficRemainingBytes: 0 });
    const off = policy({ enabled: { ...allOn, traffic_low: false } });
    expect(
      evaluateAlerts({ profileId: 'p', now: NOW, subscriptions: [sub] }, off).map((c) => c.kind),
    ).not.toContain('traffic_low');
  });
});

describe('describeBytes', () => {
  it.each([
    [0, '0 bytes'],
    [999, '999 bytes'],
    [1500, '1.5 KB'],
    [1_500_000_000, '1.5 GB'],
    [123_456_789_012, '123 GB'],
  ])('%d is %s', (bytes, text) => {
    expect(describeBytes(bytes)).toBe(text);
  });
});
