/**
 * Limits that both the IPC contract (which checks input before any handler runs) and the core (which
 * checks again where data is stored) must agree on. No runtime dependencies: the renderer may import
 * these as types or values, and the preload bundle stays free of zod.
 */

/** A profile's name: one line the user reads in a list. */
export const PROFILE_NAME_MAX = 60;
/** A base URL as the provider gives it. */
export const BASE_URL_MAX = 2048;
/** The service's keys are at most 4096 visible ASCII characters. */
export const API_KEY_MAX = 4096;
/** Profile ids are UUIDs (or `demo-<uuid>`); anything longer is not ours. */
export const PROFILE_ID_MAX = 128;
export const NOTICE_ID_MAX = 128;

/** The spec's paging rules: `page` >= 1, `perPage` 1-100. */
export const PAGE_MAX = 100_000;
export const PER_PAGE_MAX = 100;

/** The spec's `label` limit for subscriptions, sub-users and ports. */
export const LABEL_MAX = 60;

/**
 * Polling bounds. The floors are the spec's recommendations (10 s while a top-up is verifying, 30 s
 * while it awaits payment): the app never polls the service faster than it asks.
 */
export const POLLING_LIMITS = {
  usageMinutes: { min: 1, max: 1440 },
  topUpVerifyingSeconds: { min: 10, max: 600 },
  topUpAwaitingPaymentSeconds: { min: 30, max: 600 },
} as const;

/**
 * Health checks through the ports: every check is one request through the gateway, so the pace has
 * a floor (30 s) and 0 turns them off; down and up after this many checks in a row.
 */
export const HEALTH_CHECK_LIMITS = {
  everySeconds: { min: 30, max: 86_400 },
  inARow: { min: 1, max: 20 },
  repeatWindowHours: { min: 1, max: 720 },
  repeatWindowRotations: { min: 1, max: 500 },
  selfHealAfter: { min: 0, max: 20 },
} as const;

export const ALERT_LIMITS = {
  trafficRemainingPercent: { min: 0, max: 100 },
  expiryWarningDays: { min: 0, max: 365 },
  runsOutWithinDays: { min: 1, max: 365 },
} as const;

/**
 * A traffic threshold in GB: a decimal string as the service bills (1 GB = 10^9 bytes), so that at
 * most 9 decimals (whole bytes) and never a float.
 */
export const GB_PATTERN = /^\d{1,6}(?:\.\d{1,9})?$/;
/** Subscriptions with their own thresholds, and subscriptions whose sub-users are read for cap alerts. */
export const ALERT_SUBSCRIPTIONS_MAX = 500;
export const SUBSCRIPTION_ID_MAX = 128;

/**
 * An Electron accelerator for the global shortcut, with at least one modifier (a bare key taken
 * system-wide would swallow that key in every app).
 */
export const ACCELERATOR_PATTERN =
  /^(?:(?:CommandOrControl|CmdOrCtrl|Command|Cmd|Control|Ctrl|Alt|Option|AltGr|Shift|Super|Meta)\+)+(?:[A-Z0-9]|F(?:[1-9]|1[0-9]|2[0-4])|Space|Tab|Up|Down|Left|Right|Home|End|PageUp|PageDown|Insert|Delete|Plus)$/;
export const ACCELERATOR_MAX = 64;
