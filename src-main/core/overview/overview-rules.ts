/**
 * The overview's rules: pure functions from what main holds (ports, subscriptions, watched top-ups,
 * schedules, the last proxy tests, open alerts) to the items that need the user, most urgent first.
 * No I/O here: `overview-service.ts` gathers the inputs, these decide.
 */
import type {
  AlertView,
  AttentionItem,
  AttentionLevel,
  LocalProxyView,
  MobilePortView,
  PortSchedule,
  ProxyTestResult,
} from '../../../src-shared/contract';
import type { Subscription, TopUp } from '../../../src-shared/api-types';
import { type AlertPolicy, ALERT_KINDS, describeBytes, evaluateAlerts } from '../alerts/alert-rules';
import { alertRoute, portRoute, subscriptionRoute, topUpRoute } from '../notifications/notice-routes';

const DAY_MS = 86_400_000;
/**
 * A local proxy's last upstream error is a record, not a state: one older than this has likely been
 * followed by requests that got through (a reset since picked up), so it no longer needs the user.
 */
const LOCAL_PROXY_ERROR_SHOWN_MS = 15 * 60_000;
/** An expiry further back than this is history, not something to act on now. */
const EXPIRED_SHOWN_DAYS = 14;

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
  policy: Pick<AlertPolicy, 'traffic' | 'trafficBySubscription' | 'expiryWarningDays'>;
  ports: readonly MobilePortView[] | null;
  subscriptions: readonly Subscription[] | null;
  topUps: readonly PendingTopUp[];
  schedules: readonly PortSchedule[];
  proxyTests: readonly ProxyTestResult[];
  /** Alerts not dismissed whose condition still holds, of this profile. */
  alerts: readonly AlertView[];
  /** This profile's local proxies, with their state and last upstream error. */
  localProxies: readonly LocalProxyView[];
}

const LEVEL_RANK: Record<AttentionLevel, number> = { error: 0, warning: 1, info: 2 };

const quoted = (label: string, id: string) => `“${label || id}”`;

/** "within a day", "in 2 days" (to the nearest day: 1.9 days is "in 2 days", as the date beside it shows). */
function inDays(ms: number): string {
  if (ms < DAY_MS) return 'within a day';
  const days = Math.round(ms / DAY_MS);
  return `in ${days} day${days === 1 ? '' : 's'}`;
}

function agoDays(ms: number): string {
  if (ms < DAY_MS) return 'less than a day ago';
  const days = Math.floor(ms / DAY_MS);
  return `${days} day${days === 1 ? '' : 's'} ago`;
}

function portItems(input: OverviewInput, port: MobilePortView): AttentionItem[] {
  const name = quoted(port.label, port.id);
  const subject = { type: 'port' as const, id: port.id, label: port.label || port.id };
  const expiresAt = Date.parse(port.expiresAt);
  const left = expiresAt - input.now;
  const route = portRoute(port.id);
  if (port.status === 'expired' || left <= 0) {
    if (!Number.isFinite(left) || -left > EXPIRED_SHOWN_DAYS * DAY_MS) return [];
    return [
      {
        id: `port_expired:${port.id}`,
        kind: 'port_expired',
        level: 'error',
        // The service may say "expired" before this computer's clock reaches `expiresAt`.
        title: left > 0 ? `Port ${name} has expired` : `Port ${name} expired ${agoDays(-left)}`,
        detail: 'It no longer carries traffic. Buy it again with a top-up (its plan is offered there).',
        subject,
        dueAt: port.expiresAt,
        action: { kind: 'top_up', label: 'Top up…' },
        route,
      },
    ];
  }
  if (left > input.policy.expiryWarningDays * DAY_MS) return [];
  return [
    port.autoRenew
      ? {
          id: `port_expiring:${port.id}`,
          kind: 'port_expiring',
          level: 'info',
          title: `Port ${name} renews ${inDays(left)}`,
          detail: 'Auto-renew is on: the service renews it if the account can pay for it.',
          subject,
          dueAt: port.expiresAt,
          action: { kind: 'open', label: 'Open port' },
          route,
        }
      : {
          id: `port_expiring:${port.id}`,
          kind: 'port_expiring',
          level: 'warning',
          title: `Port ${name} expires ${inDays(left)}`,
          detail: 'Auto-renew is off: it stops working when it expires.',
          subject,
          dueAt: port.expiresAt,
          action: { kind: 'enable_auto_renew', label: 'Turn on auto-renew', target: 'port', id: port.id },
          route,
        },
  ];
}

/** Which subscriptions are low on traffic, by the same thresholds (and code) as the alerts. */
function lowOnTraffic(input: OverviewInput): Set<string> {
  const enabled = Object.fromEntries(ALERT_KINDS.map((kind) => [kind, kind === 'traffic_low'])) as Record<
    (typeof ALERT_KINDS)[number],
    boolean
  >;
  const checks = evaluateAlerts(
    { profileId: input.profileId, now: new Date(input.now), subscriptions: input.subscriptions ?? [] },
    { ...input.policy, enabled, runsOutWithinDays: 0 },
  );
  return new Set(checks.filter((check) => check.holds).map((check) => check.subjectId));
}

function subscriptionItems(input: OverviewInput, sub: Subscription, low: Set<string>): AttentionItem[] {
  const name = quoted(sub.label, sub.id);
  const subject = { type: 'subscription' as const, id: sub.id, label: sub.label || sub.id };
  const route = subscriptionRoute(sub.id);
  const expiresAt = sub.expiresAt === null ? null : Date.parse(sub.expiresAt);
  const left = expiresAt === null ? null : expiresAt - input.now;
  if (sub.status === 'expired' || (left !== null && left <= 0)) {
    if (left !== null && -left > EXPIRED_SHOWN_DAYS * DAY_MS) return [];
    return [
      {
        id: `subscription_expired:${sub.id}`,
        kind: 'subscription_expired',
        level: 'error',
        title:
          left === null
            ? `Subscription ${name} has expired`
            : `Subscription ${name} expired ${agoDays(-left)}`,
        detail: 'Its proxies refuse traffic. Buy it again with a top-up (its plan is offered there).',
        subject,
        dueAt: sub.expiresAt,
        action: { kind: 'top_up', label: 'Top up…' },
        route,
      },
    ];
  }
  const items: AttentionItem[] = [];
  if (sub.status === 'depleted' || sub.trafficRemainingBytes <= 0) {
    items.push({
      id: `subscription_depleted:${sub.id}`,
      kind: 'subscription_depleted',
      level: 'error',
      title: `Subscription ${name} has no traffic left`,
      detail: `All ${describeBytes(sub.trafficTotalBytes)} are used: its proxies refuse traffic until you add more.`,
      subject,
      dueAt: null,
      action: { kind: 'top_up', label: 'Top up…' },
      route,
    });
  } else if (low.has(sub.id)) {
    items.push({
      id: `subscription_traffic_low:${sub.id}`,
      kind: 'subscription_traffic_low',
      level: 'warning',
      title: `Subscription ${name} is running out of traffic`,
      detail: `${describeBytes(sub.trafficRemainingBytes)} of ${describeBytes(sub.trafficTotalBytes)} left.`,
      subject,
      dueAt: null,
      action: { kind: 'top_up', label: 'Top up…' },
      route,
    });
  }
  if (left !== null && left <= input.policy.expiryWarningDays * DAY_MS) {
    items.push(
      sub.autoRenew
        ? {
            id: `subscription_expiring:${sub.id}`,
            kind: 'subscription_expiring',
            level: 'info',
            title: `Subscription ${name} renews ${inDays(left)}`,
            detail: 'Auto-renew is on: the service renews it if the account can pay for it.',
            subject,
            dueAt: sub.expiresAt,
            action: { kind: 'open', label: 'Open subscription' },
            route,
          }
        : {
            id: `subscription_expiring:${sub.id}`,
            kind: 'subscription_expiring',
            level: 'warning',
            title: `Subscription ${name} expires ${inDays(left)}`,
            detail: 'Auto-renew is off: its proxies stop working when it expires.',
            subject,
            dueAt: sub.expiresAt,
            action: {
              kind: 'enable_auto_renew',
              label: 'Turn on auto-renew',
              target: 'subscription',
              id: sub.id,
            },
            route,
          },
    );
  }
  return items;
}

function topUpItem(input: OverviewInput, pending: PendingTopUp): AttentionItem {
  const head = `Top-up of ${pending.amountUsd} USD`;
  const subject = { type: 'topup' as const, id: pending.topUpId, label: head };
  const route = topUpRoute(pending.topUpId);
  const action = { kind: 'continue_top_up' as const, label: 'Continue', topUpId: pending.topUpId };
  const base = { subject, route, action };
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

function scheduleItem(schedule: PortSchedule, label: string): AttentionItem | null {
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
  };
}

function proxyTestItem(result: ProxyTestResult, label: string): AttentionItem | null {
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
  };
}

/** A local proxy that cannot listen (error), or whose upstream refused a tool recently (warning). */
function localProxyItem(input: OverviewInput, proxy: LocalProxyView): AttentionItem | null {
  const name = quoted(proxy.label, proxy.url);
  const base = {
    id: `local_proxy_failing:${proxy.id}`,
    kind: 'local_proxy_failing' as const,
    subject: { type: 'local_proxy' as const, id: proxy.id, label: proxy.label || proxy.url },
    dueAt: null,
    action: { kind: 'open' as const, label: 'Open local proxies' },
    route: '/local-proxies' as const,
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
 * Alert kinds the overview judges itself from the same list and thresholds: with that list at hand
 * its own item says it (or, when the condition has passed since the alert, rightly says nothing).
 * Without the list (it could not be read) the alert stands in for it.
 */
const JUDGED_FROM: Partial<Record<AlertView['kind'], 'ports' | 'subscriptions'>> = {
  port_expiring: 'ports',
  subscription_expiring: 'subscriptions',
  traffic_low: 'subscriptions',
};

function alertItem(alert: AlertView): AttentionItem {
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

/** Every item that needs the user, most urgent first. */
export function attentionItems(input: OverviewInput): AttentionItem[] {
  const labels = new Map((input.ports ?? []).map((port) => [port.id, port.label]));
  const items: AttentionItem[] = [];
  for (const port of input.ports ?? []) items.push(...portItems(input, port));
  const low = lowOnTraffic(input);
  for (const sub of input.subscriptions ?? []) items.push(...subscriptionItems(input, sub, low));
  for (const pending of input.topUps) items.push(topUpItem(input, pending));
  for (const schedule of input.schedules) {
    const item = scheduleItem(schedule, labels.get(schedule.portId) ?? '');
    if (item) items.push(item);
  }
  for (const result of input.proxyTests) {
    const portId = result.target.kind === 'port' ? result.target.portId : '';
    const item = proxyTestItem(result, labels.get(portId) ?? '');
    if (item) items.push(item);
  }
  for (const proxy of input.localProxies) {
    const item = localProxyItem(input, proxy);
    if (item) items.push(item);
  }
  for (const alert of input.alerts) {
    const judgedFrom = JUDGED_FROM[alert.kind];
    if (judgedFrom && input[judgedFrom] !== null) continue;
    items.push(alertItem(alert));
  }
  return items.sort(byUrgency);
}

// ---- Port health (health checks and rotation verdicts): a separate input, merged after the rules above.

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
export function portHealthItems(entries: readonly PortHealthAttention[]): AttentionItem[] {
  const items: AttentionItem[] = [];
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
      });
    }
  }
  return items;
}

/** The rules' items with more (the port-health items), most urgent first again. */
export function withMoreItems(
  items: readonly AttentionItem[],
  more: readonly AttentionItem[],
): AttentionItem[] {
  return [...items, ...more].sort(byUrgency);
}
