import { ApiError } from '../../api';
import type { Clock } from '../runtime/clock';
import { describeError } from '../runtime/deadline-job';
import { portTargetKey } from './health-check-job';
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
