/**
 * Alert rules: pure functions from what the poller last read to the state of every alert condition.
 * They say whether each condition holds now; the alert center (which owns the crossings in the job
 * store) turns a condition that starts to hold into one alert, and re-arms it when it stops holding.
 *
 * A rule only reports on the subjects it was given, so a subscription whose sub-users were not read
 * this cycle keeps its sub-user crossings as they were.
 */
import type { MobilePort, SubUser, Subscription } from '../../../src-shared/api-types';

export const ALERT_KINDS = [
  'traffic_low',
  'traffic_runs_out',
  'sub_user_cap_80',
  'sub_user_cap_100',
  'subscription_expiring',
  'port_expiring',
] as const;
export type AlertKind = (typeof ALERT_KINDS)[number];

export interface TrafficThreshold {
  /** Remaining traffic below this share of the total (0-100). */
  percent?: number | undefined;
  /** Remaining traffic below this many bytes (entered as decimal GB, stored as exact bytes). */
  bytes?: number | undefined;
}

export interface AlertPolicy {
  enabled: Record<AlertKind, boolean>;
  traffic: TrafficThreshold;
  /** Per subscription id: replaces `traffic` for that subscription. */
  trafficBySubscription?: Record<string, TrafficThreshold> | undefined;
  /** Warn when the last 7 days' pace runs the traffic out within this many days. */
  runsOutWithinDays: number;
  /** Warn this many days before an expiry that will not renew itself. */
  expiryWarningDays: number;
}

export interface AlertSnapshot {
  profileId: string;
  now: Date;
  subscriptions?: readonly Subscription[] | undefined;
  /** Sub-users per subscription id, for the subscriptions whose sub-users were read this cycle. */
  subUsers?: Readonly<Record<string, readonly SubUser[]>> | undefined;
  /** Bytes per day over the last 7 days, per subscription id, where known. */
  dailyPaceBytes?: Readonly<Record<string, number>> | undefined;
  ports?: readonly MobilePort[] | undefined;
}

export interface AlertCheck {
  /** Stable identity of one condition on one subject: `kind:profileId:subjectId`. */
  key: string;
  kind: AlertKind;
  profileId: string;
  subjectId: string;
  holds: boolean;
  /** Present when `holds`: what the alert says. */
  title?: string;
  message?: string;
  level?: 'warning' | 'error';
}

const DAY_MS = 86_400_000;

/** `1.5 GB`: decimal units, as the service bills. */
export function describeBytes(bytes: number): string {
  const units = ['bytes', 'KB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (Math.abs(value) >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit += 1;
  }
  const digits = unit === 0 || value >= 100 ? 0 : value >= 10 ? 1 : 2;
  return `${Number(value.toFixed(digits)).toString()} ${units[unit] ?? ''}`;
}

function check(
  kind: AlertKind,
  profileId: string,
  subjectId: string,
  alert: { title: string; message: string; level?: 'warning' | 'error' } | null,
): AlertCheck {
  const base = { key: `${kind}:${profileId}:${subjectId}`, kind, profileId, subjectId };
  if (!alert) return { ...base, holds: false };
  return { ...base, holds: true, level: alert.level ?? 'warning', ...alert };
}

function trafficLow(sub: Subscription, threshold: TrafficThreshold): boolean {
  const remaining = sub.trafficRemainingBytes;
  if (threshold.bytes !== undefined && remaining < threshold.bytes) return true;
  if (threshold.percent !== undefined && sub.trafficTotalBytes > 0) {
    return remaining * 100 < threshold.percent * sub.trafficTotalBytes;
  }
  return false;
}

function daysUntil(iso: string | null, now: Date): number | null {
  if (iso === null) return null;
  return (Date.parse(iso) - now.getTime()) / DAY_MS;
}

function subscriptionChecks(snapshot: AlertSnapshot, policy: AlertPolicy, sub: Subscription): AlertCheck[] {
  const { profileId, now } = snapshot;
  const name = `“${sub.label}”`;
  const checks: AlertCheck[] = [];
  if (policy.enabled.traffic_low) {
    const threshold = policy.trafficBySubscription?.[sub.id] ?? policy.traffic;
    const low = sub.status !== 'expired' && trafficLow(sub, threshold);
    checks.push(
      check(
        'traffic_low',
        profileId,
        sub.id,
        low
          ? {
              title: 'Traffic running low',
              message: `${name} has ${describeBytes(sub.trafficRemainingBytes)} of ${describeBytes(sub.trafficTotalBytes)} left.`,
              level: sub.trafficRemainingBytes <= 0 ? 'error' : 'warning',
            }
          : null,
      ),
    );
  }
  const pace = snapshot.dailyPaceBytes?.[sub.id];
  if (policy.enabled.traffic_runs_out && pace !== undefined) {
    const days = pace > 0 ? sub.trafficRemainingBytes / pace : Number.POSITIVE_INFINITY;
    const soon = sub.status !== 'expired' && sub.trafficRemainingBytes > 0 && days < policy.runsOutWithinDays;
    checks.push(
      check(
        'traffic_runs_out',
        profileId,
        sub.id,
        soon
          ? {
              title: 'Traffic runs out soon',
              message: `${name} runs out in about ${Math.max(1, Math.round(days))} day${Math.round(days) === 1 ? '' : 's'} at the last 7 days' pace (${describeBytes(pace)} a day).`,
            }
          : null,
      ),
    );
  }
  if (policy.enabled.subscription_expiring) {
    const days = daysUntil(sub.expiresAt, now);
    const expiring = !sub.autoRenew && days !== null && days >= 0 && days <= policy.expiryWarningDays;
    checks.push(
      check(
        'subscription_expiring',
        profileId,
        sub.id,
        expiring
          ? {
              title: 'Subscription expires soon',
              message: `${name} expires ${describeDays(days ?? 0)} and will not renew itself.`,
            }
          : null,
      ),
    );
  }
  return checks;
}

function subUserChecks(
  profileId: string,
  policy: AlertPolicy,
  subscriptionId: string,
  subUser: SubUser,
): AlertCheck[] {
  const cap = subUser.trafficLimitBytes;
  const share = cap === null ? null : cap === 0 ? 1 : subUser.trafficUsedBytes / cap;
  const subjectId = `${subscriptionId}/${subUser.id}`;
  const name = `Sub-user “${subUser.label}”`;
  const checks: AlertCheck[] = [];
  if (policy.enabled.sub_user_cap_100) {
    const atCap = share !== null && share >= 1;
    checks.push(
      check(
        'sub_user_cap_100',
        profileId,
        subjectId,
        atCap
          ? {
              title: 'Sub-user reached its cap',
              message: `${name} used all of its ${describeBytes(cap ?? 0)} cap.`,
              level: 'error',
            }
          : null,
      ),
    );
  }
  if (policy.enabled.sub_user_cap_80) {
    const near = share !== null && share >= 0.8 && share < 1;
    checks.push(
      check(
        'sub_user_cap_80',
        profileId,
        subjectId,
        near
          ? {
              title: 'Sub-user near its cap',
              message: `${name} used ${Math.floor((share ?? 0) * 100)} % of its ${describeBytes(cap ?? 0)} cap.`,
            }
          : null,
      ),
    );
  }
  return checks;
}

function portChecks(snapshot: AlertSnapshot, policy: AlertPolicy, port: MobilePort): AlertCheck[] {
  if (!policy.enabled.port_expiring) return [];
  const days = daysUntil(port.expiresAt, snapshot.now);
  const expiring = !port.autoRenew && days !== null && days >= 0 && days <= policy.expiryWarningDays;
  return [
    check(
      'port_expiring',
      snapshot.profileId,
      port.id,
      expiring
        ? {
            title: 'Port expires soon',
            message: `Port “${port.label}” expires ${describeDays(days ?? 0)} and will not renew itself.`,
          }
        : null,
    ),
  ];
}

function describeDays(days: number): string {
  if (days < 1) return 'within a day';
  const whole = Math.floor(days);
  return `in ${whole} day${whole === 1 ? '' : 's'}`;
}

/** Every condition on every subject in the snapshot, holding or not. */
export function evaluateAlerts(snapshot: AlertSnapshot, policy: AlertPolicy): AlertCheck[] {
  const checks: AlertCheck[] = [];
  for (const sub of snapshot.subscriptions ?? []) checks.push(...subscriptionChecks(snapshot, policy, sub));
  for (const [subscriptionId, subUsers] of Object.entries(snapshot.subUsers ?? {})) {
    for (const subUser of subUsers)
      checks.push(...subUserChecks(snapshot.profileId, policy, subscriptionId, subUser));
  }
  for (const port of snapshot.ports ?? []) checks.push(...portChecks(snapshot, policy, port));
  return checks;
}
