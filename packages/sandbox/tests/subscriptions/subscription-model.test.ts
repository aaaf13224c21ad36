import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findPlan } from '../../src/orders/plan-catalog';
import { TEST_START_TIME, TestSandbox } from '../../src/testing';
import {
  DAY,
  listSubscriptions,
  listSubUsers,
  SEEDED_SUBSCRIPTION_LABELS,
  subscriptionByLabel,
} from './subscription-helpers';

let sandbox: TestSandbox;
let subscriptions: any[];
beforeAll(async () => {
  sandbox = await TestSandbox.start();
  subscriptions = await listSubscriptions(sandbox);
});
afterAll(() => sandbox.close());

const now = Date.parse(TEST_START_TIME);

/** The account as the API shows it, without the endpoint (it names the running sandbox's gateway). */
async function everything(target: TestSandbox) {
  const subs = await listSubscriptions(target);
  return Promise.all(
    subs.map(async ({ endpoint: _endpoint, ...s }) => ({ s, subUsers: await listSubUsers(target, s.id) })),
  );
}

describe('seeded demo subscriptions', () => {
  it('has 3-4 subscriptions over both traffic products, on plans of their product', () => {
    expect(subscriptions.length).toBeGreaterThanOrEqual(3);
    expect(subscriptions.length).toBeLessThanOrEqual(4);
    expect(new Set(subscriptions.map((s) => s.productId))).toEqual(new Set(['residential', 'mobile-gb']));
    for (const s of subscriptions) {
      expect(findPlan(s.planId)?.productId).toBe(s.productId);
      expect(Date.parse(s.createdAt)).toBeLessThan(now);
    }
  });

  it('has one subscription close to running out', () => {
    const nearly = subscriptions.find((s) => s.label === SEEDED_SUBSCRIPTION_LABELS.nearlyDepleted);
    expect(nearly.status).toBe('active');
    expect(nearly.trafficRemainingBytes).toBeGreaterThan(0);
    expect(nearly.trafficRemainingBytes).toBeLessThan(nearly.trafficTotalBytes * 0.1);
  });

  it('has one subscription expiring within three days without auto-renewal', () => {
    const soon = subscriptions.find((s) => s.label === SEEDED_SUBSCRIPTION_LABELS.expiringSoon);
    expect(soon.autoRenew).toBe(false);
    expect(Date.parse(soon.expiresAt) - now).toBeGreaterThan(0);
    expect(Date.parse(soon.expiresAt) - now).toBeLessThanOrEqual(3 * DAY * 1000);
  });

  it('has one subscription whose traffic never expires', () => {
    expect(
      subscriptions.find((s) => s.label === SEEDED_SUBSCRIPTION_LABELS.neverExpires).expiresAt,
    ).toBeNull();
  });

  it('has sub-users with and without caps, one at its cap and one disabled that used traffic before', async () => {
    const sub = await subscriptionByLabel(sandbox, SEEDED_SUBSCRIPTION_LABELS.withSubUsers);
    const subUsers = await listSubUsers(sandbox, sub.id);
    expect(subUsers.some((s) => s.trafficLimitBytes === null && s.trafficUsedBytes > 0)).toBe(true);
    expect(
      subUsers.some((s) => s.trafficLimitBytes !== null && s.trafficUsedBytes === s.trafficLimitBytes),
    ).toBe(true);
    const disabled = subUsers.filter((s) => !s.enabled);
    expect(disabled).toHaveLength(1);
    expect(disabled[0].trafficUsedBytes).toBeGreaterThan(0);
    expect(sub.autoRenew).toBe(true);
  });

  it('gives every user distinct credentials, with usernames free of targeting dashes', async () => {
    const all = await everything(sandbox);
    const usernames = all.flatMap(({ s, subUsers }) => [s.username, ...subUsers.map((u: any) => u.username)]);
    const passwords = all.flatMap(({ s, subUsers }) => [s.password, ...subUsers.map((u: any) => u.password)]);
    expect(new Set(usernames).size).toBe(usernames.length);
    expect(new Set(passwords).size).toBe(passwords.length);
    for (const username of usernames) expect(username).toMatch(/^[a-z0-9_]+$/);
    for (const password of passwords) expect(password).toMatch(/^[A-Za-z0-9]{20}$/);
  });

  it('is the same account for the same seed, with other credentials for another seed', async () => {
    const twin = await TestSandbox.start();
    const other = await TestSandbox.start({ seed: 8 });
    try {
      expect(await everything(twin)).toEqual(await everything(sandbox));
      const otherSubs = await listSubscriptions(other);
      expect(otherSubs.map((s) => s.label)).toEqual(subscriptions.map((s) => s.label));
      expect(otherSubs.map((s) => s.password)).not.toEqual(subscriptions.map((s) => s.password));
    } finally {
      await twin.close();
      await other.close();
    }
  });
});
