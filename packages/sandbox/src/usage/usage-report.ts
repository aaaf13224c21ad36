import { formatIsoDate, type QueryReader } from '../http/input-reader';
import { stableHash } from '../seeded-random';

export const DAY_MS = 86_400_000;
const MAX_USAGE_RANGE_DAYS = 366;
/** Roughly one request per 48 KiB transferred. */
const BYTES_PER_REQUEST = 49_152;

interface UsagePoint {
  date: string;
  bytes: number;
  requests: number;
}

export interface UsageReport {
  from: string;
  to: string;
  totalBytes: number;
  totalRequests: number;
  points: UsagePoint[];
  byCountry: { country: string; bytes: number }[];
}

/**
 * Something that consumes traffic: a subscription's main user, a sub-user or a port. Its daily usage
 * is a pure function of (key, date), so every report, whenever asked, agrees with every other.
 */
export interface UsageSource {
  key: string;
  /** No traffic before this instant. */
  activeFromMs: number;
  /** No traffic after this instant (disabled, capped, expired); null when open. */
  activeUntilMs?: number | null;
  meanDailyBytes: number;
  /** ISO country codes the traffic exits in, weighted by position (first is heaviest). */
  countries: readonly string[];
}

/**
 * The traffic a consumer would use if nothing stopped it: a deterministic curve, linear within each
 * UTC day, whose daily height is a pure function of (key, date).
 */
export interface TrafficCurve {
  key: string;
  meanDailyBytes: number;
}

/** What went through the sandbox's proxy gateway on one UTC day: real requests, exact exit countries. */
interface GatewayDay {
  bytes: number;
  requests: number;
  /** Bytes by exit country (ISO code); sums to `bytes`. */
  countries: Record<string, number>;
}

/** Gateway traffic of one consumer (or port) by UTC day (`YYYY-MM-DD`). */
export type GatewayLedger = Record<string, GatewayDay>;

/** Adds one gateway exchange to a ledger. */
export function addGatewayTraffic(
  ledger: GatewayLedger,
  date: string,
  bytes: number,
  requests: number,
  country: string,
): void {
  const day = (ledger[date] ??= { bytes: 0, requests: 0, countries: {} });
  day.bytes += bytes;
  day.requests += requests;
  day.countries[country] = (day.countries[country] ?? 0) + bytes;
}

/**
 * Traffic actually recorded for one consumer, per UTC day (`YYYY-MM-DD` -> bytes). Used where caps,
 * toggles and depletion make usage depend on history, so it is kept rather than recomputed. `daily`
 * includes the gateway's bytes; `gateway` says which part of them went through the gateway.
 */
export interface UsageLedger {
  countries: readonly string[];
  daily: Readonly<Record<string, number>>;
  gateway?: Readonly<GatewayLedger>;
}

export const startOfDay = (ms: number): number => Math.floor(ms / DAY_MS) * DAY_MS;

export const requestsForBytes = (bytes: number): number => Math.floor(bytes / BYTES_PER_REQUEST);

/** Height of a curve over the whole UTC day starting at `dayMs` (not rounded). */
function fullDayBytes(curve: TrafficCurve, dayMs: number): number {
  const noise = stableHash(`${curve.key}|${formatIsoDate(dayMs)}`) / 2 ** 32;
  // Weekends run at 60%: the charts should look like traffic, not like a flat line.
  const weekday = new Date(dayMs).getUTCDay();
  const weekly = weekday === 0 || weekday === 6 ? 0.6 : 1;
  return curve.meanDailyBytes * weekly * (0.5 + noise);
}

/** Usage of one source on the UTC day starting at `dayMs`, counting only time before `nowMs`. */
export function dailyUsage(
  source: UsageSource,
  dayMs: number,
  nowMs: number,
): { bytes: number; requests: number } {
  const dayEnd = dayMs + DAY_MS;
  const activeFrom = Math.max(dayMs, source.activeFromMs);
  const activeUntil = Math.min(dayEnd, nowMs, source.activeUntilMs ?? Number.POSITIVE_INFINITY);
  if (activeUntil <= activeFrom) return { bytes: 0, requests: 0 };
  const fraction = (activeUntil - activeFrom) / DAY_MS;
  const bytes = Math.floor(fullDayBytes(source, dayMs) * fraction);
  return { bytes, requests: requestsForBytes(bytes) };
}

/** Bytes a curve reaches within its day `dayMs` by the instant `atMs` (0 before the day, all after it). */
function dayProgress(curve: TrafficCurve, dayMs: number, atMs: number): number {
  if (atMs <= dayMs) return 0;
  const fraction = Math.min(1, (atMs - dayMs) / DAY_MS);
  return Math.floor(fullDayBytes(curve, dayMs) * fraction);
}

/**
 * Bytes of the curve between two instants. Additive by construction (each day's part is a difference
 * of one rounded running total), so `a..b` plus `b..c` is exactly `a..c`: accounting traffic in many
 * small steps or in one big step gives the same bytes.
 */
export function curveBytesBetween(curve: TrafficCurve, fromMs: number, toMs: number): number {
  return new CurveCursor(curve, fromMs, toMs).bytesUntil(toMs);
}

/**
 * Answers "bytes of the curve from `fromMs` to t" for any t in [fromMs, toMs] in constant time, after
 * one pass over the days. The subscription engine asks this many times per step (binary search for
 * the instant traffic runs out, then once per day boundary).
 */
export class CurveCursor {
  private readonly firstDay: number;
  /** `bytesBefore[k]`: bytes from `fromMs` to the start of day k (k = 0 is the day of `fromMs`). */
  private readonly bytesBefore: number[];

  constructor(
    private readonly curve: TrafficCurve,
    private readonly fromMs: number,
    toMs: number,
  ) {
    this.firstDay = startOfDay(fromMs);
    this.bytesBefore = [0];
    let running = 0;
    for (let day = this.firstDay; day < toMs; day += DAY_MS) {
      running += dayProgress(curve, day, day + DAY_MS) - dayProgress(curve, day, fromMs);
      this.bytesBefore.push(running);
    }
  }

  bytesUntil(atMs: number): number {
    if (atMs <= this.fromMs) return 0;
    const index = Math.floor((atMs - this.firstDay) / DAY_MS);
    const before = this.bytesBefore[index];
    if (before === undefined) throw new RangeError('instant beyond the cursor range');
    const day = this.firstDay + index * DAY_MS;
    return before + dayProgress(this.curve, day, atMs) - dayProgress(this.curve, day, this.fromMs);
  }
}

/** Splits `bytes` over countries with integer weights (first heaviest); the parts sum to `bytes` exactly. */
function splitByCountry(countries: readonly string[], bytes: number, into: Map<string, number>): void {
  const list = countries.length > 0 ? countries : ['US'];
  const weights = list.map((_, i) => list.length - i);
  const totalWeight = weights.reduce((a, b) => a + b, 0);
  let assigned = 0;
  list.forEach((country, i) => {
    const share =
      i === list.length - 1 ? bytes - assigned : Math.floor((bytes * (weights[i] as number)) / totalWeight);
    assigned += share;
    into.set(country, (into.get(country) ?? 0) + share);
  });
}

/**
 * One point per day of [fromMs, toMs] (UTC midnights, inclusive) from per-consumer daily bytes, with
 * totals and `byCountry` that are exact sums of the same numbers. `curveBytesOn` is the simulated
 * load only; gateway traffic is added with its own request count and exact exit countries.
 */
function assembleReport(
  consumers: readonly { countries: readonly string[]; gateway?: Readonly<GatewayLedger> | undefined }[],
  curveBytesOn: (consumerIndex: number, dayMs: number) => number,
  fromMs: number,
  toMs: number,
): UsageReport {
  const points: UsagePoint[] = [];
  const countries = new Map<string, number>();
  for (let day = startOfDay(fromMs); day <= toMs; day += DAY_MS) {
    const date = formatIsoDate(day);
    let bytes = 0;
    let requests = 0;
    consumers.forEach((consumer, index) => {
      const used = curveBytesOn(index, day);
      if (used > 0) {
        bytes += used;
        requests += requestsForBytes(used);
        splitByCountry(consumer.countries, used, countries);
      }
      const gateway = consumer.gateway?.[date];
      if (gateway && gateway.bytes > 0) {
        bytes += gateway.bytes;
        requests += gateway.requests;
        for (const [country, share] of Object.entries(gateway.countries)) {
          countries.set(country, (countries.get(country) ?? 0) + share);
        }
      }
    });
    points.push({ date, bytes, requests });
  }
  return {
    from: formatIsoDate(fromMs),
    to: formatIsoDate(toMs),
    totalBytes: points.reduce((sum, p) => sum + p.bytes, 0),
    totalRequests: points.reduce((sum, p) => sum + p.requests, 0),
    points,
    byCountry: [...countries.entries()]
      .filter(([, bytes]) => bytes > 0)
      .map(([country, bytes]) => ({ country, bytes }))
      .sort((a, b) => b.bytes - a.bytes || a.country.localeCompare(b.country)),
  };
}

/**
 * A report over [fromMs, toMs] (UTC midnights, inclusive): one point per day, sums that add up.
 * `gateway`: traffic that went through the sandbox's gateway, added on top of the sources' curves.
 */
export function buildUsageReport(
  sources: readonly UsageSource[],
  fromMs: number,
  toMs: number,
  nowMs: number,
  gateway?: Readonly<GatewayLedger>,
): UsageReport {
  const consumers = gateway ? [...sources, { countries: [], gateway }] : sources;
  return assembleReport(
    consumers,
    (i, day) => {
      const source = sources[i];
      return source ? dailyUsage(source, day, nowMs).bytes : 0;
    },
    fromMs,
    toMs,
  );
}

/** A report over [fromMs, toMs] from recorded ledgers (subscriptions and their sub-users). */
export function buildLedgerReport(
  ledgers: readonly UsageLedger[],
  fromMs: number,
  toMs: number,
): UsageReport {
  return assembleReport(
    ledgers,
    (i, day) => {
      const ledger = ledgers[i] as UsageLedger;
      const date = formatIsoDate(day);
      // `daily` holds all the consumer's bytes; the gateway's part is reported on its own.
      return (ledger.daily[date] ?? 0) - (ledger.gateway?.[date]?.bytes ?? 0);
    },
    fromMs,
    toMs,
  );
}

/** Bytes a source used from its start up to `nowMs`. */
export function usedBytesUntil(source: UsageSource, nowMs: number): number {
  let total = 0;
  for (let day = startOfDay(source.activeFromMs); day <= nowMs; day += DAY_MS) {
    total += dailyUsage(source, day, nowMs).bytes;
  }
  return total;
}

/**
 * Reads `from`/`to` (dates, inclusive): `to` defaults to today (UTC), `from` to 29 days before `to`.
 * `from` after `to`, or more than 366 days counted inclusively, is a 422 on `from`.
 */
export function readUsageWindow(reader: QueryReader, nowMs: number): { fromMs: number; toMs: number } {
  const to = reader.date('to') ?? startOfDay(nowMs);
  const from = reader.date('from') ?? to - 29 * DAY_MS;
  reader.throwIfAny();
  if (from > to) {
    reader.errors.add('from', 'invalid_range', 'must not be after to');
  } else if ((to - from) / DAY_MS + 1 > MAX_USAGE_RANGE_DAYS) {
    reader.errors.add('from', 'invalid_range', `the range may cover at most ${MAX_USAGE_RANGE_DAYS} days`);
  }
  reader.throwIfAny();
  return { fromMs: from, toMs: to };
}
