import {
  type AlertChannelView,
  ATTENTION_SCREENS,
  type AlertView,
  type AttentionItem,
  type AttentionLevel,
  type AttentionScreen,
  type DomainHandlers,
  type HealthSnapshot,
  type HealthSourceState,
  type LocalProxyView,
  type MobilePortView,
  type PendingTopUpSummary,
  type PortSchedule,
} from '../../../src-shared/contract';
import type { Subscription, TopUp } from '../../../src-shared/api-types';
import type { AttentionPolicy } from '../alerts/attention-rules';
import type { DomainService } from '../domain-service';
import type { ApiCaller } from '../session/api-caller';
import type { WatchedTopUp } from '../topups/topup-watcher';
import { describeError } from '../runtime/deadline-job';
import type { HeldAccountData, HeldListStore } from '../snapshots/held-lists';
import { attentionCards } from './overview-groups';
import { alertScreen, attentionItems, type PendingTopUp, type PortHealthAttention } from './overview-rules';

/** An alert as the alert center raised it (the screen is the model's to say). */
type RaisedAlertView = Omit<AlertView, 'screen'>;

/** A held list older than this is read again (events keep it current meanwhile). */
const HELD_LIST_MAX_AGE_MS = 10 * 60_000;

/**
 * The statuses of an open (non-final) top-up the list is read for: waiting for payment and verifying,
 * and expired or rejected ones whose payment can still be declared until `txidDeadline` (the overview
 * lists those too, so a one-shot command must know them as the app does). The spec's `status` filter
 * takes one value, so this is one list request per status (100 each, the spec's largest page); final
 * ones are left out.
 */
const OPEN_LIST_STATUSES = ['awaiting_payment', 'verifying', 'expired', 'rejected'] as const;

/**
 * The account's open top-ups: one list request per open status (`GET /v1/topups?status=…`). The
 * overview, the tray and the watcher's start read them through `held.openTopUps.read`, which joins a
 * read under way, so the app's start costs one such read.
 */
async function readOpenTopUps(api: Pick<ApiCaller, 'forProfile'>, profileId: string): Promise<TopUp[]> {
  const pages = await Promise.all(
    OPEN_LIST_STATUSES.map((status) =>
      api.forProfile(profileId, 'authenticated', (client) =>
        client.listTopUps({ status, perPage: 100 }, { priority: 'background' }),
      ),
    ),
  );
  return pages.flatMap((page) => page.data).filter((topUp) => !topUp.final);
}

/**
 * The account's open top-ups as main holds them: one list read shared by the watcher's start, the
 * overview and the tray (a read under way is joined), each top-up also noted in its newest state.
 */
export function heldOpenTopUps(
  api: Pick<ApiCaller, 'forProfile'>,
  held: Pick<HeldAccountData, 'openTopUps' | 'topUps'>,
  now: () => number,
): (profileId: string) => Promise<readonly TopUp[]> {
  return (profileId) =>
    held.openTopUps.read(
      profileId,
      async () => {
        const open = await readOpenTopUps(api, profileId);
        held.topUps.note(profileId, open);
        return open;
      },
      now,
    );
}

export interface OverviewServiceOptions {
  /** Wall time (epoch ms). */
  now: () => number;
  /** The active profile (with the usual errors when there is none or it has no usable key). */
  api: Pick<ApiCaller, 'active'>;
  /** The thresholds of Settings → Alerts. */
  policy: () => AttentionPolicy;
  held: HeldAccountData;
  /** One read of each whole list (the services' own, which announce what they read), only when main does not hold a recent one. */
  read: {
    ports: (profileId: string) => Promise<readonly MobilePortView[]>;
    subscriptions: (profileId: string) => Promise<readonly Subscription[]>;
    /** The open top-ups (`readOpenTopUps` through `held.openTopUps`). */
    openTopUps: (profileId: string) => Promise<readonly TopUp[]>;
  };
  /**
   * Follows open top-ups just listed at the spec's cadence (the top-up watcher, in the process that
   * owns background jobs); absent or a no-op elsewhere (a one-shot command reads, and is done).
   */
  follow?: (profileId: string, topUps: readonly TopUp[]) => Promise<void>;
  /** Every watched (non-final) top-up, of every profile: the top-up watcher's set. */
  watchedTopUps: () => Promise<readonly { profileId: string; entry: WatchedTopUp }[]>;
  schedules: (profileId: string) => Promise<readonly PortSchedule[]> | readonly PortSchedule[];
  /** Raised alerts the user has not dismissed, every profile (as raised: not judged again). */
  alerts: () => Promise<readonly RaisedAlertView[]>;
  /** Keys (`kind:profileId:subjectId`) of the alert conditions that still hold. */
  holdingAlertKeys: () => Promise<readonly string[]>;
  /** A profile's local proxies with their state and last upstream error (held by their service). */
  localProxies: (profileId: string) => Promise<readonly LocalProxyView[]>;
  /** Alert channels (every profile's) that keep failing; absent: alert delivery is not wired. */
  failingAlertChannels?: () => readonly AlertChannelView[];
  /** Bytes a day at the recent pace per subscription id (the usage poller's samples), where known. */
  pace?: (profileId: string) => Promise<Readonly<Record<string, number>>>;
  /** The health checks' and rotation verdicts' view of the profile's ports; absent: none. */
  portHealth?: (profileId: string, portIds: readonly string[]) => Promise<readonly PortHealthAttention[]>;
  maxAgeMs?: number;
}

/**
 * `overview:*`: what needs the user now, for the screen, the command line, MCP and REST alike
 * (`snapshot`), and the same model for the alerts list (`judgeAlerts`) and the tray
 * (`pendingPayments`). Built from what main already holds: the alert center, the schedules, the
 * open top-ups, the last proxy tests, and the ports and subscriptions last read by the poller or the
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
    const { held, read } = this.options;
    const notBefore = refresh ? Number.POSITIVE_INFINITY : now - this.maxAgeMs;
    const [ports, subscriptions, topUps, schedules, alerts, localProxies, pace] = await Promise.all([
      this.list(held.ports, id, now, notBefore, read.ports),
      this.list(held.subscriptions, id, now, notBefore, read.subscriptions),
      this.openTopUps(id, now, notBefore),
      Promise.resolve(this.options.schedules(id)),
      this.openAlerts(id),
      this.options.localProxies(id),
      this.pace(id),
    ]);
    const policy = this.options.policy();
    const portHealth = await this.portHealth(id, ports.items ?? []);
    const items = attentionItems({
      profileId: id,
      now,
      policy,
      pace,
      ports: ports.items,
      subscriptions: subscriptions.items,
      topUps: topUps.items,
      schedules,
      proxyTests: held.proxyTests.failed(id),
      alerts,
      localProxies,
      failingAlertChannels: this.options.failingAlertChannels?.() ?? [],
      portHealth,
    });
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
      badges: badgesOf(items),
      cards: attentionCards(items, now),
      // Only what is worth knowing (a port that renews itself, a payment confirming) is still all good.
      allGood:
        counts.error + counts.warning === 0 &&
        Object.values(sources).every((source) => source.state !== 'failed'),
    };
  }

  /**
   * The alerts list as the model judges it now, from what main holds (nothing is read): an alert
   * about a port or a subscription shows only while its item stands, in the item's current words and
   * level, on the item's screen; any other (a sub-user's cap, a run-out forecast) while its condition
   * holds. So turning auto-renew on clears the alert as it clears the item.
   */
  async judgeAlerts(alerts: readonly RaisedAlertView[]): Promise<AlertView[]> {
    const holding = new Set(await this.options.holdingAlertKeys());
    const byProfile = new Map<string, Map<string, AttentionItem> | null>();
    const judged: AlertView[] = [];
    for (const alert of alerts) {
      if (!byProfile.has(alert.profileId))
        byProfile.set(alert.profileId, await this.heldModel(alert.profileId));
      const model = byProfile.get(alert.profileId);
      const judgedByModel =
        model !== null &&
        model !== undefined &&
        ['port_expiring', 'subscription_expiring', 'traffic_low'].includes(alert.kind);
      if (judgedByModel) {
        const item = model.get(alert.key);
        if (!item) continue;
        judged.push({
          ...alert,
          level: item.level === 'error' ? 'error' : 'warning',
          title: item.title,
          message: item.detail,
          screen: item.screen,
        });
      } else if (holding.has(alert.key)) {
        judged.push({ ...alert, screen: alertScreen(alert) });
      }
    }
    return judged;
  }

  /** The tray's pending payments: the open top-ups of every profile, in the model's words. */
  async pendingPayments(): Promise<PendingTopUpSummary[]> {
    const profiles = new Set((await this.options.watchedTopUps()).map(({ profileId }) => profileId));
    for (const profileId of this.options.held.openTopUps.profiles()) profiles.add(profileId);
    const summaries: PendingTopUpSummary[] = [];
    for (const profileId of profiles) {
      const topUps = await this.heldOpenTopUps(profileId);
      const subscriptions = this.options.held.subscriptions.get(profileId, Number.NEGATIVE_INFINITY);
      const items = attentionItems({
        ...this.emptyInput(profileId),
        subscriptions: subscriptions?.items ?? null,
        topUps,
      }).filter((item) => item.screen === 'topups');
      for (const item of items) {
        const pending = topUps.find((topUp) => topUp.topUpId === item.subject.id);
        summaries.push({
          profileId,
          topUpId: item.subject.id,
          status: pending?.status ?? 'awaiting_payment',
          text: item.title,
        });
      }
    }
    return summaries;
  }

  private emptyInput(profileId: string) {
    return {
      profileId,
      now: this.options.now(),
      policy: this.options.policy(),
      ports: null,
      subscriptions: null,
      topUps: [],
      schedules: [],
      proxyTests: [],
      alerts: [],
      localProxies: [],
    };
  }

  /** The model's items with an alert, by alert key, from held lists only; null unless both lists are held. */
  private async heldModel(profileId: string): Promise<Map<string, AttentionItem> | null> {
    const { held } = this.options;
    const ports = held.ports.get(profileId, Number.NEGATIVE_INFINITY);
    const subscriptions = held.subscriptions.get(profileId, Number.NEGATIVE_INFINITY);
    if (!ports || !subscriptions) return null;
    const items = attentionItems({
      ...this.emptyInput(profileId),
      ports: ports.items,
      subscriptions: subscriptions.items,
      topUps: await this.heldOpenTopUps(profileId),
      pace: await this.pace(profileId),
    });
    return new Map(items.flatMap((item) => (item.alertKey ? [[item.alertKey, item] as const] : [])));
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
      // What was held before, however old, is better than nothing; the source says it failed, and since when.
      const stale = store.get(profileId, Number.NEGATIVE_INFINITY);
      return {
        items: stale?.items ?? null,
        source: {
          state: 'failed',
          message: describeError(error),
          lastReadAt: stale ? iso(stale.readAt) : null,
        },
      };
    }
  }

  /**
   * The open top-ups of this profile: the list as held (or read once now, when this process has not
   * listed them recently, or on `refresh`), each in its newest known state, with the watcher's
   * expired or rejected ones that can still be declared. What was just listed is handed to the
   * watcher, which reads each one at the spec's pace from then on.
   */
  private async openTopUps(
    profileId: string,
    now: number,
    notBefore: number,
  ): Promise<{ items: PendingTopUp[]; source: HealthSourceState }> {
    const store = this.options.held.openTopUps;
    let held = store.get(profileId, notBefore);
    // A top-up the watcher follows but main has not seen whole (its amount, its deadline) is listed
    // again rather than shown without them.
    if (held && (await this.unseenWatched(profileId, held.items))) held = null;
    let source: HealthSourceState;
    if (held) {
      source = { state: 'held', readAt: iso(held.readAt) };
    } else {
      try {
        const listed = await this.options.read.openTopUps(profileId);
        source = {
          state: 'read',
          readAt: iso(store.get(profileId, Number.NEGATIVE_INFINITY)?.readAt ?? now),
        };
        await this.options.follow?.(profileId, listed);
      } catch (error) {
        const stale = store.get(profileId, Number.NEGATIVE_INFINITY);
        source = {
          state: 'failed',
          message: describeError(error),
          lastReadAt: stale ? iso(stale.readAt) : null,
        };
      }
    }
    return { items: await this.heldOpenTopUps(profileId), source };
  }

  private async unseenWatched(profileId: string, listed: readonly TopUp[]): Promise<boolean> {
    let watched: readonly { profileId: string; entry: WatchedTopUp }[];
    try {
      watched = await this.options.watchedTopUps();
    } catch {
      return false;
    }
    return watched.some(
      ({ profileId: owner, entry }) =>
        owner === profileId &&
        !listed.some((topUp) => topUp.id === entry.topUpId) &&
        !this.options.held.topUps.get(profileId, entry.topUpId),
    );
  }

  /** The held open top-ups and the watcher's, each in the newest state main has seen; final ones left out. */
  private async heldOpenTopUps(profileId: string): Promise<PendingTopUp[]> {
    const { held } = this.options;
    const byId = new Map<string, PendingTopUp>();
    const listed = held.openTopUps.get(profileId, Number.NEGATIVE_INFINITY)?.items ?? [];
    for (const topUp of listed) {
      const latest = held.topUps.get(profileId, topUp.id) ?? topUp;
      if (!latest.final) byId.set(latest.id, pendingOf(latest));
    }
    let watched: readonly { profileId: string; entry: WatchedTopUp }[] = [];
    try {
      watched = await this.options.watchedTopUps();
    } catch {
      // The watcher's store could not be read: the listed ones still stand.
    }
    for (const { profileId: owner, entry } of watched) {
      if (owner !== profileId || byId.has(entry.topUpId)) continue;
      const topUp = held.topUps.get(profileId, entry.topUpId);
      if (topUp?.final) continue;
      byId.set(entry.topUpId, topUp ? pendingOf(topUp) : { ...entry });
    }
    return [...byId.values()];
  }

  private async pace(profileId: string): Promise<Readonly<Record<string, number>>> {
    try {
      return (await this.options.pace?.(profileId)) ?? {};
    } catch {
      // No forecast is not a failure of the overview: the items just have no forecast deadline.
      return {};
    }
  }

  private async activeProfileId(): Promise<string> {
    // `active` resolves the profile and checks that it has a usable key; nothing is sent.
    return (await this.options.api.active('authenticated', () => Promise.resolve(null))).profileId;
  }

  private async openAlerts(profileId: string): Promise<RaisedAlertView[]> {
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

function pendingOf(topUp: TopUp): PendingTopUp {
  return {
    topUpId: topUp.id,
    status: topUp.status,
    amountUsd: topUp.amountUsd,
    coin: topUp.coin,
    network: topUp.network,
    confirmations: topUp.confirmations,
    confirmationsRequired: topUp.confirmationsRequired,
    txidDeadline: topUp.txidDeadline,
    topUp,
  };
}

/** Errors and warnings per screen: what each navigation badge counts. */
function badgesOf(items: readonly AttentionItem[]): Record<AttentionScreen, number> {
  const badges = Object.fromEntries(ATTENTION_SCREENS.map((screen) => [screen, 0])) as Record<
    AttentionScreen,
    number
  >;
  for (const item of items) if (item.level !== 'info') badges[item.screen] += 1;
  return badges;
}

const iso = (ms: number) => new Date(ms).toISOString();
