/**
 * Latencies of a bucket as a small fixed histogram, so that buckets merge exactly (a minute into its
 * hour, an hour into its day, any range into a score) and a bucket's size does not grow with its
 * checks. Bin edges grow by √2 from 10 ms to 20 s: 24 bins. A percentile is interpolated within its
 * bin, so it is within that bin (at most 41 % wide); the maximum is kept exactly beside it.
 */
const LATENCY_BIN_EDGES_MS = [
  10, 14, 20, 28, 40, 57, 80, 113, 160, 226, 320, 453, 640, 905, 1280, 1810, 2560, 3620, 5120, 7241, 10240,
  14482, 20480,
] as const;
export const LATENCY_BINS = LATENCY_BIN_EDGES_MS.length + 1;

export interface LatencyStats {
  /** Counts per bin (length `LATENCY_BINS`). */
  bins: number[];
  /** Exact largest value; null when the bucket holds no value. */
  max: number | null;
}

export const emptyLatency = (): LatencyStats => ({
  bins: new Array<number>(LATENCY_BINS).fill(0),
  max: null,
});

function binOf(ms: number): number {
  for (let k = 0; k < LATENCY_BIN_EDGES_MS.length; k += 1) {
    if (ms < (LATENCY_BIN_EDGES_MS[k] as number)) return k;
  }
  return LATENCY_BINS - 1;
}

export function addLatency(stats: LatencyStats, ms: number | null): void {
  if (ms === null || !Number.isFinite(ms) || ms < 0) return;
  const value = Math.round(ms);
  const bin = binOf(value);
  stats.bins[bin] = (stats.bins[bin] ?? 0) + 1;
  stats.max = stats.max === null ? value : Math.max(stats.max, value);
}

export function mergeLatency(into: LatencyStats, from: LatencyStats): void {
  for (let k = 0; k < LATENCY_BINS; k += 1) into.bins[k] = (into.bins[k] ?? 0) + (from.bins[k] ?? 0);
  if (from.max !== null) into.max = into.max === null ? from.max : Math.max(into.max, from.max);
}

/** The `p` quantile (0 < p <= 1) in whole ms, interpolated within its bin and never above the max. */
export function percentile(stats: LatencyStats, p: number): number | null {
  const total = stats.bins.reduce((sum, count) => sum + count, 0);
  if (total === 0 || stats.max === null) return null;
  const rank = Math.max(1, Math.ceil(p * total));
  let before = 0;
  for (let k = 0; k < LATENCY_BINS; k += 1) {
    const count = stats.bins[k] ?? 0;
    if (count > 0 && before + count >= rank) {
      const low = k === 0 ? 0 : (LATENCY_BIN_EDGES_MS[k - 1] as number);
      const high = Math.min(
        k < LATENCY_BIN_EDGES_MS.length ? (LATENCY_BIN_EDGES_MS[k] as number) : stats.max,
        stats.max,
      );
      const value = low + ((Math.max(high, low) - low) * (rank - before)) / count;
      return Math.min(Math.round(value), stats.max);
    }
    before += count;
  }
  return stats.max;
}
