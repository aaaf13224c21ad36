import { compare, subtract } from '../lib/decimal';
import type { AccountState } from '../sandbox-state';
import { findPlan } from '../orders/plan-catalog';
import type { CarrierData } from '../catalog/catalog-types';
import type { SandboxWorld } from '../sandbox-world';
import { freshModemIp, rotationDraw } from './ip-pool';
import { chooseCity, chooseNetworkType, drawRetiredEndpoint } from './port-factory';
import type { LocationRequest } from './port-location';
import {
  currentEntry,
  IP_HISTORY_CAP,
  type IpTrigger,
  MIN_ROTATION_INTERVAL_SECONDS,
  type MobilePortRecord,
  PROVISIONING_MAX_SECONDS,
  PROVISIONING_MIN_SECONDS,
} from './port-record';

const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;

export interface RotationOutcome {
  ip: string;
  previousIp: string;
  rotatedAt: number;
  nextRotationAvailableAt: number;
}

/** The earliest time the port may rotate again: 30 s after its last IP assignment, whatever caused it. */
export const nextRotationAvailableAt = (port: MobilePortRecord): number =>
  currentEntry(port).assignedAt + MIN_ROTATION_INTERVAL_SECONDS * 1000;

/** Closes the current IP and opens `ip` at `at`; the history keeps its newest `IP_HISTORY_CAP` entries. */
export function assignIp(port: MobilePortRecord, ip: string, at: number, trigger: IpTrigger): void {
  currentEntry(port).releasedAt = at;
  port.ipHistory.push({ ip, assignedAt: at, releasedAt: null, trigger });
  if (port.ipHistory.length > IP_HISTORY_CAP) {
    port.ipHistory.splice(0, port.ipHistory.length - IP_HISTORY_CAP);
  }
}

/**
 * Reconnects the modem at `at`: a new entry in the history even when the carrier hands back the same
 * IP, so the history shows every rotation and what caused it. Callers check status and rate limit.
 * `sameIp` forces the carrier's "same IP" answer, `ip` a given IP (the control API's switches, for
 * tests and demos).
 */
export function rotatePort(
  port: MobilePortRecord,
  at: number,
  trigger: IpTrigger,
  options: { sameIp?: boolean; ip?: string } = {},
): RotationOutcome {
  const previousIp = currentEntry(port).ip;
  const ip = options.sameIp
    ? previousIp
    : (options.ip ?? rotationDraw(port.id, at, port.country, port.carrier) ?? previousIp);
  assignIp(port, ip, at, trigger);
  if (port.rotation.mode === 'interval' && port.rotation.intervalMinutes !== null) {
    port.nextIntervalRotationAt = at + port.rotation.intervalMinutes * MINUTE_MS;
  }
  return {
    ip,
    previousIp,
    rotatedAt: at,
    nextRotationAvailableAt: at + MIN_ROTATION_INTERVAL_SECONDS * 1000,
  };
}

/**
 * Interval rotations due in [first, until]: one every `intervalMinutes` from `first`. When there are
 * more than the history keeps, only the last `IP_HISTORY_CAP` are recorded, which leaves exactly the
 * history that recording each one would have left (an IP depends only on the port, the time and,
 * for a "same IP" draw, the IP before it).
 */
function runIntervalRotations(port: MobilePortRecord, first: number, until: number): void {
  const stepMs = (port.rotation.intervalMinutes ?? 0) * MINUTE_MS;
  if (stepMs <= 0 || first > until) return;
  const count = Math.floor((until - first) / stepMs) + 1;
  const skipped = Math.max(0, count - IP_HISTORY_CAP);
  if (skipped > 0) {
    // The IP just before the first recorded rotation: the last skipped draw that was not "same IP".
    let ip = currentEntry(port).ip;
    for (let k = skipped - 1; k >= 0; k -= 1) {
      const drawn = rotationDraw(port.id, first + k * stepMs, port.country, port.carrier);
      if (drawn !== null) {
        ip = drawn;
        break;
      }
    }
    const lastSkippedAt = first + (skipped - 1) * stepMs;
    assignIp(port, ip, lastSkippedAt, 'interval');
  }
  for (let k = skipped; k < count; k += 1) rotatePort(port, first + k * stepMs, 'interval');
  port.nextIntervalRotationAt = first + count * stepMs;
}

/** Location entries kept per port (for usage by country); the oldest merge into the next. */
const LOCATION_CAP = 100;

/**
 * Moves the port to a free modem of `carrier` in `location`: `provisioning` until the modem is
 * online (80-100 s on the sandbox clock). Country, carrier, city, network type, host and ports change
 * at once; credentials, plan, expiry and rotation settings are kept. The old IP stays current until
 * the new modem's IP replaces it.
 */
export function startRelocation(
  port: MobilePortRecord,
  world: Pick<SandboxWorld, 'random'>,
  location: LocationRequest,
  carrier: CarrierData,
  now: number,
): void {
  port.status = 'provisioning';
  port.provisioningReadyAt =
    now + world.random.int(PROVISIONING_MIN_SECONDS, PROVISIONING_MAX_SECONDS) * 1000;
  port.nextIntervalRotationAt = null;
  port.country = location.country;
  port.carrier = carrier.id;
  port.carrierName = carrier.name;
  port.city = chooseCity(world.random, carrier, location.city);
  delete port.exitNetwork;
  port.networkType = chooseNetworkType(world.random, carrier);
  drawRetiredEndpoint(world.random);
  const lastLocation = port.locations[port.locations.length - 1];
  if (lastLocation?.country !== location.country) {
    port.locations.push({ country: location.country, since: now });
    if (port.locations.length > LOCATION_CAP) port.locations.splice(0, port.locations.length - LOCATION_CAP);
  }
}

/** The relocated port's new modem comes online at `at` with a fresh IP of its carrier. */
function finishProvisioning(port: MobilePortRecord, at: number): void {
  port.status = 'active';
  port.provisioningReadyAt = null;
  assignIp(port, freshModemIp(port.id, at, port.country, port.carrier), at, 'relocation');
  port.nextIntervalRotationAt =
    port.rotation.mode === 'interval' && port.rotation.intervalMinutes !== null
      ? at + port.rotation.intervalMinutes * MINUTE_MS
      : null;
}

/**
 * At `expiresAt` the port renews from the account balance when `autoRenew` is on, its plan is still
 * sold and the balance covers the plan's price (another period of the plan); otherwise it expires
 * for good.
 */
function reachExpiry(port: MobilePortRecord, account: AccountState): void {
  const plan = findPlan(port.planId);
  if (port.autoRenew && plan?.available && compare(account.balanceUsd, plan.unitPriceUsd) >= 0) {
    account.balanceUsd = subtract(account.balanceUsd, plan.unitPriceUsd, 2);
    port.expiresAt += plan.durationDays * DAY_MS;
    return;
  }
  port.status = 'expired';
  port.provisioningReadyAt = null;
  port.nextIntervalRotationAt = null;
}

/**
 * Applies everything time alone does to the port up to `now`, in time order: expiry or renewal,
 * the end of provisioning, interval rotations. Idempotent: the same `now` always ends in the same
 * state, whether reached in one call or many.
 */
export function settlePort(port: MobilePortRecord, now: number, account: AccountState): void {
  for (;;) {
    if (port.status === 'expired') return;
    const readyAt = port.status === 'provisioning' ? port.provisioningReadyAt : null;
    const intervalAt = port.status === 'active' ? port.nextIntervalRotationAt : null;
    // At the same instant expiry comes first: a port is neither rotated nor brought online as it expires.
    if (port.expiresAt <= now && port.expiresAt <= Math.min(readyAt ?? Infinity, intervalAt ?? Infinity)) {
      reachExpiry(port, account);
      continue;
    }
    const limit = Math.min(now, port.expiresAt - 1);
    if (readyAt !== null && readyAt <= limit) {
      finishProvisioning(port, readyAt);
      continue;
    }
    if (intervalAt !== null && intervalAt <= limit) {
      runIntervalRotations(port, intervalAt, limit);
      continue;
    }
    return;
  }
}

/**
 * Settles every port up to `now`. Renewals spend the shared balance, so expiries are handled across
 * ports in time order (the earliest first), whatever the order of the list and however often this
 * runs; what happens between them touches only its own port.
 */
export function settlePorts(ports: readonly MobilePortRecord[], now: number, account: AccountState): void {
  for (;;) {
    let next: MobilePortRecord | null = null;
    for (const port of ports) {
      if (port.status === 'expired' || port.expiresAt > now) continue;
      if (next === null || port.expiresAt < next.expiresAt) next = port;
    }
    if (next === null) break;
    settlePort(next, next.expiresAt, account);
  }
  for (const port of ports) settlePort(port, now, account);
}

/** The newest IP of the port's history that differs from its current one; null when it never had another. */
export function earlierIp(port: MobilePortRecord): string | null {
  const current = currentEntry(port).ip;
  for (let i = port.ipHistory.length - 2; i >= 0; i -= 1) {
    const ip = port.ipHistory[i]?.ip;
    if (ip !== undefined && ip !== current) return ip;
  }
  return null;
}
