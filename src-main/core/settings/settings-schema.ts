import { z } from 'zod';
import { PATH_STYLES } from '../../../src-shared/base-url-rule';
import { REST_PORT_DEFAULT } from '../../../src-shared/contract/automation';
import { LOCAL_PROXIES_MAX, localProxyConfigSchema } from '../../../src-shared/contract/local-proxies';
import { TABLE_VIEWS_MAX } from '../../../src-shared/contract/settings';
import {
  ACCELERATOR_MAX,
  ACCELERATOR_PATTERN,
  ALERT_LIMITS,
  ALERT_SUBSCRIPTIONS_MAX,
  BASE_URL_MAX,
  GB_PATTERN,
  HEALTH_CHECK_LIMITS,
  POLLING_LIMITS,
  PROFILE_NAME_MAX,
  SUBSCRIPTION_ID_MAX,
} from '../../../src-shared/limits';
import { ALERT_KINDS } from '../alerts/alert-rules';

/** The version written into the file; bump it (and add a migration) when the shape changes. */
export const SETTINGS_VERSION = 2;

export const KEY_STORAGES = ['keychain', 'session'] as const;
export type KeyStorage = (typeof KEY_STORAGES)[number];

const THEMES = ['system', 'light', 'dark'] as const;

/** How tall table rows are: `compact` fits many more on a screen (one line per row). */
const DENSITIES = ['comfortable', 'compact'] as const;

const profileSchema = z.object({
  id: z.string().min(1).max(100),
  name: z.string().min(1).max(PROFILE_NAME_MAX),
  // Lenient on purpose: a file from an older version may hold a URL today's rule refuses (plain
  // http to another host); the profile must still load so the user can fix it. The client pool
  // applies today's rule before it sends a key anywhere.
  baseUrl: z.url({ protocol: /^https?$/ }).max(BASE_URL_MAX),
  pathStyle: z.enum(PATH_STYLES).default('literal'),
  /** Where the key was put; session keys are gone after a restart and must be entered again. */
  keyStorage: z.enum(KEY_STORAGES).default('keychain'),
  /**
   * The origin (`https://host:port`) the stored key was saved for: the key is sent there and nowhere
   * else. Absent in files written before the binding existed: then the origin of `baseUrl`.
   */
  keyOrigin: z.string().min(1).max(BASE_URL_MAX).optional(),
  createdAt: z.iso.datetime(),
});
export type Profile = z.infer<typeof profileSchema>;

// Polling floors are the spec's recommendations (10 s while verifying, 30 s while awaiting
// payment): the app never polls the service faster than it asks.
const { usageMinutes, topUpVerifyingSeconds, topUpAwaitingPaymentSeconds } = POLLING_LIMITS;
const pollingSchema = z.object({
  usageMinutes: z.int().min(usageMinutes.min).max(usageMinutes.max).default(15),
  /** The usage poller while a window is visible (`usageMinutes` is its pace in the tray). */
  usageVisibleMinutes: z.int().min(usageMinutes.min).max(usageMinutes.max).default(5),
  topUpVerifyingSeconds: z.int().min(topUpVerifyingSeconds.min).max(topUpVerifyingSeconds.max).default(10),
  topUpAwaitingPaymentSeconds: z
    .int()
    .min(topUpAwaitingPaymentSeconds.min)
    .max(topUpAwaitingPaymentSeconds.max)
    .default(30),
});

const alertsSchema = z.object({
  /** Warn when a traffic subscription has this share of its traffic left, or less. */
  trafficRemainingPercent: z
    .number()
    .min(ALERT_LIMITS.trafficRemainingPercent.min)
    .max(ALERT_LIMITS.trafficRemainingPercent.max)
    .default(10),
  /** Warn this many days before a subscription or port expires. */
  expiryWarningDays: z
    .int()
    .min(ALERT_LIMITS.expiryWarningDays.min)
    .max(ALERT_LIMITS.expiryWarningDays.max)
    .default(3),
  /** Warn when the remaining traffic is below this many GB (decimal string, as billed); null: off. */
  trafficRemainingGb: z.string().regex(GB_PATTERN).nullable().default(null),
  /** Per subscription id: replaces the default thresholds for that subscription. */
  trafficBySubscription: z
    .record(
      z.string().min(1).max(SUBSCRIPTION_ID_MAX),
      z.object({
        percent: z.number().min(0).max(100).optional(),
        gb: z.string().regex(GB_PATTERN).optional(),
      }),
    )
    .default({}),
  /** Warn when the last 7 days' pace runs the traffic out within this many days. */
  runsOutWithinDays: z
    .int()
    .min(ALERT_LIMITS.runsOutWithinDays.min)
    .max(ALERT_LIMITS.runsOutWithinDays.max)
    .default(7),
  /** Per alert kind: on unless turned off. */
  disabledKinds: z.array(z.enum(ALERT_KINDS)).default([]),
  /** Subscriptions whose sub-users the poller reads each cycle for the cap alerts. */
  subUserAlertSubscriptions: z
    .array(z.string().min(1).max(SUBSCRIPTION_ID_MAX))
    .max(ALERT_SUBSCRIPTIONS_MAX)
    .default([]),
});

/** Preferences of the desktop shell (the tray, the login item); web mode ignores them. */
const desktopSchema = z.object({
  /** Closing the window keeps the app in the tray, so that background jobs go on. */
  closeToTray: z.boolean().default(true),
  startAtLogin: z.boolean().default(false),
  /** Start in the tray without showing the window. */
  startMinimized: z.boolean().default(false),
});

/** Each OS notification kind the user can turn off (`core/notifications/notification-kinds.ts`). */
const notificationsSchema = z.object({
  'rotation-new-ip': z.boolean().default(true),
  'rotation-same-ip': z.boolean().default(true),
  'rotation-failed': z.boolean().default(true),
  'relocation-done': z.boolean().default(true),
  /** A port's health checks made it down, or brought it back up. */
  'port-health': z.boolean().default(true),
});

/** The tray's pinned ports, per profile, in menu order. */
const traySchema = z.object({
  pinned: z.record(z.string(), z.array(z.string().min(1).max(128)).max(20)).default({}),
});

/** The optional global shortcut that rotates the first pinned port; off until the user turns it on. */
const shortcutSchema = z.object({
  enabled: z.boolean().default(false),
  accelerator: z.string().max(ACCELERATOR_MAX).regex(ACCELERATOR_PATTERN).default('CommandOrControl+Alt+R'),
});

/** The proxy test ("Test this proxy"): where it asks which exit IP a request came out of. */
const DEFAULT_IP_ECHO_URL = 'https://api.ipify.org?format=json';
const proxyTestSchema = z.object({
  /** Asked through the proxy for real accounts (the demo uses the sandbox gateway's own echo). */
  ipEchoUrl: z
    .url({ protocol: /^https?$/ })
    .max(2048)
    .default(DEFAULT_IP_ECHO_URL),
});

const inARow = z.int().min(HEALTH_CHECK_LIMITS.inARow.min).max(HEALTH_CHECK_LIMITS.inARow.max);

/** Health checks through every port (the job owner runs them) and the rotation verdicts' windows. */
const healthChecksSchema = z.object({
  /** Seconds between two checks of a port (jittered, paced across ports); 0: off. */
  portsEverySeconds: z
    .int()
    .refine((value) => value === 0 || value >= HEALTH_CHECK_LIMITS.everySeconds.min)
    .refine((value) => value <= HEALTH_CHECK_LIMITS.everySeconds.max)
    .default(300),
  /** The same for each subscription's main user; off by default (a check uses a little traffic). */
  subscriptionsEverySeconds: z
    .int()
    .refine((value) => value === 0 || value >= HEALTH_CHECK_LIMITS.everySeconds.min)
    .refine((value) => value <= HEALTH_CHECK_LIMITS.everySeconds.max)
    .default(0),
  /**
   * The same for each running local proxy, through its own listening address (the whole chain the
   * user's programs use); on by default at the ports' default pace, 0: off.
   */
  localProxiesEverySeconds: z
    .int()
    .refine((value) => value === 0 || value >= HEALTH_CHECK_LIMITS.everySeconds.min)
    .refine((value) => value <= HEALTH_CHECK_LIMITS.everySeconds.max)
    .default(300),
  downAfter: inARow.default(3),
  upAfter: inARow.default(2),
  /** What a check asks through the port for real accounts; null: the proxy test's IP echo. */
  checkUrl: z
    .url({ protocol: /^https?$/ })
    .max(2048)
    .nullable()
    .default(null),
  /** A rotation's IP is a repeat when seen within this many hours or this port's last N rotations. */
  repeatWindowHours: z
    .int()
    .min(HEALTH_CHECK_LIMITS.repeatWindowHours.min)
    .max(HEALTH_CHECK_LIMITS.repeatWindowHours.max)
    .default(24),
  repeatWindowRotations: z
    .int()
    .min(HEALTH_CHECK_LIMITS.repeatWindowRotations.min)
    .max(HEALTH_CHECK_LIMITS.repeatWindowRotations.max)
    .default(50),
  /** After this many failed checks in a row, rotate the port once (respecting its cooldown); 0: off. */
  selfHealAfter: z
    .int()
    .min(HEALTH_CHECK_LIMITS.selfHealAfter.min)
    .max(HEALTH_CHECK_LIMITS.selfHealAfter.max)
    .default(0),
});

/** The local REST API (Settings → Automation): off until turned on; loopback only, tokens required. */
const automationSchema = z.object({
  rest: z
    .object({
      enabled: z.boolean().default(false),
      port: z.int().min(1024).max(65_535).default(REST_PORT_DEFAULT),
    })
    .prefault({}),
});

/** Update checks (Settings → Updates; docs/install.md). No credentials: the contract refuses them in the proxy URL. */
const updatesSchema = z.object({
  checkAutomatically: z.boolean().default(true),
  checkInDemo: z.boolean().default(false),
  proxyUrl: z.string().max(2048).nullable().default(null),
});

const uiSchema = z.object({
  theme: z.enum(THEMES).default('system'),
  /**
   * Absent in files from before it existed (the default then); a value this version does not know
   * (written by a newer one) reads as the default instead of failing the whole file.
   */
  density: z.enum(DENSITIES).default('comfortable').catch('comfortable'),
  /** A screen id; the renderer falls back to its first screen when it does not know it. */
  lastScreen: z.string().min(1).max(64).default('ports'),
});

const tableIdSchema = z.string().min(1).max(64);
/** A list's saved view: what the table shows (search, filters, sort, hidden columns), by name. */
const tableViewSchema = z.object({
  name: z.string().min(1).max(60),
  search: z.string().max(200).default(''),
  filters: z.record(tableIdSchema, z.array(z.string().max(200)).max(200)).default({}),
  sort: z
    .object({ column: tableIdSchema, direction: z.enum(['ascending', 'descending']) })
    .nullable()
    .default(null),
  hidden: z.array(tableIdSchema).max(40).default([]),
});

export const settingsSchema = z
  .object({
    version: z.literal(SETTINGS_VERSION),
    profiles: z.array(profileSchema).default([]),
    activeProfileId: z.string().nullable().default(null),
    polling: pollingSchema.prefault({}),
    alerts: alertsSchema.prefault({}),
    ui: uiSchema.prefault({}),
    desktop: desktopSchema.prefault({}),
    notifications: notificationsSchema.prefault({}),
    tray: traySchema.prefault({}),
    shortcut: shortcutSchema.prefault({}),
    proxyTest: proxyTestSchema.prefault({}),
    healthChecks: healthChecksSchema.prefault({}),
    automation: automationSchema.prefault({}),
    /** Local proxies: configuration only (no credentials; a local password is in the keychain). */
    localProxies: z.array(localProxyConfigSchema).max(LOCAL_PROXIES_MAX).default([]),
    updates: updatesSchema.prefault({}),
    /** Saved views of the window's lists, per list id (`TABLE_LIST_IDS`). */
    tableViews: z.record(tableIdSchema, z.array(tableViewSchema).max(TABLE_VIEWS_MAX)).default({}),
  })
  .superRefine((settings, context) => {
    const seen = new Set<string>();
    settings.profiles.forEach((profile, index) => {
      if (seen.has(profile.id)) {
        context.addIssue({
          code: 'custom',
          path: ['profiles', index, 'id'],
          message: `duplicate profile id ${profile.id}`,
        });
      }
      seen.add(profile.id);
    });
  });

export type Settings = z.infer<typeof settingsSchema>;

/** Every member at its default, as a first start (or a recovery) sees them. */
export function defaultSettings(): Settings {
  return settingsSchema.parse({ version: SETTINGS_VERSION });
}

/**
 * Repairs what is consistent to repair rather than reject: an active profile that no longer
 * exists falls back to the first profile (or none).
 */
export function normalizeSettings(settings: Settings): Settings {
  const activeExists = settings.profiles.some((profile) => profile.id === settings.activeProfileId);
  if (settings.activeProfileId === null || activeExists) return settings;
  return { ...settings, activeProfileId: settings.profiles[0]?.id ?? null };
}
