import { z } from 'zod';
import {
  ACCELERATOR_MAX,
  ACCELERATOR_PATTERN,
  ALERT_LIMITS,
  ALERT_SUBSCRIPTIONS_MAX,
  GB_PATTERN,
  HEALTH_CHECK_LIMITS,
  POLLING_LIMITS,
  SUBSCRIPTION_ID_MAX,
} from '../limits';
import { ALERT_KIND_NAMES, type AlertKindName } from './alerts';
import { call, type DomainCalls, type DomainEvents, event } from './define';
import { noInput, resourceId } from './shared-inputs';

export interface DesktopPreferences {
  /** Closing the window keeps the app running in the tray (background jobs go on). */
  closeToTray: boolean;
  startAtLogin: boolean;
  /** Start in the tray without showing the window. */
  startMinimized: boolean;
}

/** OS notifications the user can turn off, by kind. */
interface NotificationPreferences {
  'rotation-new-ip': boolean;
  'rotation-same-ip': boolean;
  'rotation-failed': boolean;
  'relocation-done': boolean;
  /** A port went down or came back up (its health checks). */
  'port-health': boolean;
}

/** The optional global shortcut: rotates the first pinned port. */
export interface ShortcutPreferences {
  enabled: boolean;
  /** An Electron accelerator, e.g. `CommandOrControl+Alt+R`. */
  accelerator: string;
}

/** A remaining-traffic threshold: either part alone, or both (whichever is crossed first warns). */
export interface TrafficThresholdView {
  /** Remaining traffic below this share of the total. */
  percent?: number;
  /** Remaining traffic below this many GB: a decimal string (1 GB = 10^9 bytes, as billed). */
  gb?: string;
}

interface PollingView {
  /** The usage poller's pace in the tray (no window showing), in minutes. */
  usageMinutes: number;
  /** The usage poller's pace while a window is showing (web mode: always), in minutes. */
  usageVisibleMinutes: number;
  topUpVerifyingSeconds: number;
  topUpAwaitingPaymentSeconds: number;
}

interface AlertSettingsView {
  /** Default low-traffic threshold as a share of the total; 0 turns the percent part off. */
  trafficRemainingPercent: number;
  /** Default low-traffic threshold in GB (decimal string); null: off. */
  trafficRemainingGb: string | null;
  /** Per subscription id: replaces the default threshold for that subscription. */
  trafficBySubscription: Record<string, TrafficThresholdView>;
  /** Warn when the last 7 days' pace runs the traffic out within this many days. */
  runsOutWithinDays: number;
  /** Warn this many days before a subscription or port expires without auto-renew. */
  expiryWarningDays: number;
  /** Alert kinds turned off; every other kind is on. */
  disabledKinds: AlertKindName[];
  /** Subscriptions whose sub-users are read each poll for the 80% and 100% cap alerts. */
  subUserAlertSubscriptions: string[];
}

/** Table rows: `comfortable` (two lines where a cell has detail) or `compact` (one line, many more rows). */
const DENSITY_CHOICES = ['comfortable', 'compact'] as const;
export type Density = (typeof DENSITY_CHOICES)[number];

export interface SettingsView {
  theme: 'system' | 'light' | 'dark';
  density: Density;
  polling: PollingView;
  alerts: AlertSettingsView;
  desktop: DesktopPreferences;
  notifications: NotificationPreferences;
  shortcut: ShortcutPreferences;
  /** `ipEchoUrl`: asked through a proxy by "Test this proxy" to learn its exit IP (real accounts). */
  proxyTest: { ipEchoUrl: string };
  healthChecks: HealthCheckSettingsView;
}

/** Health checks through the ports and the rotation verdicts' windows. */
interface HealthCheckSettingsView {
  /** Seconds between two checks of a port; 0: off. */
  portsEverySeconds: number;
  /** The same for each subscription's main user (off by default). */
  subscriptionsEverySeconds: number;
  /** The same for each running local proxy, through its listening address. */
  localProxiesEverySeconds: number;
  downAfter: number;
  upAfter: number;
  /** The check target for real accounts (an IP echo); null: the proxy test's IP echo URL. */
  checkUrl: string | null;
  repeatWindowHours: number;
  repeatWindowRotations: number;
  /** Rotate once after this many failed checks in a row; 0: off. */
  selfHealAfter: number;
}

const bounded = (limits: { min: number; max: number }, unit: string) =>
  z
    .int('Enter a whole number')
    .min(limits.min, `At least ${limits.min}${unit}`)
    .max(limits.max, `At most ${limits.max}${unit}`)
    .optional();

// GB never travels as a float: 0.1 + 0.2 GB must be exactly the bytes the user typed.
const gb = z
  .string('Enter GB as a decimal number, e.g. 1.5')
  .regex(GB_PATTERN, 'Enter GB as a decimal number, e.g. 1.5 (at most 9 decimals)');
const percent = z
  .int('Enter a whole number')
  .min(ALERT_LIMITS.trafficRemainingPercent.min, 'At least 0%')
  .max(ALERT_LIMITS.trafficRemainingPercent.max, 'At most 100%');
const subscriptionId = resourceId('Choose a subscription', SUBSCRIPTION_ID_MAX);

const LOOPBACK_HOSTS = new Set(['localhost', '[::1]']);
/** Plain http would let anyone on the path forge the exit IP; only this computer is exempt. */
function isLoopbackHost(hostname: string): boolean {
  return LOOPBACK_HOSTS.has(hostname) || /^127(?:\.\d{1,3}){3}$/.test(hostname);
}
const ipEchoUrl = z
  .url({ protocol: /^https?$/, error: 'An https:// URL' })
  .max(2048, 'At most 2048 characters')
  .refine(
    (url) => {
      // Not a URL at all is the check above's to say; one message per field.
      if (!URL.canParse(url)) return true;
      const parsed = new URL(url);
      return parsed.protocol === 'https:' || isLoopbackHost(parsed.hostname);
    },
    { error: 'Use https:// (http:// only for this computer: localhost or 127.0.0.1)' },
  );

/** Seconds between two health checks of a target: 0 (off), or 30 s to a day. */
const checkInterval = z
  .int('Enter a whole number')
  .min(0, 'At least 0 (off)')
  .max(HEALTH_CHECK_LIMITS.everySeconds.max, `At most ${HEALTH_CHECK_LIMITS.everySeconds.max} seconds`)
  .refine((value) => value === 0 || value >= HEALTH_CHECK_LIMITS.everySeconds.min, {
    error: `At least ${HEALTH_CHECK_LIMITS.everySeconds.min} seconds (or 0 to turn checks off)`,
  })
  .optional();

/** A list's saved view (search, filters, sort, hidden columns), kept in settings per list. */
export interface SavedTableView {
  name: string;
  search: string;
  /** Filter id -> the values kept. */
  filters: Record<string, string[]>;
  sort: { column: string; direction: 'ascending' | 'descending' } | null;
  /** Columns hidden from the table. */
  hidden: string[];
}

/** The lists that keep saved views (one per table of the window). */
const TABLE_LIST_IDS = [
  'ports',
  'subscriptions',
  'sub-users',
  'topups',
  'local-proxies',
  'receipts',
  'audit',
] as const;
export const TABLE_VIEWS_MAX = 20;

const tableId = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[\w:.-]+$/, 'Letters, digits, - _ : . only');
const savedTableView = z.strictObject({
  name: z.string().trim().min(1, 'Name the view').max(60, 'At most 60 characters'),
  search: z.string().max(200),
  filters: z
    .record(tableId, z.array(z.string().max(200)).max(200))
    .refine((f) => Object.keys(f).length <= 20),
  sort: z.strictObject({ column: tableId, direction: z.enum(['ascending', 'descending']) }).nullable(),
  hidden: z.array(tableId).max(40),
});

export const settingsCalls = {
  'settings:get': call<SettingsView>('read')(noInput),
  'settings:update': call<SettingsView>('manage')(
    z.strictObject({
      theme: z.enum(['system', 'light', 'dark']).optional(),
      density: z.enum(DENSITY_CHOICES, { error: 'Comfortable or compact' }).optional(),
      polling: z
        .strictObject({
          usageMinutes: bounded(POLLING_LIMITS.usageMinutes, ' minutes'),
          usageVisibleMinutes: bounded(POLLING_LIMITS.usageMinutes, ' minutes'),
          // The spec asks clients not to poll faster than every 10 s (verifying) and 30 s (awaiting payment).
          topUpVerifyingSeconds: bounded(POLLING_LIMITS.topUpVerifyingSeconds, ' seconds'),
          topUpAwaitingPaymentSeconds: bounded(POLLING_LIMITS.topUpAwaitingPaymentSeconds, ' seconds'),
        })
        .optional(),
      alerts: z
        .strictObject({
          trafficRemainingPercent: bounded(ALERT_LIMITS.trafficRemainingPercent, '%'),
          trafficRemainingGb: gb.nullable().optional(),
          // Sent whole: it replaces the stored table (a removed row is a row left out).
          trafficBySubscription: z
            .record(
              subscriptionId,
              z
                .strictObject({ percent: percent.optional(), gb: gb.optional() })
                .refine((t) => t.percent !== undefined || t.gb !== undefined, {
                  error: 'Give a percent, GB, or both',
                }),
            )
            .refine((table) => Object.keys(table).length <= ALERT_SUBSCRIPTIONS_MAX, {
              error: `At most ${ALERT_SUBSCRIPTIONS_MAX} subscriptions with their own threshold`,
            })
            .optional(),
          runsOutWithinDays: bounded(ALERT_LIMITS.runsOutWithinDays, ' days'),
          expiryWarningDays: bounded(ALERT_LIMITS.expiryWarningDays, ' days'),
          disabledKinds: z
            .array(z.enum(ALERT_KIND_NAMES, { error: 'Not an alert kind' }))
            .max(ALERT_KIND_NAMES.length)
            .transform((kinds) => [...new Set(kinds)])
            .optional(),
          subUserAlertSubscriptions: z
            .array(subscriptionId)
            .max(ALERT_SUBSCRIPTIONS_MAX, `At most ${ALERT_SUBSCRIPTIONS_MAX} subscriptions`)
            .transform((ids) => [...new Set(ids)])
            .optional(),
        })
        .optional(),
      desktop: z
        .strictObject({
          closeToTray: z.boolean().optional(),
          startAtLogin: z.boolean().optional(),
          startMinimized: z.boolean().optional(),
        })
        .optional(),
      notifications: z
        .strictObject({
          'rotation-new-ip': z.boolean().optional(),
          'rotation-same-ip': z.boolean().optional(),
          'rotation-failed': z.boolean().optional(),
          'relocation-done': z.boolean().optional(),
          'port-health': z.boolean().optional(),
        })
        .optional(),
      shortcut: z
        .strictObject({
          enabled: z.boolean().optional(),
          accelerator: z
            .string()
            .trim()
            .max(ACCELERATOR_MAX)
            .regex(
              ACCELERATOR_PATTERN,
              'A shortcut is one or more modifiers and a key, e.g. CommandOrControl+Alt+R',
            )
            .optional(),
        })
        .optional(),
      proxyTest: z
        .strictObject({
          ipEchoUrl: ipEchoUrl.optional(),
        })
        .optional(),
      healthChecks: z
        .strictObject({
          portsEverySeconds: checkInterval,
          subscriptionsEverySeconds: checkInterval,
          localProxiesEverySeconds: checkInterval,
          downAfter: bounded(HEALTH_CHECK_LIMITS.inARow, ' checks'),
          upAfter: bounded(HEALTH_CHECK_LIMITS.inARow, ' checks'),
          checkUrl: ipEchoUrl.nullable().optional(),
          repeatWindowHours: bounded(HEALTH_CHECK_LIMITS.repeatWindowHours, ' hours'),
          repeatWindowRotations: bounded(HEALTH_CHECK_LIMITS.repeatWindowRotations, ' rotations'),
          selfHealAfter: bounded(HEALTH_CHECK_LIMITS.selfHealAfter, ' checks'),
        })
        .optional(),
    }),
  ),
  /** Every list's saved views (Ports, Subscriptions, …), by list. */
  'settings:tableViews': call<Record<string, SavedTableView[]>>('read')(noInput),
  /** Replaces one list's saved views (sent whole: a removed view is one left out). */
  'settings:saveTableViews': call<Record<string, SavedTableView[]>>('manage')(
    z.strictObject({
      list: z.enum(TABLE_LIST_IDS, { error: 'Not a list of the app' }),
      views: z
        .array(savedTableView)
        .max(TABLE_VIEWS_MAX, `At most ${TABLE_VIEWS_MAX} views per list`)
        .refine((views) => new Set(views.map((view) => view.name)).size === views.length, {
          error: 'Two views have the same name',
        }),
    }),
  ),
} as const satisfies DomainCalls<'settings'>;

export const settingsEvents = {
  /** After every change, whoever made it (another window, the tray, web mode). */
  'settings:changed': event<SettingsView>(),
} as const satisfies DomainEvents<'settings'>;
