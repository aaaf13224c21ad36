import { z } from 'zod';
import { call, type DomainCalls } from './define';
import { resourceId } from './shared-inputs';

/** Most targets one "Test all" may name (a page of ports or a list of built strings). */
const PROXY_TEST_MANY_MAX = 200;

const id = resourceId('Choose what to test');

/** The username targeting segments (see `core/subscriptions/proxy-string.ts`); shapes only. */
export const proxyTargetingSchema = z.strictObject({
  country: z
    .string()
    .regex(/^[A-Z]{2}$/, 'A country is a two-letter upper-case code, e.g. US.')
    .optional(),
  state: z
    .string()
    .regex(/^[a-z0-9_]{1,64}$/, 'A state is a catalog id, e.g. california.')
    .optional(),
  city: z
    .string()
    .regex(/^[a-z0-9_]{1,64}$/, 'A city is a catalog id, e.g. los_angeles.')
    .optional(),
  asn: z.int().min(1).max(4_294_967_295).optional(),
  zip: z
    .string()
    .regex(/^\d{5}$/, 'A ZIP code is exactly 5 digits.')
    .optional(),
  session: z
    .string()
    .regex(/^[A-Za-z0-9_]{1,64}$/, 'A session id is 1-64 letters, digits or underscores.')
    .optional(),
});

const PROXY_PROTOCOLS = ['http', 'socks5'] as const;
export type ProxyProtocol = (typeof PROXY_PROTOCOLS)[number];

/**
 * What to test: a mobile port, or a subscription (its main user or one sub-user) with targeting.
 * Never credentials: main reads them from the API, and they go only to the proxy.
 */
const proxyTestTargetSchema = z.discriminatedUnion('kind', [
  z.strictObject({
    kind: z.literal('port'),
    portId: id,
    protocol: z.enum(PROXY_PROTOCOLS).default('http'),
  }),
  z.strictObject({
    kind: z.literal('subscription'),
    subscriptionId: id,
    subUserId: id.optional(),
    targeting: proxyTargetingSchema.optional(),
    protocol: z.enum(PROXY_PROTOCOLS),
  }),
]);
export type ProxyTestTarget = z.output<typeof proxyTestTargetSchema>;
export type ProxyTestTargetInput = z.input<typeof proxyTestTargetSchema>;

/**
 * Why a test failed, as the user acts on it: the gateway's refusals (`credentials` 407, `no_exit`
 * no exit IP matches the targeting, `targeting` malformed targeting, `forbidden` disabled, over cap or
 * out of traffic, `unavailable` a port being moved), the network (`unreachable`, `timeout`), an echo
 * URL that did not say an IP (`echo`), or the API lookup of the credentials (`lookup`).
 */
export type ProxyFailureKind =
  | 'credentials'
  | 'no_exit'
  | 'targeting'
  | 'forbidden'
  | 'unavailable'
  | 'refused'
  | 'unreachable'
  | 'timeout'
  | 'tls'
  | 'echo'
  | 'lookup';

export interface ProxyExit {
  ip: string;
  country: string | null;
  city: string | null;
  asn: number | null;
  carrier: string | null;
}

export interface ProxyTestResult {
  target: ProxyTestTarget;
  /** Where the request went (never the password). */
  proxy: { protocol: ProxyProtocol; host: string; port: number };
  /** The URL asked through the proxy (the sandbox's echo in demo, the IP-echo setting otherwise). */
  echoUrl: string;
  /** When the test ended (ISO 8601). */
  checkedAt: string;
  ok: boolean;
  exit: ProxyExit | null;
  /** TCP connection to the proxy; the first byte of the answer (both from the start); null if never. */
  timings: { connectMs: number | null; firstByteMs: number | null; totalMs: number };
  failure: {
    kind: ProxyFailureKind;
    /** The HTTP status the proxy answered, when it answered one. */
    status: number | null;
    /** One sentence saying what happened and what to do. */
    message: string;
    /** The gateway's own words (its error page), when it sent some. */
    detail: string | null;
  } | null;
}

/**
 * A proxy test sends traffic through a paid port or subscription, so it needs `rotate` (the scope of
 * using the account's proxies) rather than `read`: a read-only token cannot spend traffic.
 */
export const proxyCalls = {
  /** One request through the proxy to the echo URL; throws only when the target cannot be looked up. */
  'proxy:test': call<ProxyTestResult>('rotate')(z.strictObject({ target: proxyTestTargetSchema })),
  /** Several at a bounded concurrency; each target's failure (lookup included) is in its result. */
  'proxy:testMany': call<ProxyTestResult[]>('rotate')(
    z.strictObject({ targets: z.array(proxyTestTargetSchema).min(1).max(PROXY_TEST_MANY_MAX) }),
  ),
} as const satisfies DomainCalls<'proxy'>;
