import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TestSandbox } from '../../src/testing';
import {
  createSubUser,
  DAY,
  getSubscription,
  GB,
  HOUR,
  lifetimeUsage,
  listSubscriptions,
  listSubUsers,
  SEEDED_SUBSCRIPTION_LABELS,
  stopPortRenewals,
  subscriptionByLabel,
  subUserByLabel,
  SUBSCRIPTIONS,
  usage,
} from './subscription-helpers';

let sandbox: TestSandbox;
beforeEach(async () => {
  sandbox = await TestSandbox.start();
});
afterEach(() => sandbox.close());

const patchSubUser = (subscriptionId: string, subUserId: string, body: unknown) =>
  sandbox.request('PATCH', `${SUBSCRIPTIONS}/${subscriptionId}/sub-users/${subUserId}`, { body });

async function setBalance(balanceUsd: string): Promise<void> {
  await stopPortRenewals(sandbox);
  expect((await sandbox.control('POST', '/account', { balanceUsd })).status).toBe(200);
}

const balance = async (): Promise<string> => (await sandbox.control('GET', '/account')).json.balanceUsd;

describe('traffic grows with the sandbox clock', () => {
  it('subscriptions and sub-users use more as time passes, and equal the sum of their usage', async () => {
    const sub = await subscriptionByLabel(sandbox, SEEDED_SUBSCRIPTION_LABELS.withSubUsers);
    const uncapped = await subUserByLabel(sandbox, sub.id, 'Scraper US');
    await sandbox.advance(DAY);
    const later = await getSubscription(sandbox, sub.id);
    const uncappedLater = await subUserByLabel(sandbox, sub.id, 'Scraper US');
    expect(later.trafficUsedBytes).toBeGreaterThan(sub.trafficUsedBytes);
    expect(uncappedLater.trafficUsedBytes).toBeGreaterThan(uncapped.trafficUsedBytes);
    expect(later.trafficRemainingBytes).toBe(later.trafficTotalBytes - later.trafficUsedBytes);
    expect((await lifetimeUsage(sandbox, later)).totalBytes).toBe(later.trafficUsedBytes);
    expect((await lifetimeUsage(sandbox, later, uncapped.id)).totalBytes).toBe(
      uncappedLater.trafficUsedBytes,
    );
  });

  it('a new sub-user starts at zero and uses traffic from its creation on', async () => {
    const sub = await subscriptionByLabel(sandbox, SEEDED_SUBSCRIPTION_LABELS.neverExpires);
    const created = await createSubUser(sandbox, sub.id, { label: 'Fresh' });
    expect((await usage(sandbox, sub.id, `?subUserId=${created.id}`)).totalBytes).toBe(0);
    await sandbox.advance(12 * HOUR);
    const used = (await subUserByLabel(sandbox, sub.id, 'Fresh')).trafficUsedBytes;
    expect(used).toBeGreaterThan(0);
    const report = await usage(sandbox, sub.id, `?subUserId=${created.id}`);
    expect(report.totalBytes).toBe(used);
    expect(report.points.filter((p: any) => p.date < '2026-03-10').every((p: any) => p.bytes === 0)).toBe(
      true,
    );
  });
});

describe('sub-user caps', () => {
  it('a sub-user at its cap uses nothing more', async () => {
    const sub = await subscriptionByLabel(sandbox, SEEDED_SUBSCRIPTION_LABELS.withSubUsers);
    const capped = await subUserByLabel(sandbox, sub.id, 'Scraper EU');
    expect(capped.trafficUsedBytes).toBe(capped.trafficLimitBytes);
    await sandbox.advance(2 * DAY);
    expect((await subUserByLabel(sandbox, sub.id, 'Scraper EU')).trafficUsedBytes).toBe(
      capped.trafficLimitBytes,
    );
    const report = await usage(sandbox, sub.id, `?subUserId=${capped.id}&from=2026-03-11&to=2026-03-12`);
    expect(report.totalBytes).toBe(0);
  });

  it('stops exactly at the cap', async () => {
    const sub = await subscriptionByLabel(sandbox, SEEDED_SUBSCRIPTION_LABELS.neverExpires);
    const tiny = await createSubUser(sandbox, sub.id, { label: 'Tiny', trafficLimitBytes: 1_000_003 });
    const zero = await createSubUser(sandbox, sub.id, { label: 'Zero', trafficLimitBytes: 0 });
    await sandbox.advance(DAY);
    const subUsers = await listSubUsers(sandbox, sub.id);
    expect(subUsers.find((s) => s.id === tiny.id).trafficUsedBytes).toBe(1_000_003);
    expect(subUsers.find((s) => s.id === zero.id).trafficUsedBytes).toBe(0);
    expect((await usage(sandbox, sub.id, `?subUserId=${tiny.id}`)).totalBytes).toBe(1_000_003);
  });

  it('raising the cap lets it use traffic again, up to the new cap', async () => {
    const sub = await subscriptionByLabel(sandbox, SEEDED_SUBSCRIPTION_LABELS.withSubUsers);
    const capped = await subUserByLabel(sandbox, sub.id, 'Scraper EU');
    const newCap = capped.trafficLimitBytes + 100_000_000;
    await patchSubUser(sub.id, capped.id, { trafficLimitBytes: newCap });
    await sandbox.advance(DAY);
    const after = await subUserByLabel(sandbox, sub.id, 'Scraper EU');
    expect(after.trafficUsedBytes).toBeGreaterThan(capped.trafficLimitBytes);
    expect(after.trafficUsedBytes).toBeLessThanOrEqual(newCap);
  });

  it('removing the cap (null) lets it use traffic without a limit', async () => {
    const sub = await subscriptionByLabel(sandbox, SEEDED_SUBSCRIPTION_LABELS.withSubUsers);
    const capped = await subUserByLabel(sandbox, sub.id, 'Scraper EU');
    await patchSubUser(sub.id, capped.id, { trafficLimitBytes: null });
    await sandbox.advance(DAY);
    expect((await subUserByLabel(sandbox, sub.id, 'Scraper EU')).trafficUsedBytes).toBeGreaterThan(
      capped.trafficLimitBytes,
    );
  });

  it('lowering the cap below what is used stops it at once and keeps what was used', async () => {
    const sub = await subscriptionByLabel(sandbox, SEEDED_SUBSCRIPTION_LABELS.withSubUsers);
    const uncapped = await subUserByLabel(sandbox, sub.id, 'Scraper US');
    const patched = await patchSubUser(sub.id, uncapped.id, { trafficLimitBytes: 1 });
    expect(patched.json.trafficUsedBytes).toBe(uncapped.trafficUsedBytes);
    await sandbox.advance(DAY);
    expect((await subUserByLabel(sandbox, sub.id, 'Scraper US')).trafficUsedBytes).toBe(
      uncapped.trafficUsedBytes,
    );
  });
});

describe('disabled sub-users', () => {
  it('a disabled sub-user uses nothing while disabled; its usage shows zero since then', async () => {
    const sub = await subscriptionByLabel(sandbox, SEEDED_SUBSCRIPTION_LABELS.withSubUsers);
    const disabled = (await listSubUsers(sandbox, sub.id)).find((s) => !s.enabled);
    expect(disabled.trafficUsedBytes).toBeGreaterThan(0);
    await sandbox.advance(2 * DAY);
    expect((await subUserByLabel(sandbox, sub.id, disabled.label)).trafficUsedBytes).toBe(
      disabled.trafficUsedBytes,
    );
    const recent = await usage(sandbox, sub.id, `?subUserId=${disabled.id}&from=2026-03-05&to=2026-03-12`);
    expect(recent.totalBytes).toBe(0);
  });

  it('enabling resumes traffic; disabling again stops it from that moment', async () => {
    const sub = await subscriptionByLabel(sandbox, SEEDED_SUBSCRIPTION_LABELS.withSubUsers);
    const disabled = (await listSubUsers(sandbox, sub.id)).find((s) => !s.enabled);
    await patchSubUser(sub.id, disabled.id, { enabled: true, trafficLimitBytes: null });
    await sandbox.advance(DAY);
    const resumed = (await patchSubUser(sub.id, disabled.id, { enabled: false })).json;
    expect(resumed.trafficUsedBytes).toBeGreaterThan(disabled.trafficUsedBytes);
    await sandbox.advance(DAY);
    expect((await subUserByLabel(sandbox, sub.id, disabled.label)).trafficUsedBytes).toBe(
      resumed.trafficUsedBytes,
    );
  });

  it('a deleted sub-user uses nothing more, but its traffic stays counted', async () => {
    const sub = await subscriptionByLabel(sandbox, SEEDED_SUBSCRIPTION_LABELS.neverExpires);
    const created = await createSubUser(sandbox, sub.id, { label: 'Deleted soon' });
    await sandbox.advance(DAY);
    await sandbox.request('DELETE', `${SUBSCRIPTIONS}/${sub.id}/sub-users/${created.id}`);
    const atDeletion = await getSubscription(sandbox, sub.id);
    const remaining = await listSubUsers(sandbox, sub.id);
    await sandbox.advance(DAY);
    const later = await getSubscription(sandbox, sub.id);
    const remainingLater = await listSubUsers(sandbox, sub.id);
    const growthOfLive = remainingLater.reduce(
      (sum, s) => sum + s.trafficUsedBytes - remaining.find((r) => r.id === s.id).trafficUsedBytes,
      0,
    );
    const main = (report: any, subUsers: any[]) =>
      report - subUsers.reduce((sum, s) => sum + s.trafficUsedBytes, 0);
    // What the subscription gained is its main user's and its live sub-users' traffic, nothing else.
    expect(later.trafficUsedBytes - atDeletion.trafficUsedBytes).toBe(
      main(later.trafficUsedBytes, remainingLater) -
        main(atDeletion.trafficUsedBytes, remaining) +
        growthOfLive,
    );
    expect((await lifetimeUsage(sandbox, later)).totalBytes).toBe(later.trafficUsedBytes);
  });
});

describe('depletion', () => {
  it('a subscription runs out at exactly its total and then uses nothing more', async () => {
    const sub = await subscriptionByLabel(sandbox, SEEDED_SUBSCRIPTION_LABELS.nearlyDepleted);
    expect(sub.status).toBe('active');
    expect(sub.trafficRemainingBytes).toBeGreaterThan(0);
    let current = sub;
    for (let i = 0; i < 40 && current.status !== 'depleted'; i += 1) {
      await sandbox.advance(3 * HOUR);
      current = await getSubscription(sandbox, sub.id);
      expect(current.trafficRemainingBytes).toBeGreaterThanOrEqual(0);
    }
    expect(current.status).toBe('depleted');
    expect(current.trafficUsedBytes).toBe(current.trafficTotalBytes);
    expect(current.trafficRemainingBytes).toBe(0);
    const subUsers = await listSubUsers(sandbox, sub.id);

    await sandbox.advance(DAY);
    expect(await getSubscription(sandbox, sub.id)).toEqual(current);
    expect(await listSubUsers(sandbox, sub.id)).toEqual(subUsers);
    expect((await lifetimeUsage(sandbox, current)).totalBytes).toBe(current.trafficTotalBytes);
  });

  it('never uses more than the total, even across one long jump of the clock', async () => {
    await sandbox.advance(60 * DAY);
    for (const sub of await listSubscriptions(sandbox)) {
      expect(sub.trafficUsedBytes).toBeLessThanOrEqual(sub.trafficTotalBytes);
      expect(sub.trafficRemainingBytes).toBeGreaterThanOrEqual(0);
      const subUsers = await listSubUsers(sandbox, sub.id);
      for (const s of subUsers) {
        if (s.trafficLimitBytes !== null) expect(s.trafficUsedBytes).toBeLessThanOrEqual(s.trafficLimitBytes);
      }
    }
    const social = await subscriptionByLabel(sandbox, SEEDED_SUBSCRIPTION_LABELS.nearlyDepleted);
    expect(social.trafficUsedBytes).toBe(social.trafficTotalBytes);
  });

  it('a depleted subscription stops its sub-users too', async () => {
    const sub = await subscriptionByLabel(sandbox, SEEDED_SUBSCRIPTION_LABELS.nearlyDepleted);
    await sandbox.advance(5 * DAY);
    expect((await getSubscription(sandbox, sub.id)).status).toBe('depleted');
    const subUsers = await listSubUsers(sandbox, sub.id);
    const created = await createSubUser(sandbox, sub.id, { label: 'Too late' });
    await sandbox.advance(DAY);
    expect(await listSubUsers(sandbox, sub.id)).toEqual([...subUsers, created]);
  });
});

describe('expiry and auto-renewal', () => {
  it('without autoRenew, a subscription is expired from expiresAt on and uses nothing more', async () => {
    const sub = await subscriptionByLabel(sandbox, SEEDED_SUBSCRIPTION_LABELS.expiringSoon);
    const secondsLeft = (Date.parse(sub.expiresAt) - Date.parse(await sandbox.now())) / 1000;
    expect(secondsLeft).toBeGreaterThan(0);
    expect(secondsLeft).toBeLessThanOrEqual(3 * DAY);
    await sandbox.advance(secondsLeft - 1);
    expect((await getSubscription(sandbox, sub.id)).status).toBe('active');
    await sandbox.advance(1);
    const expired = await getSubscription(sandbox, sub.id);
    expect(expired.status).toBe('expired');
    expect(expired.expiresAt).toBe(sub.expiresAt);
    await sandbox.advance(3 * DAY);
    expect(await getSubscription(sandbox, sub.id)).toEqual(expired);
  });

  it('with autoRenew and enough balance, it renews at expiresAt: plan price charged, traffic added, a new period', async () => {
    await setBalance('100.00');
    const sub = await subscriptionByLabel(sandbox, SEEDED_SUBSCRIPTION_LABELS.nearlyDepleted);
    const secondsLeft = (Date.parse(sub.expiresAt) - Date.parse(await sandbox.now())) / 1000;
    await sandbox.advance(secondsLeft - 1);
    const before = await getSubscription(sandbox, sub.id);
    expect(before.status).toBe('depleted');
    await sandbox.advance(1);
    const renewed = await getSubscription(sandbox, sub.id);
    expect(await balance()).toBe('70.00');
    expect(renewed.status).toBe('active');
    expect(renewed.trafficTotalBytes).toBe(sub.trafficTotalBytes + 5 * GB);
    expect(Date.parse(renewed.expiresAt)).toBe(Date.parse(sub.expiresAt) + 30 * DAY * 1000);
    await sandbox.advance(HOUR);
    expect((await getSubscription(sandbox, sub.id)).trafficUsedBytes).toBeGreaterThan(
      renewed.trafficUsedBytes,
    );
  });

  it('with autoRenew but too little balance, it expires and nothing is charged', async () => {
    await setBalance('29.99');
    const sub = await subscriptionByLabel(sandbox, SEEDED_SUBSCRIPTION_LABELS.nearlyDepleted);
    await sandbox.advance(10 * DAY);
    const after = await getSubscription(sandbox, sub.id);
    expect(after.status).toBe('expired');
    expect(after.trafficTotalBytes).toBe(sub.trafficTotalBytes);
    expect(after.expiresAt).toBe(sub.expiresAt);
    expect(await balance()).toBe('29.99');
  });

  it('with autoRenew turned off, it expires even when the balance covers the plan', async () => {
    await setBalance('500.00');
    const sub = await subscriptionByLabel(sandbox, SEEDED_SUBSCRIPTION_LABELS.nearlyDepleted);
    await sandbox.request('PATCH', `${SUBSCRIPTIONS}/${sub.id}`, { body: { autoRenew: false } });
    await sandbox.advance(10 * DAY);
    expect((await getSubscription(sandbox, sub.id)).status).toBe('expired');
    expect(await balance()).toBe('500.00');
  });

  it('turning autoRenew on before expiry makes it renew', async () => {
    await setBalance('20.00');
    const sub = await subscriptionByLabel(sandbox, SEEDED_SUBSCRIPTION_LABELS.expiringSoon);
    await sandbox.request('PATCH', `${SUBSCRIPTIONS}/${sub.id}`, { body: { autoRenew: true } });
    await sandbox.advance(3 * DAY);
    const after = await getSubscription(sandbox, sub.id);
    expect(after.status).toBe('active');
    expect(await balance()).toBe('2.50');
  });

  it('renews once per period across one long jump of the clock', async () => {
    await setBalance('100.00');
    const sub = await subscriptionByLabel(sandbox, SEEDED_SUBSCRIPTION_LABELS.nearlyDepleted);
    const other = await subscriptionByLabel(sandbox, SEEDED_SUBSCRIPTION_LABELS.withSubUsers);
    await sandbox.request('PATCH', `${SUBSCRIPTIONS}/${other.id}`, { body: { autoRenew: false } });
    await sandbox.advance(70 * DAY);
    const after = await getSubscription(sandbox, sub.id);
    // Renewed at +9, +39 and +69 days.
    expect(await balance()).toBe('10.00');
    expect(Date.parse(after.expiresAt)).toBe(Date.parse(sub.expiresAt) + 90 * DAY * 1000);
    expect(after.trafficTotalBytes).toBe(sub.trafficTotalBytes + 15 * GB);
  });

  it('renewals spend the balance in the order the subscriptions expire', async () => {
    // Social accounts (30.00) expires on day 9, Price monitoring (75.00) on day 20: 75.00 pays only the first.
    await setBalance('75.00');
    const social = await subscriptionByLabel(sandbox, SEEDED_SUBSCRIPTION_LABELS.nearlyDepleted);
    const pricing = await subscriptionByLabel(sandbox, SEEDED_SUBSCRIPTION_LABELS.withSubUsers);
    expect(Date.parse(social.expiresAt)).toBeLessThan(Date.parse(pricing.expiresAt));
    await sandbox.advance(21 * DAY);
    expect((await getSubscription(sandbox, social.id)).status).not.toBe('expired');
    expect((await getSubscription(sandbox, pricing.id)).status).toBe('expired');
    expect(await balance()).toBe('45.00');
  });

  it('a subscription with expiresAt null never expires', async () => {
    await sandbox.advance(400 * DAY);
    const sub = await subscriptionByLabel(sandbox, SEEDED_SUBSCRIPTION_LABELS.neverExpires);
    expect(sub.expiresAt).toBeNull();
    expect(sub.status).not.toBe('expired');
  });
});

describe('consistency however the clock is advanced', () => {
  async function snapshot(target: TestSandbox) {
    const subs = (await target.request('GET', SUBSCRIPTIONS)).json.data;
    const result: unknown[] = [];
    // The endpoint names the running sandbox's gateway, which differs between the two sandboxes.
    for (const { endpoint: _endpoint, ...sub } of subs) {
      const subUsers = (await target.request('GET', `${SUBSCRIPTIONS}/${sub.id}/sub-users`)).json.data;
      const report = (await target.request('GET', `${SUBSCRIPTIONS}/${sub.id}/usage?from=2025-12-01`)).json;
      result.push({ sub, subUsers, report });
    }
    return { result, balance: (await target.control('GET', '/account')).json.balanceUsd };
  }

  it('one long step and many small steps (with reads between) give the same state', async () => {
    const fine = await TestSandbox.start();
    try {
      for (const target of [sandbox, fine]) {
        // Ports renew from the same balance; see the report about cross-module settle order.
        await stopPortRenewals(target);
        await target.control('POST', '/account', { balanceUsd: '40.00' });
        const social = (await target.request('GET', SUBSCRIPTIONS)).json.data.find(
          (s: any) => s.label === SEEDED_SUBSCRIPTION_LABELS.nearlyDepleted,
        );
        await target.request('POST', `${SUBSCRIPTIONS}/${social.id}/sub-users`, {
          body: { label: 'Capped mid-way', trafficLimitBytes: 150_000_000 },
        });
      }
      // Depletion, a cap reached, an expiry and a renewal all fall inside these four days.
      await sandbox.advance(DAY);
      for (let i = 0; i < 24; i += 1) {
        await fine.advance(HOUR);
        if (i % 3 !== 0) await fine.request('GET', SUBSCRIPTIONS);
      }
      for (const target of [sandbox, fine]) {
        const pricing = (await target.request('GET', SUBSCRIPTIONS)).json.data.find(
          (s: any) => s.label === SEEDED_SUBSCRIPTION_LABELS.withSubUsers,
        );
        const uncapped = (
          await target.request('GET', `${SUBSCRIPTIONS}/${pricing.id}/sub-users`)
        ).json.data.find((s: any) => s.label === 'Scraper US');
        await target.request('PATCH', `${SUBSCRIPTIONS}/${pricing.id}/sub-users/${uncapped.id}`, {
          body: { enabled: false },
        });
      }
      await sandbox.advance(10 * DAY);
      for (let i = 0; i < 10 * 24; i += 1) {
        await fine.advance(HOUR);
        if (i % 5 === 1) await fine.request('GET', SUBSCRIPTIONS);
      }
      const coarse = await snapshot(sandbox);
      expect(await snapshot(fine)).toEqual(coarse);
      expect(coarse.balance).toBe('10.00');
    } finally {
      await fine.close();
    }
  });
});
