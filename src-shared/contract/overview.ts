import { ATTENTION_LEVEL_WORDS, type AttentionLevel } from '../attention-levels';
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
  | 'alert_channel_failing'
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

export { ATTENTION_LEVEL_WORDS, type AttentionLevel };
type AttentionLevelWord = (typeof ATTENTION_LEVEL_WORDS)[AttentionLevel];

/**
 * The screen an item belongs to, for the navigation's badges: a badge counts the items (errors and
 * warnings) of its own screen only, so a port's item is never counted on Subscriptions.
 */
export type AttentionScreen = 'ports' | 'subscriptions' | 'topups' | 'local-proxies' | 'settings';
export const ATTENTION_SCREENS: readonly AttentionScreen[] = [
  'ports',
  'subscriptions',
  'topups',
  'local-proxies',
  'settings',
];

export interface AttentionItem {
  /** Stable across snapshots: `kind:subjectId`. */
  id: string;
  kind: AttentionKind;
  level: AttentionLevel;
  /** `Now`, `Soon` or `FYI`: the level in the words every surface uses. */
  levelWord: AttentionLevelWord;
  /** One line: what is wrong and with what ("Port “Social QA” expires in 2 days"). */
  title: string;
  /** What happens next or what to do. */
  detail: string;
  subject: {
    type: 'port' | 'subscription' | 'topup' | 'alert' | 'local_proxy' | 'alert_channel';
    id: string;
    label: string;
  };
  /**
   * ISO 8601: the moment that matters (an expiry, a payment deadline, or where there is no date the
   * forecast: when the traffic runs out at the recent pace), for ordering and a countdown; null if none.
   */
  dueAt: string | null;
  /** Whether `dueAt` is a forecast (traffic at the recent pace) rather than a date the service set. */
  dueIsForecast: boolean;
  /**
   * `dueAt` relative to `generatedAt`, in the day words of the titles ("within a day", "in 2 days",
   * "3 days ago"): one function words every day count, so 47.99 hours read the same everywhere.
   */
  dueIn: string | null;
  /** The screen it belongs to (its badge). */
  screen: AttentionScreen;
  /**
   * The alert condition this item is (`kind:profileId:subjectId`), when there is one: the alerts list
   * shows such an alert only while the item stands, in the item's words.
   */
  alertKey: string | null;
  /** The alert kind, for `alert` items. */
  alertKind?: AlertKindName;
  action: AttentionAction;
  /** Where "Open" goes: the port, subscription or top-up; null when there is nothing to open. */
  route: AppRoute | null;
}

/** The one-click action of a group: the same change for every member. */
type AttentionGroupAction = {
  kind: 'enable_auto_renew_all';
  label: string;
  target: 'port' | 'subscription';
  ids: string[];
};

/**
 * Items of one kind and level, said once ("14 ports expire within 2 days with auto-renew off"): what
 * a large account shows on the Overview instead of one card per item.
 */
export interface AttentionGroup {
  /** `group:kind:level` */
  id: string;
  kind: AttentionKind;
  level: AttentionLevel;
  levelWord: AttentionLevelWord;
  title: string;
  detail: string;
  /** The members' item ids, most urgent first. */
  itemIds: string[];
  /** The members' subjects (port, subscription, top-up or local proxy ids), most urgent first. */
  subjectIds: string[];
  screen: AttentionScreen;
  /** The soonest member's. */
  dueAt: string | null;
  dueIn: string | null;
  /** Null when each member needs its own decision ("Show them" opens them). */
  action: AttentionGroupAction | null;
  /**
   * "Show them": the list screen filtered to the members, `/ports?ids=a,b,c` (ids URL-encoded, comma
   * separated; the list screens read it with `idsFromHash` in the renderer's `shared/routes.ts`).
   */
  listRoute: string;
}

/** One card of the Overview, most urgent first: an item on its own, or a group of items. */
export type AttentionCard = { type: 'item'; itemId: string } | { type: 'group'; group: AttentionGroup };

/** Where one kind of data came from for this snapshot. */
export type HealthSourceState =
  /** Main already held it (a recent read, kept up to date by events). */
  | { state: 'held'; readAt: string }
  /** Read once for this snapshot (one list call). */
  | { state: 'read'; readAt: string }
  /**
   * Could not be read: items about it may be missing. `lastReadAt`: when it was last read (the items
   * shown come from then), or null when it never was in this process.
   */
  | { state: 'failed'; message: string; lastReadAt: string | null };

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
  /** Errors and warnings per screen: the navigation's badges. */
  badges: Record<AttentionScreen, number>;
  /**
   * The Overview's cards, most urgent first: four or more items of one kind and level become one
   * group; every item is in exactly one card. The screen shows the first 12.
   */
  cards: AttentionCard[];
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
