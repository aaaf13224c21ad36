/**
 * The overview's rules: pure functions from what main holds (ports, subscriptions, watched top-ups,
 * schedules, the last proxy tests, open alerts) to the items that need the user, most urgent first.
 * No I/O here: `overview-service.ts` gathers the inputs, these decide.
 */
import type {
  AlertChannelView,
  AlertView,
  AttentionItem,
  AttentionLevel,
  AttentionScreen,
  LocalProxyView,
  MobilePortView,
  PortSchedule,
  ProxyTestResult,
} from '../../../src-shared/contract';
import type { Subscription, TopUp } from '../../../src-shared/api-types';
import {
  type AttentionContext,
  type AttentionDraft,
  type AttentionPolicy,
  finishItem,
  type PendingPurchase,
  portAttention,
  subscriptionAttention,
} from '../alerts/attention-rules';
import { describePurchase, portRoute, topUpRoute } from '../alerts/attention-words';
import { alertRoute } from '../notifications/notice-routes';

/**
 * A local proxy's last upstream error is a record, not a state: one older than this has likely been
 * followed by requests that got through (a reset since picked up), so it no longer needs the user.
 */
const LOCAL_PROXY_ERROR_SHOWN_MS = 15 * 60_000;

/** A watched top-up as the watcher keeps it, with the full top-up when main has seen one. */
export interface PendingTopUp {
  topUpId: string;
  status: string;
  amountUsd: string;
  coin: string;
  network: string;
  confirmations: number;
  confirmationsRequired: number;
  txidDeadline: string;
  /** The top-up as last read, for `expiresAt` and the exact amount; absent when not seen. */
  topUp?: TopUp;
}

export interface OverviewInput {
  profileId: string;
  now: number;
  /** Thresholds as the alerts use them (Settings → Alerts). */
  policy: AttentionPolicy;
  /** Bytes a day at the recent pace, per subscription id, where known (the traffic forecast). */
  pace?: Readonly<Record<string, number>>;
  ports: readonly MobilePortView[] | null;
  subscriptions: readonly Subscription[] | null;
  topUps: readonly PendingTopUp[];
  schedules: readonly PortSchedule[];
  proxyTests: readonly ProxyTestResult[];
  /** Alerts not dismissed whose condition still holds, of this profile. */
  alerts: readonly Omit<AlertView, 'screen'>[];
  /** This profile's local proxies, with their state and last upstream error. */
  localProxies: readonly LocalProxyView[];
  /**
   * Alert channels (Settings → Alert channels) that keep failing: they serve every profile, so each
   * profile's overview shows them. Absent: none.
   */
  failingAlertChannels?: readonly AlertChannelView[];
  /** The health checks' and rotation verdicts' view of the profile's ports; absent: none. */
  portHealth?: readonly PortHealthAttention[];
}

const LEVEL_RANK: Record<AttentionLevel, number> = { error: 0, warning: 1, info: 2 };

const quoted = (label: string, id: string) => `“${label || id}”`;

/** The open top-ups buying traffic, per subscription id: the subscription's item offers that payment. */
function pendingPurchases(topUps: readonly PendingTopUp[]): Map<string, PendingPurchase> {
  const found = new Map<string, PendingPurchase>();
  for (const pending of topUps) {
    const purchase = pending.topUp?.purchase;
    const subscriptionId = purchase?.options.subscriptionId;
    if (!purchase || purchase.status !== 'pending' || typeof subscriptionId !== 'string') continue;
    if (pending.status !== 'awaiting_payment' && pending.status !== 'verifying') continue;
    // One is enough to say "do not pay twice"; the one waiting for payment is the one to continue.
    if (found.get(subscriptionId)?.status === 'awaiting_payment') continue;
    found.set(subscriptionId, {
      topUpId: pending.topUpId,
      what: describePurchase(purchase),
      status: pending.status,
    });
  }
  return found;
}

/** "Top-up of 30.00 USD buying 5 GB for “Social accounts”" (what it buys, when it carries a purchase). */
function topUpHead(pending: PendingTopUp, subscriptions: readonly Subscription[]): string {
  const head = `Top-up of ${pending.amountUsd} USD`;
  const purchase = pending.topUp?.purchase;
  if (!purchase) return head;
  const subscriptionId = purchase.options.subscriptionId;
  const sub =
    typeof subscriptionId === 'string'
      ? subscriptions.find((candidate) => candidate.id === subscriptionId)
      : null;
  const target = typeof subscriptionId === 'string' ? ` for ${quoted(sub?.label ?? '', subscriptionId)}` : '';
  return `${head} buying ${describePurchase(purchase)}${target}`;
}

function topUpItem(input: OverviewInput, pending: PendingTopUp): AttentionDraft {
  const head = topUpHead(pending, input.subscriptions ?? []);
  const subject = { type: 'topup' as const, id: pending.topUpId, label: head };
  const route = topUpRoute(pending.topUpId);
  const action = { kind: 'continue_top_up' as const, label: 'Continue', topUpId: pending.topUpId };
  const base = { subject, route, action, screen: 'topups' as const };
  switch (pending.status) {
    case 'awaiting_payment': {
      const expiresAt = pending.topUp?.expiresAt ?? null;
      const amount = pending.topUp ? `${pending.topUp.amountCrypto} ${pending.coin}` : `the exact amount`;
      return {
        ...base,
        id: `topup_awaiting_payment:${pending.topUpId}`,
        kind: 'topup_awaiting_payment',
        level: 'warning',
        title: `${head} is waiting for your payment`,
        detail: `Send ${amount} so that it arrives before the rate lock ends.`,
        dueAt: expiresAt,
      };
    }
    case 'verifying':
      return {
        ...base,
        id: `topup_verifying:${pending.topUpId}`,
        kind: 'topup_verifying',
        level: 'info',
        title: `${head}: ${pending.confirmations} of ${pending.confirmationsRequired} confirmations`,
        detail: 'Nothing to do: it is credited once the payment has enough confirmations.',
        dueAt: null,
      };
    default: {
      const open = Date.parse(pending.txidDeadline) > input.now;
      const what = pending.status === 'rejected' ? 'was rejected' : 'expired';
      return {
        ...base,
        id: `topup_declarable:${pending.topUpId}`,
        kind: 'topup_declarable',
        level: 'warning',
        title: `${head} ${what}`,
        detail: open
          ? 'If you have sent the payment, declare its transaction before the deadline: a payment that arrives late is still matched until then.'
          : 'The deadline to declare a payment has passed.',
        dueAt: pending.txidDeadline,
        action: { ...action, label: 'Declare the payment' },
      };
    }
  }
}

function scheduleItem(schedule: PortSchedule, label: string): AttentionDraft | null {
  const last = schedule.lastRuns[0];
  if (!last || last.result !== 'failed') return null;
  const name = quoted(label, schedule.portId);
  const times = schedule.consecutiveFailures;
  return {
    id: `schedule_failing:${schedule.portId}`,
    kind: 'schedule_failing',
    level: times >= 3 ? 'error' : 'warning',
    title:
      times > 1
        ? `The last ${times} scheduled rotations of ${name} failed`
        : `The last scheduled rotation of ${name} failed`,
    detail: last.error ?? 'The rotation did not finish.',
    subject: { type: 'port', id: schedule.portId, label: label || schedule.portId },
    dueAt: null,
    action: { kind: 'open', label: 'Open port' },
    route: portRoute(schedule.portId),
    screen: 'ports',
  };
}

function proxyTestItem(result: ProxyTestResult, label: string): AttentionDraft | null {
  if (result.ok || result.target.kind !== 'port') return null;
  const portId = result.target.portId;
  return {
    id: `proxy_test_failed:${portId}`,
    kind: 'proxy_test_failed',
    level: 'error',
    title: `The last proxy test of ${quoted(label, portId)} failed`,
    detail: result.failure?.message ?? 'The request through the proxy did not come back.',
    subject: { type: 'port', id: portId, label: label || portId },
    dueAt: null,
    action: { kind: 'test_again', label: 'Test again', portId, protocol: result.target.protocol },
    route: portRoute(portId),
    screen: 'ports',
  };
}

/** A local proxy that cannot listen (error), or whose upstream refused a tool recently (warning). */
function localProxyItem(input: OverviewInput, proxy: LocalProxyView): AttentionDraft | null {
  const name = quoted(proxy.label, proxy.url);
  const base = {
    id: `local_proxy_failing:${proxy.id}`,
    kind: 'local_proxy_failing' as const,
    subject: { type: 'local_proxy' as const, id: proxy.id, label: proxy.label || proxy.url },
    dueAt: null,
    action: { kind: 'open' as const, label: 'Open local proxies' },
    route: '/local-proxies' as const,
    screen: 'local-proxies' as const,
  };
  if (proxy.state === 'failed') {
    return {
      ...base,
      level: 'error',
      title: `Local proxy ${name} is not listening`,
      detail: proxy.listenError ?? 'It could not listen on its address.',
    };
  }
  const error = proxy.lastError;
  if (proxy.state !== 'running' || !error || input.now - Date.parse(error.at) > LOCAL_PROXY_ERROR_SHOWN_MS)
    return null;
  return {
    ...base,
    level: 'warning',
    title: `Local proxy ${name} could not reach its upstream`,
    detail: error.message,
  };
}

/**
 * An alert channel that keeps failing: alerts meant to reach the user away from this desktop do not.
 * Dead letters are alerts already given up on (Now); retries still under way may yet go through (Soon).
 */
function alertChannelItem(channel: AlertChannelView): AttentionDraft {
  const { health } = channel;
  const lost = health.deadLetters;
  const waiting = health.pending;
  const counts = [
    lost > 0 ? `${lost} alert${lost === 1 ? ' was' : 's were'} given up on` : null,
    waiting > 0 ? `${waiting} ${waiting === 1 ? 'is' : 'are'} waiting to be retried` : null,
  ].filter((part): part is string => part !== null);
  const reason = health.lastError ? `Last error: ${health.lastError}` : 'Its last attempts failed.';
  return {
    id: `alert_channel_failing:${channel.id}`,
    kind: 'alert_channel_failing',
    level: lost > 0 ? 'error' : 'warning',
    title: `Alert channel ${quoted(channel.name, channel.id)} keeps failing`,
    detail: counts.length > 0 ? `${reason} ${counts.join('; ')}.` : reason,
    subject: { type: 'alert_channel', id: channel.id, label: channel.name || channel.id },
    dueAt: null,
    action: { kind: 'open', label: 'Open alert channels' },
    route: '/settings/alert-channels',
    screen: 'settings',
  };
}

/**
 * Alert kinds the model judges itself from the same list and thresholds: with that list at hand its
 * own item says it (or, when the condition has passed since the alert, rightly says nothing).
 * Without the list (it could not be read) the alert stands in for it.
 */
const JUDGED_FROM: Partial<Record<AlertView['kind'], 'ports' | 'subscriptions'>> = {
  port_expiring: 'ports',
  subscription_expiring: 'subscriptions',
  traffic_low: 'subscriptions',
};

/** The screen of what an alert is about: a port's on Ports, every other one on Subscriptions. */
export const alertScreen = (alert: Pick<AlertView, 'kind'>): AttentionScreen =>
  alert.kind === 'port_expiring' ? 'ports' : 'subscriptions';

function alertItem(alert: Omit<AlertView, 'screen'>): AttentionDraft {
  return {
    id: `alert:${alert.key}`,
    kind: 'alert',
    level: alert.level,
    title: alert.title,
    detail: alert.message,
    subject: { type: 'alert', id: alert.id, label: alert.title },
    dueAt: null,
    alertKind: alert.kind,
    action: { kind: 'dismiss_alert', label: 'Dismiss', alertId: alert.id },
    route: alertRoute(alert),
    screen: alertScreen(alert),
    alertKey: alert.key,
  };
}

function byUrgency(a: AttentionItem, b: AttentionItem): number {
  const level = LEVEL_RANK[a.level] - LEVEL_RANK[b.level];
  if (level !== 0) return level;
  const dueA = a.dueAt === null ? Number.POSITIVE_INFINITY : Date.parse(a.dueAt);
  const dueB = b.dueAt === null ? Number.POSITIVE_INFINITY : Date.parse(b.dueAt);
  if (dueA !== dueB) return dueA < dueB ? -1 : 1;
  return a.title.localeCompare(b.title, 'en', { numeric: true });
}

/** Every item that needs the user, most urgent first: the one model every surface reads. */
export function attentionItems(input: OverviewInput): AttentionItem[] {
  const labels = new Map((input.ports ?? []).map((port) => [port.id, port.label]));
  const context: AttentionContext = {
    profileId: input.profileId,
    now: input.now,
    policy: input.policy,
    pace: input.pace,
    purchases: pendingPurchases(input.topUps),
  };
  const drafts: AttentionDraft[] = [];
  for (const port of input.ports ?? []) drafts.push(...portAttention(context, port));
  for (const sub of input.subscriptions ?? []) drafts.push(...subscriptionAttention(context, sub));
  for (const pending of input.topUps) drafts.push(topUpItem(input, pending));
  for (const schedule of input.schedules) {
    const item = scheduleItem(schedule, labels.get(schedule.portId) ?? '');
    if (item) drafts.push(item);
  }
  for (const result of input.proxyTests) {
    const portId = result.target.kind === 'port' ? result.target.portId : '';
    const item = proxyTestItem(result, labels.get(portId) ?? '');
    if (item) drafts.push(item);
  }
  for (const proxy of input.localProxies) {
    const item = localProxyItem(input, proxy);
    if (item) drafts.push(item);
  }
  for (const channel of input.failingAlertChannels ?? []) {
    if (channel.health.failing) drafts.push(alertChannelItem(channel));
  }
  drafts.push(...portHealthItems(input.portHealth ?? []));
  // A forecast already on the subscription's own item says what a "runs out soon" alert would.
  const forecastOn = new Set(
    drafts.filter((draft) => draft.dueIsForecast === true).map((draft) => draft.subject.id),
  );
  for (const alert of input.alerts) {
    const judgedFrom = JUDGED_FROM[alert.kind];
    if (judgedFrom && input[judgedFrom] !== null) continue;
    if (alert.kind === 'traffic_runs_out' && forecastOn.has(alert.subjectId)) continue;
    drafts.push(alertItem(alert));
  }
  return drafts.map((draft) => finishItem(draft, input.now)).sort(byUrgency);
}

/** What the overview needs of a port's health (`ports:health`'s scores). */
export interface PortHealthAttention {
  portId: string;
  label: string;
  status: 'up' | 'down' | 'unknown';
  statusSince: string | null;
  failuresInARow: number;
  /** The last failed check's words (the gateway's), when the last check failed. */
  lastError: string | null;
  lastVerdict: 'clean' | 'unchanged' | 'repeat' | 'drift' | 'unknown' | null;
  unchanged30d: number;
}

/**
 * A port the health checks found down is *Now* (error); a port whose last rotation kept its IP is
 * *Soon* (warning): rotating again, or "Rotate until new", is the fix.
 */
function portHealthItems(entries: readonly PortHealthAttention[]): AttentionDraft[] {
  const items: AttentionDraft[] = [];
  for (const entry of entries) {
    const subject = { type: 'port' as const, id: entry.portId, label: entry.label || entry.portId };
    const name = quoted(entry.label, entry.portId);
    if (entry.status === 'down') {
      items.push({
        id: `port_down:${entry.portId}`,
        kind: 'port_down',
        level: 'error',
        title: `Port ${name} is down: ${entry.failuresInARow} health checks in a row failed`,
        detail: entry.lastError ?? 'The requests through the port did not come back.',
        subject,
        dueAt: null,
        action: { kind: 'open', label: 'Open port' },
        route: portRoute(entry.portId),
        screen: 'ports',
      });
    }
    if (entry.lastVerdict === 'unchanged') {
      items.push({
        id: `port_rotation_unchanged:${entry.portId}`,
        kind: 'port_rotation_unchanged',
        level: 'warning',
        title: `The last rotation of ${name} did not change its IP`,
        detail: `${entry.unchanged30d} rotation(s) in 30 days kept the IP. Rotate again, or use “Rotate until new”.`,
        subject,
        dueAt: null,
        action: { kind: 'open', label: 'Open port' },
        route: portRoute(entry.portId),
        screen: 'ports',
      });
    }
  }
  return items;
}
