/**
 * Health of the proxies themselves: checks through each port, the verdict on each rotation, and the
 * scores built from both. Types only (the channels are in `ports.ts`).
 */

/**
 * What a check through the port after a rotation found. `unchanged`: traffic still leaves from the
 * old IP (or the service handed it back); `repeat`: an IP this port or another port of the profile
 * had within the repeat window; `drift`: the exit's ASN or country differs from the port's; `clean`:
 * a new IP, not seen in the window, on the port's network. `unknown`: the check through the port
 * failed, so nothing can be said. When more than one applies, the first of unchanged, repeat, drift wins.
 */
export type RotationVerdictKind = 'clean' | 'unchanged' | 'repeat' | 'drift' | 'unknown';

export interface RotationVerdict {
  kind: RotationVerdictKind;
  /** The exit IP read through the port (null when every check failed). */
  exitIp: string | null;
  /** The exit's ASN (from the echo, or the offline ASN data set) and country, when known. */
  asn: number | null;
  country: string | null;
  /** What the port's network was before (the last exit seen through it, and the port's country). */
  expectedAsn: number | null;
  expectedCountry: string | null;
  /** `repeat`: where and when the IP was seen before. */
  seenBefore: { portId: string; at: string } | null;
  /** Checks through the port it took (more than one when the old IP was still there at first). */
  checks: number;
  /** One sentence for the user. */
  message: string;
}

/** One health check as the port page and `ports health --json` show it (times ISO 8601). */
export interface PortHealthCheck {
  at: string;
  ok: boolean;
  /** The HTTP status the gateway or the check target answered; null when none came. */
  status: number | null;
  connectMs: number | null;
  firstByteMs: number | null;
  exitIp: string | null;
  asn: number | null;
  country: string | null;
  /** Why it failed (`unavailable`, `timeout`, `credentials`, ...) and the gateway's own words. */
  errorKind: string | null;
  error: string | null;
}

/** `up` after `upAfter` good checks in a row, `down` after `downAfter` failed ones; `unknown` before any. */
export type PortHealthStatus = 'up' | 'down' | 'unknown';

interface LatencySummary {
  connectP50: number | null;
  connectP95: number | null;
  firstByteP50: number | null;
  firstByteP95: number | null;
  firstByteMax: number | null;
}

/** What the checks through a target say: every number is null when there is nothing to compute it from. */
interface CheckScores {
  status: PortHealthStatus;
  /** When the status last changed (ISO 8601). */
  statusSince: string | null;
  /** Failed checks in a row now (0 when the last one was good). */
  failuresInARow: number;
  lastCheck: PortHealthCheck | null;
  /** Share of good checks (0-1) over 24 hours and 30 days. */
  uptime24h: number | null;
  uptime30d: number | null;
  checks24h: number;
  checks30d: number;
  /** Connect and first-byte latency over 24 hours, in ms. */
  latency24h: LatencySummary;
}

/** A subscription's scores from the checks through its main user (Settings: off by default). */
export interface SubscriptionHealth extends CheckScores {
  subscriptionId: string;
}

/** A port's scores: its checks' and its rotations' (verdicts). */
export interface PortHealth extends CheckScores {
  portId: string;
  /** From the app's rotation receipts of the last 30 days (at most the 50 newest per port). */
  rotations30d: number;
  /** Distinct new exit IPs (an `unchanged` rotation brings none) / rotations with a verdict; null without any. */
  uniqueIpRatio30d: number | null;
  unchanged30d: number;
  repeated30d: number;
  drift30d: number;
  lastVerdict: RotationVerdict | null;
}

/** One segment of the uptime bar: its checks, failures and latency band (p50-p95 first byte). */
export interface PortHealthSegment {
  start: string;
  checks: number;
  failures: number;
  firstByteP50: number | null;
  firstByteP95: number | null;
}

export interface PortHealthHistory {
  portId: string;
  range: '24h' | '30d';
  /** Oldest first; 96 segments of 15 minutes (24 h) or 30 of a day (30 days). */
  segments: PortHealthSegment[];
  /** The newest raw checks, newest first (at most 20). */
  recent: PortHealthCheck[];
}

/**
 * `ports:healthChanged`: the health checks moved a target's status (down after `downAfter` failed
 * checks in a row, up after `upAfter` good ones, up at the first good check of one never checked).
 * Sent by the process running the checks, at once, so an open window need not read again.
 */
export interface PortHealthChanged {
  profileId: string;
  /** What was checked: a port, a subscription (through its main user), or a local proxy. */
  kind: 'port' | 'subscription' | 'localProxy';
  /** The port's, subscription's or local proxy's id. */
  id: string;
  previous: PortHealthStatus;
  status: PortHealthStatus;
  statusSince: string | null;
  failuresInARow: number;
  /** The check that moved it. */
  lastCheck: PortHealthCheck;
}
