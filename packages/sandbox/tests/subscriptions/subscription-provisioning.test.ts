import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BodyReader } from '../../src/http/input-reader';
import { findPlan, type PlanData } from '../../src/orders/plan-catalog';
import {
  provisionTrafficPlan,
  validateTrafficPurchaseOptions,
} from '../../src/subscriptions/subscription-provisioning';
import { TestSandbox } from '../../src/testing';
import {
  DAY,
  getSubscription,
  GB,
  listSubscriptions,
  SEEDED_SUBSCRIPTION_LABELS,
  subscriptionByLabel,
} from './subscription-helpers';

let sandbox: TestSandbox;
beforeEach(async () => {
  sandbox = await TestSandbox.start();
});
afterEach(() => sandbox.close());

const world = () => sandbox.sandbox.world;
const plan = (id: string): PlanData => {
  const found = findPlan(id);
  if (!found) throw new Error(`no plan ${id}`);
  return found;
};
const clockNow = () => world().clock.now();

/** The reader a top-up sees for `purchase.options`, and the errors it collects. */
function optionsReader(options: unknown) {
  const root = BodyReader.of({ purchase: { planId: 'x', options } }, { emptyAllowed: false });
  const purchase = root.object('purchase') as BodyReader;
  const reader = purchase.object('options', { nullable: true });
  return { reader, errors: root.errors.errors };
}

describe('validateTrafficPurchaseOptions', () => {
  it('accepts no options, empty options, a null subscriptionId and unknown members', () => {
    for (const options of [undefined, null, {}, { subscriptionId: null }, { colour: 'red' }]) {
      const { reader, errors } = optionsReader(options);
      validateTrafficPurchaseOptions(world(), plan('res-pro'), reader);
      expect(errors).toEqual([]);
    }
    validateTrafficPurchaseOptions(world(), plan('res-pro'), undefined);
  });

  it('accepts an existing subscription of the plan product', async () => {
    const sub = await subscriptionByLabel(sandbox, SEEDED_SUBSCRIPTION_LABELS.withSubUsers);
    const { reader, errors } = optionsReader({ subscriptionId: sub.id });
    validateTrafficPurchaseOptions(world(), plan('res-starter'), reader);
    expect(errors).toEqual([]);
  });

  it('records not_found on purchase.options.subscriptionId for an unknown subscription', () => {
    const { reader, errors } = optionsReader({ subscriptionId: 'sub_nope' });
    validateTrafficPurchaseOptions(world(), plan('res-pro'), reader);
    expect(errors).toEqual([
      {
        field: 'purchase.options.subscriptionId',
        code: 'not_found',
        message: expect.stringContaining('sub_nope'),
      },
    ]);
  });

  it('records product_mismatch for a subscription of the other traffic product', async () => {
    const sub = await subscriptionByLabel(sandbox, SEEDED_SUBSCRIPTION_LABELS.nearlyDepleted);
    const { reader, errors } = optionsReader({ subscriptionId: sub.id });
    validateTrafficPurchaseOptions(world(), plan('res-pro'), reader);
    expect(errors).toEqual([
      { field: 'purchase.options.subscriptionId', code: 'product_mismatch', message: expect.any(String) },
    ]);
  });

  it('records a type error for a subscriptionId that is not a non-empty string', () => {
    for (const [value, code] of [
      [5, 'invalid_type'],
      ['', 'required'],
    ] as const) {
      const { reader, errors } = optionsReader({ subscriptionId: value });
      validateTrafficPurchaseOptions(world(), plan('mgb-5'), reader);
      expect(errors.map((e) => [e.field, e.code])).toEqual([['purchase.options.subscriptionId', code]]);
    }
  });

  it('refuses to validate a plan that is not a traffic plan (a programming error)', () => {
    expect(() => validateTrafficPurchaseOptions(world(), plan('mobile-port-7d'), undefined)).toThrow(
      TypeError,
    );
  });
});

describe('provisionTrafficPlan on an existing subscription', () => {
  it('adds quantity x the plan traffic, extends expiry by the plan duration and records the plan', async () => {
    const sub = await subscriptionByLabel(sandbox, SEEDED_SUBSCRIPTION_LABELS.withSubUsers);
    const result = provisionTrafficPlan(world(), {
      plan: plan('res-starter'),
      quantity: 2,
      subscriptionId: sub.id,
      now: clockNow(),
    });
    expect(result).toEqual({ ok: true, subscriptionId: sub.id });
    const after = await getSubscription(sandbox, sub.id);
    expect(after.trafficTotalBytes).toBe(sub.trafficTotalBytes + 10 * GB);
    expect(Date.parse(after.expiresAt)).toBe(Date.parse(sub.expiresAt) + 30 * DAY * 1000);
    expect(after.planId).toBe('res-starter');
    expect(after.trafficUsedBytes).toBe(sub.trafficUsedBytes);
  });

  it('brings a depleted subscription back to active, and it uses traffic again', async () => {
    const sub = await subscriptionByLabel(sandbox, SEEDED_SUBSCRIPTION_LABELS.nearlyDepleted);
    await sandbox.advance(3 * DAY);
    const depleted = await getSubscription(sandbox, sub.id);
    expect(depleted.status).toBe('depleted');
    provisionTrafficPlan(world(), {
      plan: plan('mgb-5'),
      quantity: 1,
      subscriptionId: sub.id,
      now: clockNow(),
    });
    const topped = await getSubscription(sandbox, sub.id);
    expect(topped).toMatchObject({ status: 'active', trafficRemainingBytes: 5 * GB });
    await sandbox.advance(DAY);
    expect((await getSubscription(sandbox, sub.id)).trafficUsedBytes).toBeGreaterThan(
      depleted.trafficUsedBytes,
    );
  });

  it('revives an expired subscription for the plan duration from now', async () => {
    const sub = await subscriptionByLabel(sandbox, SEEDED_SUBSCRIPTION_LABELS.expiringSoon);
    await sandbox.advance(5 * DAY);
    const expired = await getSubscription(sandbox, sub.id);
    expect(expired.status).toBe('expired');
    const now = clockNow();
    provisionTrafficPlan(world(), { plan: plan('res-starter'), quantity: 1, subscriptionId: sub.id, now });
    const revived = await getSubscription(sandbox, sub.id);
    expect(revived.status).toBe('active');
    expect(revived.expiresAt).toBe(new Date(now + 30 * DAY * 1000).toISOString());
    await sandbox.advance(DAY);
    expect((await getSubscription(sandbox, sub.id)).trafficUsedBytes).toBeGreaterThan(
      expired.trafficUsedBytes,
    );
  });

  it('keeps a never-expiring subscription without expiry', async () => {
    const sub = await subscriptionByLabel(sandbox, SEEDED_SUBSCRIPTION_LABELS.neverExpires);
    provisionTrafficPlan(world(), {
      plan: plan('mgb-20'),
      quantity: 1,
      subscriptionId: sub.id,
      now: clockNow(),
    });
    const after = await getSubscription(sandbox, sub.id);
    expect(after.expiresAt).toBeNull();
    expect(after.trafficTotalBytes).toBe(sub.trafficTotalBytes + 20 * GB);
  });

  it('an order placed at an earlier instant than the clock counts from that instant', async () => {
    // A top-up is credited at its confirmation time, which the clock may already have passed.
    const stepwise = await TestSandbox.start();
    try {
      const sub = await subscriptionByLabel(sandbox, SEEDED_SUBSCRIPTION_LABELS.nearlyDepleted);
      const start = clockNow();
      const placedAt = start + 2 * DAY * 1000;
      await stepwise.advance(2 * DAY);
      provisionTrafficPlan(stepwise.sandbox.world, {
        plan: plan('mgb-5'),
        quantity: 1,
        subscriptionId: sub.id,
        now: placedAt,
      });
      await stepwise.advance(DAY);

      await sandbox.advance(3 * DAY);
      provisionTrafficPlan(world(), {
        plan: plan('mgb-5'),
        quantity: 1,
        subscriptionId: sub.id,
        now: placedAt,
      });
      // Each sandbox shows its own gateway's ports; the rest must be the same.
      const { endpoint: _endpoint, ...late } = await getSubscription(sandbox, sub.id);
      const { endpoint: _stepwiseEndpoint, ...stepped } = await getSubscription(stepwise, sub.id);
      expect(late).toEqual(stepped);
      expect(late.trafficTotalBytes).toBe(10 * GB);
      expect(late.trafficUsedBytes).toBeGreaterThan(5 * GB);
    } finally {
      await stepwise.close();
    }
  });

  it('an order at an instant already accounted takes effect from the accounted instant', async () => {
    const sub = await subscriptionByLabel(sandbox, SEEDED_SUBSCRIPTION_LABELS.nearlyDepleted);
    const start = clockNow();
    await sandbox.advance(3 * DAY);
    const depleted = await getSubscription(sandbox, sub.id);
    provisionTrafficPlan(world(), {
      plan: plan('mgb-5'),
      quantity: 1,
      subscriptionId: sub.id,
      now: start + DAY,
    });
    const after = await getSubscription(sandbox, sub.id);
    expect(after.trafficUsedBytes).toBe(depleted.trafficUsedBytes);
    expect(after.status).toBe('active');
  });
});

describe('provisionTrafficPlan without a subscription', () => {
  it('creates a subscription of the plan: quantity x traffic, expiry after the plan duration, no auto-renewal', async () => {
    const before = await listSubscriptions(sandbox);
    const now = clockNow();
    const result = provisionTrafficPlan(world(), { plan: plan('res-pro'), quantity: 2, now });
    expect(result.ok).toBe(true);
    const id = (result as { subscriptionId: string }).subscriptionId;
    expect(before.map((s) => s.id)).not.toContain(id);
    const created = await getSubscription(sandbox, id);
    expect(created).toMatchObject({
      id,
      productId: 'residential',
      planId: 'res-pro',
      label: 'Residential 25 GB',
      status: 'active',
      trafficTotalBytes: 50 * GB,
      trafficUsedBytes: 0,
      trafficRemainingBytes: 50 * GB,
      expiresAt: new Date(now + 30 * DAY * 1000).toISOString(),
      autoRenew: false,
      subUserCount: 0,
      createdAt: new Date(now).toISOString(),
      endpoint: sandbox.sandbox.gateway,
    });
    expect(before.map((s) => s.username)).not.toContain(created.username);
    expect(created.password).toMatch(/^[A-Za-z0-9]{20}$/);
    expect((await listSubscriptions(sandbox)).map((s) => s.id)).toEqual([...before.map((s) => s.id), id]);
    await sandbox.advance(DAY);
    expect((await getSubscription(sandbox, id)).trafficUsedBytes).toBeGreaterThan(0);
  });

  it('creates a new one also when subscriptionId is null', async () => {
    const result = provisionTrafficPlan(world(), {
      plan: plan('mgb-5'),
      quantity: 1,
      subscriptionId: null,
      now: clockNow(),
    });
    expect(result.ok).toBe(true);
    expect(
      (await getSubscription(sandbox, (result as { subscriptionId: string }).subscriptionId)).productId,
    ).toBe('mobile-gb');
  });
});

describe('provisionTrafficPlan failures', () => {
  it('fails with a reason and changes nothing', async () => {
    const residential = await subscriptionByLabel(sandbox, SEEDED_SUBSCRIPTION_LABELS.withSubUsers);
    const before = await listSubscriptions(sandbox);
    const now = clockNow();
    const failures = [
      provisionTrafficPlan(world(), { plan: plan('res-pro'), quantity: 1, subscriptionId: 'sub_nope', now }),
      provisionTrafficPlan(world(), {
        plan: plan('mgb-5'),
        quantity: 1,
        subscriptionId: residential.id,
        now,
      }),
      provisionTrafficPlan(world(), { plan: plan('mobile-port-30d'), quantity: 1, now }),
      provisionTrafficPlan(world(), { plan: plan('res-pro'), quantity: 0, now }),
      provisionTrafficPlan(world(), { plan: plan('res-pro'), quantity: 1.5, now }),
    ];
    for (const failure of failures) {
      expect(failure).toEqual({ ok: false, reason: expect.any(String) });
    }
    expect(await listSubscriptions(sandbox)).toEqual(before);
  });
});
