import type { PortHealthStatus } from '../../../src-shared/contract';

export interface StatusThresholds {
  /** Failed checks in a row that make a target down. */
  downAfter: number;
  /** Good checks in a row that bring a down target back up. */
  upAfter: number;
}

export interface TargetStatus {
  status: PortHealthStatus;
  /** Epoch ms of the check that set the status; null while unknown. */
  since: number | null;
  failuresInARow: number;
  successesInARow: number;
}

const unknownStatus = (): TargetStatus => ({
  status: 'unknown',
  since: null,
  failuresInARow: 0,
  successesInARow: 0,
});

/**
 * The next status after one check (Gatus's thresholds): down after `downAfter` failures in a row,
 * back up after `upAfter` successes in a row. A target never checked is `unknown`; its first good
 * check makes it up (nothing says it was down), and `downAfter` failures make it down.
 */
export function nextStatus(
  current: TargetStatus,
  check: { ok: boolean; at: number },
  thresholds: StatusThresholds,
): TargetStatus {
  const failuresInARow = check.ok ? 0 : current.failuresInARow + 1;
  const successesInARow = check.ok ? current.successesInARow + 1 : 0;
  let { status, since } = current;
  if (!check.ok && status !== 'down' && failuresInARow >= thresholds.downAfter) {
    status = 'down';
    since = check.at;
  } else if (check.ok && status === 'unknown') {
    status = 'up';
    since = check.at;
  } else if (check.ok && status === 'down' && successesInARow >= thresholds.upAfter) {
    status = 'up';
    since = check.at;
  }
  return { status, since, failuresInARow, successesInARow };
}

/** The status the checks lead to, replayed oldest first (how any process reads it from the store). */
export function replayStatus(
  checksOldestFirst: readonly { ok: boolean; at: number }[],
  thresholds: StatusThresholds,
): TargetStatus {
  let status = unknownStatus();
  for (const check of checksOldestFirst) status = nextStatus(status, check, thresholds);
  return status;
}
