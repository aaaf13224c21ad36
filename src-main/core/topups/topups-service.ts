import { randomUUID } from 'node:crypto';
import QRCode from 'qrcode';
import {
  ApiError,
  ProxyServiceError,
  type ProxyServiceClient,
  type TopUp,
  type TopUpCreate,
  type TopUpPage,
} from '../../api';
import type {
  DomainHandlers,
  ParsedCallInput,
  PendingTopUpSummary,
  SimulatedPayment,
  TopUpPaymentDetails,
  TopUpPlanChoice,
  TopUpsCsvExport,
} from '../../../src-shared/contract';
import { isTxidNetwork, normalizeTxid, TXID_FORMAT_DESCRIPTION } from '../../../src-shared/txid-format';
import type { DomainService } from '../domain-service';
import { AppError } from '../errors';
import type { EventSink } from '../events';
import type { BackgroundJob } from '../runtime/background-jobs';
import type { ApiCaller } from '../session/api-caller';
import type { JobSection } from '../storage/job-section';
import type { TOP_UP_STATUSES } from '../../../src-shared/contract/topups';
import { type DemoPayments, demoOnly } from '../demo/demo-payments';
import { readPaymentUri } from './payment-uri';
import { runWithCallOptions } from '../../api/call-context';
import { publishTopUpChanges } from './topup-changes';
import {
  IDEMPOTENCY_KEY_TTL_MS,
  RESOLVED_INTENT_KEEP_MS,
  sameRequest,
  type TopUpIntent,
  type TopUpIntentsState,
} from './topup-intents';
import { TopUpLinks } from './topup-links';
import type { TopUpWatcher } from './topup-watcher';
import { topUpsCsv } from './topups-csv';

export interface TopUpsServiceOptions {
  api: Pick<ApiCaller, 'active' | 'forProfile'>;
  events: EventSink;
  /** `attemptId -> Idempotency-Key` (job store section `topup-intents`), written before each create. */
  intents: JobSection<TopUpIntentsState>;
  now: () => number;
  /** Whether this process runs background jobs: only the owner adds top-ups to the watch. */
  ownsJobs?: () => boolean;
  /** Follows open top-ups until they end (`topups:pending` lists them); absent: none are watched. */
  watcher?: Pick<TopUpWatcher, 'watch' | 'pending'>;
  /**
   * `topups:pending` in the attention model's words (the overview's top-up items, what each buys
   * included), so it says what the tray and the Overview say; default: the watcher's own lines.
   */
  pendingPayments?: () => Promise<PendingTopUpSummary[]>;
  /** The links main may open (shared with the watcher, which publishes too); default: its own. */
  links?: TopUpLinks;
  /** Demo mode's simulated payments (`DemoService`); absent: refused as `demo_only`. */
  demo?: DemoPayments;
  /**
   * Tells when a profile may have got its key (created, key set or provided, activated): unresolved
   * attempts of that profile are resumed then, whichever way the key arrived (keychain, session,
   * environment, `--profile` with an environment key, demo).
   */
  onProfileChange?: (listener: (change: { profileId: string; kind: string }) => void) => () => void;
  newIdempotencyKey?: () => string;
  log?: (line: string) => void;
  /** A page main read less than this ago is answered without reading the service again. Default 5 s. */
  freshForMs?: number;
}

/** Top-up pages main keeps per process (the most recently used; a page is small). */
const HELD_PAGES = 8;

type TopUpStatusFilter = (typeof TOP_UP_STATUSES)[number];

const EXPORT_PER_PAGE = 100;
/**
 * When a top-up made for an attempt can have been created: from a little before the attempt began
 * (the service's clock may run ahead of this machine's) until its Idempotency-Key expires.
 */
const ATTEMPT_WINDOW_BEFORE_MS = 10 * 60_000;
const ATTEMPT_WINDOW_AFTER_MS = IDEMPOTENCY_KEY_TTL_MS;
const EXPORT_MAX_PAGES = 1000;

/** Crypto top-ups. UI calls go to the active profile; `refreshOne` serves background jobs (the watcher). */
export class TopUpsService implements DomainService<'topups'> {
  /** Explorer links and payment URIs of the top-ups read so far: the only ones `app:openExternal` opens. */
  readonly links: TopUpLinks;
  private readonly newKey: () => string;
  private readonly log: (line: string) => void;
  /**
   * After a restart, in the process owning background jobs: creates whose answer was lost to a
   * crash are resolved with their own Idempotency-Key (`resumeIntents`).
   */
  readonly intentsJob: BackgroundJob = {
    name: 'top-up intents',
    start: () => {
      this.stopFollowingProfiles?.();
      this.stopFollowingProfiles =
        this.options.onProfileChange?.(({ profileId, kind }) => {
          if (kind !== 'renamed' && kind !== 'deleted') void this.resumeIntents(profileId);
        }) ?? null;
      void this.resumeIntents();
    },
    stop: () => {
      this.stopFollowingProfiles?.();
      this.stopFollowingProfiles = null;
    },
  };
  private stopFollowingProfiles: (() => void) | null = null;
  /** One resume at a time: a key arriving during a resume queues another behind it. */
  private resuming: Promise<void> = Promise.resolve();
  /** Creates in flight per attempt: a double click waits for the first one instead of racing it. */
  private readonly inFlight = new Map<string, Promise<TopUp>>();
  /**
   * Main's snapshot of the top-up pages screens read, per profile and query: answered at once and
   * read again behind the answer (stale-while-revalidate); kept current by what main publishes.
   */
  private readonly pages = new Map<string, { profileId: string; page: TopUpPage; readAt: number }>();
  private readonly pageReads = new Map<string, Promise<TopUpPage>>();
  private readonly readTokens = new Map<string, symbol>();

  constructor(private readonly options: TopUpsServiceOptions) {
    this.links = options.links ?? new TopUpLinks();
    this.newKey = options.newIdempotencyKey ?? randomUUID;
    this.log = options.log ?? (() => undefined);
    // Another key or base URL is another account: its pages are not this one's.
    options.onProfileChange?.(({ profileId, kind }) => {
      if (kind === 'key' || kind === 'connection' || kind === 'deleted') this.forgetPages(profileId);
    });
  }

  handlers(): DomainHandlers<'topups'> {
    return {
      'topups:list': (input) => this.list(input),
      'topups:get': ({ topUpId }) => this.get(topUpId),
      'topups:create': (input) => this.create(input),
      'topups:declareTxid': (input) => this.declareTxid(input),
      'topups:plans': () => this.plans(),
      'topups:simulatePayment': (input) => this.simulatePayment(input.topUpId, input.kind),
      'topups:exportCsv': (input) => this.exportCsv(input?.status),
      'topups:paymentDetails': ({ topUpId }) => this.paymentDetails(topUpId),
      'topups:pending': () => this.pending(),
    };
  }

  private get api(): Pick<ApiCaller, 'active' | 'forProfile'> {
    return this.options.api;
  }

  /**
   * A page of the active profile's top-ups; the open ones are watched (in the jobs owner). From main's
   * snapshot of that page at once when it has one (read again behind it when older than a few
   * seconds: what changed comes as `topups:changed`), else from the service.
   */
  async list(input?: ParsedCallInput<'topups:list'>): Promise<TopUpPage> {
    const query = {
      ...(input?.page !== undefined ? { page: input.page } : {}),
      ...(input?.perPage !== undefined ? { perPage: input.perPage } : {}),
      ...(input?.status !== undefined ? { status: input.status } : {}),
    };
    const { profileId } = await this.api.active('authenticated', () => Promise.resolve(null));
    const key = `${profileId}\n${JSON.stringify(query)}`;
    const kept = this.pages.get(key);
    if (!kept) return this.readPage(profileId, key, query, 'interactive');
    if (this.options.now() - kept.readAt >= (this.options.freshForMs ?? 5_000) && !this.pageReads.has(key)) {
      const before = kept.page;
      void runWithCallOptions({}, () => this.readPage(profileId, key, query, 'background')).then(
        (after) => {
          const old = new Map(before.data.map((topUp) => [topUp.id, JSON.stringify(topUp)]));
          const changed = after.data.filter((topUp) => old.get(topUp.id) !== JSON.stringify(topUp));
          if (changed.length > 0) this.publish(profileId, changed);
        },
        (error: unknown) => this.log(`[topups] reading a page again failed: ${String(error)}`),
      );
    }
    return kept.page;
  }

  /** One read of a page (joined with one under way) into main's snapshot. */
  private readPage(
    profileId: string,
    key: string,
    query: { page?: number; perPage?: number; status?: TopUpStatusFilter },
    priority: 'interactive' | 'background',
  ): Promise<TopUpPage> {
    const running = this.pageReads.get(key);
    if (running) return running;
    // Stored only while this read is still the page's (a forgotten profile's read is not).
    const token = Symbol(key);
    const read: Promise<TopUpPage> = (async () => {
      const value = await this.api.forProfile(profileId, 'authenticated', (client) =>
        client.listTopUps(query, { priority }),
      );
      for (const topUp of value.data) {
        this.links.remember(topUp);
        // Listed, not opened: an abandoned one among them is read at the back-off's pace.
        if (!topUp.final) await this.watch(profileId, topUp, false);
      }
      if (this.readTokens.get(key) === token) {
        this.pages.delete(key);
        this.pages.set(key, { profileId, page: value, readAt: this.options.now() });
        for (const oldest of this.pages.keys()) {
          if (this.pages.size <= HELD_PAGES) break;
          this.pages.delete(oldest);
        }
      }
      return value;
    })().finally(() => {
      if (this.readTokens.get(key) === token) {
        this.pageReads.delete(key);
        this.readTokens.delete(key);
      }
    });
    this.pageReads.set(key, read);
    this.readTokens.set(key, token);
    return read;
  }

  /** Drops a profile's pages (another account, or a new top-up that belongs first on page 1). */
  private forgetPages(profileId: string): void {
    for (const [key, held] of this.pages) if (held.profileId === profileId) this.pages.delete(key);
    for (const key of this.pageReads.keys()) {
      if (!key.startsWith(`${profileId}\n`)) continue;
      this.pageReads.delete(key);
      this.readTokens.delete(key);
    }
  }

  async get(topUpId: string): Promise<TopUp> {
    const { profileId, value } = await this.api.active('authenticated', (client) => client.getTopUp(topUpId));
    // Opened (the wizard's live view): the user may be paying it now.
    await this.watch(profileId, value, true);
    this.publish(profileId, [value]);
    return value;
  }

  // Create ---------------------------------------------------------------------------------------

  /**
   * One attempt makes at most one top-up: its Idempotency-Key is stored before the first request and
   * every later call with the same `attemptId` (a double click, a retry, a resubmit after a restart)
   * re-sends the same body with the same key, or reads the top-up it already made.
   */
  create(input: ParsedCallInput<'topups:create'>): Promise<TopUp> {
    const running = this.inFlight.get(input.attemptId);
    if (running) return running;
    const promise = this.createOnce(input).finally(() => this.inFlight.delete(input.attemptId));
    this.inFlight.set(input.attemptId, promise);
    return promise;
  }

  private async createOnce(input: ParsedCallInput<'topups:create'>): Promise<TopUp> {
    const request = toRequest(input);
    const { profileId, value: topUp } = await this.api.active('authenticated', async (client, profileId) => {
      const stored = (await this.options.intents.read())?.[input.attemptId];
      // Stripe's rule: an attempt id names one request. The same id with other details is refused
      // and sends nothing (it made, or may have made, a top-up of the first details).
      if (stored && !sameRequest(stored.request, request)) throw idempotencyMismatch(stored.request, request);
      if (stored && stored.profileId !== profileId) return this.findElsewhere(client, stored);
      if (stored?.topUpId) return client.getTopUp(stored.topUpId);
      const intent: TopUpIntent = stored
        ? stored
        : {
            attemptId: input.attemptId,
            profileId,
            idempotencyKey: this.newKey(),
            request,
            createdAt: new Date(this.options.now()).toISOString(),
            topUpId: null,
          };
      // Written before the request: after a crash the same key resolves it, never a new one.
      await this.saveIntent(intent);
      const created = await this.send(client, intent, { throwDefinite: true });
      if (!created) throw new Error('unreachable: a definite refusal throws');
      return created;
    });
    await this.watch(profileId, topUp, true);
    // A new top-up moves every page: the next list reads them again.
    this.forgetPages(profileId);
    this.publish(profileId, [topUp]);
    return topUp;
  }

  /**
   * An attempt begun under another profile cannot be re-sent from this one (its key belongs to that
   * profile's account). Starting over could pay twice, so the top-up the service may already hold is
   * looked for first: same amount, coin and network, created within the attempt's window.
   */
  private async findElsewhere(client: ProxyServiceClient, intent: TopUpIntent): Promise<TopUp> {
    if (intent.topUpId !== null) {
      // Known: the same account under another profile has it; another account answers 404.
      const known = await client.getTopUp(intent.topUpId).catch((error: unknown) => {
        if (error instanceof ApiError && error.status === 404) return null;
        throw error;
      });
      if (known) return known;
    }
    const began = Date.parse(intent.createdAt);
    const page = await client.listTopUps({ perPage: 100 });
    const match = page.data.find((topUp) => {
      const created = Date.parse(topUp.createdAt);
      return (
        topUp.amountUsd === intent.request.amountUsd &&
        topUp.coin === intent.request.coin &&
        topUp.network === intent.request.network &&
        created >= began - ATTEMPT_WINDOW_BEFORE_MS &&
        created <= began + ATTEMPT_WINDOW_AFTER_MS
      );
    });
    if (match) return match;
    throw new AppError(
      'attempt_elsewhere',
      'This payment attempt began under another profile, and this account holds no top-up of the same amount, coin and network from that time. Switch back to that profile to continue it; check its top-ups before paying again.',
    );
  }

  /**
   * Sends an intent's request with its key. Resolves with the top-up (stored in the intent); null
   * when the service refused it for good (the intent is dropped: nothing was made, so new details
   * may go under a new key) unless `throwDefinite`. An unknown outcome (network, timeout, 5xx, 429)
   * keeps the intent and throws: the next call sends the same key.
   */
  private async send(
    client: ProxyServiceClient,
    intent: TopUpIntent,
    options: { throwDefinite?: boolean } = {},
  ): Promise<TopUp | null> {
    try {
      const topUp = await client.createTopUp(intent.request, { idempotencyKey: intent.idempotencyKey });
      await this.saveIntent({ ...intent, topUpId: topUp.id });
      return topUp;
    } catch (error) {
      if (isDefiniteRefusal(error)) {
        await this.dropIntent(intent.attemptId);
        if (options.throwDefinite) throw error;
        return null;
      }
      throw error;
    }
  }

  /**
   * After a restart: re-sends every unresolved intent of this process's profiles with its own
   * key (the service answers with the top-up it made, or makes it now), and forgets old ones.
   * Intents past the key's 24 h are not re-sent (that could make a second top-up): they are
   * logged and dropped, and the top-up list shows what exists.
   */
  resumeIntents(profileId?: string): Promise<void> {
    this.resuming = this.resuming.then(() => this.resumeIntentsNow(profileId));
    return this.resuming;
  }

  private async resumeIntentsNow(profileId: string | undefined): Promise<void> {
    const now = this.options.now();
    const intents = Object.values((await this.options.intents.read()) ?? {}).filter(
      (intent) => profileId === undefined || intent.profileId === profileId,
    );
    for (const intent of intents) {
      const age = now - Date.parse(intent.createdAt);
      if (intent.topUpId !== null) {
        if (age > RESOLVED_INTENT_KEEP_MS) await this.dropIntent(intent.attemptId);
        continue;
      }
      if (age >= IDEMPOTENCY_KEY_TTL_MS) {
        this.log(`[topups] create of attempt ${intent.attemptId} was never answered and its key expired`);
        await this.dropIntent(intent.attemptId);
        continue;
      }
      try {
        const topUp = await this.api.forProfile(intent.profileId, 'authenticated', (client) =>
          this.send(client, intent),
        );
        if (topUp) {
          await this.watch(intent.profileId, topUp, true);
          this.publish(intent.profileId, [topUp]);
        }
      } catch (error) {
        this.log(`[topups] cannot resolve attempt ${intent.attemptId} yet: ${errorMessage(error)}`);
      }
    }
  }

  private async saveIntent(intent: TopUpIntent): Promise<void> {
    await this.options.intents.update((current) => ({ ...(current ?? {}), [intent.attemptId]: intent }));
  }

  private async dropIntent(attemptId: string): Promise<void> {
    await this.options.intents.update((current) => {
      const next = { ...(current ?? {}) };
      delete next[attemptId];
      return next;
    });
  }

  // Declare ------------------------------------------------------------------------------------

  async declareTxid(input: ParsedCallInput<'topups:declareTxid'>): Promise<TopUp> {
    const { profileId, value: declared } = await this.api.active('authenticated', async (client) => {
      let txid: string | undefined;
      if (input.txid !== undefined) {
        // The network is the top-up's own: read it, then check the txid before sending anything.
        const topUp = await client.getTopUp(input.topUpId);
        txid = checkTxid(topUp.network, input.txid);
      }
      try {
        return await client.declareTopUpTxid(input.topUpId, txid === undefined ? {} : { txid });
      } catch (error) {
        throw explainDeclareError(error);
      }
    });
    await this.watch(profileId, declared, true);
    this.publish(profileId, [declared]);
    return declared;
  }

  // Payment details --------------------------------------------------------------------------

  async paymentDetails(topUpId: string): Promise<TopUpPaymentDetails> {
    const { profileId, value: topUp } = await this.api.active('authenticated', (client) =>
      client.getTopUp(topUpId),
    );
    this.links.remember(topUp);
    // The pay step is on screen: the user is paying it.
    await this.watch(profileId, topUp, true);
    return describePayment(topUp);
  }

  // Plans, CSV, pending -------------------------------------------------------------------------

  async plans(): Promise<TopUpPlanChoice[]> {
    const { value } = await this.api.active('authenticated', async (client) => {
      const [subscriptions, ports] = await Promise.all([
        client.listSubscriptions(),
        client.listMobilePorts(),
      ]);
      return { subscriptions, ports };
    });
    const choices = new Map<string, TopUpPlanChoice>();
    for (const subscription of value.subscriptions) {
      if (!choices.has(subscription.planId)) {
        choices.set(subscription.planId, {
          planId: subscription.planId,
          label: `${subscription.label} (${subscription.productId})`,
          source: 'subscription',
        });
      }
    }
    for (const port of value.ports) {
      if (!choices.has(port.planId)) {
        choices.set(port.planId, {
          planId: port.planId,
          label: `${port.label} (mobile port)`,
          source: 'port',
        });
      }
    }
    return [...choices.values()];
  }

  async exportCsv(status: TopUpStatusFilter | undefined): Promise<TopUpsCsvExport> {
    const { value: all } = await this.api.active('authenticated', async (client) => {
      const rows: TopUp[] = [];
      for (let page = 1; page <= EXPORT_MAX_PAGES; page += 1) {
        const answer = await client.listTopUps({
          page,
          perPage: EXPORT_PER_PAGE,
          ...(status !== undefined ? { status } : {}),
        });
        rows.push(...answer.data);
        if (page >= answer.pagination.totalPages) break;
      }
      return rows;
    });
    return {
      fileName: `topups${status ? `-${status}` : ''}.csv`,
      csv: topUpsCsv(all),
      rows: all.length,
    };
  }

  async pending(): Promise<PendingTopUpSummary[]> {
    if (this.options.pendingPayments) return this.options.pendingPayments();
    return this.options.watcher ? this.options.watcher.pending() : [];
  }

  // Demo ----------------------------------------------------------------------------------------

  async simulatePayment(topUpId: string, kind: SimulatedPayment): Promise<TopUp> {
    const { profileId, value: topUp } = await this.api.active('authenticated', (client) =>
      client.getTopUp(topUpId),
    );
    if (!this.options.demo) throw demoOnly();
    await this.options.demo.simulatePayment(profileId, topUp, kind);
    const after = await this.api.forProfile(profileId, 'authenticated', (client) => client.getTopUp(topUpId));
    await this.watch(profileId, after, true);
    this.publish(profileId, [after]);
    return after;
  }

  // Background --------------------------------------------------------------------------------

  /** Reads one top-up of one profile for a background job and tells the UI (`topups:changed`). */
  async refreshOne(profileId: string, topUpId: string): Promise<TopUp> {
    const topUp = await this.api.forProfile(profileId, 'authenticated', (client) => client.getTopUp(topUpId));
    this.publish(profileId, [topUp]);
    return topUp;
  }

  /** Announces top-ups whose state main learned of (after a write, or a background read). */
  publish(profileId: string, changed: TopUp[]): void {
    // Main's pages show them as they are now (a new one: the pages are read again, see `create`).
    const byId = new Map(changed.map((topUp) => [topUp.id, topUp]));
    for (const held of this.pages.values()) {
      if (held.profileId !== profileId || !held.page.data.some((topUp) => byId.has(topUp.id))) continue;
      held.page = { ...held.page, data: held.page.data.map((topUp) => byId.get(topUp.id) ?? topUp) };
    }
    publishTopUpChanges(this.options.events, this.links, profileId, changed);
  }

  /** `attention`: the user created, opened or declared it in this app (the watcher's full pace). */
  private async watch(profileId: string, topUp: TopUp, attention: boolean): Promise<void> {
    const { watcher } = this.options;
    if (!watcher || !(this.options.ownsJobs?.() ?? true)) return;
    await watcher.watch(profileId, topUp, { attention });
  }
}

function toRequest(input: ParsedCallInput<'topups:create'>): TopUpCreate {
  const request: TopUpCreate = { amountUsd: input.amountUsd, coin: input.coin, network: input.network };
  if (input.purchase) {
    request.purchase = {
      planId: input.purchase.planId,
      quantity: input.purchase.quantity,
      ...(input.purchase.options !== undefined ? { options: input.purchase.options } : {}),
      ...(input.purchase.promoCode !== undefined ? { promoCode: input.purchase.promoCode } : {}),
    };
  }
  return request;
}

/** The members of a top-up request, flat (`purchase.quantity`), for naming what differs. */
function flatRequest(request: TopUpCreate): Map<string, string> {
  const flat = new Map<string, string>();
  const walk = (value: unknown, path: string): void => {
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
      for (const [key, member] of Object.entries(value)) walk(member, path ? `${path}.${key}` : key);
    } else if (value !== undefined) flat.set(path, JSON.stringify(value));
  };
  walk(request, '');
  return flat;
}

/** The same attempt id with other details: a 409 naming each field that differs, and its first value. */
function idempotencyMismatch(first: TopUpCreate, now: TopUpCreate): AppError {
  const before = flatRequest(first);
  const after = flatRequest(now);
  const differing = [...new Set([...before.keys(), ...after.keys()])].filter(
    (key) => before.get(key) !== after.get(key),
  );
  const fields = differing.map((field) => ({
    field,
    message: `This attempt was made with ${field} ${before.get(field) ?? '(none)'}, not ${after.get(field) ?? '(none)'}.`,
  }));
  return new AppError(
    'idempotency_mismatch',
    `This attemptId was already used with other details (${differing.join(', ')}); nothing was created. Use a new attemptId for a new top-up.`,
    fields,
  );
}

/**
 * The service refused the create for good: nothing was made under the key. A 409 for the key
 * itself (`idempotency_key_reused`), a 408/425/429 or anything with an unknown outcome is not.
 */
function isDefiniteRefusal(error: unknown): boolean {
  return (
    error instanceof ApiError &&
    !error.outcomeUnknown &&
    error.status >= 400 &&
    error.status < 500 &&
    ![408, 425, 429].includes(error.status) &&
    error.code !== 'idempotency_key_reused'
  );
}

/** Checks a txid against the network's format (`shared/txid-format.ts`); a field error on `txid`. */
export function checkTxid(network: string, txid: string): string {
  if (!isTxidNetwork(network)) return txid;
  const normalized = normalizeTxid(network, txid);
  if (normalized === null) {
    const message = `Not a ${network} transaction id: expected ${TXID_FORMAT_DESCRIPTION[network]}.`;
    throw new AppError('invalid_input', message, [{ field: 'txid', message }]);
  }
  return normalized;
}

function explainDeclareError(error: unknown): unknown {
  if (!(error instanceof ApiError)) return error;
  if (error.code === 'txid_already_used') {
    const message =
      'This transaction was already declared for another top-up. Check the txid: each payment can pay one top-up only.';
    return new AppError('txid_already_used', message, [{ field: 'txid', message }], error);
  }
  if (error.code === 'topup_closed') {
    return new AppError(
      'topup_closed',
      'This top-up no longer takes a transaction: it is credited, being verified, or past its txid deadline. Contact support with the txid if you paid it.',
      [],
      error,
    );
  }
  return error;
}

/** The pay step's data: the QR code encodes exactly `paymentUri`. */
async function describePayment(topUp: TopUp): Promise<TopUpPaymentDetails> {
  const parts = readPaymentUri(topUp.paymentUri);
  if (parts && parts.recipient !== topUp.address) {
    // A URI paying somewhere other than the deposit address must not be shown as a QR code.
    throw new AppError(
      'internal_error',
      'The payment link does not pay the deposit address shown; do not pay this top-up and contact support.',
    );
  }
  const qrSvg = await QRCode.toString(topUp.paymentUri, {
    type: 'svg',
    errorCorrectionLevel: 'M',
    margin: 2,
  });
  const explorer = safeExplorer(topUp.explorerUrl);
  return {
    topUpId: topUp.id,
    paymentUri: topUp.paymentUri,
    qrSvg,
    depositAddress: topUp.address,
    amountCrypto: topUp.amountCrypto,
    coin: topUp.coin,
    network: topUp.network,
    tokenContract: parts?.tokenContract ?? null,
    explorerUrl: explorer?.href ?? null,
    explorerHost: explorer?.host ?? null,
  };
}

function safeExplorer(url: string | null): URL | null {
  if (url === null) return null;
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'https:' ? parsed : null;
  } catch {
    return null;
  }
}

function errorMessage(error: unknown): string {
  return error instanceof ProxyServiceError || error instanceof Error ? error.message : String(error);
}
