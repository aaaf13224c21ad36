import type {
  LocalProxyHealth,
  PortHealth,
  PortHealthCheck,
  PortHealthHistory,
  PortHealthSegment,
  RotationReceipt,
  RotationVerdictKind,
  SubscriptionHealth,
} from '../../../src-shared/contract';
import { localProxyTargetKey, portTargetKey, subscriptionTargetKey } from './health-check-job';
import { type HealthStore, mergeAggregate, emptyAggregate, type StoredCheck } from './health-store';
import { replayStatus, type StatusThresholds } from './health-status';
import { percentile } from './latency-histogram';

/** The overview's view of a port's health (labels are the overview's to add). */
export interface PortHealthAttentionView {
  portId: string;
  status: PortHealth['status'];
  statusSince: string | null;
  failuresInARow: number;
  lastError: string | null;
  lastVerdict: RotationVerdictKind | null;
  unchanged30d: number;
}

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;

export interface PortHealthReaderOptions {
  /** The health store, or null when it cannot be opened (every score is then empty). */
  store: () => HealthStore | null;
  now: () => number;
  thresholds: () => StatusThresholds;
  /** Every port's rotation receipts of a profile, newest first (one read for many ports). */
  receipts: (profileId: string) => Promise<Record<string, RotationReceipt[]>>;
}

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

function checkView(check: StoredCheck): PortHealthCheck {
  return { ...check, at: new Date(check.at).toISOString() };
}

/**
 * Scores and the uptime bar from the health store and the rotation receipts. Reads only, so any
 * process answers them (the job owner writes the store; WAL lets others read while it does).
 */
export class PortHealthReader {
  constructor(private readonly options: PortHealthReaderOptions) {}

  async health(profileId: string, portIds: readonly string[]): Promise<PortHealth[]> {
    const receipts = await this.options.receipts(profileId);
    return portIds.map((portId) => this.one(profileId, portId, receipts[portId] ?? []));
  }

  history(profileId: string, portId: string, range: '24h' | '30d'): PortHealthHistory {
    const store = this.options.store();
    const key = portTargetKey(profileId, portId);
    const now = this.options.now();
    // 24 h: 96 quarter hours from minute buckets; 30 days: 30 days from hour buckets (kept 30 days).
    const segmentMs = range === '24h' ? 15 * MINUTE_MS : DAY_MS;
    const count = range === '24h' ? 96 : 30;
    const end = Math.ceil(now / segmentMs) * segmentMs;
    const start = end - count * segmentMs;
    const totals = Array.from({ length: count }, () => emptyAggregate());
    for (const bucket of store?.buckets(key, range === '24h' ? 'minute' : 'hour', start, end) ?? []) {
      const index = Math.floor((bucket.start - start) / segmentMs);
      const total = totals[index];
      if (total) mergeAggregate(total, bucket);
    }
    const segments: PortHealthSegment[] = totals.map((total, index) => ({
      start: new Date(start + index * segmentMs).toISOString(),
      checks: total.checks,
      failures: total.failures,
      firstByteP50: percentile(total.firstByte, 0.5),
      firstByteP95: percentile(total.firstByte, 0.95),
    }));
    const recent = (store?.recentChecks(key, 20) ?? []).map(checkView);
    return { portId, range, segments, recent };
  }

  /**
   * What the overview needs, cheaply: the status replayed from the newest 100 checks (a run longer
   * than that says the same) and the last verdict; no latency or uptime sums.
   */
  async attention(profileId: string, portIds: readonly string[]): Promise<PortHealthAttentionView[]> {
    const store = this.options.store();
    const now = this.options.now();
    const out: PortHealthAttentionView[] = [];
    const all = await this.options.receipts(profileId);
    for (const portId of portIds) {
      const raw = store?.recentChecks(portTargetKey(profileId, portId), 100) ?? [];
      const status = replayStatus([...raw].reverse(), this.options.thresholds());
      const receipts = (all[portId] ?? []).filter(
        (receipt) => Date.parse(receipt.finishedAt) >= now - 30 * DAY_MS,
      );
      out.push({
        portId,
        status: status.status,
        statusSince: iso(status.since),
        failuresInARow: status.failuresInARow,
        lastError: raw[0] && !raw[0].ok ? raw[0].error : null,
        lastVerdict: receipts[0]?.verdict?.kind ?? null,
        unchanged30d: receipts.filter((receipt) => receipt.verdict?.kind === 'unchanged').length,
      });
    }
    return out;
  }

  /** Scores of subscriptions from the checks through their main user (no rotations). */
  subscriptions(profileId: string, subscriptionIds: readonly string[]): SubscriptionHealth[] {
    return subscriptionIds.map((subscriptionId) => ({
      subscriptionId,
      ...this.checkScores(subscriptionTargetKey(profileId, subscriptionId)),
    }));
  }

  /**
   * A local proxy's status from the checks through its own address, replayed from the newest 100
   * (cheap: the Local proxies screen reads it with every push of their stats); null before any.
   */
  localProxy(localProxyId: string): LocalProxyHealth | null {
    const raw = this.options.store()?.recentChecks(localProxyTargetKey(localProxyId), 100) ?? [];
    if (raw.length === 0) return null;
    const status = replayStatus([...raw].reverse(), this.options.thresholds());
    return {
      status: status.status,
      statusSince: iso(status.since),
      failuresInARow: status.failuresInARow,
      lastCheck: raw[0] ? checkView(raw[0]) : null,
    };
  }

  private one(profileId: string, portId: string, allReceipts: readonly RotationReceipt[]): PortHealth {
    const now = this.options.now();
    const receipts = allReceipts.filter((receipt) => Date.parse(receipt.finishedAt) >= now - 30 * DAY_MS);
    const judged = receipts.filter((receipt) => receipt.verdict && receipt.verdict.kind !== 'unknown');
    // An unchanged rotation brought no IP: it counts against the ratio, not as a unique IP.
    const distinct = new Set(
      judged
        .filter((receipt) => receipt.verdict?.kind !== 'unchanged')
        .map((receipt) => receipt.verdict?.exitIp ?? receipt.ip),
    );
    const count = (kind: string) => judged.filter((receipt) => receipt.verdict?.kind === kind).length;
    return {
      portId,
      ...this.checkScores(portTargetKey(profileId, portId)),
      rotations30d: receipts.length,
      uniqueIpRatio30d: judged.length === 0 ? null : distinct.size / judged.length,
      unchanged30d: count('unchanged'),
      repeated30d: count('repeat'),
      drift30d: count('drift'),
      lastVerdict: receipts[0]?.verdict ?? null,
    };
  }

  /** What the checks through one target say: status, uptime and latency. */
  private checkScores(key: string): Omit<SubscriptionHealth, 'subscriptionId'> {
    const store = this.options.store();
    const now = this.options.now();
    const raw = store?.recentChecks(key) ?? [];
    const status = replayStatus([...raw].reverse(), this.options.thresholds());
    const day = store?.totals(key, 'minute', now - DAY_MS, now + MINUTE_MS) ?? emptyAggregate();
    const month = store?.totals(key, 'hour', now - 30 * DAY_MS, now + HOUR_MS) ?? emptyAggregate();
    const uptime = (checks: number, failures: number) => (checks === 0 ? null : (checks - failures) / checks);
    return {
      status: status.status,
      statusSince: iso(status.since),
      failuresInARow: status.failuresInARow,
      lastCheck: raw[0] ? checkView(raw[0]) : null,
      uptime24h: uptime(day.checks, day.failures),
      uptime30d: uptime(month.checks, month.failures),
      checks24h: day.checks,
      checks30d: month.checks,
      latency24h: {
        connectP50: percentile(day.connect, 0.5),
        connectP95: percentile(day.connect, 0.95),
        firstByteP50: percentile(day.firstByte, 0.5),
        firstByteP95: percentile(day.firstByte, 0.95),
        firstByteMax: day.firstByte.max,
      },
    };
  }
}
