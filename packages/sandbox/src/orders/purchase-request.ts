import { compare, divide, multiply, subtract } from '../lib/decimal';
import type { BodyReader } from '../http/input-reader';
import { isPortPlan, validatePortPurchaseOptions } from '../mobile/port-provisioning';
import type { SandboxWorld } from '../sandbox-world';
import { validateTrafficPurchaseOptions } from '../subscriptions/subscription-provisioning';
import { findPlan, type PlanData } from './plan-catalog';

/** Field-name prefix of the purchase inside a top-up body. */
const PURCHASE_PREFIX = 'purchase.';
const MAX_PURCHASE_QUANTITY = 100;
const MAX_PROMO_CODE_LENGTH = 32;

/** A promo code: a percentage off or a fixed USD amount off the order's subtotal. */
export type PromoCode =
  | { code: string; kind: 'percent'; percentOff: number; description: string }
  | { code: string; kind: 'amount'; amountOffUsd: string; description: string };

/** The sandbox's promo codes; matched case-insensitively, reported upper case. */
const PROMO_CODES: readonly PromoCode[] = [
  { code: 'DEMO10', kind: 'percent', percentOff: 10, description: '10% off the order' },
  { code: 'SAVE5', kind: 'amount', amountOffUsd: '5.00', description: '5.00 USD off the order' },
];

export const findPromoCode = (code: string): PromoCode | undefined =>
  PROMO_CODES.find((p) => p.code === code.toUpperCase());

/** What `purchase.options` keeps: only the members the order uses (unknown members are ignored). */
export interface PurchaseOptions {
  /** Traffic plans: the subscription to add traffic to; absent or null creates a new one. */
  subscriptionId?: string | null;
  /** Port plans: where the port is. */
  country?: string;
  carrier?: string;
  city?: string | null;
}

/** A purchase that passed validation, priced. */
export interface PricedPurchase {
  plan: PlanData;
  quantity: number;
  options: PurchaseOptions;
  promoCode: string | null;
  /** USD, 2 decimals: unit price x quantity minus the promo discount. */
  total: string;
}

/**
 * The order total: `unitPrice x quantity`, less the promo discount. A percentage discount leaves the
 * total rounded down to the cent (in the buyer's favour); a fixed one never takes it below 0.00.
 */
export function priceOrder(plan: PlanData, quantity: number, promo: PromoCode | undefined): string {
  const subtotal = multiply(plan.unitPriceUsd, String(quantity), 2, 'down');
  if (!promo) return subtotal;
  if (promo.kind === 'percent') {
    return divide(multiply(subtotal, String(100 - promo.percentOff), 2, 'down'), '100', 2, 'down');
  }
  const discounted = subtract(subtotal, promo.amountOffUsd, 2);
  return compare(discounted, '0') < 0 ? '0.00' : discounted;
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function pickOptions(plan: PlanData, raw: unknown): PurchaseOptions {
  if (!isPlainObject(raw)) return {};
  const picked: PurchaseOptions = {};
  if (isPortPlan(plan)) {
    if (typeof raw.country === 'string') picked.country = raw.country;
    if (typeof raw.carrier === 'string') picked.carrier = raw.carrier;
    if (typeof raw.city === 'string' || raw.city === null) picked.city = raw.city;
  } else if (
    'subscriptionId' in raw &&
    (typeof raw.subscriptionId === 'string' || raw.subscriptionId === null)
  ) {
    picked.subscriptionId = raw.subscriptionId;
  }
  return picked;
}

/**
 * Reads and prices the body of an order (`{ planId, quantity, options?, promoCode? }`) from a reader
 * whose field prefix is `purchase.`. Every bad field is recorded on the reader's errors; an unknown
 * plan is a field error on `purchase.planId`, while a known plan that is not available is left to the
 * caller (409 `plan_unavailable`). Returns the priced purchase when nothing in it was invalid.
 */
export function readPurchase(world: SandboxWorld, reader: BodyReader): PricedPurchase | undefined {
  const errorsBefore = reader.errors.errors.length;
  const planId = reader.string('planId', { required: true, min: 1 });
  const quantity = reader.integer('quantity', { required: true, min: 1, max: MAX_PURCHASE_QUANTITY });
  const options = reader.object('options', { nullable: true });
  const promoInput = reader.string('promoCode', { nullable: true, max: MAX_PROMO_CODE_LENGTH });

  const plan = planId === undefined ? undefined : findPlan(planId);
  if (planId !== undefined && !plan) {
    reader.errors.add(`${PURCHASE_PREFIX}planId`, 'not_found', `no plan ${planId}`);
  }
  if (plan) {
    if (isPortPlan(plan)) validatePortPurchaseOptions(world, plan, options, reader.errors);
    else validateTrafficPurchaseOptions(world, plan, options);
  }
  let promo: PromoCode | undefined;
  if (typeof promoInput === 'string') {
    promo = findPromoCode(promoInput);
    if (!promo) {
      reader.errors.add(`${PURCHASE_PREFIX}promoCode`, 'invalid_value', `unknown promo code ${promoInput}`);
    }
  }
  if (reader.errors.errors.length > errorsBefore || !plan || quantity === undefined) return undefined;
  return {
    plan,
    quantity,
    options: pickOptions(plan, reader.raw('options')),
    promoCode: promo?.code ?? null,
    total: priceOrder(plan, quantity, promo),
  };
}
