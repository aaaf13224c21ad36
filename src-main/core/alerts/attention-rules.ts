/**
 * The account's attention model for ports and subscriptions: one function per subject decides
 * whether it needs the user, at which level, by when (its expiry, or the traffic forecast where there
 * is no date) and in which words. The overview (`overview/overview-rules.ts`) lists these items, and
 * the alert rules raise their alerts from the very same items, so the overview, `health`, the alerts,
 * the badges, the tray and the notifications cannot disagree about a port or a subscription.
 *
 * Pure: no I/O, the time is an input.
 */
import { ATTENTION_LEVEL_WORDS, type AttentionItem, type MobilePortView } from '../../../src-shared/contract';
import type { MobilePort, Subscription } from '../../../src-shared/api-types';
import { DAY_MS, daysFromNow, describeBytes, portRoute, subscriptionRoute } from './attention-words';

/** An item before its words that only depend on the time (`levelWord`, `dueIn`): see `finishItem`. */
export type AttentionDraft = Omit<AttentionItem, 'levelWord' | 'dueIn' | 'dueIsForecast' | 'alertKey'> &
  Partial<Pick<AttentionItem, 'dueIsForecast' | 'alertKey'>>;

/** The item as every surface shows it, with its level word and its due time in the model's day words. */
export function finishItem(draft: AttentionDraft, now: number): AttentionItem {
  const due = draft.dueAt === null ? null : Date.parse(draft.dueAt);
  return {
    ...draft,
    levelWord: ATTENTION_LEVEL_WORDS[draft.level],
    dueIsForecast: draft.dueIsForecast ?? false,
    dueIn: due === null || !Number.isFinite(due) ? null : daysFromNow(due - now),
    alertKey: draft.alertKey ?? null,
  };
}

export interface TrafficThreshold {
  /** Remaining traffic below this share of the total (0-100). */
  percent?: number | undefined;
  /** Remaining traffic below this many bytes (entered as decimal GB, stored as exact bytes). */
  bytes?: number | undefined;
}

/** The thresholds of Settings → Alerts that decide items. */
export interface AttentionPolicy {
  traffic: TrafficThreshold;
  /** Per subscription id: replaces `traffic` for that subscription. */
  trafficBySubscription?: Record<string, TrafficThreshold> | undefined;
  /** Expiries within this many days are listed. */
  expiryWarningDays: number;
}

/** A top-up still open (waiting for payment or confirming) whose purchase adds to a subscription. */
export interface PendingPurchase {
  topUpId: string;
  /** "5 GB" */
  what: string;
  status: 'awaiting_payment' | 'verifying';
}

export interface AttentionContext {
  profileId: string;
  now: number;
  policy: AttentionPolicy;
  /** Bytes a day at the recent pace, per subscription id, where known (the traffic forecast). */
  pace?: Readonly<Record<string, number>> | undefined;
  /** Open top-ups buying traffic, per subscription id. */
  purchases?: ReadonlyMap<string, PendingPurchase> | undefined;
}

/** An expiry further back than this is history, not something to act on now. */
const EXPIRED_SHOWN_DAYS = 14;

const quoted = (label: string, id: string) => `“${label || id}”`;

/** The alert condition an item is: `kind:profileId:subjectId` (the alert center's key). */
const alertKeyOf = (kind: string, profileId: string, subjectId: string) =>
  `${kind}:${profileId}:${subjectId}`;

function trafficLow(sub: Subscription, threshold: TrafficThreshold): boolean {
  const remaining = sub.trafficRemainingBytes;
  if (threshold.bytes !== undefined && remaining < threshold.bytes) return true;
  if (threshold.percent !== undefined && sub.trafficTotalBytes > 0) {
    return remaining * 100 < threshold.percent * sub.trafficTotalBytes;
  }
  return false;
}

/** What needs the user about one port: expired, or expiring within the window (renewing or not). */
export function portAttention(
  context: AttentionContext,
  port: Pick<MobilePort | MobilePortView, 'id' | 'label' | 'status' | 'expiresAt' | 'autoRenew'>,
): AttentionDraft[] {
  const name = quoted(port.label, port.id);
  const subject = { type: 'port' as const, id: port.id, label: port.label || port.id };
  const expiresAt = Date.parse(port.expiresAt);
  const left = expiresAt - context.now;
  const route = portRoute(port.id);
  const base = { subject, route, screen: 'ports' as const, dueAt: port.expiresAt };
  if (port.status === 'expired' || left <= 0) {
    if (!Number.isFinite(left) || -left > EXPIRED_SHOWN_DAYS * DAY_MS) return [];
    return [
      {
        ...base,
        id: `port_expired:${port.id}`,
        kind: 'port_expired',
        level: 'error',
        // The service may say "expired" before this computer's clock reaches `expiresAt`.
        title: left > 0 ? `Port ${name} has expired` : `Port ${name} expired ${daysFromNow(left)}`,
        detail: 'It no longer carries traffic. Buy it again with a top-up (its plan is offered there).',
        action: { kind: 'top_up', label: 'Top up…' },
      },
    ];
  }
  if (left > context.policy.expiryWarningDays * DAY_MS) return [];
  return [
    port.autoRenew
      ? {
          ...base,
          id: `port_expiring:${port.id}`,
          kind: 'port_expiring',
          level: 'info',
          title: `Port ${name} renews ${daysFromNow(left)}`,
          detail: 'Auto-renew is on: the service renews it if the account can pay for it.',
          action: { kind: 'open', label: 'Open port' },
        }
      : {
          ...base,
          id: `port_expiring:${port.id}`,
          kind: 'port_expiring',
          level: 'warning',
          title: `Port ${name} expires ${daysFromNow(left)}`,
          detail: 'Auto-renew is off: it stops working when it expires.',
          action: { kind: 'enable_auto_renew', label: 'Turn on auto-renew', target: 'port', id: port.id },
          alertKey: alertKeyOf('port_expiring', context.profileId, port.id),
        },
  ];
}

/** The sentence and the action when a top-up already buys traffic for this subscription. */
function purchaseNote(purchase: PendingPurchase) {
  const waiting = purchase.status === 'verifying' ? 'is confirming its payment' : 'is waiting for payment';
  return {
    sentence: `A top-up buying ${purchase.what} ${waiting}.`,
    action:
      purchase.status === 'verifying'
        ? { kind: 'continue_top_up' as const, label: 'Follow that payment', topUpId: purchase.topUpId }
        : { kind: 'continue_top_up' as const, label: 'Continue that payment', topUpId: purchase.topUpId },
  };
}

/**
 * What needs the user about one subscription: expired; out of traffic; low on traffic (with the
 * forecast as its deadline); expiring within the window. When an open top-up already buys traffic
 * for it, the item says so and offers that payment instead of a new top-up (never pay twice).
 */
export function subscriptionAttention(context: AttentionContext, sub: Subscription): AttentionDraft[] {
  const name = quoted(sub.label, sub.id);
  const subject = { type: 'subscription' as const, id: sub.id, label: sub.label || sub.id };
  const route = subscriptionRoute(sub.id);
  const base = { subject, route, screen: 'subscriptions' as const };
  const expiresAt = sub.expiresAt === null ? null : Date.parse(sub.expiresAt);
  const left = expiresAt === null ? null : expiresAt - context.now;
  const purchase = context.purchases?.get(sub.id);
  const note = purchase ? purchaseNote(purchase) : null;
  const topUp = note?.action ?? { kind: 'top_up' as const, label: 'Top up…' };
  const withNote = (detail: string) => (note ? `${detail} ${note.sentence}` : detail);
  if (sub.status === 'expired' || (left !== null && left <= 0)) {
    if (left !== null && -left > EXPIRED_SHOWN_DAYS * DAY_MS) return [];
    return [
      {
        ...base,
        id: `subscription_expired:${sub.id}`,
        kind: 'subscription_expired',
        level: 'error',
        title:
          left === null
            ? `Subscription ${name} has expired`
            : `Subscription ${name} expired ${daysFromNow(left)}`,
        detail: withNote(
          'Its proxies refuse traffic. Buy it again with a top-up (its plan is offered there).',
        ),
        dueAt: sub.expiresAt,
        action: topUp,
      },
    ];
  }
  const items: AttentionDraft[] = [];
  const threshold = context.policy.trafficBySubscription?.[sub.id] ?? context.policy.traffic;
  const lowKey = alertKeyOf('traffic_low', context.profileId, sub.id);
  if (sub.status === 'depleted' || sub.trafficRemainingBytes <= 0) {
    items.push({
      ...base,
      id: `subscription_depleted:${sub.id}`,
      kind: 'subscription_depleted',
      level: 'error',
      title: `Subscription ${name} has no traffic left`,
      detail: withNote(
        `All ${describeBytes(sub.trafficTotalBytes)} are used: its proxies refuse traffic until you add more.`,
      ),
      dueAt: null,
      action: topUp,
      alertKey: lowKey,
    });
  } else if (trafficLow(sub, threshold)) {
    const pace = context.pace?.[sub.id];
    const runsOutAt =
      pace !== undefined && pace > 0
        ? context.now + Math.round((sub.trafficRemainingBytes / pace) * DAY_MS)
        : null;
    const forecast =
      runsOutAt === null ? '' : ` At the recent pace it runs out ${daysFromNow(runsOutAt - context.now)}.`;
    items.push({
      ...base,
      id: `subscription_traffic_low:${sub.id}`,
      kind: 'subscription_traffic_low',
      level: 'warning',
      title: `Subscription ${name} is running out of traffic`,
      detail: withNote(
        `${describeBytes(sub.trafficRemainingBytes)} of ${describeBytes(sub.trafficTotalBytes)} left.${forecast}`,
      ),
      dueAt: runsOutAt === null ? null : new Date(runsOutAt).toISOString(),
      dueIsForecast: runsOutAt !== null,
      action: topUp,
      alertKey: lowKey,
    });
  }
  if (left !== null && left <= context.policy.expiryWarningDays * DAY_MS) {
    items.push(
      sub.autoRenew
        ? {
            ...base,
            id: `subscription_expiring:${sub.id}`,
            kind: 'subscription_expiring',
            level: 'info',
            title: `Subscription ${name} renews ${daysFromNow(left)}`,
            detail: 'Auto-renew is on: the service renews it if the account can pay for it.',
            dueAt: sub.expiresAt,
            action: { kind: 'open', label: 'Open subscription' },
          }
        : {
            ...base,
            id: `subscription_expiring:${sub.id}`,
            kind: 'subscription_expiring',
            level: 'warning',
            title: `Subscription ${name} expires ${daysFromNow(left)}`,
            detail: 'Auto-renew is off: its proxies stop working when it expires.',
            dueAt: sub.expiresAt,
            action: {
              kind: 'enable_auto_renew',
              label: 'Turn on auto-renew',
              target: 'subscription',
              id: sub.id,
            },
            alertKey: alertKeyOf('subscription_expiring', context.profileId, sub.id),
          },
    );
  }
  return items;
}
