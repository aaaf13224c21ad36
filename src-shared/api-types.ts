/**
 * Runtime schemas (zod 4) for every response of the Proxy Service API, and the types inferred from them.
 * This is the one module the IPC contract and the renderer reuse for API shapes.
 *
 * Tolerance rules, where the spec says "not shown" or might grow:
 * - every object is loose: members the spec does not list are kept, not stripped;
 * - enumerated strings are open: the documented values are typed, any other string passes
 *   (`KnownValue | (string & {})`), so a new status never breaks a screen;
 * - a nullable member that is missing reads as `null`; shapes the spec does not give are `unknown`.
 * Anything that breaks a documented type (a string where an integer belongs, a missing required member,
 * a timestamp that is not ISO 8601) fails parsing, and the client reports it as a `ProtocolError`.
 */
import { z } from 'zod';

/** A documented value, or any other string the service may add later. */
export type Open<Known extends string> = Known | (string & {});

function openEnum<const Known extends string>(_known: readonly Known[]): z.ZodType<Open<Known>, string> {
  return z.string();
}

const nullable = <T extends z.ZodType>(schema: T) => schema.nullable().default(null);

const timestamp = z.iso.datetime({ offset: true });
const date = z.iso.date();
const integer = z.int();
/** Decimal money or crypto amounts are strings end to end (never floats). */
const decimalString = z.string().regex(/^\d+(\.\d+)?$/, 'Expected a decimal string such as "25.00"');

// Known values ------------------------------------------------------------------------------------

const SUBSCRIPTION_PRODUCT_IDS = ['residential', 'mobile-gb'] as const;
type SubscriptionProductId = Open<(typeof SUBSCRIPTION_PRODUCT_IDS)[number]>;

/** The spec does not list subscription statuses; these are the sandbox's documented choices. */
const SUBSCRIPTION_STATUSES = ['active', 'depleted', 'expired'] as const;

const CATALOG_PRODUCTS = ['residential', 'mobile', 'mobile-gb'] as const;
export type CatalogProduct = Open<(typeof CATALOG_PRODUCTS)[number]>;

/** `active` and `provisioning` are the spec's; `expired` is the sandbox's documented choice. */
const MOBILE_PORT_STATUSES = ['active', 'provisioning', 'expired'] as const;

const ROTATION_MODES = ['interval', 'manual'] as const;

/** The spec does not list triggers; these are the sandbox's documented choices. */
export const IP_HISTORY_TRIGGERS = ['initial', 'manual', 'interval', 'link', 'relocation'] as const;

export const TOP_UP_STATUSES = ['awaiting_payment', 'verifying', 'credited', 'rejected', 'expired'] as const;
export type TopUpStatus = Open<(typeof TOP_UP_STATUSES)[number]>;

const PURCHASE_STATUSES = ['pending', 'completed', 'failed'] as const;

/** True when `value` is one of `known`; narrows an open string to its documented values. */
export function isKnownValue<const Known extends string>(
  known: readonly Known[],
  value: string | null | undefined,
): value is Known {
  return value !== null && value !== undefined && (known as readonly string[]).includes(value);
}

// Shared pieces ---------------------------------------------------------------------------------------

const proxyEndpointSchema = z.looseObject({
  host: z.string(),
  httpPort: integer,
  socksPort: integer,
});
export type ProxyEndpoint = z.infer<typeof proxyEndpointSchema>;

const paginationSchema = z.looseObject({
  page: integer,
  perPage: integer,
  total: integer,
  totalPages: integer,
});

/** `{ data: [item] }` */
function listSchema<T extends z.ZodType>(item: T) {
  return z.looseObject({ data: z.array(item) });
}

/** `{ data: [item], pagination }` */
function pageSchema<T extends z.ZodType>(item: T) {
  return z.looseObject({ data: z.array(item), pagination: paginationSchema });
}

// Traffic subscriptions ----------------------------------------------------------------------------

export const subscriptionSchema = z.looseObject({
  id: z.string(),
  productId: openEnum(SUBSCRIPTION_PRODUCT_IDS),
  label: z.string(),
  planId: z.string(),
  status: openEnum(SUBSCRIPTION_STATUSES),
  trafficTotalBytes: integer,
  trafficUsedBytes: integer,
  trafficRemainingBytes: integer,
  expiresAt: nullable(timestamp),
  autoRenew: z.boolean(),
  username: z.string(),
  password: z.string(),
  endpoint: proxyEndpointSchema,
  subUserCount: integer,
  createdAt: timestamp,
});
export type Subscription = z.infer<typeof subscriptionSchema>;

export const subUserSchema = z.looseObject({
  id: z.string(),
  label: z.string(),
  username: z.string(),
  password: z.string(),
  trafficLimitBytes: nullable(integer),
  trafficUsedBytes: integer,
  enabled: z.boolean(),
  createdAt: timestamp,
});
export type SubUser = z.infer<typeof subUserSchema>;

/** `limit`'s meaning is not shown by the spec; a missing one reads as null. */
export const subUserListSchema = z.looseObject({
  data: z.array(subUserSchema),
  limit: nullable(integer),
});
export type SubUserList = z.infer<typeof subUserListSchema>;

// Usage ----------------------------------------------------------------------------------------------

const usagePointSchema = z.looseObject({ date, bytes: integer, requests: integer });
export type UsagePoint = z.infer<typeof usagePointSchema>;

const usageByCountrySchema = z.looseObject({ country: z.string(), bytes: integer });

export const usageReportSchema = z.looseObject({
  from: date,
  to: date,
  totalBytes: integer,
  totalRequests: integer,
  points: z.array(usagePointSchema),
  byCountry: z.array(usageByCountrySchema),
});
export type UsageReport = z.infer<typeof usageReportSchema>;

// Mobile ports ----------------------------------------------------------------------------------------

const rotationSettingsSchema = z.looseObject({
  mode: openEnum(ROTATION_MODES),
  intervalMinutes: nullable(integer),
});

export const mobilePortSchema = z.looseObject({
  id: z.string(),
  label: z.string(),
  status: openEnum(MOBILE_PORT_STATUSES),
  country: z.string(),
  city: nullable(z.string()),
  carrier: z.string(),
  carrierName: z.string(),
  networkType: z.string(),
  currentIp: z.string(),
  ipChangedAt: timestamp,
  endpoint: proxyEndpointSchema,
  username: z.string(),
  password: z.string(),
  rotation: rotationSettingsSchema,
  minRotationIntervalSeconds: integer,
  /** Carries the API key: never log it, never keep it in the renderer. */
  rotationLink: z.string(),
  planId: z.string(),
  autoRenew: z.boolean(),
  createdAt: timestamp,
  expiresAt: timestamp,
});
export type MobilePort = z.infer<typeof mobilePortSchema>;

export const rotationResultSchema = z.looseObject({
  ip: z.string(),
  previousIp: z.string(),
  rotatedAt: timestamp,
  nextRotationAvailableAt: timestamp,
});
export type RotationResult = z.infer<typeof rotationResultSchema>;

/** What `GET .../rotate?format=text` answers: the new IP only. */
export interface RotationTextResult {
  ip: string;
}

export const ipHistoryEntrySchema = z.looseObject({
  ip: z.string(),
  assignedAt: timestamp,
  releasedAt: nullable(timestamp),
  trigger: openEnum(IP_HISTORY_TRIGGERS),
});
export type IpHistoryEntry = z.infer<typeof ipHistoryEntrySchema>;

// Catalog -------------------------------------------------------------------------------------------

const countrySchema = z.looseObject({
  code: z.string(),
  name: z.string(),
  region: z.string(),
  products: z.array(openEnum(CATALOG_PRODUCTS)),
  cities: integer,
  asns: integer,
  carriers: integer,
});
export type Country = z.infer<typeof countrySchema>;

const stateSchema = z.looseObject({
  id: z.string(),
  code: z.string(),
  name: z.string(),
  cities: integer,
});
export type State = z.infer<typeof stateSchema>;

/** `state` is null in countries without state targeting. */
export const citySchema = z.looseObject({
  id: z.string(),
  name: z.string(),
  state: nullable(z.string()),
});
export type City = z.infer<typeof citySchema>;

const asnSchema = z.looseObject({ asn: integer, name: z.string() });
export type Asn = z.infer<typeof asnSchema>;

/** The spec says only "cities (array)": city ids, or objects that name a city. */
const carrierCitySchema = z.union([
  z.string(),
  z.looseObject({ id: z.string().optional(), name: z.string().optional() }),
]);

export const carrierSchema = z.looseObject({
  id: z.string(),
  name: z.string(),
  networkTypes: z.array(z.string()),
  available: z.boolean(),
  cities: z.array(carrierCitySchema),
});
export type Carrier = z.infer<typeof carrierSchema>;

/** City ids of a carrier whatever form the list takes. */
export function carrierCityIds(carrier: Pick<Carrier, 'cities'>): string[] {
  return carrier.cities.flatMap((city) => (typeof city === 'string' ? [city] : city.id ? [city.id] : []));
}

const coinNetworkSchema = z.looseObject({
  id: z.string(),
  name: z.string(),
  confirmationsRequired: integer,
  estimatedMinutes: nullable(integer),
  memoRequired: z.boolean(),
  address: z.string(),
});

const coinSchema = z.looseObject({
  code: z.string(),
  name: z.string(),
  networks: z.array(coinNetworkSchema),
});
export type Coin = z.infer<typeof coinSchema>;

// Top-ups ---------------------------------------------------------------------------------------------

const purchaseSchema = z.looseObject({
  planId: z.string(),
  planName: z.string(),
  quantity: integer,
  /** Shape not shown by the spec. */
  options: z.record(z.string(), z.unknown()).default({}),
  promoCode: nullable(z.string()),
  total: decimalString,
  status: openEnum(PURCHASE_STATUSES),
  orderId: nullable(z.string()),
  failureReason: nullable(z.string()),
});

export const topUpSchema = z.looseObject({
  id: z.string(),
  status: openEnum(TOP_UP_STATUSES),
  final: z.boolean(),
  amountUsd: decimalString,
  coin: z.string(),
  network: z.string(),
  address: z.string(),
  amountCrypto: decimalString,
  rate: decimalString,
  paymentUri: z.string(),
  expiresAt: timestamp,
  txidDeadline: timestamp,
  confirmationsRequired: integer,
  confirmations: integer,
  txid: nullable(z.string()),
  txidSubmittedAt: nullable(timestamp),
  amountReceivedCrypto: nullable(decimalString),
  explorerUrl: nullable(z.string()),
  creditedUsd: nullable(decimalString),
  creditedAt: nullable(timestamp),
  /** Structure not shown by the spec; read it with `describeRejection`. */
  rejection: z.unknown().default(null),
  purchase: nullable(purchaseSchema),
  createdAt: timestamp,
});
export type TopUp = z.infer<typeof topUpSchema>;

export interface RejectionSummary {
  reason: string | null;
  message: string | null;
}

/** Reads a top-up's `rejection` whatever its shape: an object with `reason`/`message`, or a string. */
export function describeRejection(rejection: unknown): RejectionSummary | null {
  if (rejection === null || rejection === undefined) return null;
  if (typeof rejection === 'string') return { reason: null, message: rejection };
  if (typeof rejection === 'object') {
    const record = rejection as Record<string, unknown>;
    const text = (name: string): string | null => {
      const member = record[name];
      return typeof member === 'string' ? member : null;
    };
    return { reason: text('reason') ?? text('code'), message: text('message') ?? text('description') };
  }
  return { reason: null, message: null };
}

// Response envelopes ---------------------------------------------------------------------------------

export const subscriptionListSchema = listSchema(subscriptionSchema);
export const mobilePortListSchema = listSchema(mobilePortSchema);
export const ipHistoryPageSchema = pageSchema(ipHistoryEntrySchema);
export type IpHistoryPage = z.infer<typeof ipHistoryPageSchema>;
export const countryListSchema = listSchema(countrySchema);
export const stateListSchema = listSchema(stateSchema);
export const cityListSchema = listSchema(citySchema);
export const asnListSchema = listSchema(asnSchema);
export const carrierListSchema = listSchema(carrierSchema);
export const coinListSchema = listSchema(coinSchema);
export const topUpPageSchema = pageSchema(topUpSchema);
export type TopUpPage = z.infer<typeof topUpPageSchema>;

// Request inputs ------------------------------------------------------------------------------------

export interface SubscriptionListQuery {
  /** Absent means both products. */
  productId?: SubscriptionProductId;
}

export interface SubscriptionUpdate {
  label?: string;
  autoRenew?: boolean;
}

export interface UsageQuery {
  /** `YYYY-MM-DD`, inclusive; default 29 days before `to`. */
  from?: string;
  /** `YYYY-MM-DD`, inclusive; default today (UTC). */
  to?: string;
}

export interface SubscriptionUsageQuery extends UsageQuery {
  subUserId?: string;
}

export interface SubUserCreate {
  label: string;
  /** Generated by the service when omitted. */
  password?: string;
  trafficLimitBytes?: number | null;
}

export interface SubUserUpdate {
  label?: string;
  trafficLimitBytes?: number | null;
  enabled?: boolean;
  regeneratePassword?: boolean;
}

type RotationSettingsInput =
  { mode: 'manual'; intervalMinutes: null } | { mode: 'interval'; intervalMinutes: number };

export interface MobilePortUpdate {
  label?: string;
  autoRenew?: boolean;
  rotation?: RotationSettingsInput;
}

export interface RelocationRequest {
  /** ISO 3166-1 alpha-2, upper case. */
  country: string;
  carrier: string;
  city?: string | null;
}

export interface PageQuery {
  page?: number;
  perPage?: number;
}

export interface TopUpListQuery extends PageQuery {
  status?: TopUpStatus;
}

/** The body of `POST /v1/orders` (not shown by the spec; the sandbox's documented choice). */
interface PurchaseInput {
  planId: string;
  quantity: number;
  options?: Record<string, unknown>;
  promoCode?: string | null;
  [member: string]: unknown;
}

export interface TopUpCreate {
  /** USD with 2 decimals, e.g. `"25.00"`. */
  amountUsd: string;
  coin: string;
  network: string;
  purchase?: PurchaseInput;
}

export interface TxidDeclaration {
  /** Optional: the payment is matched by its exact amount; a txid speeds the match up. */
  txid?: string;
}

export interface CountryQuery {
  product?: CatalogProduct;
}
