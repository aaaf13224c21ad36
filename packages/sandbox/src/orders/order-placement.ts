import { compare, subtract } from '../lib/decimal';
import { isPortPlan, provisionPortPlan } from '../mobile/port-provisioning';
import type { SandboxWorld } from '../sandbox-world';
import { provisionTrafficPlan } from '../subscriptions/subscription-provisioning';
import type { PlanData } from './plan-catalog';
import type { PurchaseOptions } from './purchase-request';

/** A placed order, kept for the control API (`GET /orders`); the spec has no order resource. */
export interface OrderRecord {
  id: string;
  /** The top-up whose purchase placed it. */
  topUpId: string | null;
  planId: string;
  quantity: number;
  options: PurchaseOptions;
  promoCode: string | null;
  totalUsd: string;
  placedAt: number;
  /** Traffic plans: the subscription that got the traffic. */
  subscriptionId: string | null;
  /** Port plans: the ports created. */
  portIds: string[];
}

export type OrderOutcome = { ok: true; order: OrderRecord } | { ok: false; reason: string };

export interface OrderInput {
  plan: PlanData;
  quantity: number;
  options: PurchaseOptions;
  promoCode: string | null;
  totalUsd: string;
  topUpId: string | null;
  now: number;
}

// Port provisioning reports codes; a purchase's failureReason is a sentence a user can act on.
function describePortFailure(reason: string, options: PurchaseOptions): string {
  const place = [options.city, options.country].filter((p) => typeof p === 'string').join(', ');
  switch (reason) {
    case 'location_unavailable':
      return `No free modem of carrier ${options.carrier ?? '?'} in ${place || 'that place'}`;
    case 'invalid_quantity':
      return 'The quantity must be a whole number of at least 1';
    case 'not_a_port_plan':
      return 'The plan is not a mobile port plan';
    default:
      return reason;
  }
}

/**
 * Places an order paid from the account balance at `now`: nothing happens unless the balance covers
 * the total and the product can be provisioned; then the balance is debited, the subscription or ports
 * are provisioned, and the order is recorded in `orders`. On failure the balance is untouched.
 */
export function placeOrder(world: SandboxWorld, orders: OrderRecord[], input: OrderInput): OrderOutcome {
  const { plan, options } = input;
  const account = world.state.account;
  if (!plan.available) return { ok: false, reason: `The plan ${plan.id} is no longer available` };
  if (compare(account.balanceUsd, input.totalUsd) < 0) {
    return {
      ok: false,
      reason: `The balance of ${account.balanceUsd} USD does not cover the order total of ${input.totalUsd} USD`,
    };
  }
  let subscriptionId: string | null = null;
  let portIds: string[] = [];
  if (isPortPlan(plan)) {
    const result = provisionPortPlan(world, {
      plan,
      quantity: input.quantity,
      country: options.country ?? '',
      carrier: options.carrier ?? '',
      city: options.city ?? null,
      now: input.now,
    });
    if (!result.ok) return { ok: false, reason: describePortFailure(result.reason, options) };
    portIds = result.portIds;
  } else {
    const result = provisionTrafficPlan(world, {
      plan,
      quantity: input.quantity,
      subscriptionId: options.subscriptionId ?? null,
      now: input.now,
    });
    if (!result.ok) return { ok: false, reason: result.reason };
    subscriptionId = result.subscriptionId;
  }
  account.balanceUsd = subtract(account.balanceUsd, input.totalUsd, 2);
  const order: OrderRecord = {
    id: world.newId('ord'),
    topUpId: input.topUpId,
    planId: plan.id,
    quantity: input.quantity,
    options,
    promoCode: input.promoCode,
    totalUsd: input.totalUsd,
    placedAt: input.now,
    subscriptionId,
    portIds,
  };
  orders.push(order);
  return { ok: true, order };
}

/** Control-API view of an order. */
export function renderOrder(order: OrderRecord): Record<string, unknown> {
  return { ...order, placedAt: new Date(order.placedAt).toISOString() };
}
