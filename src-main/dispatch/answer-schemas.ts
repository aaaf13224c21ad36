import { z } from 'zod';
import {
  ipHistoryEntrySchema,
  mobilePortSchema,
  subscriptionSchema,
  subUserSchema,
} from '../../src-shared/api-types';
import type { CallChannel, ipcCalls } from '../../src-shared/contract';
import type {
  AlertChannelView,
  AlertView,
  DeliveryLogView,
  HealthSnapshot,
  IpHistoryExport,
  IpHistoryView,
  LocalProxiesView,
  LocalProxyView,
  MobilePortView,
  PendingTopUpSummary,
  PortHealth,
  PortHealthHistory,
  ProxyStringResult,
  ProxyTestResult,
  RelocationProgress,
  RotateManyOutcome,
  RotationReceipt,
  ScheduleRun,
  SchedulesView,
  SubscriptionHealth,
  TextExport,
  TopUpPaymentDetails,
  TopUpPlanChoice,
  TopUpsCsvExport,
} from '../../src-shared/contract';
import type { AppRoute } from '../../src-shared/contract/app';
import type { CreateSubUsersOutcome } from '../../src-shared/contract/subscriptions';
import { ALERT_KIND_NAMES } from '../../src-shared/contract/alerts';
import { DELIVERY_EVENT_SCHEMAS } from '../../src-shared/contract/alert-routing-events';

/**
 * The answers of the contract's view types (what `ports:get`, `ports:rotate`, `schedules:list`… send)
 * as zod schemas, for the OpenAPI document and the MCP output schemas. The TypeScript types in
 * `src-shared/contract/` stay the source of truth: `exact<T>()` refuses to compile a schema whose
 * output is not exactly `T` (each assignable to the other), so the two cannot drift apart.
 */

/** A channel's answer type (the contract's phantom `output`). */
type OutputOf<C extends CallChannel> = NonNullable<(typeof ipcCalls)[C]['output']>;

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

/** The map, if each schema's output is exactly its channel's answer type; a compile error otherwise. */
const viewAnswers = <M extends Record<string, z.ZodType>>(
  map: M & {
    [C in keyof M]: C extends CallChannel
      ? Same<z.output<M[C]>, OutputOf<C>> extends true
        ? unknown
        : { mismatch: OutputOf<C> }
      : never;
  },
): M => map;

/** The schema, if its output type is exactly `T`; a compile error otherwise. */
const exact =
  <T>() =>
  <S extends z.ZodType>(schema: S & (Same<z.output<S>, T> extends true ? unknown : { mismatch: T })): S =>
    schema;

const iso = z.string();
const nullableString = z.string().nullable();
const nullableNumber = z.number().nullable();

/** The contract's error (`IpcError`), as tools answer it per item (a failed port of a bulk action). */
export const ipcErrorSchema = z.strictObject({
  code: z.string(),
  message: z.string(),
  fields: z.array(z.strictObject({ field: z.string(), message: z.string() })).optional(),
  retryAfterMs: z.number().optional(),
  outcomeUnknown: z.boolean().optional(),
  scope: z.enum(['read', 'rotate', 'manage', 'spend', 'secrets', 'admin']).optional(),
  upstreamStatus: z.number().optional(),
});

// Ports ---------------------------------------------------------------------------------------------

const mobilePortViewSchema = exact<MobilePortView>()(
  mobilePortSchema.omit({ rotationLink: true }).extend({ hasRotationLink: z.boolean() }),
);

const verdictSchema = z.strictObject({
  kind: z.enum(['clean', 'unchanged', 'repeat', 'drift', 'unknown']),
  exitIp: nullableString,
  asn: nullableNumber,
  country: nullableString,
  expectedAsn: nullableNumber,
  expectedCountry: nullableString,
  seenBefore: z.strictObject({ portId: z.string(), at: iso }).nullable(),
  checks: z.number(),
  message: z.string(),
});

const rotationReceiptSchema = exact<RotationReceipt>()(
  z.strictObject({
    id: z.string(),
    portId: z.string(),
    previousIp: z.string(),
    ip: z.string(),
    sameIp: z.boolean(),
    startedAt: iso,
    finishedAt: iso,
    tookMs: z.number(),
    nextRotationAvailableAt: iso,
    trigger: z.enum(['button', 'tray', 'shortcut', 'schedule', 'bulk', 'cli', 'mcp', 'rest']),
    attempts: z.number(),
    confirmedBy: z.enum(['answer', 'reread']),
    untilNew: z
      .strictObject({ lastN: z.number(), maxTries: z.number(), reachedNewIp: z.boolean() })
      .nullable(),
    verification: z.strictObject({ exitIp: z.string(), matches: z.boolean() }).nullable(),
    verdict: verdictSchema.nullable().optional(),
    untilUnique: z.strictObject({ maxTries: z.number(), reachedClean: z.boolean() }).nullable().optional(),
  }),
);

const rotateManyOutcomeSchema = exact<RotateManyOutcome>()(
  z.discriminatedUnion('ok', [
    z.strictObject({ portId: z.string(), ok: z.literal(true), receipt: rotationReceiptSchema }),
    z.strictObject({ portId: z.string(), ok: z.literal(false), error: ipcErrorSchema }),
  ]),
);

const relocationSchema = exact<RelocationProgress>()(
  z.strictObject({
    portId: z.string(),
    state: z.enum(['provisioning', 'active', 'failed']),
    startedAt: iso,
    nextCheckAt: nullableString,
    checks: z.number(),
    message: nullableString,
  }),
);

const ipHistoryViewSchema = exact<IpHistoryView>()(
  z.strictObject({
    data: z.array(ipHistoryEntrySchema.extend({ receipt: rotationReceiptSchema.nullable() })),
    pagination: z.strictObject({
      page: z.number(),
      perPage: z.number(),
      total: z.number(),
      totalPages: z.number(),
    }),
  }),
);

const ipHistoryExportSchema = exact<IpHistoryExport>()(
  z.strictObject({ fileName: z.string(), csv: z.string(), rows: z.number() }),
);

const healthCheckSchema = z.strictObject({
  at: iso,
  ok: z.boolean(),
  status: nullableNumber,
  connectMs: nullableNumber,
  firstByteMs: nullableNumber,
  exitIp: nullableString,
  asn: nullableNumber,
  country: nullableString,
  errorKind: nullableString,
  error: nullableString,
});

const checkScores = {
  status: z.enum(['up', 'down', 'unknown']),
  statusSince: nullableString,
  failuresInARow: z.number(),
  lastCheck: healthCheckSchema.nullable(),
  uptime24h: nullableNumber,
  uptime30d: nullableNumber,
  checks24h: z.number(),
  checks30d: z.number(),
  latency24h: z.strictObject({
    connectP50: nullableNumber,
    connectP95: nullableNumber,
    firstByteP50: nullableNumber,
    firstByteP95: nullableNumber,
    firstByteMax: nullableNumber,
  }),
};

const portHealthSchema = exact<PortHealth>()(
  z.strictObject({
    ...checkScores,
    portId: z.string(),
    rotations30d: z.number(),
    uniqueIpRatio30d: nullableNumber,
    unchanged30d: z.number(),
    repeated30d: z.number(),
    drift30d: z.number(),
    lastVerdict: verdictSchema.nullable(),
  }),
);

const subscriptionHealthSchema = exact<SubscriptionHealth>()(
  z.strictObject({ ...checkScores, subscriptionId: z.string() }),
);

const portHealthHistorySchema = exact<PortHealthHistory>()(
  z.strictObject({
    portId: z.string(),
    range: z.enum(['24h', '30d']),
    segments: z.array(
      z.strictObject({
        start: iso,
        checks: z.number(),
        failures: z.number(),
        firstByteP50: nullableNumber,
        firstByteP95: nullableNumber,
      }),
    ),
    recent: z.array(healthCheckSchema),
  }),
);

// Subscriptions ---------------------------------------------------------------------------------------

const textExportSchema = exact<TextExport>()(
  z.strictObject({ fileName: z.string(), text: z.string(), rows: z.number() }),
);

const createSubUsersSchema = exact<CreateSubUsersOutcome>()(
  z.strictObject({
    created: z.array(subUserSchema),
    notCreated: z.array(z.strictObject({ label: z.string(), error: ipcErrorSchema })),
    stoppedAtLimit: z.boolean(),
    limit: nullableNumber,
  }),
);

const proxyStringSchema = exact<ProxyStringResult>()(
  z.strictObject({ lines: z.array(z.string()), host: z.string(), port: z.number(), password: z.string() }),
);

// Top-ups ---------------------------------------------------------------------------------------------

const planChoiceSchema = exact<TopUpPlanChoice>()(
  z.strictObject({ planId: z.string(), label: z.string(), source: z.enum(['subscription', 'port']) }),
);

const paymentDetailsSchema = exact<TopUpPaymentDetails>()(
  z.strictObject({
    topUpId: z.string(),
    paymentUri: z.string(),
    qrSvg: z.string(),
    depositAddress: z.string(),
    amountCrypto: z.string(),
    coin: z.string(),
    network: z.string(),
    tokenContract: nullableString,
    explorerUrl: nullableString,
    explorerHost: nullableString,
  }),
);

const topUpsCsvSchema = exact<TopUpsCsvExport>()(
  z.strictObject({ fileName: z.string(), csv: z.string(), rows: z.number() }),
);

const pendingTopUpSchema = exact<PendingTopUpSummary>()(
  z.strictObject({ profileId: z.string(), topUpId: z.string(), status: z.string(), text: z.string() }),
);

// Schedules -------------------------------------------------------------------------------------------

const scheduleRunSchema = exact<ScheduleRun>()(
  z.strictObject({
    at: iso,
    trigger: z.enum(['schedule', 'catch-up', 'retry']),
    result: z.enum(['new-ip', 'same-ip', 'failed', 'rate-limited', 'skipped-offline']),
    previousIp: nullableString,
    newIp: nullableString,
    error: nullableString,
  }),
);

const schedulesViewSchema = exact<SchedulesView>()(
  z.strictObject({
    profileId: z.string(),
    paused: z.boolean(),
    schedules: z.array(
      z.strictObject({
        profileId: z.string(),
        portId: z.string(),
        cadence: z.discriminatedUnion('kind', [
          z.strictObject({ kind: z.literal('every'), seconds: z.number() }),
          z.strictObject({
            kind: z.literal('cron'),
            expression: z.string(),
            timezone: z.string().optional(),
          }),
        ]),
        jitterSeconds: z.number(),
        staggerSeconds: z.number(),
        offsetSeconds: z.number(),
        nextRunAt: nullableString,
        consecutiveFailures: z.number(),
        lastRuns: z.array(scheduleRunSchema),
      }),
    ),
  }),
);

// Alerts ------------------------------------------------------------------------------------------------

const screenSchema = z.enum(['ports', 'subscriptions', 'topups', 'local-proxies', 'settings']);

const alertViewSchema = exact<AlertView>()(
  z.strictObject({
    id: z.string(),
    key: z.string(),
    kind: z.enum(ALERT_KIND_NAMES),
    profileId: z.string(),
    subjectId: z.string(),
    level: z.enum(['warning', 'error']),
    title: z.string(),
    message: z.string(),
    raisedAt: iso,
    screen: screenSchema,
  }),
);

const channelKindSchema = z.enum(['webhook', 'telegram', 'ntfy', 'slack', 'discord', 'email']);
const eventTypes = Object.keys(DELIVERY_EVENT_SCHEMAS) as [
  keyof typeof DELIVERY_EVENT_SCHEMAS,
  ...(keyof typeof DELIVERY_EVENT_SCHEMAS)[],
];
const eventTypeSchema = z.enum(eventTypes);

const alertChannelSchema = exact<AlertChannelView>()(
  z.strictObject({
    id: z.string(),
    kind: channelKindSchema,
    name: z.string(),
    destination: z.string(),
    hasSecret: z.boolean(),
    localProxyId: nullableString,
    viaPort: z.strictObject({ profileId: z.string(), portId: z.string() }).nullable(),
    rule: z.strictObject({
      events: z.array(eventTypeSchema),
      quietMinutes: z.partialRecord(eventTypeSchema, z.number()),
      digestMinutes: nullableNumber,
    }),
    createdAt: iso,
    health: z.strictObject({
      consecutiveFailures: z.number(),
      lastSuccessAt: nullableString,
      lastFailureAt: nullableString,
      lastError: nullableString,
      pending: z.number(),
      deadLetters: z.number(),
      failing: z.boolean(),
    }),
  }),
);

const deliveryLogSchema = exact<DeliveryLogView>()(
  z.strictObject({
    entries: z.array(
      z.strictObject({
        eventId: z.string(),
        eventType: z.union([eventTypeSchema, z.literal('digest')]),
        channelId: z.string(),
        channelName: z.string(),
        channelKind: channelKindSchema,
        status: z.enum(['pending', 'sent', 'dead', 'suppressed', 'in_digest']),
        attempts: z.number(),
        queuedAt: iso,
        lastAttemptAt: nullableString,
        nextAttemptAt: nullableString,
        sentAt: nullableString,
        lastError: nullableString,
        digestId: nullableString,
      }),
    ),
    sendsHere: z.boolean(),
  }),
);

// Proxy tests ---------------------------------------------------------------------------------------------

const protocolSchema = z.enum(['http', 'socks5']);
const targetingSchema = z.strictObject({
  country: z.string().optional(),
  state: z.string().optional(),
  city: z.string().optional(),
  asn: z.int().optional(),
  zip: z.string().optional(),
  session: z.string().optional(),
});

const proxyTestResultSchema = exact<ProxyTestResult>()(
  z.strictObject({
    target: z.discriminatedUnion('kind', [
      z.strictObject({ kind: z.literal('port'), portId: z.string(), protocol: protocolSchema }),
      z.strictObject({
        kind: z.literal('subscription'),
        subscriptionId: z.string(),
        subUserId: z.string().optional(),
        targeting: targetingSchema.optional(),
        protocol: protocolSchema,
      }),
    ]),
    proxy: z.strictObject({ protocol: protocolSchema, host: z.string(), port: z.number() }),
    echoUrl: z.string(),
    checkedAt: iso,
    ok: z.boolean(),
    exit: z
      .strictObject({
        ip: z.string(),
        country: nullableString,
        city: nullableString,
        asn: nullableNumber,
        carrier: nullableString,
      })
      .nullable(),
    timings: z.strictObject({ connectMs: nullableNumber, firstByteMs: nullableNumber, totalMs: z.number() }),
    failure: z
      .strictObject({
        kind: z.enum([
          'credentials',
          'no_exit',
          'targeting',
          'forbidden',
          'unavailable',
          'refused',
          'unreachable',
          'timeout',
          'tls',
          'echo',
          'lookup',
        ]),
        status: nullableNumber,
        message: z.string(),
        detail: nullableString,
      })
      .nullable(),
  }),
);

// Local proxies -------------------------------------------------------------------------------------------

const endpointSchema = z.strictObject({ host: z.string(), port: z.number() });

const localProxySchema = exact<LocalProxyView>()(
  z.strictObject({
    id: z.string(),
    label: z.string(),
    profileId: z.string(),
    url: z.string(),
    listen: endpointSchema,
    allowNetwork: z.boolean(),
    auth: z.strictObject({ username: z.string() }).nullable(),
    upstream: z.discriminatedUnion('kind', [
      z.strictObject({ kind: z.literal('port'), portId: z.string() }),
      z.strictObject({
        kind: z.literal('subscription'),
        subscriptionId: z.string(),
        subUserId: z.string().optional(),
        targeting: targetingSchema.optional(),
      }),
    ]),
    upstreamEndpoint: endpointSchema.nullable(),
    closeOnRotation: z.boolean(),
    enabled: z.boolean(),
    state: z.enum(['running', 'stopped', 'failed', 'elsewhere']),
    listenError: nullableString,
    stats: z.strictObject({
      openConnections: z.number(),
      requests: z.number(),
      bytesUp: z.number(),
      bytesDown: z.number(),
      failures: z.number(),
      rejectedConnections: z.number(),
    }),
    lastError: z
      .strictObject({
        at: iso,
        kind: z.enum([
          'credentials',
          'no_exit',
          'targeting',
          'forbidden',
          'unavailable',
          'refused',
          'unreachable',
          'timeout',
          'lookup',
        ]),
        status: nullableNumber,
        message: z.string(),
        detail: nullableString,
      })
      .nullable(),
    health: z
      .strictObject({
        status: checkScores.status,
        statusSince: checkScores.statusSince,
        failuresInARow: checkScores.failuresInARow,
        lastCheck: checkScores.lastCheck,
      })
      .nullable(),
    createdAt: iso,
  }),
);

const localProxiesSchema = exact<LocalProxiesView>()(
  z.strictObject({
    proxies: z.array(localProxySchema),
    runsHere: z.boolean(),
    message: nullableString,
    suggestedPort: z.number(),
  }),
);

// Overview --------------------------------------------------------------------------------------------------

const levelSchema = z.enum(['error', 'warning', 'info']);
const levelWordSchema = z.enum(['Now', 'Soon', 'FYI']);
const attentionKindSchema = z.enum([
  'port_expired',
  'port_expiring',
  'subscription_expired',
  'subscription_depleted',
  'subscription_expiring',
  'subscription_traffic_low',
  'topup_awaiting_payment',
  'topup_verifying',
  'topup_declarable',
  'schedule_failing',
  'proxy_test_failed',
  'local_proxy_failing',
  'alert_channel_failing',
  'port_down',
  'port_rotation_unchanged',
  'alert',
]);
// A route is a template literal type zod cannot say; as JSON Schema it is a string.
const appRouteSchema = z.string() as unknown as z.ZodType<AppRoute>;
const sourceSchema = z.discriminatedUnion('state', [
  z.strictObject({ state: z.literal('held'), readAt: iso }),
  z.strictObject({ state: z.literal('read'), readAt: iso }),
  z.strictObject({ state: z.literal('failed'), message: z.string(), lastReadAt: nullableString }),
]);

const healthSnapshotSchema = exact<HealthSnapshot>()(
  z.strictObject({
    profileId: z.string(),
    generatedAt: iso,
    expiryWarningDays: z.number(),
    items: z.array(
      z.strictObject({
        id: z.string(),
        kind: attentionKindSchema,
        level: levelSchema,
        levelWord: levelWordSchema,
        title: z.string(),
        detail: z.string(),
        subject: z.strictObject({
          type: z.enum(['port', 'subscription', 'topup', 'alert', 'local_proxy', 'alert_channel']),
          id: z.string(),
          label: z.string(),
        }),
        dueAt: nullableString,
        dueIsForecast: z.boolean(),
        dueIn: nullableString,
        screen: screenSchema,
        alertKey: nullableString,
        alertKind: z.enum(ALERT_KIND_NAMES).optional(),
        action: z.discriminatedUnion('kind', [
          z.strictObject({
            kind: z.literal('enable_auto_renew'),
            label: z.string(),
            target: z.enum(['port', 'subscription']),
            id: z.string(),
          }),
          z.strictObject({ kind: z.literal('open'), label: z.string() }),
          z.strictObject({ kind: z.literal('continue_top_up'), label: z.string(), topUpId: z.string() }),
          z.strictObject({
            kind: z.literal('test_again'),
            label: z.string(),
            portId: z.string(),
            protocol: protocolSchema,
          }),
          z.strictObject({ kind: z.literal('top_up'), label: z.string() }),
          z.strictObject({ kind: z.literal('dismiss_alert'), label: z.string(), alertId: z.string() }),
        ]),
        route: appRouteSchema.nullable(),
      }),
    ),
    counts: z.strictObject({ error: z.number(), warning: z.number(), info: z.number() }),
    totals: z.strictObject({
      ports: z.number(),
      subscriptions: z.number(),
      pendingTopUps: z.number(),
      schedules: z.number(),
    }),
    sources: z.strictObject({ ports: sourceSchema, subscriptions: sourceSchema, topups: sourceSchema }),
    badges: z.strictObject({
      ports: z.number(),
      subscriptions: z.number(),
      topups: z.number(),
      'local-proxies': z.number(),
      settings: z.number(),
    }),
    cards: z.array(
      z.discriminatedUnion('type', [
        z.strictObject({ type: z.literal('item'), itemId: z.string() }),
        z.strictObject({
          type: z.literal('group'),
          group: z.strictObject({
            id: z.string(),
            kind: attentionKindSchema,
            level: levelSchema,
            levelWord: levelWordSchema,
            title: z.string(),
            detail: z.string(),
            itemIds: z.array(z.string()),
            subjectIds: z.array(z.string()),
            screen: screenSchema,
            dueAt: nullableString,
            dueIn: nullableString,
            action: z
              .strictObject({
                kind: z.literal('enable_auto_renew_all'),
                label: z.string(),
                target: z.enum(['port', 'subscription']),
                ids: z.array(z.string()),
              })
              .nullable(),
            listRoute: z.string(),
          }),
        }),
      ]),
    ),
    allGood: z.boolean(),
  }),
);

/** The answers of the channels whose value is one of the contract's view types. */
export const VIEW_ANSWERS = viewAnswers({
  'ports:get': mobilePortViewSchema,
  'ports:update': mobilePortViewSchema,
  'ports:relocate': mobilePortViewSchema,
  'ports:resetPassword': mobilePortViewSchema,
  'ports:rotate': rotationReceiptSchema,
  'ports:rotateMany': z.array(rotateManyOutcomeSchema),
  'ports:relocations': z.array(relocationSchema),
  'ports:ipHistory': ipHistoryViewSchema,
  'ports:exportIpHistory': ipHistoryExportSchema,
  'ports:revealRotationLink': z.strictObject({ rotationLink: z.string() }),
  'ports:receipts': z.array(rotationReceiptSchema),
  'ports:health': z.array(portHealthSchema),
  'ports:healthHistory': portHealthHistorySchema,
  'subscriptions:resetPassword': subscriptionSchema,
  'subscriptions:health': z.array(subscriptionHealthSchema),
  'subscriptions:exportUsage': textExportSchema,
  'subscriptions:createSubUser': subUserSchema,
  'subscriptions:updateSubUser': subUserSchema,
  'subscriptions:deleteSubUser': z.strictObject({ deleted: z.literal(true) }),
  'subscriptions:createSubUsers': createSubUsersSchema,
  'subscriptions:exportCredentials': textExportSchema,
  'subscriptions:buildProxyString': proxyStringSchema,
  'topups:plans': z.array(planChoiceSchema),
  'topups:paymentDetails': paymentDetailsSchema,
  'topups:exportCsv': topUpsCsvSchema,
  'topups:pending': z.array(pendingTopUpSchema),
  'schedules:list': schedulesViewSchema,
  'schedules:set': schedulesViewSchema,
  'schedules:remove': schedulesViewSchema,
  'schedules:pause': schedulesViewSchema,
  'schedules:runs': z.array(scheduleRunSchema),
  'alerts:list': z.array(alertViewSchema),
  'alerts:dismiss': z.strictObject({ dismissed: z.boolean() }),
  'alertRouting:channels': z.array(alertChannelSchema),
  'alertRouting:deliveries': deliveryLogSchema,
  'proxy:test': proxyTestResultSchema,
  'proxy:testMany': z.array(proxyTestResultSchema),
  'localProxies:list': localProxiesSchema,
  'localProxies:add': localProxySchema,
  'localProxies:update': localProxySchema,
  'localProxies:remove': z.strictObject({ removed: z.literal(true) }),
  'localProxies:start': localProxySchema,
  'localProxies:stop': localProxySchema,
  'overview:get': healthSnapshotSchema,
});
