import type { Subscription, UsageReport } from '../../../../src-shared/api-types';

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

/**
 * Whether a subscription has expired: the service says so, or its expiry is past. An expired one
 * has no forecast: its traffic does not run out, it is no longer usable at all.
 */
export function hasExpired(subscription: Pick<Subscription, 'status' | 'expiresAt'>, nowMs: number): boolean {
  if (subscription.status === 'expired') return true;
  return subscription.expiresAt !== null && Date.parse(subscription.expiresAt) <= nowMs;
}

/** "runs out in about 4 days"; "ran out" when nothing is left; null without a pace. */
export function forecastText(days: number | null): string | null {
  if (days === null) return null;
  if (days === 0) return 'no traffic left';
  return `runs out in about ${days} day${days === 1 ? '' : 's'}`;
}

/** Days of usage the list's forecast reads: the pace of the last week, as the alerts use. */
export const FORECAST_DAYS = 7;

/**
 * Bytes per day over a recent usage report (the last 7 days, today included): its bytes over the
 * time the range has really run, from its first day (or the subscription's creation, if later) to
 * now, so that today's half day and a subscription 2 days old are not read as whole quiet days.
 */
export function recentPace(
  report: Pick<UsageReport, 'from' | 'totalBytes'>,
  createdAt: string,
  nowMs: number,
): number | null {
  const from = Date.parse(`${report.from}T00:00:00Z`);
  const created = Date.parse(createdAt);
  const start = Number.isFinite(created) ? Math.max(from, created) : from;
  if (!Number.isFinite(start)) return null;
  // At least an hour, so that a subscription created a minute ago does not forecast from seconds.
  const days = Math.max(1 / 24, (nowMs - start) / MS_PER_DAY);
  return report.totalBytes / days;
}

/**
 * The pace the list can know without asking: traffic used since the subscription was created, per
 * day. Used only to sort rows whose last 7 days have not been read yet.
 */
export function averagePace(subscription: Subscription, nowMs: number): number | null {
  const created = Date.parse(subscription.createdAt);
  if (!Number.isFinite(created)) return null;
  const days = Math.max(1, (nowMs - created) / MS_PER_DAY);
  return subscription.trafficUsedBytes / days;
}
