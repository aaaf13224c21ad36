import { formatIsoDate, type QueryReader } from '../http/input-reader';
import { stableHash } from '../seeded-random';

export const DAY_MS = 86_400_000;
export const MAX_USAGE_RANGE_DAYS = 366;

export interface UsagePoint {
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

const startOfDay = (ms: number): number => Math.floor(ms / DAY_MS) * DAY_MS;

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
  const noise = stableHash(`${source.key}|${formatIsoDate(dayMs)}`) / 2 ** 32;
  // Weekends run at 60%: the charts should look like traffic, not like a flat line.
  const weekday = new Date(dayMs).getUTCDay();
  const weekly = weekday === 0 || weekday === 6 ? 0.6 : 1;
  const fullDay = source.meanDailyBytes * weekly * (0.5 + noise);
  const bytes = Math.floor(fullDay * fraction);
  // Roughly one request per 48 KiB transferred.
  const requests = Math.floor(bytes / 49_152);
  return { bytes, requests };
}

/** Splits `bytes` over the source's countries with integer weights; the parts sum to `bytes` exactly. */
function splitByCountry(source: UsageSource, bytes: number, into: Map<string, number>): void {
  const countries = source.countries.length > 0 ? source.countries : ['US'];
  const weights = countries.map((_, i) => countries.length - i);
  const totalWeight = weights.reduce((a, b) => a + b, 0);
  let assigned = 0;
  countries.forEach((country, i) => {
    const share =
      i === countries.length - 1
        ? bytes - assigned
        : Math.floor((bytes * (weights[i] as number)) / totalWeight);
    assigned += share;
    into.set(country, (into.get(country) ?? 0) + share);
  });
}

/** A report over [fromMs, toMs] (UTC midnights, inclusive): one point per day, sums that add up. */
export function buildUsageReport(
  sources: readonly UsageSource[],
  fromMs: number,
  toMs: number,
  nowMs: number,
): UsageReport {
  const points: UsagePoint[] = [];
  const countries = new Map<string, number>();
  for (let day = startOfDay(fromMs); day <= toMs; day += DAY_MS) {
    let bytes = 0;
    let requests = 0;
    for (const source of sources) {
      const usage = dailyUsage(source, day, nowMs);
      bytes += usage.bytes;
      requests += usage.requests;
      if (usage.bytes > 0) splitByCountry(source, usage.bytes, countries);
    }
    points.push({ date: formatIsoDate(day), bytes, requests });
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
