import type { BodyReader } from '../http/input-reader';
import type { PlanData } from '../orders/plan-catalog';
import type { SandboxWorld } from '../sandbox-world';
import { DAY_MS } from '../usage/usage-report';
import { addSubscription } from './subscription-records';
import { settleSubscription } from './subscription-traffic';
import { TRAFFIC_PRODUCT_IDS, type TrafficProductId } from './subscription-types';

const isTrafficProduct = (productId: string): productId is TrafficProductId =>
  (TRAFFIC_PRODUCT_IDS as readonly string[]).includes(productId);

/**
 * Validates the `options` of a purchase of a traffic plan: `{ subscriptionId?: string | null }`.
 * A given `subscriptionId` must name an existing subscription of the plan's product (traffic is added
 * to it); without one, the purchase creates a new subscription. Errors are recorded on the reader
 * (whose prefix is `purchase.options.`); unknown members are ignored.
 */
export function validateTrafficPurchaseOptions(
  world: SandboxWorld,
  plan: PlanData,
  options: BodyReader | null | undefined,
): void {
  if (plan.trafficBytes === null || !isTrafficProduct(plan.productId)) {
    throw new TypeError(`plan ${plan.id} is not a traffic plan`);
  }
  if (!options) return;
  const subscriptionId = options.string('subscriptionId', { nullable: true, min: 1 });
  if (typeof subscriptionId !== 'string') return;
  const sub = world.state.subscriptions.subscriptions.find((s) => s.id === subscriptionId);
  if (!sub) {
    options.addError('subscriptionId', 'not_found', `no subscription ${subscriptionId}`);
  } else if (sub.productId !== plan.productId) {
    options.addError(
      'subscriptionId',
      'product_mismatch',
      `subscription ${subscriptionId} is ${sub.productId}, the plan ${plan.id} is ${plan.productId}`,
    );
  }
}

export type ProvisionResult = { ok: true; subscriptionId: string } | { ok: false; reason: string };

/**
 * Places a paid order for a traffic plan at `now`. With `subscriptionId`: adds `quantity` x the plan's
 * traffic to it and moves its expiry `durationDays` past the later of its current expiry and `now`
 * (an expired subscription comes back; one that never expires stays so); its `planId` becomes this
 * plan, which a later auto-renewal buys. Without: a new subscription of `quantity` x the plan's traffic
 * that expires `durationDays` after `now`, auto-renewal off, labelled with the plan's name.
 */
export function provisionTrafficPlan(
  world: SandboxWorld,
  input: { plan: PlanData; quantity: number; subscriptionId?: string | null; now: number },
): ProvisionResult {
  const { plan, quantity, now } = input;
  if (plan.trafficBytes === null || !isTrafficProduct(plan.productId)) {
    return { ok: false, reason: `The plan ${plan.id} is not a traffic plan` };
  }
  if (!Number.isSafeInteger(quantity) || quantity < 1) {
    return { ok: false, reason: `The quantity must be a whole number of at least 1` };
  }
  const addedBytes = plan.trafficBytes * quantity;
  if (!Number.isSafeInteger(addedBytes)) {
    return { ok: false, reason: 'The quantity is too large' };
  }
  const state = world.state.subscriptions;

  if (input.subscriptionId !== undefined && input.subscriptionId !== null) {
    const sub = state.subscriptions.find((s) => s.id === input.subscriptionId);
    if (!sub) return { ok: false, reason: `The subscription ${input.subscriptionId} does not exist` };
    if (sub.productId !== plan.productId) {
      return {
        ok: false,
        reason: `The subscription ${sub.id} is ${sub.productId}, the plan ${plan.id} is ${plan.productId}`,
      };
    }
    // Traffic before the order is accounted with the old total; the order takes effect from then on.
    settleSubscription(sub, now, world.state.account);
    const effectiveAt = Math.max(now, sub.settledAt);
    sub.trafficTotalBytes += addedBytes;
    if (sub.expiresAt !== null) {
      sub.expiresAt = Math.max(sub.expiresAt, effectiveAt) + plan.durationDays * DAY_MS;
    }
    sub.planId = plan.id;
    return { ok: true, subscriptionId: sub.id };
  }

  const created = addSubscription(state, world, {
    productId: plan.productId,
    planId: plan.id,
    label: plan.name.slice(0, 60),
    trafficTotalBytes: addedBytes,
    expiresAt: now + plan.durationDays * DAY_MS,
    autoRenew: false,
    createdAt: now,
    // The simulated load uses about half of the traffic over the plan's duration.
    meanDailyBytes: Math.max(1, Math.floor(addedBytes / plan.durationDays / 2)),
  });
  return { ok: true, subscriptionId: created.id };
}
