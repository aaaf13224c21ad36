import type { Subscription } from '../../../../src-main/api/api-types';

export type SubscriptionSortKey = 'label' | 'used' | 'remaining' | 'expires' | 'forecast';
export interface SubscriptionSort {
  key: SubscriptionSortKey;
  direction: 'asc' | 'desc';
}

const MS_PER_DAY = 86_400_000;

/**
 * Days until the remaining traffic runs out at the given daily pace; null when nothing is spent (no
 * forecast) and 0 when nothing is left. Rounded up: "about 1 day" for half a day's worth left.
 */
export function daysUntilRunOut(remainingBytes: number, bytesPerDay: number | null): number | null {
  if (remainingBytes <= 0) return 0;
  if (bytesPerDay === null || !(bytesPerDay > 0)) return null;
  return Math.ceil(remainingBytes / bytesPerDay);
}

/** "runs out in about 4 days"; "ran out" when nothing is left; null without a pace. */
export function forecastText(days: number | null): string | null {
  if (days === null) return null;
  if (days === 0) return 'no traffic left';
  return `runs out in about ${days} day${days === 1 ? '' : 's'}`;
}

/**
 * The pace the list can know without asking: traffic used since the subscription was created, per
 * day. The detail's usage (last 7 days) replaces it once read, as the issue asks for that pace.
 */
export function averagePace(subscription: Subscription, nowMs: number): number | null {
  const created = Date.parse(subscription.createdAt);
  if (!Number.isFinite(created)) return null;
  const days = Math.max(1, (nowMs - created) / MS_PER_DAY);
  return subscription.trafficUsedBytes / days;
}

const text = (value: string) => value.toLocaleLowerCase();

/** Case-insensitive match on label, id, username and plan. */
export function matchesSearch(subscription: Subscription, query: string): boolean {
  const needle = text(query.trim());
  if (needle === '') return true;
  return [subscription.label, subscription.id, subscription.username, subscription.planId].some((field) =>
    text(field).includes(needle),
  );
}

function compareNullable(a: number | null, b: number | null): number {
  // Unknowns (no expiry, no forecast) sort last in ascending order.
  if (a === null && b === null) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  return a - b;
}

export function sortSubscriptions(
  subscriptions: readonly Subscription[],
  sort: SubscriptionSort,
  forecastOf: (subscription: Subscription) => number | null,
): Subscription[] {
  const value = (s: Subscription): number | string | null => {
    switch (sort.key) {
      case 'label':
        return text(s.label || s.id);
      case 'used':
        return s.trafficTotalBytes > 0 ? s.trafficUsedBytes / s.trafficTotalBytes : 0;
      case 'remaining':
        return s.trafficRemainingBytes;
      case 'expires':
        return s.expiresAt === null ? null : Date.parse(s.expiresAt);
      case 'forecast':
        return forecastOf(s);
    }
  };
  const sign = sort.direction === 'asc' ? 1 : -1;
  return [...subscriptions].sort((left, right) => {
    const a = value(left);
    const b = value(right);
    const order =
      typeof a === 'string' && typeof b === 'string'
        ? a.localeCompare(b)
        : compareNullable(a as number | null, b as number | null);
    // Nulls stay last in both directions; ties keep a stable order by id.
    const signed = a === null || b === null ? order : order * sign;
    return signed !== 0 ? signed : left.id.localeCompare(right.id);
  });
}
