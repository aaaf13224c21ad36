import type { AlertKindName } from './alerts';
import type { AppRoute } from './app';
import { z } from 'zod';
import { call, type DomainCalls } from './define';
import type { ProxyProtocol } from './proxy';

/**
 * The overview: one answer to "is anything about to break?" for the active profile, built by one
 * function in main (`core/overview/overview-service.ts`) from what main already holds. The screen,
 * the command line (`proxy-manager health`) and an MCP tool read the same snapshot.
 */

/** What an item is about. */
type AttentionKind =
  | 'port_expired'
  | 'port_expiring'
  | 'subscription_expired'
  | 'subscription_depleted'
  | 'subscription_expiring'
  | 'subscription_traffic_low'
  | 'topup_awaiting_payment'
  | 'topup_verifying'
  | 'topup_declarable'
  | 'schedule_failing'
  | 'proxy_test_failed'
  | 'local_proxy_failing'
  | 'port_down'
  | 'port_rotation_unchanged'
  | 'alert';

/**
 * The one-click action of an item. `enable_auto_renew` turns auto-renew on (`ports:update` or
 * `subscriptions:update`); `open` shows `route`; `continue_top_up` opens the top-up in the wizard;
 * `test_again` runs the port's proxy test again; `top_up` starts a new top-up; `dismiss_alert`
 * hides the alert (`alerts:dismiss`).
 */
export type AttentionAction =
  | { kind: 'enable_auto_renew'; label: string; target: 'port' | 'subscription'; id: string }
  | { kind: 'open'; label: string }
  | { kind: 'continue_top_up'; label: string; topUpId: string }
  | { kind: 'test_again'; label: string; portId: string; protocol: ProxyProtocol }
  | { kind: 'top_up'; label: string }
  | { kind: 'dismiss_alert'; label: string; alertId: string };

/** `error`: broken or about to break now; `warning`: needs the user soon; `info`: worth knowing. */
export type AttentionLevel = 'error' | 'warning' | 'info';

export interface AttentionItem {
  /** Stable across snapshots: `kind:subjectId`. */
  id: string;
  kind: AttentionKind;
  level: AttentionLevel;
  /** One line: what is wrong and with what ("Port “Social QA” expires in 2 days"). */
  title: string;
  /** What happens next or what to do. */
  detail: string;
  subject: { type: 'port' | 'subscription' | 'topup' | 'alert' | 'local_proxy'; id: string; label: string };
  /** ISO 8601: the moment that matters (an expiry, a payment deadline), for a countdown; null if none. */
  dueAt: string | null;
  /** The alert kind, for `alert` items. */
  alertKind?: AlertKindName;
  action: AttentionAction;
  /** Where "Open" goes: the port, subscription or top-up; null when there is nothing to open. */
  route: AppRoute | null;
}

/** Where one kind of data came from for this snapshot. */
export type HealthSourceState =
  /** Main already held it (a recent read, kept up to date by events). */
  | { state: 'held'; readAt: string }
  /** Read once for this snapshot (one list call). */
  | { state: 'read'; readAt: string }
  /** Could not be read: items about it may be missing. */
  | { state: 'failed'; message: string };

export interface HealthSnapshot {
  profileId: string;
  /** ISO 8601. */
  generatedAt: string;
  /** The alert window (Settings → Alerts): expiries within this many days are listed. */
  expiryWarningDays: number;
  /** Most urgent first: errors, then warnings, then the rest; within a level, the soonest first. */
  items: AttentionItem[];
  counts: Record<AttentionLevel, number>;
  /** What the account holds, for the "all good" line. */
  totals: { ports: number; subscriptions: number; pendingTopUps: number; schedules: number };
  sources: { ports: HealthSourceState; subscriptions: HealthSourceState; topups: HealthSourceState };
  /**
   * True when no item is an error or a warning (`info` items, such as a port that renews itself, are
   * only worth knowing) and every source was read: a source that failed never reads as "all good".
   */
  allGood: boolean;
}

export const overviewCalls = {
  /**
   * The active profile's health snapshot, from what main holds. `refresh`: read the ports,
   * subscriptions and open top-ups again first (one request each), as the screen's Refresh does.
   */
  'overview:get': call<HealthSnapshot>('read')(
    z.strictObject({ refresh: z.boolean().optional() }).optional(),
  ),
} as const satisfies DomainCalls<'overview'>;
