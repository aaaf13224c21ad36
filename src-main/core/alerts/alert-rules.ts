/**
 * Alert rules: pure functions from what the poller last read to the state of every alert condition.
 * They say whether each condition holds now; the alert center (which owns the crossings in the job
 * store) turns a condition that starts to hold into one alert, and re-arms it when it stops holding.
 *
 * A rule only reports on the subjects it was given, so a subscription whose sub-users were not read
 * this cycle keeps its sub-user crossings as they were.
 *
 * Ports and subscriptions are judged by the account's attention model (`attention-rules.ts`), the
 * same items the overview lists: an alert about one holds exactly while its item stands, and says
 * the item's title and detail, so the alerts and the overview never disagree.
 */
import type { MobilePort, SubUser, Subscription } from '../../../src-shared/api-types';
import {
  type AttentionDraft,
  portAttention,
  subscriptionAttention,
  type TrafficThreshold,
} from './attention-rules';
import { DAY_MS, daysFromNow, describeBytes } from './attention-words';

export type { TrafficThreshold } from './attention-rules';

export const ALERT_KINDS = [
  'traffic_low',
  'traffic_runs_out',
  'sub_user_cap_80',
  'sub_user_cap_100',
  'subscription_expiring',
  'port_expiring',
] as const;
export type AlertKind = (typeof ALERT_KINDS)[number];

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

/** The alert of one attention item (or its absence), in the item's words. */
function fromItem(
  kind: AlertKind,
  profileId: string,
  subjectId: string,
  item: AttentionDraft | undefined,
): AlertCheck {
  return check(
    kind,
    profileId,
    subjectId,
    item
      ? { title: item.title, message: item.detail, level: item.level === 'error' ? 'error' : 'warning' }
      : null,
  );
}

const withAlert = (items: readonly AttentionDraft[], kind: AlertKind) =>
  items.find((item) => item.alertKey?.startsWith(`${kind}:`));

function subscriptionChecks(snapshot: AlertSnapshot, policy: AlertPolicy, sub: Subscription): AlertCheck[] {
  const { profileId, now } = snapshot;
  const name = `“${sub.label}”`;
  const checks: AlertCheck[] = [];
  const items = subscriptionAttention(
    { profileId, now: now.getTime(), policy, pace: snapshot.dailyPaceBytes },
    sub,
  );
  if (policy.enabled.traffic_low) {
    checks.push(fromItem('traffic_low', profileId, sub.id, withAlert(items, 'traffic_low')));
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
              title: `Subscription ${name} runs out of traffic soon`,
              message: `At the last 7 days' pace (${describeBytes(pace)} a day) it runs out ${daysFromNow(days * DAY_MS)}.`,
            }
          : null,
      ),
    );
  }
  if (policy.enabled.subscription_expiring) {
    checks.push(
      fromItem('subscription_expiring', profileId, sub.id, withAlert(items, 'subscription_expiring')),
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
  const items = portAttention({ profileId: snapshot.profileId, now: snapshot.now.getTime(), policy }, port);
  return [fromItem('port_expiring', snapshot.profileId, port.id, withAlert(items, 'port_expiring'))];
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
