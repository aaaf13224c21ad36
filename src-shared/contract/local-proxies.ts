import { z } from 'zod';
import { LABEL_MAX } from '../limits';
import { call, type DomainCalls, type DomainEvents, event } from './define';
import type { PortHealthCheck, PortHealthStatus } from './port-health';
import { proxyTargetingSchema } from './proxy';
import { noInput, resourceId } from './shared-inputs';

/**
 * Local proxies: a listener on this computer (`127.0.0.1:24001`, HTTP with CONNECT and SOCKS5 on the
 * same port) that forwards to one upstream (a mobile port, or a subscription's main user or sub-user
 * with targeting) and adds the upstream's credentials itself, so tools use it without any. What is
 * stored is configuration (`settings.json`); the upstream's credentials are read from the service
 * and never stored, and a local password (only needed off loopback) is kept in the OS keychain.
 */

/** Ports a local proxy may take: no privileged ports; suggestions start at 24000. */
export const LOCAL_PROXY_PORTS = { min: 1024, max: 65_535, suggestedFrom: 24_000 } as const;
/** Local proxies one data folder may hold (every profile together). */
export const LOCAL_PROXIES_MAX = 50;
const LOCAL_PROXY_ID_MAX = 64;
const LOCAL_USERNAME_MAX = 64;
const LOCAL_PASSWORD = { min: 8, max: 128 } as const;

/** True for `127.0.0.0/8` and `::1`: addresses only this computer can reach. */
export function isLoopbackAddress(address: string): boolean {
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(address) || address === '::1';
}

const FORBIDDEN_LABEL_CHARACTERS = /[\p{Cc}\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/u;

const localProxyId = resourceId('Choose a local proxy', LOCAL_PROXY_ID_MAX);

const localProxyLabel = z
  .string()
  .trim()
  .min(1, 'Give the local proxy a name')
  .max(LABEL_MAX, `At most ${LABEL_MAX} characters`)
  .refine((value) => !FORBIDDEN_LABEL_CHARACTERS.test(value), {
    message: 'No control or text-direction characters',
  });

const localProxyPort = z
  .int('A whole port number')
  .min(LOCAL_PROXY_PORTS.min, `A port from ${LOCAL_PROXY_PORTS.min} (lower ones need administrator rights)`)
  .max(LOCAL_PROXY_PORTS.max, `At most ${LOCAL_PROXY_PORTS.max}`);

/** An IP address literal: the interface to listen on (`0.0.0.0` and `::` mean every interface). */
const bindAddress = z.union([z.ipv4(), z.ipv6()], { error: 'An IP address, e.g. 127.0.0.1' });

const upstreamId = resourceId('Choose what the local proxy forwards to');

/** Where a local proxy forwards to: never credentials, only what to look them up by. */
const localProxyUpstreamSchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('port'), portId: upstreamId }),
  z.strictObject({
    kind: z.literal('subscription'),
    subscriptionId: upstreamId,
    /** Absent: the subscription's main user. */
    subUserId: upstreamId.optional(),
    targeting: proxyTargetingSchema.optional(),
  }),
]);
export type LocalProxyUpstream = z.output<typeof localProxyUpstreamSchema>;

/** The user name and password a tool must send (HTTP `Proxy-Authorization`, SOCKS5 user/pass). */
const localAuthSchema = z.strictObject({
  username: z
    .string()
    .min(1, 'A user name')
    .max(LOCAL_USERNAME_MAX, `At most ${LOCAL_USERNAME_MAX} characters`)
    .regex(/^[\x21-\x39\x3b-\x7e]+$/, 'Visible characters without spaces or a colon'),
  password: z
    .string()
    .min(LOCAL_PASSWORD.min, `At least ${LOCAL_PASSWORD.min} characters`)
    .max(LOCAL_PASSWORD.max, `At most ${LOCAL_PASSWORD.max} characters`)
    .regex(/^[\x21-\x7e]+$/, 'Visible characters without spaces'),
});

/**
 * One local proxy as stored in `settings.json`: configuration only. `profileId` is `demo` for the
 * demo's account (its profile id is new every run); `auth` keeps the user name, the password is in
 * the keychain.
 */
export const localProxyConfigSchema = z.object({
  id: z.string().min(1).max(LOCAL_PROXY_ID_MAX),
  label: z.string().min(1).max(LABEL_MAX),
  profileId: z.string().min(1).max(128),
  listenPort: z.int().min(LOCAL_PROXY_PORTS.min).max(LOCAL_PROXY_PORTS.max),
  bindAddress: z.string().min(1).max(64).default('127.0.0.1'),
  /** The explicit choice that allows an address other computers can reach. */
  allowNetwork: z.boolean().default(false),
  auth: z
    .object({ username: z.string().min(1).max(LOCAL_USERNAME_MAX) })
    .nullable()
    .default(null),
  upstream: localProxyUpstreamSchema,
  /** Close open connections when the upstream port rotates, so the next request leaves from the new IP. */
  closeOnRotation: z.boolean().default(false),
  /** Started: it listens whenever the app (the process running background jobs) runs. */
  enabled: z.boolean().default(true),
  createdAt: z.string().min(1).max(64),
});
export type LocalProxyConfig = z.output<typeof localProxyConfigSchema>;

/** Why the last failed request failed, as the user acts on it. */
export type LocalProxyErrorKind =
  | 'credentials'
  | 'no_exit'
  | 'targeting'
  | 'forbidden'
  | 'unavailable'
  | 'refused'
  | 'unreachable'
  | 'timeout'
  | 'lookup';

export interface LocalProxyError {
  /** ISO 8601. */
  at: string;
  kind: LocalProxyErrorKind;
  /** The upstream's HTTP status, when it answered one. */
  status: number | null;
  /** One sentence: what happened and what to do. */
  message: string;
  /** The gateway's own words (its error page), when it sent some. Never a password. */
  detail: string | null;
}

export interface LocalProxyStats {
  openConnections: number;
  /** HTTP requests, CONNECT tunnels and SOCKS5 connections since it started. */
  requests: number;
  /** Bytes from the tools (sent up) and to them (received), since it started. */
  bytesUp: number;
  bytesDown: number;
  /** Requests the upstream refused or that never reached it. */
  failures: number;
  /** Connections refused because the limit of open connections was reached. */
  rejectedConnections: number;
}

/**
 * `running`: it accepts connections. `stopped`: the user stopped it. `failed`: it could not listen
 * (`listenError` says why, e.g. the port is taken). `elsewhere`: another Proxy Manager process runs
 * the background jobs, and this one with them.
 */
type LocalProxyState = 'running' | 'stopped' | 'failed' | 'elsewhere';

export interface LocalProxyView {
  id: string;
  label: string;
  profileId: string;
  /** `http://127.0.0.1:24001`: what tools are given (no credentials). */
  url: string;
  listen: { host: string; port: number };
  allowNetwork: boolean;
  /** The local user name tools must send; the password is never shown. */
  auth: { username: string } | null;
  upstream: LocalProxyUpstream;
  /** The upstream as last read (host and port only; never the user name or password). */
  upstreamEndpoint: { host: string; port: number } | null;
  closeOnRotation: boolean;
  enabled: boolean;
  state: LocalProxyState;
  listenError: string | null;
  stats: LocalProxyStats;
  lastError: LocalProxyError | null;
  /** What the health checks through its own address say; null when it was never checked. */
  health: LocalProxyHealth | null;
  createdAt: string;
}

/**
 * The health checks through a local proxy's listening address (with its local login): the whole
 * chain a program uses. Down after `downAfter` failed checks in a row, up after `upAfter` good ones.
 */
export interface LocalProxyHealth {
  status: PortHealthStatus;
  /** When the status last changed (ISO 8601). */
  statusSince: string | null;
  failuresInARow: number;
  lastCheck: PortHealthCheck | null;
}

export interface LocalProxiesView {
  proxies: LocalProxyView[];
  /** Whether this process runs them (it owns the background jobs). */
  runsHere: boolean;
  /** Where they run instead, when not here. */
  message: string | null;
  /** A free port from 24000 up, for the next one. */
  suggestedPort: number;
}

export interface LocalProxiesChanged {
  proxies: LocalProxyView[];
}

const NETWORK_REFINEMENT = {
  message:
    'Listening on an address other computers can reach needs “allow network” and a local user name and password',
};

const addInput = z
  .strictObject({
    label: localProxyLabel.optional(),
    upstream: localProxyUpstreamSchema,
    /** Absent: the first free port from 24000 up. */
    listenPort: localProxyPort.optional(),
    bindAddress: bindAddress.default('127.0.0.1'),
    allowNetwork: z.boolean().default(false),
    auth: localAuthSchema.optional(),
    closeOnRotation: z.boolean().default(false),
    /** Start listening at once (default). */
    start: z.boolean().default(true),
  })
  .superRefine((value, context) => checkNetwork(value, context));

const updateInput = z
  .strictObject({
    id: localProxyId,
    label: localProxyLabel.optional(),
    upstream: localProxyUpstreamSchema.optional(),
    listenPort: localProxyPort.optional(),
    bindAddress: bindAddress.optional(),
    allowNetwork: z.boolean().optional(),
    /** null: no local password (loopback only). */
    auth: localAuthSchema.nullable().optional(),
    closeOnRotation: z.boolean().optional(),
  })
  .refine((value) => Object.keys(value).some((key) => key !== 'id'), { message: 'Nothing to change' });

/** The contract's half of the rule; the service checks the stored result (an update may change one part). */
function checkNetwork(
  value: { bindAddress?: string | undefined; allowNetwork?: boolean | undefined; auth?: unknown },
  context: z.RefinementCtx,
): void {
  if (value.bindAddress === undefined || isLoopbackAddress(value.bindAddress)) return;
  if (value.allowNetwork !== true) {
    context.addIssue({ code: 'custom', path: ['allowNetwork'], message: NETWORK_REFINEMENT.message });
  }
  if (!value.auth) {
    context.addIssue({ code: 'custom', path: ['auth'], message: NETWORK_REFINEMENT.message });
  }
}

const byId = z.strictObject({ id: localProxyId });

export const localProxiesCalls = {
  'localProxies:list': call<LocalProxiesView>('read')(noInput),
  'localProxies:add': call<LocalProxyView>('manage')(addInput),
  'localProxies:update': call<LocalProxyView>('manage')(updateInput),
  'localProxies:remove': call<{ removed: true }>('manage')(byId),
  'localProxies:start': call<LocalProxyView>('manage')(byId),
  'localProxies:stop': call<LocalProxyView>('manage')(byId),
} as const satisfies DomainCalls<'localProxies'>;

export const localProxiesEvents = {
  'localProxies:changed': event<LocalProxiesChanged>(),
} as const satisfies DomainEvents<'localProxies'>;
