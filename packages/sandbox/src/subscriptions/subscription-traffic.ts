import { compare, subtract } from '../lib/decimal';
import { formatIsoDate } from '../http/input-reader';
import { findPlan } from '../orders/plan-catalog';
import type { AccountState } from '../sandbox-state';
import { CurveCursor, DAY_MS, startOfDay } from '../usage/usage-report';
import type {
  SubscriptionRecord,
  SubscriptionStatus,
  SubUserRecord,
  TrafficConsumer,
} from './subscription-types';

/** Traffic used so far by the main user and every sub-user, deleted ones included. */
export const subscriptionUsedBytes = (sub: SubscriptionRecord): number =>
  sub.subUsers.reduce((sum, subUser) => sum + subUser.usedBytes, sub.main.usedBytes);

export const subscriptionRemainingBytes = (sub: SubscriptionRecord): number =>
  Math.max(0, sub.trafficTotalBytes - subscriptionUsedBytes(sub));

export function subscriptionStatus(sub: SubscriptionRecord, now: number): SubscriptionStatus {
  if (sub.expiresAt !== null && sub.expiresAt <= now) return 'expired';
  return subscriptionRemainingBytes(sub) === 0 ? 'depleted' : 'active';
}

export const liveSubUsers = (sub: SubscriptionRecord): SubUserRecord[] =>
  sub.subUsers.filter((s) => s.deletedAt === null);

interface ActiveConsumer {
  consumer: TrafficConsumer;
  /** What its own cap still allows (Infinity without a cap). */
  capRemaining: number;
  cursor: CurveCursor;
}

/**
 * Records the traffic of [fromMs, toMs) on every consumer that may draw traffic: the main user and
 * every enabled, not deleted sub-user (from its creation on), each up to its own cap, all together up
 * to what the subscription has left.
 *
 * The result is independent of how [fromMs, toMs) is cut into steps: each consumer follows its
 * additive curve, caps are `min`s, and when the pool runs out it does so at the first millisecond
 * where the consumers' demand reaches it, with that millisecond's last bytes given out in a fixed
 * order (main user first, then sub-users by creation).
 */
function consume(sub: SubscriptionRecord, fromMs: number, toMs: number): void {
  if (toMs <= fromMs) return;
  let pool = sub.trafficTotalBytes - subscriptionUsedBytes(sub);
  if (pool <= 0) return;
  const active: ActiveConsumer[] = [];
  const candidates: { consumer: TrafficConsumer; limit: number | null; startMs: number }[] = [
    { consumer: sub.main, limit: null, startMs: fromMs },
    ...sub.subUsers
      .filter((s) => s.enabled && s.deletedAt === null)
      .map((s) => ({ consumer: s, limit: s.trafficLimitBytes, startMs: Math.max(fromMs, s.createdAt) })),
  ];
  for (const { consumer, limit, startMs } of candidates) {
    const capRemaining = limit === null ? Number.POSITIVE_INFINITY : limit - consumer.usedBytes;
    if (capRemaining <= 0 || startMs >= toMs) continue;
    active.push({ consumer, capRemaining, cursor: new CurveCursor(consumer, startMs, toMs) });
  }
  if (active.length === 0) return;

  const demand = (c: ActiveConsumer, atMs: number): number =>
    Math.min(c.capRemaining, c.cursor.bytesUntil(atMs));
  const totalDemand = (atMs: number): number => active.reduce((sum, c) => sum + demand(c, atMs), 0);

  let endMs = toMs;
  let amountsAtEnd = active.map((c) => demand(c, toMs));
  if (amountsAtEnd.reduce((a, b) => a + b, 0) > pool) {
    // Smallest instant where demand reaches the pool; demand is non-decreasing in time.
    let below = fromMs;
    let reached = toMs;
    while (reached - below > 1) {
      const middle = Math.floor((below + reached) / 2);
      if (totalDemand(middle) >= pool) reached = middle;
      else below = middle;
    }
    const base = active.map((c) => demand(c, below));
    pool -= base.reduce((a, b) => a + b, 0);
    amountsAtEnd = active.map((c, i) => {
      const increment = demand(c, reached) - (base[i] as number);
      const granted = Math.min(increment, pool);
      pool -= granted;
      return (base[i] as number) + granted;
    });
    endMs = reached;
  }

  active.forEach((c, i) => {
    let previous = 0;
    for (let day = startOfDay(fromMs); day < endMs; day += DAY_MS) {
      const boundary = Math.min(day + DAY_MS, endMs);
      const cumulative = boundary === endMs ? (amountsAtEnd[i] as number) : demand(c, boundary);
      const bytes = cumulative - previous;
      if (bytes > 0) {
        const date = formatIsoDate(day);
        c.consumer.daily[date] = (c.consumer.daily[date] ?? 0) + bytes;
      }
      previous = cumulative;
    }
    c.consumer.usedBytes += previous;
  });
}

/**
 * At `expiresAt`: with `autoRenew`, buy the plan again from the account balance (its traffic added,
 * `expiresAt` moved by the plan's duration) when the balance covers the plan's price and the plan is
 * still sold; otherwise the subscription is expired from then on.
 */
function handleExpiry(sub: SubscriptionRecord, account: AccountState): void {
  if (!sub.autoRenew || sub.expiresAt === null) return;
  const plan = findPlan(sub.planId);
  if (!plan || !plan.available || plan.trafficBytes === null) return;
  if (compare(account.balanceUsd, plan.unitPriceUsd) < 0) return;
  account.balanceUsd = subtract(account.balanceUsd, plan.unitPriceUsd, 2);
  sub.renewals.push({ at: sub.expiresAt, priceUsd: plan.unitPriceUsd });
  sub.trafficTotalBytes += plan.trafficBytes;
  sub.expiresAt += plan.durationDays * DAY_MS;
}

/**
 * Brings one subscription up to `untilMs`: records traffic and handles every expiry on the way, in
 * time order. Calling it again with the same or an earlier instant changes nothing.
 */
export function settleSubscription(sub: SubscriptionRecord, untilMs: number, account: AccountState): void {
  while (sub.settledAt < untilMs) {
    const expiry = sub.expiresAt;
    if (expiry !== null && expiry <= sub.settledAt) {
      // Expired and not renewed: no traffic until a purchase extends it.
      sub.settledAt = untilMs;
      return;
    }
    const stepEnd = expiry === null ? untilMs : Math.min(untilMs, expiry);
    consume(sub, sub.settledAt, stepEnd);
    sub.settledAt = stepEnd;
    if (stepEnd === expiry) handleExpiry(sub, account);
  }
}

/** The earliest expiry not handled yet at or before `now` (renewals spend the shared balance in time order). */
export function nextPendingExpiry(
  subscriptions: readonly SubscriptionRecord[],
  now: number,
): SubscriptionRecord | null {
  let next: SubscriptionRecord | null = null;
  for (const sub of subscriptions) {
    const expiry = sub.expiresAt;
    if (expiry === null || expiry > now || expiry <= sub.settledAt) continue;
    if (next === null || expiry < (next.expiresAt as number)) next = sub;
  }
  return next;
}

/**
 * Handles every expiry up to `now` across all subscriptions in time order. Traffic between expiries is
 * recorded lazily (when a subscription is read or changed), which gives the same bytes.
 */
export function settleExpiries(
  subscriptions: readonly SubscriptionRecord[],
  now: number,
  account: AccountState,
): void {
  for (;;) {
    const sub = nextPendingExpiry(subscriptions, now);
    if (!sub) return;
    settleSubscription(sub, sub.expiresAt as number, account);
  }
}
