import type { PortHealthCheck, PortHealthStatus, SubscriptionHealth } from '../../../../src-shared/contract';
import { Time } from './Time';

/** What every checked target's scores have (a port's add its rotations'). */
export type CheckedScores = Omit<SubscriptionHealth, 'subscriptionId'>;

export type StatusWords = Record<PortHealthStatus, { text: string; badge: string }>;

export const percentText = (ratio: number | null) => (ratio === null ? '–' : `${(ratio * 100).toFixed(2)} %`);
const ms = (value: number | null) => (value === null ? '–' : `${value} ms`);

/** The status badge, since when, and the failed checks in a row (a live region: it changes with the checks). */
export function HealthStatusLine({ health, words }: { health: CheckedScores; words: StatusWords }) {
  const status = words[health.status];
  return (
    <p role="status">
      <span className={`badge ${status.badge}`}>{status.text}</span>
      {health.statusSince ? (
        <>
          {' '}
          since <Time iso={health.statusSince} relative />
        </>
      ) : null}
      {health.failuresInARow > 0 ? ` · ${health.failuresInARow} failed check(s) in a row` : null}
    </p>
  );
}

/** A good check in a few words: its HTTP status, first byte and exit IP. */
function goodCheckText(check: PortHealthCheck): string {
  const parts = [
    check.status === null ? null : `HTTP ${check.status}`,
    check.firstByteMs === null ? null : `first byte ${check.firstByteMs} ms`,
    check.exitIp ? `exit IP ${check.exitIp}` : null,
  ].filter((part): part is string => part !== null);
  return parts.length ? `good (${parts.join(', ')})` : 'good';
}

/**
 * The last check: a failed one in the gateway's own words (an error message); with `showGood`, a
 * good one too, as plain text.
 */
export function LastCheckLine({
  check,
  showGood = false,
}: {
  check: PortHealthCheck | null;
  showGood?: boolean;
}) {
  if (!check) return null;
  if (!check.ok) {
    return (
      <p className="message message--error">
        Last check <Time iso={check.at} relative />: {check.error ?? 'no answer'}
      </p>
    );
  }
  return showGood ? (
    <p className="muted small">
      Last check <Time iso={check.at} relative />: {goodCheckText(check)}
    </p>
  ) : null;
}

/** Uptime over 24 hours and 30 days and the 24 hours' latency, as `dt`/`dd` pairs of a `dl`. */
export function UptimeLatencyFacts({ health }: { health: CheckedScores }) {
  return (
    <>
      <dt>Uptime, 24 hours</dt>
      <dd>
        {percentText(health.uptime24h)} ({health.checks24h} checks)
      </dd>
      <dt>Uptime, 30 days</dt>
      <dd>
        {percentText(health.uptime30d)} ({health.checks30d} checks)
      </dd>
      <dt>First byte, 24 hours</dt>
      <dd>
        p50 {ms(health.latency24h.firstByteP50)} · p95 {ms(health.latency24h.firstByteP95)} · max{' '}
        {ms(health.latency24h.firstByteMax)}
      </dd>
      <dt>Connect, 24 hours</dt>
      <dd>
        p50 {ms(health.latency24h.connectP50)} · p95 {ms(health.latency24h.connectP95)}
      </dd>
    </>
  );
}
