import { DatabaseSync, type SQLOutputValue } from 'node:sqlite';
import type {
  AlertChannelKind,
  AlertChannelRule,
  DeliveryLogEntry,
  DeliveryStatus,
} from '../../../src-shared/contract';
import type { DeliveryEnvelope, DeliveryEvent } from '../../../src-shared/contract/alert-routing-events';

/** A channel as stored: where it sends, without its secret (that is in the keychain). */
export interface StoredChannel {
  id: string;
  kind: AlertChannelKind;
  name: string;
  config: ChannelConfig;
  localProxyId: string | null;
  rule: AlertChannelRule;
  createdAt: number;
}

/** The non-secret settings of a channel; which ones a kind uses is in `channel-factory.ts`. */
export interface ChannelConfig {
  url?: string;
  chatId?: string;
  serverUrl?: string;
  topic?: string;
  host?: string;
  port?: number;
  secure?: boolean;
  username?: string;
  from?: string;
  to?: string;
  /** Sends through this mobile port (its gateway and credentials, read when sending). */
  viaPort?: { profileId: string; portId: string };
  /** Whether the channel's secret was put in the keychain when it was added. */
  hasSecret?: boolean;
  /** Slack, Discord: the host of the secret URL, to show where it goes. */
  displayHost?: string;
}

/** The oldest pending delivery of a channel: the only one it may send (in order). */
export interface HeadDelivery {
  seq: number;
  eventId: string;
  channelId: string;
  attempts: number;
  queuedAt: number;
  nextAt: number;
  envelope: DeliveryEnvelope;
}

export interface ChannelState {
  nextAllowedAt: number;
  consecutiveFailures: number;
  lastSuccessAt: number | null;
  lastFailureAt: number | null;
  lastError: string | null;
  pending: number;
  deadLetters: number;
}

type Row = Record<string, SQLOutputValue>;

/** A column as text (this store writes only text, numbers and nulls). */
const str = (value: SQLOutputValue | undefined): string =>
  typeof value === 'string' ? value : value instanceof Uint8Array || value == null ? '' : String(value);

const SCHEMA = `
CREATE TABLE IF NOT EXISTS channels (
  id TEXT PRIMARY KEY, kind TEXT NOT NULL, name TEXT NOT NULL, config TEXT NOT NULL,
  local_proxy_id TEXT, rule TEXT NOT NULL, created_at INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS events (
  seq INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT NOT NULL UNIQUE, type TEXT NOT NULL,
  subject TEXT NOT NULL, occurred_at INTEGER NOT NULL, envelope TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS deliveries (
  seq INTEGER PRIMARY KEY AUTOINCREMENT, event_id TEXT NOT NULL, channel_id TEXT NOT NULL,
  channel_name TEXT NOT NULL, channel_kind TEXT NOT NULL, status TEXT NOT NULL,
  attempts INTEGER NOT NULL DEFAULT 0, queued_at INTEGER NOT NULL, next_at INTEGER NOT NULL,
  last_attempt_at INTEGER, sent_at INTEGER, last_error TEXT, digest_id TEXT,
  UNIQUE (event_id, channel_id));
CREATE INDEX IF NOT EXISTS deliveries_pending ON deliveries (channel_id, status, seq);
CREATE INDEX IF NOT EXISTS deliveries_digest ON deliveries (digest_id);
CREATE TABLE IF NOT EXISTS quiet (key TEXT PRIMARY KEY, until INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS channel_state (
  channel_id TEXT PRIMARY KEY, next_allowed_at INTEGER NOT NULL DEFAULT 0,
  consecutive_failures INTEGER NOT NULL DEFAULT 0, last_success_at INTEGER, last_failure_at INTEGER,
  last_error TEXT);
`;

/** Sent, suppressed and digested lines are kept this long for the log; events (their ids) longer. */
const LOG_KEEP_MS = 30 * 86_400_000;
const EVENT_IDS_KEEP_MS = 180 * 86_400_000;

/**
 * The durable queue of alert deliveries, in SQLite (`node:sqlite`, WAL): every event, every
 * (event, channel) delivery with its attempts, the quiet periods and each channel's pace. Each
 * change is one transaction, so a kill -9 at any point leaves either the state before or after
 * it. `UNIQUE (event_id, channel_id)` and the events' unique ids make "at most once per event id
 * per channel" a rule of the database, and two processes on one data folder may both queue
 * (WAL, a busy timeout); only the owner of the background jobs sends.
 */
export class DeliveryStore {
  private constructor(private readonly db: DatabaseSync) {}

  /** `:memory:` for a store that lives as long as the process (tests, a core without a data folder). */
  static open(path: string): DeliveryStore {
    const db = new DatabaseSync(path, { timeout: 5000 });
    try {
      if (path !== ':memory:') db.exec('PRAGMA journal_mode = WAL');
      // FULL: a delivery marked sent stays sent across a power cut, not only a process kill.
      db.exec('PRAGMA synchronous = FULL');
      db.exec(SCHEMA);
    } catch (error) {
      db.close();
      throw error;
    }
    return new DeliveryStore(db);
  }

  close(): void {
    if (this.db.isOpen) this.db.close();
  }

  // Channels ------------------------------------------------------------------------------------

  addChannel(channel: StoredChannel): void {
    this.db
      .prepare(
        'INSERT INTO channels (id, kind, name, config, local_proxy_id, rule, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
      )
      .run(
        channel.id,
        channel.kind,
        channel.name,
        JSON.stringify(channel.config),
        channel.localProxyId,
        JSON.stringify(channel.rule),
        channel.createdAt,
      );
  }

  channels(): StoredChannel[] {
    return this.db
      .prepare('SELECT * FROM channels ORDER BY created_at, id')
      .all()
      .map((row) => toChannel(row));
  }

  channel(id: string): StoredChannel | null {
    const row = this.db.prepare('SELECT * FROM channels WHERE id = ?').get(id);
    return row ? toChannel(row) : null;
  }

  setRule(id: string, rule: AlertChannelRule): boolean {
    return (
      this.db.prepare('UPDATE channels SET rule = ? WHERE id = ?').run(JSON.stringify(rule), id).changes > 0
    );
  }

  /** Removes the channel and what it still had to send; what was sent stays in the log. */
  removeChannel(id: string): boolean {
    return this.transaction(() => {
      this.db
        .prepare("DELETE FROM deliveries WHERE channel_id = ? AND status IN ('pending', 'in_digest')")
        .run(id);
      this.db.prepare('DELETE FROM channel_state WHERE channel_id = ?').run(id);
      return this.db.prepare('DELETE FROM channels WHERE id = ?').run(id).changes > 0;
    });
  }

  // Queueing ------------------------------------------------------------------------------------

  /**
   * Queues an event for every channel whose rule takes it, in one transaction: false when the
   * event id was already known (the same happening, published again: nothing is queued twice).
   * `subject` is what the quiet period is kept per (a port, a subscription).
   */
  enqueue(event: DeliveryEvent, subject: string, now: number): boolean {
    return this.transaction(() => {
      const inserted = this.db
        .prepare(
          'INSERT OR IGNORE INTO events (id, type, subject, occurred_at, envelope) VALUES (?, ?, ?, ?, ?)',
        )
        .run(event.id, event.type, subject, now, JSON.stringify(event));
      if (inserted.changes === 0) return false;
      for (const channel of this.channels()) {
        if (!channel.rule.events.includes(event.type)) continue;
        this.queueFor(channel, event, subject, now);
      }
      return true;
    });
  }

  /** Logs a delivery that did not go through the queue (the Test button). */
  recordDirect(
    event: DeliveryEvent,
    channel: StoredChannel,
    outcome: { at: number; error: string | null },
  ): DeliveryLogEntry {
    this.transaction(() => {
      this.db
        .prepare(
          'INSERT OR IGNORE INTO events (id, type, subject, occurred_at, envelope) VALUES (?, ?, ?, ?, ?)',
        )
        .run(event.id, event.type, channel.id, outcome.at, JSON.stringify(event));
      this.insertDelivery(channel, event.id, outcome.error ? 'dead' : 'sent', outcome.at, outcome.at, null);
      this.db
        .prepare(
          'UPDATE deliveries SET attempts = 1, last_attempt_at = ?, sent_at = ?, last_error = ? WHERE event_id = ? AND channel_id = ?',
        )
        .run(outcome.at, outcome.error ? null : outcome.at, outcome.error, event.id, channel.id);
      this.noteOutcome(channel.id, outcome.at, outcome.error, 0);
    });
    const row = this.db
      .prepare('SELECT * FROM deliveries WHERE event_id = ? AND channel_id = ?')
      .get(event.id, channel.id);
    if (!row) throw new Error('The test delivery was not recorded');
    return toEntry(row);
  }

  private queueFor(channel: StoredChannel, event: DeliveryEvent, subject: string, now: number): void {
    const quietMs = (channel.rule.quietMinutes[event.type] ?? 0) * 60_000;
    const key = `${channel.id}|${event.type}|${subject}`;
    const quiet = this.db.prepare('SELECT until FROM quiet WHERE key = ?').get(key);
    if (quiet && Number(quiet.until) > now) {
      this.insertDelivery(channel, event.id, 'suppressed', now, now, null);
      this.db
        .prepare('UPDATE deliveries SET last_error = ? WHERE event_id = ? AND channel_id = ?')
        .run(
          `Held back: quiet period until ${new Date(Number(quiet.until)).toISOString()}.`,
          event.id,
          channel.id,
        );
      return;
    }
    if (quietMs > 0)
      this.db.prepare('INSERT OR REPLACE INTO quiet (key, until) VALUES (?, ?)').run(key, now + quietMs);
    const digestMinutes = channel.rule.digestMinutes;
    if (!digestMinutes) {
      this.insertDelivery(channel, event.id, 'pending', now, now, null);
      return;
    }
    const digestId = this.openDigest(channel, now, digestMinutes);
    this.insertDelivery(channel, event.id, 'in_digest', now, now, digestId);
  }

  /** The channel's digest still gathering (not yet due, never tried), or a new one due in N minutes. */
  private openDigest(channel: StoredChannel, now: number, minutes: number): string {
    const open = this.db
      .prepare(
        "SELECT d.event_id FROM deliveries d JOIN events e ON e.id = d.event_id WHERE d.channel_id = ? AND e.type = 'digest' AND d.status = 'pending' AND d.attempts = 0 AND d.next_at > ? ORDER BY d.seq DESC LIMIT 1",
      )
      .get(channel.id, now);
    if (open) return String(open.event_id);
    const id = `dg_${channel.id.slice(4)}_${now.toString(36)}`;
    const envelope = { id, type: 'digest', timestamp: new Date(now).toISOString(), data: { events: [] } };
    this.db
      .prepare(
        'INSERT OR IGNORE INTO events (id, type, subject, occurred_at, envelope) VALUES (?, ?, ?, ?, ?)',
      )
      .run(id, 'digest', channel.id, now, JSON.stringify(envelope));
    this.insertDelivery(channel, id, 'pending', now, now + minutes * 60_000, null);
    return id;
  }

  private insertDelivery(
    channel: StoredChannel,
    eventId: string,
    status: DeliveryStatus,
    queuedAt: number,
    nextAt: number,
    digestId: string | null,
  ): void {
    this.db
      .prepare(
        'INSERT OR IGNORE INTO deliveries (event_id, channel_id, channel_name, channel_kind, status, queued_at, next_at, digest_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
      )
      .run(eventId, channel.id, channel.name, channel.kind, status, queuedAt, nextAt, digestId);
  }

  // Sending ---------------------------------------------------------------------------------------

  /** The channel's oldest pending delivery, with its envelope (a digest's gathered events filled in). */
  head(channelId: string): HeadDelivery | null {
    const row = this.db
      .prepare(
        "SELECT d.seq, d.event_id, d.channel_id, d.attempts, d.queued_at, d.next_at, e.envelope FROM deliveries d JOIN events e ON e.id = d.event_id WHERE d.channel_id = ? AND d.status = 'pending' ORDER BY d.seq LIMIT 1",
      )
      .get(channelId);
    if (!row) return null;
    let envelope = JSON.parse(String(row.envelope)) as DeliveryEnvelope;
    if (envelope.type === 'digest') {
      const events = this.db
        .prepare(
          'SELECT e.envelope FROM deliveries d JOIN events e ON e.id = d.event_id WHERE d.digest_id = ? AND d.channel_id = ? ORDER BY d.seq',
        )
        .all(envelope.id, channelId)
        .map((item) => JSON.parse(String(item.envelope)) as DeliveryEvent);
      envelope = { ...envelope, data: { events } };
    }
    return {
      seq: Number(row.seq),
      eventId: String(row.event_id),
      channelId: String(row.channel_id),
      attempts: Number(row.attempts),
      queuedAt: Number(row.queued_at),
      nextAt: Number(row.next_at),
      envelope,
    };
  }

  /** Written before the request: the attempt counts even if the process dies during it. */
  markAttempt(seq: number, now: number): void {
    this.db
      .prepare('UPDATE deliveries SET attempts = attempts + 1, last_attempt_at = ? WHERE seq = ?')
      .run(now, seq);
  }

  markSent(head: HeadDelivery, now: number, minIntervalMs: number): void {
    this.transaction(() => {
      this.db
        .prepare("UPDATE deliveries SET status = 'sent', sent_at = ?, last_error = NULL WHERE seq = ?")
        .run(now, head.seq);
      this.noteOutcome(head.channelId, now, null, minIntervalMs);
    });
  }

  /** A failed attempt: tried again at `nextAt`, or a dead letter when `nextAt` is null. */
  markFailed(head: HeadDelivery, now: number, error: string, nextAt: number | null): void {
    this.transaction(() => {
      if (nextAt === null)
        this.db
          .prepare("UPDATE deliveries SET status = 'dead', last_error = ? WHERE seq = ?")
          .run(error, head.seq);
      else
        this.db
          .prepare('UPDATE deliveries SET next_at = ?, last_error = ? WHERE seq = ?')
          .run(nextAt, error, head.seq);
      this.noteOutcome(head.channelId, now, error, 0);
    });
  }

  private noteOutcome(channelId: string, now: number, error: string | null, minIntervalMs: number): void {
    this.db.prepare('INSERT OR IGNORE INTO channel_state (channel_id) VALUES (?)').run(channelId);
    if (error === null)
      this.db
        .prepare(
          'UPDATE channel_state SET next_allowed_at = ?, consecutive_failures = 0, last_success_at = ? WHERE channel_id = ?',
        )
        .run(now + minIntervalMs, now, channelId);
    else
      this.db
        .prepare(
          'UPDATE channel_state SET consecutive_failures = consecutive_failures + 1, last_failure_at = ?, last_error = ? WHERE channel_id = ?',
        )
        .run(now, error, channelId);
  }

  /** Honours a receiver's "wait" (429 Retry-After) for the whole channel. */
  holdChannel(channelId: string, until: number): void {
    this.db.prepare('INSERT OR IGNORE INTO channel_state (channel_id) VALUES (?)').run(channelId);
    this.db
      .prepare('UPDATE channel_state SET next_allowed_at = MAX(next_allowed_at, ?) WHERE channel_id = ?')
      .run(until, channelId);
  }

  channelState(channelId: string): ChannelState {
    const row = this.db.prepare('SELECT * FROM channel_state WHERE channel_id = ?').get(channelId);
    const counts = this.db
      .prepare(
        "SELECT SUM(status = 'pending') AS pending, SUM(status = 'dead') AS dead FROM deliveries WHERE channel_id = ?",
      )
      .get(channelId);
    return {
      nextAllowedAt: row ? Number(row.next_allowed_at) : 0,
      consecutiveFailures: row ? Number(row.consecutive_failures) : 0,
      lastSuccessAt: row?.last_success_at == null ? null : Number(row.last_success_at),
      lastFailureAt: row?.last_failure_at == null ? null : Number(row.last_failure_at),
      lastError: row?.last_error == null ? null : String(row.last_error),
      pending: Number(counts?.pending ?? 0),
      deadLetters: Number(counts?.dead ?? 0),
    };
  }

  /** Dead letters back in the queue as new first tries (in their old order). */
  retryDead(channelId: string | null, now: number): number {
    return this.transaction(() => {
      const sql =
        "UPDATE deliveries SET status = 'pending', attempts = 0, queued_at = ?, next_at = ?, last_error = NULL WHERE status = 'dead'";
      const result =
        channelId === null
          ? this.db.prepare(sql).run(now, now)
          : this.db.prepare(`${sql} AND channel_id = ?`).run(now, now, channelId);
      return Number(result.changes);
    });
  }

  // The log ---------------------------------------------------------------------------------------

  log(limit: number, deadOnly: boolean): DeliveryLogEntry[] {
    const where = deadOnly ? "WHERE d.status = 'dead'" : '';
    return this.db
      .prepare(
        `SELECT d.*, e.type FROM deliveries d JOIN events e ON e.id = d.event_id ${where} ORDER BY d.seq DESC LIMIT ?`,
      )
      .all(limit)
      .map((row) => toEntry(row));
  }

  /** Forgets old log lines and, much later, old event ids. */
  prune(now: number): void {
    this.transaction(() => {
      this.db
        .prepare(
          "DELETE FROM deliveries WHERE status IN ('sent', 'suppressed', 'in_digest') AND queued_at < ?",
        )
        .run(now - LOG_KEEP_MS);
      this.db
        .prepare('DELETE FROM events WHERE occurred_at < ? AND id NOT IN (SELECT event_id FROM deliveries)')
        .run(now - EVENT_IDS_KEEP_MS);
      this.db.prepare('DELETE FROM quiet WHERE until < ?').run(now);
    });
  }

  private transaction<T>(work: () => T): T {
    this.db.exec('BEGIN IMMEDIATE');
    try {
      const result = work();
      this.db.exec('COMMIT');
      return result;
    } catch (error) {
      this.db.exec('ROLLBACK');
      throw error;
    }
  }
}

function toChannel(row: Row): StoredChannel {
  return {
    id: str(row.id),
    kind: str(row.kind) as AlertChannelKind,
    name: str(row.name),
    config: JSON.parse(str(row.config)) as ChannelConfig,
    localProxyId: row.local_proxy_id == null ? null : str(row.local_proxy_id),
    rule: JSON.parse(str(row.rule)) as AlertChannelRule,
    createdAt: Number(row.created_at),
  };
}

const isoOrNull = (value: SQLOutputValue | undefined): string | null =>
  value == null ? null : new Date(Number(value)).toISOString();

function toEntry(row: Row): DeliveryLogEntry {
  const status = str(row.status) as DeliveryStatus;
  return {
    eventId: str(row.event_id),
    eventType: (str(row.type) || 'channel.test') as DeliveryLogEntry['eventType'],
    channelId: str(row.channel_id),
    channelName: str(row.channel_name),
    channelKind: str(row.channel_kind) as AlertChannelKind,
    status,
    attempts: Number(row.attempts),
    queuedAt: new Date(Number(row.queued_at)).toISOString(),
    lastAttemptAt: isoOrNull(row.last_attempt_at),
    nextAttemptAt: status === 'pending' ? isoOrNull(row.next_at) : null,
    sentAt: isoOrNull(row.sent_at),
    lastError: row.last_error == null ? null : str(row.last_error),
    digestId: row.digest_id == null ? null : str(row.digest_id),
  };
}
