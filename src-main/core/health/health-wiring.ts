import { ApiError } from '../../api';
import type { EventBus } from '../events';
import type { Clock } from '../runtime/clock';
import { describeError } from '../runtime/deadline-job';
import type { PortHealthChanged, SettingsView } from '../../../src-shared/contract';
import { probeProxy, type ProbeOutcome, type ProbeRequest } from '../proxy-test/proxy-probe';
import {
  HealthCheckJob,
  type HealthCheckJobOptions,
  type HealthStatusChange,
  portTargetKey,
} from './health-check-job';
import type { HealthStore, StoredCheck } from './health-store';
import type { TargetStatus } from './health-status';

/** The port's exit as its newest good health check saw it (the ASN a rotation is compared with). */
export function lastCheckedExit(
  store: HealthStore | null,
  profileId: string,
  portId: string,
): { asn: number | null } | null {
  const check = store?.recentChecks(portTargetKey(profileId, portId), 50).find((c) => c.ok && c.asn !== null);
  return check ? { asn: check.asn } : null;
}

export interface SelfHealOptions {
  /** Failed checks in a row before the one rotation; 0: off. */
  afterFailures: () => number;
  rotate: (profileId: string, portId: string) => Promise<unknown>;
  clock: Pick<Clock, 'sleep'>;
  /** Tells the user (the app's notices) when the rotation did not bring the port back. */
  notice: (message: string) => void;
  log: (line: string) => void;
}

/**
 * Optional self-heal, fed every check: after K failures in a row, rotate the port once (waiting out
 * its cooldown when the service says so); if the next check still fails, say so once. Nothing more
 * until the port has a good check again, so a dead modem is never rotated in a loop.
 */
export function selfHealer(
  options: SelfHealOptions,
): (profileId: string, portId: string, status: TargetStatus, check: StoredCheck) => void {
  const healed = new Set<string>();
  return (profileId, portId, status, check) => {
    const key = portTargetKey(profileId, portId);
    if (check.ok) {
      healed.delete(key);
      return;
    }
    if (healed.has(key) && status.failuresInARow === options.afterFailures() + 1) {
      options.notice(
        `Port ${portId} still fails its health checks after a self-heal rotation: ${check.error ?? 'no answer'}.`,
      );
      return;
    }
    const k = options.afterFailures();
    if (k === 0 || status.failuresInARow !== k || healed.has(key)) return;
    healed.add(key);
    void rotateOnce(options, profileId, portId);
  };
}

async function rotateOnce(options: SelfHealOptions, profileId: string, portId: string): Promise<void> {
  try {
    await options.rotate(profileId, portId);
  } catch (error) {
    const wait = error instanceof ApiError ? error.retryAfterMs : null;
    if (wait === null) {
      options.log(`[health] the self-heal rotation of ${portId} failed: ${describeError(error)}`);
      return;
    }
    try {
      await options.clock.sleep(wait);
      await options.rotate(profileId, portId);
    } catch (again) {
      options.log(`[health] the self-heal rotation of ${portId} failed: ${describeError(again)}`);
    }
  }
}

/** A list main read within this long is checked as it is (new ports are picked up at this pace). */
const TARGET_LIST_MAX_AGE_MS = 5 * 60_000;

export interface HealthChecksWiring extends Pick<
  HealthCheckJobOptions,
  'clock' | 'store' | 'profileIds' | 'random'
> {
  log: (line: string) => void;
  settings: () => Pick<SettingsView, 'healthChecks' | 'proxyTest'>;
  /** A list held since `notBefore`, or null: then read it. */
  heldPorts: HealthListSource<Awaited<ReturnType<HealthCheckJobOptions['ports']>>>;
  heldSubscriptions: HealthListSource<
    Awaited<ReturnType<NonNullable<HealthCheckJobOptions['subscriptions']>>>
  >;
  /** The demo's echo for a demo profile, else null. */
  demoEchoUrl: (profileId: string) => string | null;
  probe?: (request: ProbeRequest) => Promise<ProbeOutcome>;
  /** The self-heal rotation (recorded as a scheduled one). */
  rotate: (profileId: string, portId: string) => Promise<unknown>;
  notice: (message: string) => void;
  /** The running local proxies to check; told when one's status changes (its list is pushed again). */
  localProxies?: {
    listening: NonNullable<HealthCheckJobOptions['localProxies']>;
    healthChanged: () => void;
  };
  /** Where `ports:healthChanged` goes (the windows, and the OS notifications that follow it). */
  events: Pick<EventBus, 'emit'>;
  onStatusChange?: (change: HealthStatusChange) => void;
}

interface HealthListSource<T> {
  held: (profileId: string, notBefore: number) => T | null;
  read: (profileId: string) => Promise<T>;
}

/**
 * The health-check job with its rules: lists as main holds them (read again when older than five
 * minutes), the check target (the demo's echo, else the user's check URL, else the proxy test's
 * echo), and the optional self-heal fed every port check.
 */
export function healthChecksJob(wiring: HealthChecksWiring): HealthCheckJob {
  const { clock, settings, log, localProxies } = wiring;
  const recent = <T>(source: HealthListSource<T>, profileId: string): Promise<T> => {
    const held = source.held(profileId, clock.now() - TARGET_LIST_MAX_AGE_MS);
    return held ? Promise.resolve(held) : source.read(profileId);
  };
  const selfHeal = selfHealer({
    afterFailures: () => settings().healthChecks.selfHealAfter,
    rotate: wiring.rotate,
    clock,
    notice: wiring.notice,
    log,
  });
  return new HealthCheckJob({
    clock,
    store: wiring.store,
    profileIds: wiring.profileIds,
    ports: (profileId) => recent(wiring.heldPorts, profileId),
    subscriptions: (profileId) => recent(wiring.heldSubscriptions, profileId),
    ...(localProxies ? { localProxies: () => localProxies.listening() } : {}),
    policy: () => settings().healthChecks,
    checkUrlFor: (profileId) =>
      wiring.demoEchoUrl(profileId) ?? settings().healthChecks.checkUrl ?? settings().proxyTest.ipEchoUrl,
    probe: wiring.probe ?? ((request) => probeProxy(request, { clock })),
    ...(wiring.random ? { random: wiring.random } : {}),
    onCheck: (target, status, check) => {
      if (target.kind === 'port') selfHeal(target.profileId, target.id, status, check);
    },
    onStatusChange: (change) => {
      log(
        `[health] ${change.kind} ${change.id} of ${change.profileId} is ${change.status.status} (was ${change.previous})`,
      );
      wiring.events.emit('ports:healthChanged', healthChangedEvent(change));
      if (change.kind === 'localProxy') localProxies?.healthChanged();
      wiring.onStatusChange?.(change);
    },
    log,
  });
}

/** A status change as the windows are told of it (times ISO 8601, as `ports:health` reads them). */
function healthChangedEvent(change: HealthStatusChange): PortHealthChanged {
  const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
  return {
    profileId: change.profileId,
    kind: change.kind,
    id: change.id,
    previous: change.previous,
    status: change.status.status,
    statusSince: iso(change.status.since),
    failuresInARow: change.status.failuresInARow,
    lastCheck: { ...change.check, at: new Date(change.check.at).toISOString() },
  };
}
