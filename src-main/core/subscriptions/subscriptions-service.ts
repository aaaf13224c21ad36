import {
  ProxyServiceError,
  type ProxyServiceClient,
  type SubUser,
  type Subscription,
  type UsageReport,
} from '../../api';
import type { DomainHandlers, ParsedCallInput, SubscriptionHealth } from '../../../src-shared/contract';
import {
  type CreateSubUsersOutcome,
  type ProxyStringResult,
  SUBSCRIPTION_USAGE_MAX_DAYS,
  type SubUsersListView,
  type TextExport,
} from '../../../src-shared/contract/subscriptions';
import { toIpcError } from '../wire-error';
import { runWithCallOptions } from '../../api/call-context';
import { HeldListStore, HeldSubUsers, type SubUsersSnapshot } from '../snapshots/held-lists';
import { SnapshotList } from '../snapshots/snapshot-list';
import type { CatalogService } from '../catalog/catalog-service';
import type { DomainService } from '../domain-service';
import { AppError } from '../errors';
import type { EventSink } from '../events';
import type { ApiCaller } from '../session/api-caller';
import { checkUsageStart } from '../usage-range';
import {
  formatProxyLine,
  portForFormat,
  sessionLines,
  type Targeting,
  type TargetingCatalog,
  targetedUsername,
  validateTargeting,
} from './proxy-string';
import { subUsersListView, toSubUserRow } from './sub-user-rows';
import { credentialsText, usageCsv } from './subscription-exports';

const CLOCK_SKEW_MS = 120_000;

/** The chosen country's states and cities, read through the catalog service (public calls). */
export type TargetingCatalogReader = (countryCode: string) => Promise<TargetingCatalog>;

/**
 * The health checks' scores of subscriptions (`PortHealthReader` answers it); declared here so that
 * subscriptions do not import the health checks, which test through subscriptions' proxy strings.
 */
interface SubscriptionHealthScores {
  subscriptions(profileId: string, subscriptionIds: readonly string[]): SubscriptionHealth[];
}

export interface SubscriptionsServiceOptions {
  /** Scores from the health checks through each subscription's main user; absent: none. */
  health?: SubscriptionHealthScores;
  api: Pick<ApiCaller, 'active' | 'forProfile'>;
  events: EventSink;
  /** Wall time, for a usage range's default end (today, UTC). */
  now: () => number;
  catalog: TargetingCatalogReader;
  log?: (line: string) => void;
  /** Main's snapshot of each profile's subscriptions (`HeldAccountData.subscriptions`, shared with the overview). */
  held?: HeldListStore<Subscription>;
  /** Main's snapshot of sub-user lists (`HeldAccountData.subUsers`). */
  heldSubUsers?: HeldSubUsers;
  /** A snapshot younger than this is served without reading the service again. Default 5 s. */
  freshForMs?: number;
}

/** Reads the catalog's states and cities of a country through the catalog service. */
export function catalogTargeting(catalog: Pick<CatalogService, 'states' | 'cities'>): TargetingCatalogReader {
  return async (countryCode) => {
    const [states, cities] = await Promise.all([catalog.states(countryCode), catalog.cities(countryCode)]);
    return { stateIds: states.map((state) => state.id), cityIds: cities.map((city) => city.id) };
  };
}

function fileSafe(id: string): string {
  return id.replace(/[^A-Za-z0-9_-]/g, '_');
}

function isLimitReached(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === 'sub_user_limit_reached';
}

function outcomeUnknown(error: unknown): boolean {
  return error instanceof ProxyServiceError && error.outcomeUnknown;
}

/** Traffic subscriptions and their sub-users. UI calls go to the active profile; `refresh*` serve jobs. */
export class SubscriptionsService implements DomainService<'subscriptions'> {
  private readonly api: Pick<ApiCaller, 'active' | 'forProfile'>;
  private readonly events: EventSink;
  private readonly now: () => number;
  private readonly catalog: TargetingCatalogReader;
  private readonly log: (line: string) => void;
  private readonly snapshots: SnapshotList<Subscription>;
  private readonly heldSubUsers: HeldSubUsers;
  private readonly freshForMs: number;
  private readonly health: SubscriptionHealthScores | null;

  constructor(options: SubscriptionsServiceOptions) {
    this.health = options.health ?? null;
    this.api = options.api;
    this.events = options.events;
    this.now = options.now;
    this.catalog = options.catalog;
    this.log = options.log ?? (() => undefined);
    this.heldSubUsers = options.heldSubUsers ?? new HeldSubUsers();
    this.freshForMs = options.freshForMs ?? 5_000;
    this.snapshots = new SnapshotList<Subscription>({
      name: 'subscriptions',
      held: options.held ?? new HeldListStore<Subscription>(),
      now: options.now,
      read: (profileId, priority) =>
        this.api.forProfile(profileId, 'authenticated', (client) =>
          client.listSubscriptions({}, { priority }),
        ),
      announce: (profileId, { changed, removed, asOf }) =>
        this.events.emit('subscriptions:changed', {
          profileId,
          changed,
          ...(removed.length ? { removed } : {}),
          asOf,
        }),
      ...(options.freshForMs !== undefined ? { freshForMs: options.freshForMs } : {}),
      log: this.log,
    });
  }

  handlers(): DomainHandlers<'subscriptions'> {
    return {
      'subscriptions:list': (input) => this.list(input?.productId, input?.fresh ?? false),
      'subscriptions:get': ({ subscriptionId }) => this.get(subscriptionId),
      'subscriptions:health': (input) => this.healthScores(input?.subscriptionId),
      'subscriptions:update': (input) => this.update(input),
      'subscriptions:resetPassword': ({ subscriptionId }) => this.resetPassword(subscriptionId),
      'subscriptions:usage': (input) => this.usage(input),
      'subscriptions:exportUsage': (input) => this.exportUsage(input),
      'subscriptions:subUsers': ({ subscriptionId }) => this.servedSubUsers(subscriptionId),
      'subscriptions:createSubUser': (input) => this.createSubUser(input),
      'subscriptions:updateSubUser': (input) => this.updateSubUser(input),
      'subscriptions:deleteSubUser': ({ subscriptionId, subUserId }) =>
        this.deleteSubUser(subscriptionId, subUserId),
      'subscriptions:createSubUsers': (input) => this.createSubUsers(input),
      'subscriptions:exportCredentials': (input) => this.exportCredentials(input),
      'subscriptions:buildProxyString': (input) => this.buildProxyString(input),
    };
  }

  /**
   * The active profile's subscriptions (of one product, or all), stale-while-revalidate from main's
   * snapshot of the whole list (`SnapshotList`): at once when main holds it, read again behind the
   * answer when it is older than a few seconds (what changed comes as `subscriptions:changed`).
   */
  /** Scores of one subscription, or of every subscription of the active profile (in the list's order). */
  async healthScores(subscriptionId?: string): Promise<SubscriptionHealth[]> {
    const { profileId } = await this.api.active('authenticated', () => Promise.resolve(null));
    const ids = subscriptionId
      ? [subscriptionId]
      : (await this.snapshots.serve(profileId, false)).items.map((subscription) => subscription.id);
    return this.health ? this.health.subscriptions(profileId, ids) : [];
  }

  async list(
    productId?: NonNullable<ParsedCallInput<'subscriptions:list'>>['productId'],
    fresh = false,
  ): Promise<Subscription[]> {
    const { profileId } = await this.api.active('authenticated', () => Promise.resolve(null));
    const { items } = await this.snapshots.serve(profileId, fresh);
    return productId ? items.filter((subscription) => subscription.productId === productId) : [...items];
  }

  async get(subscriptionId: string): Promise<Subscription> {
    return (await this.api.active('authenticated', (client) => client.getSubscription(subscriptionId))).value;
  }

  update({
    subscriptionId,
    label,
    autoRenew,
  }: ParsedCallInput<'subscriptions:update'>): Promise<Subscription> {
    return this.writeSubscription((client) =>
      client.updateSubscription(subscriptionId, {
        ...(label !== undefined ? { label } : {}),
        ...(autoRenew !== undefined ? { autoRenew } : {}),
      }),
    );
  }

  resetPassword(subscriptionId: string): Promise<Subscription> {
    return this.writeSubscription((client) => client.resetSubscriptionPassword(subscriptionId));
  }

  /** The usage report as a CSV file (the report of `usage`). */
  async exportUsage(input: ParsedCallInput<'subscriptions:exportUsage'>): Promise<TextExport> {
    const report = await this.usage(input);
    const who = input.subUserId ? `-${fileSafe(input.subUserId)}` : '';
    return {
      fileName: `subscription-${fileSafe(input.subscriptionId)}${who}-usage-${report.from}-${report.to}.csv`,
      text: usageCsv(report),
      rows: report.points.length,
    };
  }

  async deleteSubUser(subscriptionId: string, subUserId: string): Promise<{ deleted: true }> {
    const { profileId } = await this.api.active('authenticated', (client) =>
      client.deleteSubUser(subscriptionId, subUserId),
    );
    await this.publishSubUsersQuietly(profileId, subscriptionId);
    return { deleted: true };
  }

  /** The subscriptions of a profile as main holds them, for the first state of a window; null when none. */
  snapshot(profileId: string): Subscription[] | null {
    const held = this.snapshots.peek(profileId, true);
    return held ? [...held.items] : null;
  }

  /**
   * Reads one profile's subscriptions for a background job (or the overview); the UI hears what
   * differs from main's snapshot (`subscriptions:changed` with `asOf`), no subscriptions when nothing moved.
   */
  refresh(profileId: string): Promise<Subscription[]> {
    return this.snapshots.readWhole(profileId, 'background');
  }

  /**
   * Reads one subscription's sub-users for a background job; the UI hears of the whole list when it
   * differs from main's snapshot (or main had none): a read where nothing moved sends nothing.
   */
  refreshSubUsers(profileId: string, subscriptionId: string): Promise<SubUsersSnapshot> {
    return this.readSubUsers(profileId, subscriptionId, 'background');
  }

  /**
   * `subscriptions:subUsers`: stale-while-revalidate from main's snapshot of the list (thousands of
   * sub-users are not read from the service on every visit); a list older than a few seconds is read
   * again behind the answer and comes as `subscriptions:changed` when it changed. Main holds the
   * sub-users whole; the answer is their rows, without passwords.
   */
  private async servedSubUsers(subscriptionId: string): Promise<SubUsersListView> {
    const { profileId } = await this.api.active('authenticated', () => Promise.resolve(null));
    const kept = this.heldSubUsers.get(profileId, subscriptionId);
    if (!kept) return subUsersListView(await this.readSubUsers(profileId, subscriptionId, 'interactive'));
    if (
      this.now() - kept.readAt >= this.freshForMs &&
      !this.heldSubUsers.reading(profileId, subscriptionId)
    ) {
      void runWithCallOptions({}, () => this.readSubUsers(profileId, subscriptionId, 'background')).catch(
        (error: unknown) => this.log(`[subscriptions] reading sub-users again failed: ${String(error)}`),
      );
    }
    return subUsersListView(kept.view);
  }

  /** One read of a sub-user list into main's snapshot; announced when it changed (not to its own asker). */
  private async readSubUsers(
    profileId: string,
    subscriptionId: string,
    priority: 'interactive' | 'background',
  ): Promise<SubUsersSnapshot> {
    const before = this.heldSubUsers.get(profileId, subscriptionId);
    const view = await this.heldSubUsers.read(
      profileId,
      subscriptionId,
      async () => {
        const list = await this.api.forProfile(profileId, 'authenticated', (client) =>
          client.listSubUsers(subscriptionId, { priority }),
        );
        return { data: list.data, limit: list.limit };
      },
      this.now,
    );
    const changed = before
      ? JSON.stringify(before.view.data) !== JSON.stringify(view.data)
      : priority === 'background';
    if (changed) this.announceSubUsers(profileId, subscriptionId, view);
    return view;
  }

  /**
   * Reads a sub-user list again after a write, past a read under way (it may have started before the
   * write), into main's snapshot, and announces it.
   */
  private async rereadSubUsers(profileId: string, subscriptionId: string): Promise<SubUsersSnapshot> {
    const view = await this.heldSubUsers.read(
      profileId,
      subscriptionId,
      async () => {
        const list = await this.api.forProfile(profileId, 'authenticated', (client) =>
          client.listSubUsers(subscriptionId),
        );
        return { data: list.data, limit: list.limit };
      },
      this.now,
      false,
    );
    this.announceSubUsers(profileId, subscriptionId, view);
    return view;
  }

  /** The rows go out; the passwords stay in main's snapshot (the local proxies read them there). */
  private announceSubUsers(profileId: string, subscriptionId: string, view: SubUsersSnapshot): void {
    this.events.emit('subscriptions:changed', {
      profileId,
      changed: [],
      subUsers: { [subscriptionId]: view.data.map(toSubUserRow) },
    });
  }

  /** Announces subscriptions whose state main learned of (after a write, or a background read). */
  publish(profileId: string, changed: Subscription[]): void {
    if (changed.length > 0) this.events.emit('subscriptions:changed', { profileId, changed });
  }

  private async writeSubscription(
    run: (client: ProxyServiceClient) => Promise<Subscription>,
  ): Promise<Subscription> {
    const { profileId, value } = await this.api.active('authenticated', run);
    this.publish(profileId, [value]);
    return value;
  }

  private async subUsers(subscriptionId: string): Promise<SubUsersSnapshot> {
    const { value } = await this.api.active('authenticated', (client) => client.listSubUsers(subscriptionId));
    return { data: value.data, limit: value.limit };
  }

  private async publishSubUsersQuietly(profileId: string, subscriptionId: string): Promise<void> {
    // The write succeeded; a failed re-read only leaves other windows to refresh on their own.
    try {
      await this.rereadSubUsers(profileId, subscriptionId);
    } catch {
      /* see above */
    }
  }

  async usage(input: ParsedCallInput<'subscriptions:usage'>): Promise<UsageReport> {
    const { subscriptionId, from, to, subUserId } = input;
    checkUsageStart(from, to, this.now(), SUBSCRIPTION_USAGE_MAX_DAYS);
    return this.api
      .active('authenticated', (client) =>
        client.getSubscriptionUsage(subscriptionId, {
          ...(from ? { from } : {}),
          ...(to ? { to } : {}),
          ...(subUserId ? { subUserId } : {}),
        }),
      )
      .then((answer) => answer.value);
  }

  /**
   * Sent once. When the answer is lost (network error, timeout, 5xx), the sub-users are listed and a
   * new one with the label is taken as the create having happened; otherwise the user is told it did
   * not, and may retry knowing that.
   */
  async createSubUser(
    input: ParsedCallInput<'subscriptions:createSubUser'>,
    known: ReadonlySet<string> = new Set(),
  ): Promise<SubUser> {
    const { subscriptionId, label, password, trafficLimit } = input;
    const sentAt = this.now();
    try {
      const { profileId, value } = await this.api.active('authenticated', (client) =>
        client.createSubUser(subscriptionId, {
          label,
          ...(password !== undefined ? { password } : {}),
          ...(trafficLimit !== undefined ? { trafficLimitBytes: trafficLimit } : {}),
        }),
      );
      await this.publishSubUsersQuietly(profileId, subscriptionId);
      return value;
    } catch (error) {
      if (!outcomeUnknown(error)) throw error;
      const found = await this.findCreated(subscriptionId, label, known, sentAt).catch(() => undefined);
      if (found) return found;
      throw new AppError(
        'sub_user_outcome_unknown',
        found === null
          ? `The answer to creating “${label}” was lost, and the sub-users read again have none with that label: it was not created. You can try again.`
          : `The answer to creating “${label}” was lost and the sub-users could not be read again. Reload the sub-users before trying again.`,
        [],
        error,
      );
    }
  }

  /** The sub-user the lost create made, or null when the list shows none (undefined: not read). */
  private async findCreated(
    subscriptionId: string,
    label: string,
    known: ReadonlySet<string>,
    sentAt: number,
  ): Promise<SubUser | null> {
    const { profileId } = await this.api.active('authenticated', () => Promise.resolve(null));
    const value = await this.rereadSubUsers(profileId, subscriptionId);
    // Not one that was there before (known ids, or made more than two minutes, a generous clock skew, before sending).
    const matches = value.data.filter(
      (subUser) =>
        subUser.label === label &&
        !known.has(subUser.id) &&
        Date.parse(subUser.createdAt) >= sentAt - CLOCK_SKEW_MS,
    );
    // The newest with that label: the one just made, if it was made.
    matches.sort((a, b) => Date.parse(b.createdAt) - Date.parse(a.createdAt));
    return matches[0] ?? null;
  }

  async updateSubUser(input: ParsedCallInput<'subscriptions:updateSubUser'>): Promise<SubUser> {
    const { subscriptionId, subUserId, label, trafficLimit, enabled, regeneratePassword } = input;
    const { profileId, value } = await this.api.active('authenticated', (client) =>
      client.updateSubUser(subscriptionId, subUserId, {
        ...(label !== undefined ? { label } : {}),
        ...(trafficLimit !== undefined ? { trafficLimitBytes: trafficLimit } : {}),
        ...(enabled !== undefined ? { enabled } : {}),
        ...(regeneratePassword ? { regeneratePassword: true } : {}),
      }),
    );
    await this.publishSubUsersQuietly(profileId, subscriptionId);
    return value;
  }

  /**
   * One create after the other, numbered after the highest `<prefix>N` already taken. Stops at the
   * first refusal (the service's sub-user limit, or anything else) and reports what was created.
   */
  async createSubUsers(
    input: ParsedCallInput<'subscriptions:createSubUsers'>,
  ): Promise<CreateSubUsersOutcome> {
    const { subscriptionId, count, labelPrefix, trafficLimit } = input;
    const existing = await this.subUsers(subscriptionId);
    let highest = 0;
    for (const subUser of existing.data) {
      if (!subUser.label.startsWith(labelPrefix)) continue;
      const rest = subUser.label.slice(labelPrefix.length);
      if (/^\d{1,3}$/.test(rest)) highest = Math.max(highest, Number(rest));
    }
    const knownIds = new Set(existing.data.map((subUser) => subUser.id));
    const labels = Array.from({ length: count }, (_, index) => `${labelPrefix}${highest + index + 1}`);
    const outcome: CreateSubUsersOutcome = {
      created: [],
      notCreated: [],
      stoppedAtLimit: false,
      limit: existing.limit,
    };
    for (const [index, label] of labels.entries()) {
      try {
        outcome.created.push(
          await this.createSubUser(
            { subscriptionId, label, ...(trafficLimit !== undefined ? { trafficLimit } : {}) },
            knownIds,
          ),
        );
      } catch (error) {
        outcome.stoppedAtLimit = isLimitReached(error);
        const rest = labels.slice(index);
        outcome.notCreated = rest.map((notMade, at) => ({
          label: notMade,
          error:
            at === 0
              ? toIpcError(error, this.log)
              : {
                  code: 'not_sent',
                  message: 'Not sent: the run stopped before it.',
                },
        }));
        break;
      }
    }
    return outcome;
  }

  async exportCredentials(input: ParsedCallInput<'subscriptions:exportCredentials'>): Promise<TextExport> {
    const { subscriptionId, subUserIds, format } = input;
    const { value } = await this.api.active('authenticated', async (client) => ({
      subscription: await client.getSubscription(subscriptionId),
      subUsers: await client.listSubUsers(subscriptionId),
    }));
    const byId = new Map(value.subUsers.data.map((subUser) => [subUser.id, subUser]));
    const missing = subUserIds.filter((id) => !byId.has(id));
    if (missing.length > 0) {
      const message = `${missing.length} of the chosen sub-users no longer exist${missing.length === 1 ? 's' : ''}; reload the list.`;
      throw new AppError('invalid_input', message, [{ field: 'subUserIds', message }]);
    }
    const chosen = subUserIds.map((id) => byId.get(id) as SubUser);
    const text = credentialsText(value.subscription.endpoint, chosen, format);
    return {
      fileName: `subscription-${fileSafe(subscriptionId)}-credentials.txt`,
      text,
      rows: chosen.length,
    };
  }

  async buildProxyString(
    input: ParsedCallInput<'subscriptions:buildProxyString'>,
  ): Promise<ProxyStringResult> {
    const { subscriptionId, subUserId, format, protocol, count, sessionPrefix } = input;
    const targeting: Targeting = { ...input.targeting };
    const country = targeting.country;
    const needsCatalog = country !== undefined && (isSet(targeting.state) || isSet(targeting.city));
    const catalog = needsCatalog ? await this.catalog(country) : undefined;
    const errors = validateTargeting(targeting, catalog);
    if (count !== undefined && isSet(targeting.session)) {
      errors.push({ field: 'session', message: 'N lines number their own sessions: clear the session id.' });
    }
    if (errors.length > 0) {
      throw new AppError(
        'invalid_input',
        errors.map((error) => error.message).join(' '),
        errors.map((error) => ({ field: `targeting.${error.field}`, message: error.message })),
      );
    }
    const { value } = await this.api.active('authenticated', async (client) => {
      const subscription = await client.getSubscription(subscriptionId);
      if (subUserId === undefined) return { subscription, user: subscription };
      const list = await client.listSubUsers(subscriptionId);
      const subUser = list.data.find((candidate) => candidate.id === subUserId);
      if (!subUser) {
        throw new AppError('invalid_input', 'This sub-user no longer exists; reload the list.', [
          { field: 'subUserId', message: 'This sub-user no longer exists' },
        ]);
      }
      return { subscription, user: subUser };
    });
    const { endpoint } = value.subscription;
    const port = portForFormat(endpoint, format, protocol);
    const { password } = value.user;
    const base = { host: endpoint.host, port, password };
    const lines =
      count === undefined
        ? [formatProxyLine({ ...base, username: targetedUsername(value.user.username, targeting) }, format)]
        : sessionLines(
            { ...base, baseUsername: value.user.username },
            targeting,
            format,
            count,
            sessionPrefix ?? 's',
          );
    return { lines, host: endpoint.host, port, password };
  }
}

function isSet(value: string | undefined): value is string {
  return value !== undefined && value !== '';
}
