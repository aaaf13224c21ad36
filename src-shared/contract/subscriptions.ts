import { z } from 'zod';
import type { SubUser, Subscription, UsageReport } from '../api-types';
import { toUnits } from '../decimal';
import { LABEL_MAX } from '../limits';
import type { SubscriptionHealth } from './port-health';
import { call, type DomainCalls, type DomainEvents, event } from './define';
import type { WireTable } from './list-views';
import type { IpcError } from './results';
import { countryCode, dayRangeCheck, isoDay, labelInput, resourceId } from './shared-inputs';

export interface SubscriptionsChanged {
  profileId: string;
  /** The subscriptions whose state main learned of; others are unchanged. */
  changed: Subscription[];
  /** Subscriptions gone from the account (a read of the whole list no longer has them). */
  removed?: string[];
  /** After a read of the whole list: when main read it (ISO 8601), the age the list screen shows. */
  asOf?: string;
  /**
   * Sub-users main read or wrote, per subscription id (the whole list of that subscription), as the
   * list shows them: no passwords (main keeps those; the renderer never needs them).
   */
  subUsers?: Record<string, SubUserRow[]>;
}

/**
 * A sub-user as the sub-user list, the usage and proxy string pickers and the CLI show it. No
 * password: the proxy string builder has it answered with the lines it asks for, the credential
 * export writes it in main.
 */
export type SubUserRow = Pick<
  SubUser,
  'id' | 'label' | 'username' | 'trafficLimitBytes' | 'trafficUsedBytes' | 'enabled' | 'createdAt'
>;

/** The columns of `subscriptions:subUsers` on the wire, in order. */
export const SUB_USER_ROW_COLUMNS = [
  'id',
  'label',
  'username',
  'trafficLimitBytes',
  'trafficUsedBytes',
  'enabled',
  'createdAt',
] as const;

type SubUserRowValues = [
  id: string,
  label: string,
  username: string,
  trafficLimitBytes: number | null,
  trafficUsedBytes: number,
  enabled: boolean,
  createdAt: string,
];

/**
 * `subscriptions:subUsers`: the sub-users as a table of `SUB_USER_ROW_COLUMNS`, and `limit` as the
 * service answers it (the sandbox says 20 sub-users at most; null when it says none).
 */
export type SubUsersListView = WireTable<typeof SUB_USER_ROW_COLUMNS, SubUserRowValues> & {
  limit: number | null;
};

/** `subscriptions:subUsers`'s table as rows (for main's surfaces; the renderer has its own copy: it imports types only). */
export function subUserRowsOf(view: Pick<SubUsersListView, 'rows'>): SubUserRow[] {
  return view.rows.map((values) => ({
    id: values[0],
    label: values[1],
    username: values[2],
    trafficLimitBytes: values[3],
    trafficUsedBytes: values[4],
    enabled: values[5],
    createdAt: values[6],
  }));
}

/** A text file main built for the user to save (CSV or credential lines). */
export interface TextExport {
  /** Suggested file name, e.g. `subscription-sub_1-usage-2025-01-01-2025-01-31.csv`. */
  fileName: string;
  text: string;
  rows: number;
}

/** What a bulk create did: sub-users are created one after the other and it stops at the first refusal. */
export interface CreateSubUsersOutcome {
  created: SubUser[];
  /** Labels not created (in order), each with why; the first one carries the refusal that stopped the run. */
  notCreated: { label: string; error: IpcError }[];
  /** True when the run stopped because the service's sub-user limit was reached. */
  stoppedAtLimit: boolean;
  limit: number | null;
}

/** Lines built by `subscriptions:buildProxyString`, and the endpoint they point to. */
export interface ProxyStringResult {
  lines: string[];
  host: string;
  port: number;
  /**
   * The password inside the lines (the chosen user's): the screen masks it in the line it shows
   * without reading it from a list (`subscriptions:subUsers` carries none).
   */
  password: string;
}

const CREDENTIAL_FORMATS = [
  'http_url',
  'socks5_url',
  'host_port_user_pass',
  'user_pass_at_host_port',
] as const;
export type CredentialFormat = (typeof CREDENTIAL_FORMATS)[number];

const SUBSCRIPTION_ID_MAX = 128;
const SUB_USER_PASSWORD_MAX = 64;
const BULK_SUB_USERS_MAX = 20;
const PROXY_LINES_MAX = 10_000;
/** The longest usage range, in days, both ends included. */
export const SUBSCRIPTION_USAGE_MAX_DAYS = 366;
/** Decimal units, as the service bills: 1 GB is 10^9 bytes. */
const TRAFFIC_UNITS = { MB: 6, GB: 9 } as const;
export type TrafficUnit = keyof typeof TRAFFIC_UNITS;

const subscriptionId = resourceId('Choose a subscription', SUBSCRIPTION_ID_MAX);
const subUserId = resourceId('Choose a sub-user', SUBSCRIPTION_ID_MAX);

const subscriptionLabel = labelInput('Give it a label');

const subUserPassword = z
  .string()
  .min(1, 'Leave it empty to have one generated')
  .max(SUB_USER_PASSWORD_MAX, `At most ${SUB_USER_PASSWORD_MAX} characters`)
  .regex(/^[\x21-\x7e]+$/, 'Printable ASCII characters only, without spaces');

export type TrafficLimitResult = { ok: true; bytes: number } | { ok: false; message: string };

/**
 * A cap entered as a decimal in MB or GB, as exact bytes (decimal units, as billed: 1.5 GB is
 * 1500000000). No floats on the way: a fraction of a byte, or more than 2^53-1 bytes (what JSON
 * numbers carry exactly), is refused rather than rounded.
 */
export function trafficLimitToBytes(amount: string, unit: TrafficUnit): TrafficLimitResult {
  const trimmed = amount.trim();
  if (!/^\d+(?:\.\d+)?$/.test(trimmed)) {
    return { ok: false, message: 'A number such as 1.5 (a dot for decimals, no sign or spaces)' };
  }
  const scale = TRAFFIC_UNITS[unit];
  let bytes: bigint;
  try {
    bytes = toUnits(trimmed, scale);
  } catch {
    return { ok: false, message: `At most ${scale} decimals in ${unit} (whole bytes)` };
  }
  if (bytes > BigInt(Number.MAX_SAFE_INTEGER)) {
    return { ok: false, message: `At most ${Number.MAX_SAFE_INTEGER} bytes` };
  }
  return { ok: true, bytes: Number(bytes) };
}

/** `{amount, unit}` in, exact bytes out (after parsing in main); `null` removes the cap. */
const trafficLimit = z
  .strictObject({ amount: z.string().max(40), unit: z.enum(['MB', 'GB']) })
  .transform((value, context) => {
    const result = trafficLimitToBytes(value.amount, value.unit);
    if (!result.ok) {
      context.addIssue({ code: 'custom', path: ['amount'], message: result.message });
      return z.NEVER;
    }
    return result.bytes;
  })
  .nullable();

const subscriptionUsageInput = z
  .strictObject({
    subscriptionId,
    from: isoDay.optional(),
    to: isoDay.optional(),
    subUserId: subUserId.optional(),
  })
  .superRefine(dayRangeCheck(SUBSCRIPTION_USAGE_MAX_DAYS));

const proxyTargeting = z.strictObject({
  country: countryCode.optional(),
  state: z.string().max(100).optional(),
  city: z.string().max(100).optional(),
  asn: z.int().optional(),
  zip: z.string().max(20).optional(),
  session: z.string().max(100).optional(),
});

const subscriptionOnly = z.strictObject({ subscriptionId });

export const subscriptionsCalls = {
  /**
   * From main's snapshot of the whole list at once when it holds one (read again behind it when a few
   * seconds old; changes come as `subscriptions:changed`); `fresh` (the Refresh button) waits for the service.
   */
  'subscriptions:list': call<Subscription[]>('read')(
    z
      .strictObject({
        productId: z.enum(['residential', 'mobile-gb']).optional(),
        fresh: z.boolean().optional(),
      })
      .optional(),
  ),
  'subscriptions:get': call<Subscription>('read')(subscriptionOnly),
  'subscriptions:update': call<Subscription>('manage')(
    z
      .strictObject({
        subscriptionId,
        label: subscriptionLabel.optional(),
        autoRenew: z.boolean().optional(),
      })
      .refine((value) => value.label !== undefined || value.autoRenew !== undefined, {
        message: 'Nothing to change',
      }),
  ),
  /** Sent once; the old password stops working at the gateway within 60 seconds. */
  'subscriptions:resetPassword': call<Subscription>('manage')(subscriptionOnly),
  'subscriptions:usage': call<UsageReport>('read')(subscriptionUsageInput),
  /** The usage report as CSV: one row per day, then the by-country rows. */
  'subscriptions:exportUsage': call<TextExport>('read')(subscriptionUsageInput),
  /** The list's columns only (`SubUsersListView`, no passwords); `exportCredentials` writes the credentials. */
  'subscriptions:subUsers': call<SubUsersListView>('read')(subscriptionOnly),
  'subscriptions:createSubUser': call<SubUser>('manage')(
    z.strictObject({
      subscriptionId,
      label: subscriptionLabel,
      password: subUserPassword.optional(),
      trafficLimit: trafficLimit.optional(),
    }),
  ),
  'subscriptions:updateSubUser': call<SubUser>('manage')(
    z
      .strictObject({
        subscriptionId,
        subUserId,
        label: subscriptionLabel.optional(),
        trafficLimit: trafficLimit.optional(),
        enabled: z.boolean().optional(),
        regeneratePassword: z.boolean().optional(),
      })
      .refine(
        (value) =>
          value.label !== undefined ||
          value.trafficLimit !== undefined ||
          value.enabled !== undefined ||
          value.regeneratePassword === true,
        { message: 'Nothing to change' },
      ),
  ),
  'subscriptions:deleteSubUser': call<{ deleted: true }>('manage')(
    z.strictObject({ subscriptionId, subUserId }),
  ),
  /** Labels `<labelPrefix>1` … `<labelPrefix>N` (numbered after the highest taken), one request each. */
  'subscriptions:createSubUsers': call<CreateSubUsersOutcome>('manage')(
    z.strictObject({
      subscriptionId,
      count: z
        .int('A whole number')
        .min(1, 'At least 1')
        .max(BULK_SUB_USERS_MAX, `At most ${BULK_SUB_USERS_MAX} at once`),
      // Room for the number after the prefix within the 60-character label.
      labelPrefix: subscriptionLabel.pipe(
        z.string().max(LABEL_MAX - 3, `At most ${LABEL_MAX - 3} characters`),
      ),
      trafficLimit: trafficLimit.optional(),
    }),
  ),
  'subscriptions:exportCredentials': call<TextExport>('secrets')(
    z.strictObject({
      subscriptionId,
      subUserIds: z.array(subUserId).min(1, 'Choose at least one sub-user').max(1000),
      format: z.enum(CREDENTIAL_FORMATS),
    }),
  ),
  'subscriptions:buildProxyString': call<ProxyStringResult>('secrets')(
    z.strictObject({
      subscriptionId,
      /** Absent: the main user. */
      subUserId: subUserId.optional(),
      targeting: proxyTargeting,
      format: z.enum(CREDENTIAL_FORMATS),
      protocol: z.enum(['http', 'socks5']),
      /** N lines with numbered sticky sessions; absent: one line (with `targeting.session` if set). */
      count: z.int().min(1, 'At least 1').max(PROXY_LINES_MAX, `At most ${PROXY_LINES_MAX} lines`).optional(),
      sessionPrefix: z
        .string()
        .regex(/^[A-Za-z0-9_]{1,40}$/, 'Letters, digits or underscores (no hyphens), at most 40')
        .optional(),
    }),
  ),
  /**
   * Scores of the active profile's subscriptions from the health checks through their main user
   * (off unless Settings → Health checks sets a pace); one subscription with `subscriptionId`.
   */
  'subscriptions:health': call<SubscriptionHealth[]>('read')(
    z.strictObject({ subscriptionId: subscriptionId.optional() }).optional(),
  ),
} as const satisfies DomainCalls<'subscriptions'>;

export const subscriptionsEvents = {
  'subscriptions:changed': event<SubscriptionsChanged>(),
} as const satisfies DomainEvents<'subscriptions'>;
