import { CATALOG_COUNTRIES } from './catalog/catalog-data';
import type { CarrierData } from './catalog/catalog-types';
import { createPortRecord } from './mobile/port-factory';
import { findPlan } from './orders/plan-catalog';
import type { SandboxState } from './sandbox-state';
import type { TrafficProductId } from './subscriptions/subscription-types';
import type { SeedContext } from './sandbox-world';
import { addSubscription, addSubUser } from './subscriptions/subscription-records';
import { settleSubscription } from './subscriptions/subscription-traffic';
import { seedScaleTopUps } from './topups/topup-model';

/**
 * A large account for benchmarks (`--scale ports=1000,sub-users=5000,topups=300`): the demo data plus
 * generated records up to these totals. Counts are totals, not additions: `ports: 1000` gives 1,000
 * ports whatever the demo seeded. Applied when the state is seeded (a `--data` file keeps its own).
 */
export interface SandboxScale {
  /** Mobile ports in all, spread over every country and carrier that sells them. */
  ports?: number;
  /**
   * Traffic subscriptions in all (the demo's, "Scale team" when `subUsers` is asked for, and
   * generated ones over every traffic plan).
   */
  subscriptions?: number;
  /** Sub-users of one extra residential subscription ("Scale team"), whose limit is raised to fit. */
  subUsers?: number;
  /** Top-ups in all: final ones (credited, or expired past their txid deadline) plus the abandoned ones. */
  topUps?: number;
  /**
   * Of `topUps`, how many expired unpaid within the last 72 hours: not final until their txid
   * deadline, so a client watching non-final top-ups keeps reading them. Default 20.
   */
  abandonedTopUps?: number;
}

export const SCALE_LIMITS = {
  ports: 20_000,
  subscriptions: 5_000,
  subUsers: 50_000,
  topUps: 20_000,
} as const;

const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;
const GB = 1_000_000_000;

/** Every (country, carrier) that has mobile ports, in catalog order. */
function mobileCarriers(): { country: string; carrier: CarrierData }[] {
  return CATALOG_COUNTRIES.filter((country) => country.products.includes('mobile')).flatMap((country) =>
    country.carriers.map((carrier) => ({ country: country.code, carrier })),
  );
}

function scalePorts(state: SandboxState, context: SeedContext, total: number): void {
  const carriers = mobileCarriers();
  const plan = findPlan('mobile-port-30d');
  if (carriers.length === 0 || !plan) throw new Error('scale: no mobile carrier or port plan in the catalog');
  for (let index = state.mobile.ports.length; index < total; index += 1) {
    const { country, carrier } = carriers[index % carriers.length] as (typeof carriers)[number];
    const createdAt = context.now - context.random.int(1, 28 * 24 * 60) * MINUTE_MS;
    state.mobile.ports.push(
      createPortRecord(context, {
        country,
        carrier,
        city: null,
        planId: plan.id,
        durationDays: plan.durationDays,
        now: createdAt,
        // Some without a label, as real accounts have.
        label: index % 9 === 0 ? '' : `Port ${index + 1}`,
        autoRenew: index % 2 === 0,
      }),
    );
  }
}

function scaleSubUsers(state: SandboxState, context: SeedContext, count: number): void {
  const createdAt = context.now - 60 * DAY_MS;
  const sub = addSubscription(state.subscriptions, context, {
    productId: 'residential',
    planId: 'res-pro',
    label: 'Scale team',
    trafficTotalBytes: 100_000 * GB,
    expiresAt: context.now + 30 * DAY_MS,
    autoRenew: false,
    createdAt,
    meanDailyBytes: 400_000_000,
  });
  sub.subUserLimit = count;
  for (let index = 0; index < count; index += 1) {
    addSubUser(state.subscriptions, sub, context, {
      label: `Worker ${index + 1}`,
      trafficLimitBytes: index % 3 === 0 ? null : (1 + (index % 50)) * GB,
      enabled: index % 17 !== 0,
      createdAt: createdAt + (index % 1000) * MINUTE_MS,
      meanDailyBytes: (1 + (index % 40)) * 1_000_000,
    });
  }
  settleSubscription(sub, context.now, state.account);
}

/** The traffic plans a generated subscription is on, in turn. */
const SCALE_SUBSCRIPTION_PLANS = ['res-starter', 'res-pro', 'res-business', 'mgb-5', 'mgb-20'] as const;

function scaleSubscriptions(state: SandboxState, context: SeedContext, total: number): void {
  const plans = SCALE_SUBSCRIPTION_PLANS.map((id) => {
    const plan = findPlan(id);
    if (!plan || plan.trafficBytes === null) throw new Error(`scale: no traffic plan ${id} in the catalog`);
    return { ...plan, productId: plan.productId as TrafficProductId, trafficBytes: plan.trafficBytes };
  });
  const list = state.subscriptions.subscriptions;
  for (let index = list.length; index < total; index += 1) {
    const plan = plans[index % plans.length] as (typeof plans)[number];
    // Bought within the plan's period (none expired yet); used at paces that run some of them out.
    const createdAt = context.now - context.random.int(1, 28 * 24 * 60) * MINUTE_MS;
    const sub = addSubscription(state.subscriptions, context, {
      productId: plan.productId,
      planId: plan.id,
      // Some without a label, as real accounts have.
      label: index % 11 === 0 ? '' : `Subscription ${index + 1}`,
      trafficTotalBytes: plan.trafficBytes,
      expiresAt: createdAt + plan.durationDays * DAY_MS,
      autoRenew: index % 3 === 0,
      createdAt,
      meanDailyBytes: context.random.int(5, 400) * 1_000_000,
    });
    settleSubscription(sub, context.now, state.account);
  }
}

/** Adds generated records to a freshly seeded state, up to the totals of `scale`. */
export function applyScale(state: SandboxState, context: SeedContext, scale: SandboxScale): void {
  if (scale.ports !== undefined) scalePorts(state, context, scale.ports);
  if (scale.subUsers !== undefined && scale.subUsers > 0) scaleSubUsers(state, context, scale.subUsers);
  // After "Scale team": the total counts it.
  if (scale.subscriptions !== undefined) scaleSubscriptions(state, context, scale.subscriptions);
  if (scale.topUps !== undefined) {
    seedScaleTopUps(context, state.topUps, scale.topUps, scale.abandonedTopUps ?? 20);
  }
}
