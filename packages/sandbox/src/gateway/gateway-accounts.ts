import { formatIsoDate } from '../http/input-reader';
import { carrierAsn } from '../mobile/ip-pool';
import { currentEntry, type MobilePortRecord } from '../mobile/port-record';
import type { SandboxWorld } from '../sandbox-world';
import {
  liveSubUsers,
  settleSubscription,
  subscriptionRemainingBytes,
} from '../subscriptions/subscription-traffic';
import type { SubscriptionRecord, SubUserRecord, TrafficConsumer } from '../subscriptions/subscription-types';
import { addGatewayTraffic } from '../usage/usage-report';
import { acceptsPassword, type PasswordHolder } from './gateway-credentials';
import { type ExitInfo, resolveSubscriptionExit } from './gateway-exits';
import { parseProxyUsername, type Targeting, targetingKey } from './gateway-username';

/** How long a `-session-{id}` keeps its exit IP, on the sandbox clock, from its first request. */
const SESSION_MS = 10 * 60_000;

/** An account the gateway knows, found by the username part of a proxy username. */
export type GatewayAccount =
  | { type: 'subscription'; sub: SubscriptionRecord; consumer: TrafficConsumer; holder: PasswordHolder }
  | {
      type: 'sub-user';
      sub: SubscriptionRecord;
      consumer: TrafficConsumer;
      holder: PasswordHolder;
      subUser: SubUserRecord;
    }
  | { type: 'mobile-port'; port: MobilePortRecord; holder: PasswordHolder };

/**
 * Why the gateway refuses, each with its own answer: `credentials` 407 (SOCKS: RFC 1929 failure),
 * `forbidden` 403 (SOCKS reply 0x02), `unavailable` 503 (0x03), `targeting` 400 and `no_exit` 502
 * (both 0x04).
 */
export type RefusalKind = 'credentials' | 'forbidden' | 'unavailable' | 'targeting' | 'no_exit';

export interface Refusal {
  kind: RefusalKind;
  title: string;
  message: string;
}

export interface SessionInfo {
  id: string;
  /** Until when (epoch ms) this session keeps its exit IP. */
  keptUntil: number;
}

/** A connection or request the gateway lets through. */
export interface Admission {
  account: GatewayAccount;
  /** The username as given (with its targeting) and the password, re-checked on every request of a tunnel. */
  username: string;
  password: string;
  exit: ExitInfo;
  session: SessionInfo | null;
}

const refuse = (kind: RefusalKind, title: string, message: string): Refusal => ({ kind, title, message });

function findAccount(world: SandboxWorld, username: string): GatewayAccount | null {
  for (const sub of world.state.subscriptions.subscriptions) {
    if (sub.username === username) return { type: 'subscription', sub, consumer: sub.main, holder: sub };
    const subUser = liveSubUsers(sub).find((s) => s.username === username);
    if (subUser) return { type: 'sub-user', sub, consumer: subUser, holder: subUser, subUser };
  }
  const port = world.state.mobile.ports.find((p) => p.username === username);
  return port ? { type: 'mobile-port', port, holder: port } : null;
}

export const accountId = (account: GatewayAccount): string =>
  account.type === 'mobile-port'
    ? account.port.id
    : account.type === 'sub-user'
      ? account.subUser.id
      : account.sub.id;

/**
 * Bytes this account may still pass (its sub-user cap and its subscription's remaining traffic);
 * unlimited for a mobile port. Call after `checkStanding`, which settles the subscription.
 */
export function allowance(account: GatewayAccount): number {
  if (account.type === 'mobile-port') return Number.POSITIVE_INFINITY;
  const remaining = subscriptionRemainingBytes(account.sub);
  if (account.type === 'sub-user' && account.subUser.trafficLimitBytes !== null) {
    return Math.min(remaining, Math.max(0, account.subUser.trafficLimitBytes - account.subUser.usedBytes));
  }
  return remaining;
}

/** Whether the account may use the gateway at `now`; settles its subscription's traffic first. */
function checkStanding(world: SandboxWorld, account: GatewayAccount, now: number): Refusal | null {
  if (account.type === 'mobile-port') {
    const { port } = account;
    if (port.status === 'expired') {
      return refuse(
        'forbidden',
        'Port expired',
        `The mobile port ${port.id} expired; renew it to use it again.`,
      );
    }
    if (port.status === 'provisioning') {
      return refuse(
        'unavailable',
        'Port provisioning',
        `The mobile port ${port.id} is moving to a new modem; try again once it is active.`,
      );
    }
    if (port.modemOfflineUntil !== undefined && now < port.modemOfflineUntil) {
      return refuse(
        'unavailable',
        'Modem offline',
        `The modem of mobile port ${port.id} is not answering; it is expected back at ` +
          `${new Date(port.modemOfflineUntil).toISOString()}.`,
      );
    }
    return null;
  }
  const { sub } = account;
  settleSubscription(sub, now, world.state.account);
  if (sub.expiresAt !== null && sub.expiresAt <= now) {
    return refuse('forbidden', 'Subscription expired', `The subscription ${sub.id} has expired.`);
  }
  if (subscriptionRemainingBytes(sub) === 0) {
    return refuse('forbidden', 'No traffic left', `The subscription ${sub.id} has used all its traffic.`);
  }
  if (account.type === 'sub-user') {
    const { subUser } = account;
    if (!subUser.enabled) {
      return refuse('forbidden', 'Sub-user disabled', `The sub-user ${subUser.username} is disabled.`);
    }
    if (subUser.trafficLimitBytes !== null && subUser.usedBytes >= subUser.trafficLimitBytes) {
      return refuse(
        'forbidden',
        'Traffic cap reached',
        `The sub-user ${subUser.username} has used its traffic cap of ${subUser.trafficLimitBytes} bytes.`,
      );
    }
  }
  return null;
}

/** Picks exit IPs; sessions live in memory (a restart starts every session afresh). */
export class ExitPlanner {
  private readonly sessions = new Map<string, number>();
  private draws = 0;

  constructor(private readonly seed: number) {}

  plan(
    account: GatewayAccount,
    targeting: Targeting,
    now: number,
  ): { exit: ExitInfo; session: SessionInfo | null } | Refusal {
    if (account.type === 'mobile-port') {
      const { port } = account;
      // The port's exit is its modem: the echo follows rotations, relocations and the control API's
      // network move.
      const network = port.exitNetwork;
      return {
        exit: {
          ip: currentEntry(port).ip,
          country: network?.country ?? port.country,
          state: null,
          city: port.city,
          zip: null,
          asn: network?.asn ?? carrierAsn(port.country, port.carrier),
          asnName: network?.asnName ?? port.carrierName,
          carrier: port.carrier,
          carrierName: port.carrierName,
          networkType: port.networkType,
        },
        session: null,
      };
    }
    const base = `${this.seed}|${accountId(account)}|${targetingKey(targeting)}`;
    let draw: string;
    let session: SessionInfo | null = null;
    if (targeting.session !== undefined) {
      const key = `${base}|${targeting.session}`;
      let startedAt = this.sessions.get(key);
      if (startedAt === undefined || now >= startedAt + SESSION_MS) {
        startedAt = now;
        this.sessions.set(key, startedAt);
        this.prune(now);
      }
      draw = `${key}|${startedAt}`;
      session = { id: targeting.session, keptUntil: startedAt + SESSION_MS };
    } else {
      // Without a session every request (or tunnel) gets a new exit, as rotating proxies do.
      this.draws += 1;
      draw = `${base}|request ${this.draws}`;
    }
    const resolved = resolveSubscriptionExit(account.sub.productId, targeting, draw);
    if (!resolved.ok) return refuse('no_exit', 'No exit IP matches', resolved.message);
    return { exit: resolved.exit, session };
  }

  private prune(now: number): void {
    if (this.sessions.size < 10_000) return;
    for (const [key, startedAt] of this.sessions) {
      if (now >= startedAt + SESSION_MS) this.sessions.delete(key);
    }
  }
}

/**
 * Decides whether a proxy username and password may open a request or tunnel at `now`, and where it
 * exits. Order: credentials (407), then the account's standing (403/503), then targeting (400/502),
 * so that nothing about an account shows before its password is right.
 */
export function admit(
  world: SandboxWorld,
  planner: ExitPlanner,
  username: string,
  password: string,
  now: number,
): Admission | Refusal {
  const parsed = parseProxyUsername(username);
  const account = findAccount(world, parsed.account);
  if (!account || !acceptsPassword(account.holder, password, now)) {
    return refuse('credentials', 'Proxy authentication required', 'Wrong proxy username or password.');
  }
  const standing = checkStanding(world, account, now);
  if (standing) return standing;
  if (!parsed.ok) return refuse('targeting', 'Invalid targeting', parsed.message);
  if (account.type === 'mobile-port' && parsed.hasTargeting) {
    return refuse(
      'targeting',
      'Invalid targeting',
      "Mobile ports take no targeting segments: the exit is the port's modem. Use the plain port username.",
    );
  }
  const planned = planner.plan(account, parsed.targeting, now);
  if ('kind' in planned) return planned;
  return { account, username, password, ...planned };
}

/** Re-checks a tunnel's account before each request inside it (reset passwords, toggles and caps apply). */
export function recheck(world: SandboxWorld, admission: Admission, now: number): Refusal | null {
  const account = findAccount(world, parseProxyUsername(admission.username).account);
  if (!account || !acceptsPassword(account.holder, admission.password, now)) {
    return refuse(
      'forbidden',
      'Credentials no longer valid',
      'The password of this tunnel was reset more than 60 seconds ago, or the account is gone.',
    );
  }
  admission.account = account;
  return checkStanding(world, account, now);
}

/**
 * Adds one exchange's bytes to the account's usage at `now`: a subscription's consumer (its
 * `trafficUsedBytes` and daily points) or a port's report. The caller has checked `allowance`.
 */
export function recordTraffic(
  world: SandboxWorld,
  account: GatewayAccount,
  exit: ExitInfo,
  bytes: number,
  requests: number,
  now: number,
): void {
  if (bytes <= 0 && requests <= 0) return;
  const date = formatIsoDate(now);
  if (account.type === 'mobile-port') {
    account.port.gateway ??= {};
    addGatewayTraffic(account.port.gateway, date, bytes, requests, exit.country);
    return;
  }
  // The simulated load is accounted up to now first, so the gateway's bytes come after it in time.
  settleSubscription(account.sub, now, world.state.account);
  const consumer = account.consumer;
  consumer.daily[date] = (consumer.daily[date] ?? 0) + bytes;
  consumer.usedBytes += bytes;
  consumer.gateway ??= {};
  addGatewayTraffic(consumer.gateway, date, bytes, requests, exit.country);
}
