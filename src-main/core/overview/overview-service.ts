import type {
  AlertView,
  AttentionLevel,
  DomainHandlers,
  HealthSnapshot,
  HealthSourceState,
  LocalProxyView,
  MobilePortView,
  PortSchedule,
} from '../../../src-shared/contract';
import type { Subscription, TopUp } from '../../../src-shared/api-types';
import type { AlertPolicy } from '../alerts/alert-rules';
import type { DomainService } from '../domain-service';
import type { ApiCaller } from '../session/api-caller';
import type { WatchedTopUp } from '../topups/topup-watcher';
import { describeError } from '../runtime/deadline-job';
import type { HeldAccountData, HeldListStore } from '../snapshots/held-lists';
import {
  attentionItems,
  type PendingTopUp,
  type PortHealthAttention,
  portHealthItems,
  withMoreItems,
} from './overview-rules';

/** A held list older than this is read again (events keep it current meanwhile). */
const HELD_LIST_MAX_AGE_MS = 10 * 60_000;

export interface OverviewServiceOptions {
  /** Wall time (epoch ms). */
  now: () => number;
  /** The active profile (with the usual errors when there is none or it has no usable key), and the one list read here. */
  api: Pick<ApiCaller, 'active' | 'forProfile'>;
  /** The thresholds of Settings → Alerts. */
  policy: () => Pick<AlertPolicy, 'traffic' | 'trafficBySubscription' | 'expiryWarningDays'>;
  held: HeldAccountData;
  /** One read of each whole list (the services' own, which announce what they read), only when main does not hold a recent one. */
  read: {
    ports: (profileId: string) => Promise<readonly MobilePortView[]>;
    subscriptions: (profileId: string) => Promise<readonly Subscription[]>;
  };
  /** Every watched (non-final) top-up, of every profile: the top-up watcher's set. */
  watchedTopUps: () => Promise<readonly { profileId: string; entry: WatchedTopUp }[]>;
  schedules: (profileId: string) => Promise<readonly PortSchedule[]> | readonly PortSchedule[];
  /** Raised alerts the user has not dismissed, every profile. */
  alerts: () => Promise<readonly AlertView[]>;
  /** Keys (`kind:profileId:subjectId`) of the alert conditions that still hold. */
  holdingAlertKeys: () => Promise<readonly string[]>;
  /** A profile's local proxies with their state and last upstream error (held by their service). */
  localProxies: (profileId: string) => Promise<readonly LocalProxyView[]>;
  /** The health checks' and rotation verdicts' view of the profile's ports; absent: none. */
  portHealth?: (profileId: string, portIds: readonly string[]) => Promise<readonly PortHealthAttention[]>;
  maxAgeMs?: number;
}

/**
 * `overview:*`: what needs the user now, for the screen, the command line and an MCP tool alike
 * (`snapshot`). Built from what main already holds: the alert center, the schedules, the watched
 * top-ups, the last proxy tests, and the ports and subscriptions last read by the poller or the
 * screens. A list main does not hold (or holds from too long ago) is read once, never item by item.
 */
export class OverviewService implements DomainService<'overview'> {
  private readonly maxAgeMs: number;

  constructor(private readonly options: OverviewServiceOptions) {
    this.maxAgeMs = options.maxAgeMs ?? HELD_LIST_MAX_AGE_MS;
  }

  handlers(): DomainHandlers<'overview'> {
    return { 'overview:get': (input) => this.snapshot(undefined, { refresh: input?.refresh ?? false }) };
  }

  /**
   * The health of a profile (the active one by default). `refresh` reads the lists again whatever
   * main holds (the user asked: the service may have changed what no event told main about).
   */
  async snapshot(
    profileId?: string,
    { refresh = false }: { refresh?: boolean } = {},
  ): Promise<HealthSnapshot> {
    const id = profileId ?? (await this.activeProfileId());
    const now = this.options.now();
    const { held } = this.options;
    const notBefore = refresh ? Number.POSITIVE_INFINITY : now - this.maxAgeMs;
    const [ports, subscriptions, topUps, schedules, alerts, localProxies] = await Promise.all([
      this.list(held.ports, id, now, notBefore, this.options.read.ports),
      this.list(held.subscriptions, id, now, notBefore, this.options.read.subscriptions),
      this.pendingTopUps(id, now, refresh),
      Promise.resolve(this.options.schedules(id)),
      this.openAlerts(id),
      this.options.localProxies(id),
    ]);
    const policy = this.options.policy();
    const ruled = attentionItems({
      profileId: id,
      now,
      policy,
      ports: ports.items,
      subscriptions: subscriptions.items,
      topUps: topUps.items,
      schedules,
      proxyTests: held.proxyTests.failed(id),
      alerts,
      localProxies,
    });
    const health = await this.portHealth(id, ports.items ?? []);
    const items = withMoreItems(ruled, portHealthItems(health));
    const counts: Record<AttentionLevel, number> = { error: 0, warning: 0, info: 0 };
    for (const item of items) counts[item.level] += 1;
    const sources = { ports: ports.source, subscriptions: subscriptions.source, topups: topUps.source };
    return {
      profileId: id,
      generatedAt: new Date(now).toISOString(),
      expiryWarningDays: policy.expiryWarningDays,
      items,
      counts,
      totals: {
        ports: ports.items?.length ?? 0,
        subscriptions: subscriptions.items?.length ?? 0,
        pendingTopUps: topUps.items.length,
        schedules: schedules.length,
      },
      sources,
      // Only what is worth knowing (a port that renews itself, a payment confirming) is still all good.
      allGood:
        counts.error + counts.warning === 0 &&
        Object.values(sources).every((source) => source.state !== 'failed'),
    };
  }

  /** A port-health failure leaves the rest of the overview as it is. */
  private async portHealth(
    profileId: string,
    ports: readonly MobilePortView[],
  ): Promise<readonly PortHealthAttention[]> {
    if (!this.options.portHealth || ports.length === 0) return [];
    try {
      return await this.options.portHealth(
        profileId,
        ports.map((port) => port.id),
      );
    } catch {
      return [];
    }
  }

  /** The held list when recent enough, else one read of the whole list (then held). */
  private async list<T extends { id: string }>(
    store: HeldListStore<T>,
    profileId: string,
    now: number,
    notBefore: number,
    read: (profileId: string) => Promise<readonly T[]>,
  ): Promise<{ items: readonly T[] | null; source: HealthSourceState }> {
    const held = store.get(profileId, notBefore);
    if (held) return { items: held.items, source: { state: 'held', readAt: iso(held.readAt) } };
    try {
      const items = await read(profileId);
      store.record(profileId, items, now);
      return { items, source: { state: 'read', readAt: iso(now) } };
    } catch (error) {
      // What was held before, however old, is better than nothing; the source says it failed.
      const stale = store.get(profileId, Number.NEGATIVE_INFINITY);
      return { items: stale?.items ?? null, source: { state: 'failed', message: describeError(error) } };
    }
  }

  /**
   * The watcher's top-ups of this profile, each with the full top-up where main has seen it. Those
   * awaiting payment need `expiresAt` for their countdown: when one has not been seen, the open ones
   * are listed once.
   */
  private async pendingTopUps(
    profileId: string,
    now: number,
    refresh: boolean,
  ): Promise<{ items: PendingTopUp[]; source: HealthSourceState }> {
    const { held } = this.options;
    let watched: WatchedTopUp[];
    try {
      watched = (await this.options.watchedTopUps())
        .filter((entry) => entry.profileId === profileId)
        .map(({ entry }) => entry);
    } catch (error) {
      return { items: [], source: { state: 'failed', message: describeError(error) } };
    }
    let source: HealthSourceState = { state: 'held', readAt: iso(now) };
    const unseen = watched.some(
      (entry) => entry.status === 'awaiting_payment' && !held.topUps.get(profileId, entry.topUpId),
    );
    if (unseen || (refresh && watched.length > 0)) {
      try {
        held.topUps.note(profileId, await this.awaitingTopUps(profileId));
        source = { state: 'read', readAt: iso(now) };
      } catch (error) {
        source = { state: 'failed', message: describeError(error) };
      }
    }
    const items = watched.map((entry): PendingTopUp => {
      const topUp = held.topUps.get(profileId, entry.topUpId);
      return { ...entry, ...(topUp ? { topUp } : {}) };
    });
    return { items, source };
  }

  private async activeProfileId(): Promise<string> {
    // `active` resolves the profile and checks that it has a usable key; nothing is sent.
    return (await this.options.api.active('authenticated', () => Promise.resolve(null))).profileId;
  }

  /** The top-ups waiting for payment (one page of up to 100, the spec's largest). */
  private async awaitingTopUps(profileId: string): Promise<TopUp[]> {
    const page = await this.options.api.forProfile(profileId, 'authenticated', (client) =>
      client.listTopUps({ status: 'awaiting_payment', perPage: 100 }, { priority: 'background' }),
    );
    return page.data;
  }

  private async openAlerts(profileId: string): Promise<AlertView[]> {
    const [alerts, holding] = await Promise.all([this.options.alerts(), this.options.holdingAlertKeys()]);
    const held = new Set(holding);
    const seen = new Set<string>();
    // Newest first: one item per condition, the latest alert of it.
    return alerts.filter((alert) => {
      if (alert.profileId !== profileId || !held.has(alert.key) || seen.has(alert.key)) return false;
      seen.add(alert.key);
      return true;
    });
  }
}

const iso = (ms: number) => new Date(ms).toISOString();
