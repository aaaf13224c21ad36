import { ApiError, type TopUp } from '../../api';
import type { PendingTopUpSummary } from '../../../src-shared/contract';
import { POLLING_LIMITS } from '../../../src-shared/limits';
import type { Lifecycle } from '../domain-service';
import type { Clock } from '../runtime/clock';
import { DeadlineJob, type DeadlineJobState, describeError } from '../runtime/deadline-job';
import type { ApiCaller } from '../session/api-caller';
import { type JobSection, updateProfileEntry } from '../storage/job-section';

/** One watched top-up: what the tray and the notifications need, and when it is read next. */
export interface WatchedTopUp {
  topUpId: string;
  status: string;
  amountUsd: string;
  coin: string;
  network: string;
  confirmations: number;
  confirmationsRequired: number;
  txidDeadline: string;
  purchaseStatus: string | null;
  /** ISO time of the next read. */
  nextCheckAt: string;
  /** Failed reads in a row (backoff). */
  errors: number;
  /**
   * When the user last paid attention to it in this app (created, opened, declared): ISO time, or
   * null (absent in entries stored before the back-off) for a top-up only listed or found at start.
   */
  attentionAt?: string | null;
  /** Reads in a row of an expired or rejected top-up nobody is paying, unchanged (its back-off). */
  quietReads?: number;
}

/** Watched top-ups per profile, per top-up id: the watch resumes from here after a restart or crash. */
export type TopUpWatchState = Record<string, Record<string, WatchedTopUp>>;

type TopUpNoticeKind = 'credited' | 'rejected' | 'expired' | 'purchase_completed' | 'purchase_failed';

/** What the watcher tells the user (ports-sched's notifications controller shows it as an OS notification). */
export interface TopUpNotice {
  profileId: string;
  topUpId: string;
  kind: TopUpNoticeKind;
  title: string;
  body: string;
}

/** The user's polling settings (seconds); the spec's recommendations are floors: they may only slow it. */
interface TopUpPollingSettings {
  topUpVerifyingSeconds: number;
  topUpAwaitingPaymentSeconds: number;
}

export interface TopUpWatcherOptions {
  api: Pick<ApiCaller, 'forProfile'>;
  clock: Clock;
  store: JobSection<TopUpWatchState>;
  /** `publishTopUpChanges`: every read reaches every window as `topups:changed`. */
  publish: (profileId: string, changed: TopUp[]) => void;
  notify?: (notice: TopUpNotice) => void;
  polling?: () => TopUpPollingSettings;
  /**
   * Every profile's id: at start the watcher lists each one's open top-ups (made on the web, on
   * another machine, or before the watch existed) and watches the non-final ones.
   */
  profileIds?: () => string[];
  /**
   * The account's non-final top-ups in one list read shared with the overview (`held.openTopUps`);
   * without it the start lists each open status itself.
   */
  listOpen?: (profileId: string) => Promise<readonly TopUp[]>;
  /** Longest wait after failed reads. Default 5 minutes. */
  maxBackoffMs?: number;
  log?: (line: string) => void;
}

/** The spec's polling guidance for `GET /v1/topups/{id}`: 10 s while verifying, 30 s while waiting for payment. */
export const VERIFYING_POLL_MS = POLLING_LIMITS.topUpVerifyingSeconds.min * 1000;
export const AWAITING_POLL_MS = POLLING_LIMITS.topUpAwaitingPaymentSeconds.min * 1000;
/**
 * How long after the user last touched a top-up in this app (created, opened, declared) it counts
 * as being paid: the spec's cadence holds for that long even once it has expired or been rejected.
 */
export const PAYING_WINDOW_MS = 30 * 60_000;
/**
 * The longest wait between reads of an expired or rejected top-up nobody is paying (an abandoned
 * one): it stays non-final for 72 hours, and a late payment still turns it `verifying`, so it is read
 * after 1, 2 and 4 minutes, then every 5 minutes. A late payment is seen within 5 minutes.
 */
export const ABANDONED_MAX_POLL_MS = 5 * 60_000;
const MAX_BACKOFF_MS = 5 * 60_000;
/** Statuses a non-final top-up can have (credited is always final). */
const OPEN_STATUSES = ['awaiting_payment', 'verifying', 'expired', 'rejected'] as const;

const iso = (ms: number): string => new Date(ms).toISOString();

/**
 * Watches every non-final top-up of every profile until the service says `final`, reading each one
 * the user is paying exactly as often as the spec recommends (slower only when the settings say so),
 * and an abandoned one (expired or rejected, left for 72 hours until its txid deadline) at most every
 * 5 minutes (`cadenceFor`). The set lives in
 * the job store, so a restart or a crash resumes the watch; the wait comes from there too
 * (`DeadlineJob`). Runs only in the process that owns background jobs.
 */
export class TopUpWatcher implements Lifecycle {
  readonly name = 'top-up watcher';
  private readonly job: DeadlineJob;
  private readonly log: (line: string) => void;
  private readonly maxBackoffMs: number;
  private readonly listeners = new Set<() => void>();

  constructor(private readonly options: TopUpWatcherOptions) {
    this.log = options.log ?? (() => undefined);
    this.maxBackoffMs = options.maxBackoffMs ?? MAX_BACKOFF_MS;
    this.job = new DeadlineJob({
      name: 'topup-watcher',
      clock: options.clock,
      nextDeadline: () => this.nextDeadline(),
      run: () => this.checkDue(),
      log: this.log,
    });
  }

  /**
   * Told when the watched set or an entry's state changes (the tray's pending payments read
   * `pending` again); returns the unsubscribe function.
   */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  start(): void {
    this.job.start();
    if (this.options.profileIds) void this.sweep(this.options.profileIds());
  }

  /**
   * Adds every non-final top-up of these profiles to the watch (newest 100 of each open status).
   * A profile that cannot be read (no key, offline) is skipped until the next start.
   */
  async sweep(profileIds: readonly string[]): Promise<void> {
    for (const profileId of profileIds) {
      const { listOpen } = this.options;
      let statuses: readonly string[] = OPEN_STATUSES;
      if (listOpen) {
        try {
          const open = (await listOpen(profileId)).filter((topUp) => !topUp.final);
          for (const topUp of open) await this.watch(profileId, topUp);
          // Announced at once: a screen open since the start shows them now, not at their first read.
          this.options.publish(profileId, [...open]);
          // That one read covered every open status.
          statuses = [];
        } catch (error) {
          this.log(`[topup-watcher] cannot list the open top-ups of a profile: ${describeError(error)}`);
          continue;
        }
      }
      for (const status of statuses) {
        try {
          const page = await this.options.api.forProfile(profileId, 'authenticated', (client) =>
            client.listTopUps({ status, perPage: 100 }, { priority: 'background' }),
          );
          for (const topUp of page.data) if (!topUp.final) await this.watch(profileId, topUp);
        } catch (error) {
          this.log(`[topup-watcher] cannot list ${status} top-ups of a profile: ${describeError(error)}`);
          break;
        }
      }
    }
  }

  /** The deadline job's state (tests wait for `waiting` or `idle` after a read). */
  get state(): DeadlineJobState {
    return this.job.state;
  }

  stop(): Promise<void> {
    return this.job.stop();
  }

  /** How long to wait before reading a top-up in `status` again. */
  intervalFor(status: string): number {
    const settings = this.options.polling?.();
    if (status === 'verifying') {
      return Math.max(VERIFYING_POLL_MS, (settings?.topUpVerifyingSeconds ?? 0) * 1000);
    }
    return Math.max(AWAITING_POLL_MS, (settings?.topUpAwaitingPaymentSeconds ?? 0) * 1000);
  }

  /**
   * The wait before the next read of a top-up in `status`. Verifying and awaiting payment: the spec's
   * pace (`intervalFor`). Expired or rejected, not final yet (a late payment or a new declaration is
   * still taken until `txidDeadline`): the spec's pace while the user is paying it in this app (they
   * touched it within `PAYING_WINDOW_MS`), else a back-off: 30 s doubled per unchanged read nobody
   * was paying (`quietReads`: 1 minute, 2, 4), up to `ABANDONED_MAX_POLL_MS`.
   */
  cadenceFor(status: string, attentionAt: string | null, quietReads: number): number {
    const spec = this.intervalFor(status);
    if (status === 'verifying' || status === 'awaiting_payment') return spec;
    const now = this.options.clock.now();
    if (attentionAt !== null && now - Date.parse(attentionAt) < PAYING_WINDOW_MS) return spec;
    return Math.max(spec, Math.min(AWAITING_POLL_MS * 2 ** quietReads, ABANDONED_MAX_POLL_MS));
  }

  /**
   * Starts (or refreshes) watching a top-up main just learned of (created, declared, read): stored
   * before it returns; a final one is dropped. The next read is one interval after this answer.
   * `attention`: the user is paying it in this app (created, opened or declared it just now), so it
   * is read at the spec's pace again, however long it had been left.
   */
  async watch(profileId: string, topUp: TopUp, options: { attention?: boolean } = {}): Promise<void> {
    let changedSchedule = false;
    const now = this.options.clock.now();
    await this.options.store.update((current) => {
      const state = current ?? {};
      const previous = state[profileId]?.[topUp.id];
      if (topUp.final) {
        if (previous) {
          delete state[profileId]?.[topUp.id];
          if (Object.keys(state[profileId] ?? {}).length === 0) delete state[profileId];
          changedSchedule = true;
        }
        return state;
      }
      const attentionAt = options.attention ? iso(now) : (previous?.attentionAt ?? null);
      const sameStatus = previous?.status === topUp.status;
      const quietReads = sameStatus && !options.attention ? (previous.quietReads ?? 0) : 0;
      const wait = this.cadenceFor(topUp.status, attentionAt, quietReads);
      // A fresh answer with the same status keeps the cadence (reading it again early is not needed),
      // unless the user's attention brings the next read closer.
      const nextCheckAt =
        previous && sameStatus && Date.parse(previous.nextCheckAt) <= now + wait
          ? previous.nextCheckAt
          : iso(now + wait);
      (state[profileId] ??= {})[topUp.id] = {
        ...entryOf(topUp, nextCheckAt, previous?.errors ?? 0),
        attentionAt,
        quietReads,
      };
      changedSchedule = previous?.nextCheckAt !== nextCheckAt;
      return state;
    });
    if (changedSchedule) this.job.trigger('top-up watched');
    this.changed();
  }

  /** Every watched top-up of every profile. */
  async watched(): Promise<{ profileId: string; entry: WatchedTopUp }[]> {
    const state = (await this.options.store.read()) ?? {};
    return Object.entries(state).flatMap(([profileId, topUps]) =>
      Object.values(topUps).map((entry) => ({ profileId, entry })),
    );
  }

  /** Pending payments for the tray: "Top-up of 50.00 USD: 1 of 2 confirmations". */
  async pending(): Promise<PendingTopUpSummary[]> {
    return (await this.watched()).map(({ profileId, entry }) => ({
      profileId,
      topUpId: entry.topUpId,
      status: entry.status,
      text: pendingText(entry),
    }));
  }

  private async nextDeadline(): Promise<number | null> {
    let next: number | null = null;
    for (const { entry } of await this.watched()) {
      const at = Date.parse(entry.nextCheckAt);
      if (next === null || at < next) next = at;
    }
    return next;
  }

  private async checkDue(): Promise<void> {
    const now = this.options.clock.now();
    for (const { profileId, entry } of await this.watched()) {
      if (Date.parse(entry.nextCheckAt) > now) continue;
      await this.check(profileId, entry);
    }
  }

  private async check(profileId: string, entry: WatchedTopUp): Promise<void> {
    const { api, clock } = this.options;
    let topUp: TopUp;
    try {
      topUp = await api.forProfile(profileId, 'authenticated', (client) => client.getTopUp(entry.topUpId));
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) {
        this.log(`[topup-watcher] ${entry.topUpId} no longer exists; not watched any more`);
        await this.save(profileId, entry.topUpId, null);
        return;
      }
      const interval = this.cadenceFor(entry.status, entry.attentionAt ?? null, entry.quietReads ?? 0);
      const errors = entry.errors + 1;
      // 429: wait at least what the service asked; other failures: double the wait each time.
      const wait =
        error instanceof ApiError && error.status === 429
          ? Math.max(interval, error.retryAfterMs ?? 0)
          : Math.min(interval * 2 ** errors, Math.max(interval, this.maxBackoffMs));
      this.log(`[topup-watcher] cannot read ${entry.topUpId}: ${describeError(error)}; next in ${wait} ms`);
      await this.save(profileId, entry.topUpId, { ...entry, errors, nextCheckAt: iso(clock.now() + wait) });
      return;
    }
    const attentionAt = entry.attentionAt ?? null;
    const paying = attentionAt !== null && clock.now() - Date.parse(attentionAt) < PAYING_WINDOW_MS;
    const quietReads = topUp.status === entry.status && !paying ? (entry.quietReads ?? 0) + 1 : 0;
    const next = topUp.final
      ? null
      : {
          ...entryOf(topUp, iso(clock.now() + this.cadenceFor(topUp.status, attentionAt, quietReads)), 0),
          attentionAt,
          quietReads,
        };
    await this.save(profileId, entry.topUpId, next);
    this.options.publish(profileId, [topUp]);
    for (const notice of noticesFor(profileId, entry, topUp)) {
      try {
        this.options.notify?.(notice);
      } catch (error) {
        this.log(`[topup-watcher] notify failed: ${describeError(error)}`);
      }
    }
  }

  private changed(): void {
    for (const listener of [...this.listeners]) listener();
  }

  private async save(profileId: string, topUpId: string, entry: WatchedTopUp | null): Promise<void> {
    await updateProfileEntry(this.options.store, profileId, topUpId, entry);
    this.changed();
  }
}

function entryOf(topUp: TopUp, nextCheckAt: string, errors: number): WatchedTopUp {
  return {
    topUpId: topUp.id,
    status: topUp.status,
    amountUsd: topUp.amountUsd,
    coin: topUp.coin,
    network: topUp.network,
    confirmations: topUp.confirmations,
    confirmationsRequired: topUp.confirmationsRequired,
    txidDeadline: topUp.txidDeadline,
    purchaseStatus: topUp.purchase?.status ?? null,
    nextCheckAt,
    errors,
  };
}

function pendingText(
  entry: Pick<
    WatchedTopUp,
    'status' | 'amountUsd' | 'confirmations' | 'confirmationsRequired' | 'txidDeadline'
  >,
): string {
  const head = `Top-up of ${entry.amountUsd} USD`;
  switch (entry.status) {
    case 'verifying':
      return `${head}: ${entry.confirmations} of ${entry.confirmationsRequired} confirmations`;
    case 'awaiting_payment':
      return `${head}: awaiting payment`;
    case 'expired':
      return `${head}: expired; a payment is still matched until ${entry.txidDeadline}`;
    case 'rejected':
      return `${head}: rejected; it can be declared again until ${entry.txidDeadline}`;
    default:
      return `${head}: ${entry.status}`;
  }
}

/** Notices for what changed between the last state the watcher saw and this answer. */
function noticesFor(profileId: string, before: WatchedTopUp, after: TopUp): TopUpNotice[] {
  const notices: TopUpNotice[] = [];
  const head = `Top-up of ${after.amountUsd} USD`;
  const base = { profileId, topUpId: after.id };
  if (after.status !== before.status) {
    if (after.status === 'credited') {
      notices.push({
        ...base,
        kind: 'credited',
        title: `${head} credited`,
        body: `${after.creditedUsd ?? after.amountUsd} USD was added to your balance.`,
      });
    } else if (after.status === 'rejected') {
      notices.push({
        ...base,
        kind: 'rejected',
        title: `${head} rejected`,
        body: after.final
          ? 'The payment was rejected.'
          : `The payment was rejected. You can declare a transaction again until ${after.txidDeadline}.`,
      });
    } else if (after.status === 'expired') {
      notices.push({
        ...base,
        kind: 'expired',
        title: `${head} expired`,
        body: `The rate lock ended. A payment already sent is still matched until ${after.txidDeadline}: declare it.`,
      });
    }
  }
  const purchase = after.purchase;
  if (purchase && purchase.status !== before.purchaseStatus) {
    if (purchase.status === 'completed') {
      notices.push({
        ...base,
        kind: 'purchase_completed',
        title: `${purchase.planName} purchased`,
        body: `Order ${purchase.orderId ?? ''} was placed from your balance.`.replace('  ', ' '),
      });
    } else if (purchase.status === 'failed') {
      notices.push({
        ...base,
        kind: 'purchase_failed',
        title: `${purchase.planName} was not purchased`,
        body: `${purchase.failureReason ?? 'The order failed'}. The funds stay on your balance.`,
      });
    }
  }
  return notices;
}
