import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestSandbox } from '../../src/testing';
import {
  createSubUser,
  expectValidationError,
  getSubscription,
  HOUR,
  lifetimeUsage,
  listSubUsers,
  SEEDED_SUBSCRIPTION_LABELS,
  subscriptionByLabel,
  SUBSCRIPTIONS,
  usage,
} from './subscription-helpers';

let sandbox: TestSandbox;
let sub: any;
beforeAll(async () => {
  sandbox = await TestSandbox.start();
  sub = await subscriptionByLabel(sandbox, SEEDED_SUBSCRIPTION_LABELS.withSubUsers);
});
afterAll(() => sandbox.close());

const usagePath = (id: string, query = '') => `${SUBSCRIPTIONS}/${id}/usage${query}`;

function expectConsistent(report: any): void {
  expect(report.totalBytes).toBe(report.points.reduce((s: number, p: any) => s + p.bytes, 0));
  expect(report.totalRequests).toBe(report.points.reduce((s: number, p: any) => s + p.requests, 0));
  expect(report.byCountry.reduce((s: number, c: any) => s + c.bytes, 0)).toBe(report.totalBytes);
  for (const c of report.byCountry) expect(c.country).toMatch(/^[A-Z]{2}$/);
}

describe('GET .../usage window', () => {
  it('defaults to the 30 days ending today (UTC), one point per day', async () => {
    const report = await usage(sandbox, sub.id);
    expect(report.to).toBe('2026-03-10');
    expect(report.from).toBe('2026-02-09');
    expect(report.points).toHaveLength(30);
    expect(report.points[0].date).toBe('2026-02-09');
    expect(report.points.at(-1).date).toBe('2026-03-10');
  });

  it('takes from as 29 days before a given to, and to as today with only from', async () => {
    expect((await usage(sandbox, sub.id, '?to=2026-03-01')).from).toBe('2026-01-31');
    const onlyFrom = await usage(sandbox, sub.id, '?from=2026-03-05');
    expect(onlyFrom.to).toBe('2026-03-10');
    expect(onlyFrom.points).toHaveLength(6);
  });

  it('accepts exactly 366 days counted inclusively', async () => {
    const report = await usage(sandbox, sub.id, '?from=2025-03-10&to=2026-03-10');
    expect(report.points).toHaveLength(366);
  });

  it('refuses 367 days (422 on from)', async () => {
    expectValidationError(await sandbox.request('GET', usagePath(sub.id, '?from=2025-03-09&to=2026-03-10')), {
      from: 'invalid_range',
    });
  });

  it('refuses from after to', async () => {
    expectValidationError(await sandbox.request('GET', usagePath(sub.id, '?from=2026-03-02&to=2026-03-01')), {
      from: 'invalid_range',
    });
  });

  it('refuses malformed dates on their own fields', async () => {
    expectValidationError(await sandbox.request('GET', usagePath(sub.id, '?from=2026-3-1&to=2026-02-30')), {
      from: 'invalid_format',
      to: 'invalid_format',
    });
  });

  it('reports zero for days in the future', async () => {
    const report = await usage(sandbox, sub.id, '?from=2026-03-10&to=2026-03-20');
    expect(report.points[0].bytes).toBeGreaterThan(0);
    expect(report.points.slice(1).every((p: any) => p.bytes === 0 && p.requests === 0)).toBe(true);
  });

  it('is 404 for an unknown subscription', async () => {
    const answer = await sandbox.request('GET', usagePath('sub_nope'));
    expect(answer.status).toBe(404);
    expect(answer.json.error.code).toBe('not_found');
  });
});

describe('GET .../usage sums', () => {
  it('totals are the sums of the points and byCountry sums to totalBytes', async () => {
    for (const label of Object.values(SEEDED_SUBSCRIPTION_LABELS)) {
      const seeded = await subscriptionByLabel(sandbox, label);
      const report = await lifetimeUsage(sandbox, seeded);
      expect(report.totalBytes).toBeGreaterThan(0);
      expectConsistent(report);
    }
  });

  it('the whole life of a subscription adds up to its trafficUsedBytes', async () => {
    for (const label of Object.values(SEEDED_SUBSCRIPTION_LABELS)) {
      const seeded = await subscriptionByLabel(sandbox, label);
      expect((await lifetimeUsage(sandbox, seeded)).totalBytes).toBe(seeded.trafficUsedBytes);
    }
  });

  it('points grow within today as the clock moves, and past days never change', async () => {
    const before = await usage(sandbox, sub.id);
    await sandbox.advance(3 * HOUR);
    const after = await usage(sandbox, sub.id);
    expect(after.points.slice(0, -1)).toEqual(before.points.slice(0, -1));
    expect(after.points.at(-1).bytes).toBeGreaterThan(before.points.at(-1).bytes);
  });
});

describe('GET .../usage?subUserId', () => {
  it('restricts the report to one sub-user, whose lifetime equals its trafficUsedBytes', async () => {
    const current = await getSubscription(sandbox, sub.id);
    for (const subUser of await listSubUsers(sandbox, sub.id)) {
      const report = await lifetimeUsage(sandbox, current, subUser.id);
      expectConsistent(report);
      expect(report.totalBytes).toBe(subUser.trafficUsedBytes);
    }
  });

  it('the subscription report includes its sub-users and its main user', async () => {
    const current = await getSubscription(sandbox, sub.id);
    const whole = await lifetimeUsage(sandbox, current);
    let subUsersTotal = 0;
    const subUsers = await listSubUsers(sandbox, sub.id);
    for (const subUser of subUsers)
      subUsersTotal += (await lifetimeUsage(sandbox, current, subUser.id)).totalBytes;
    expect(subUsersTotal).toBeGreaterThan(0);
    expect(whole.totalBytes).toBeGreaterThan(subUsersTotal);
    // Day by day, the subscription is never below the sum of its sub-users.
    const perDay = new Map<string, number>();
    for (const subUser of subUsers) {
      const report = await lifetimeUsage(sandbox, current, subUser.id);
      for (const p of report.points) perDay.set(p.date, (perDay.get(p.date) ?? 0) + p.bytes);
    }
    for (const p of whole.points) expect(p.bytes).toBeGreaterThanOrEqual(perDay.get(p.date) ?? 0);
  });

  it('keeps the traffic of a deleted sub-user in the subscription report', async () => {
    const created = await createSubUser(sandbox, sub.id, { label: 'Short-lived' });
    await sandbox.advance(6 * HOUR);
    const own = (await usage(sandbox, sub.id, `?subUserId=${created.id}`)).totalBytes;
    expect(own).toBeGreaterThan(0);
    const before = await getSubscription(sandbox, sub.id);
    await sandbox.request('DELETE', `${SUBSCRIPTIONS}/${sub.id}/sub-users/${created.id}`);
    const after = await getSubscription(sandbox, sub.id);
    expect(after.trafficUsedBytes).toBe(before.trafficUsedBytes);
    expect((await lifetimeUsage(sandbox, after)).totalBytes).toBe(after.trafficUsedBytes);
  });

  it('is 404 for an unknown sub-user or one of another subscription', async () => {
    const other = await subscriptionByLabel(sandbox, SEEDED_SUBSCRIPTION_LABELS.neverExpires);
    const foreign = (await listSubUsers(sandbox, other.id))[0];
    for (const subUserId of ['su_nope', foreign.id, '']) {
      const answer = await sandbox.request('GET', usagePath(sub.id, `?subUserId=${subUserId}`));
      expect(answer.status).toBe(404);
      expect(answer.json.error.code).toBe('not_found');
    }
  });
});
