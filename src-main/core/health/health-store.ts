import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { DatabaseSync, type StatementSync } from 'node:sqlite';
import { ByteReader, ByteWriter, readIp, writeIp } from './byte-codec';
import { addLatency, emptyLatency, LATENCY_BINS, type LatencyStats, mergeLatency } from './latency-histogram';

export type Resolution = 'minute' | 'hour' | 'day';

interface ResolutionSpec {
  code: number;
  slotMs: number;
  /** Buckets packed into one row: a row is an hour of minutes, a day of hours, 32 days. */
  perRow: number;
  keepMs: number;
}

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

export const RESOLUTIONS: Readonly<Record<Resolution, ResolutionSpec>> = {
  minute: { code: 0, slotMs: 60_000, perRow: 60, keepMs: DAY_MS },
  hour: { code: 1, slotMs: HOUR_MS, perRow: 24, keepMs: 30 * DAY_MS },
  day: { code: 2, slotMs: DAY_MS, perRow: 32, keepMs: 365 * DAY_MS },
};

/** Raw checks kept per target: at least this many (the newest), in chunks of `RAW_CHUNK`. */
export const RAW_CHECKS_KEPT = 500;
/** Small enough (25 checks: about 500 bytes) to stay inside its b-tree page, never in overflow pages. */
const RAW_CHUNK = 25;

/** One check as stored (times epoch ms). */
export interface StoredCheck {
  at: number;
  ok: boolean;
  status: number | null;
  connectMs: number | null;
  firstByteMs: number | null;
  exitIp: string | null;
  asn: number | null;
  country: string | null;
  /** The failure's kind (`unavailable`, `timeout`, ...) and the gateway's own words; null when ok. */
  errorKind: string | null;
  error: string | null;
}

export interface BucketAggregate {
  checks: number;
  failures: number;
  connect: LatencyStats;
  firstByte: LatencyStats;
}

export interface StoredBucket extends BucketAggregate {
  /** Start of the bucket (epoch ms). */
  start: number;
}

export const emptyAggregate = (): BucketAggregate => ({
  checks: 0,
  failures: 0,
  connect: emptyLatency(),
  firstByte: emptyLatency(),
});

export function aggregateOf(check: Pick<StoredCheck, 'ok' | 'connectMs' | 'firstByteMs'>): BucketAggregate {
  const aggregate = emptyAggregate();
  aggregate.checks = 1;
  aggregate.failures = check.ok ? 0 : 1;
  addLatency(aggregate.connect, check.connectMs);
  // A failed check's first byte is the gateway's refusal: it is not the proxy's latency.
  if (check.ok) addLatency(aggregate.firstByte, check.firstByteMs);
  return aggregate;
}

export function mergeAggregate(into: BucketAggregate, from: BucketAggregate): void {
  into.checks += from.checks;
  into.failures += from.failures;
  mergeLatency(into.connect, from.connect);
  mergeLatency(into.firstByte, from.firstByte);
}

/** The newest schema this code reads and writes; `PRAGMA user_version` holds the file's. */
export const HEALTH_SCHEMA_VERSION = 1;

/**
 * Each step takes the file from version `index` to `index + 1`, in one transaction with the
 * version bump. A later release appends steps (never edits one), so any older file is brought up
 * to date on open.
 */
const MIGRATIONS: readonly string[] = [
  `CREATE TABLE targets (id INTEGER PRIMARY KEY, key TEXT NOT NULL UNIQUE);
   CREATE TABLE series (
     target INTEGER NOT NULL, resolution INTEGER NOT NULL, row INTEGER NOT NULL, data BLOB NOT NULL,
     PRIMARY KEY (target, resolution, row)
   ) WITHOUT ROWID;
   CREATE TABLE raw_checks (
     target INTEGER NOT NULL, chunk INTEGER NOT NULL, count INTEGER NOT NULL, last_at INTEGER NOT NULL,
     data BLOB NOT NULL,
     PRIMARY KEY (target, chunk)
   ) WITHOUT ROWID;`,
];

export class HealthStoreVersionError extends Error {}

function writeLatency(writer: ByteWriter, stats: LatencyStats): void {
  const used: number[] = [];
  for (let k = 0; k < LATENCY_BINS; k += 1) if ((stats.bins[k] ?? 0) > 0) used.push(k);
  writer.optionalUint(stats.max).uint(used.length);
  for (const k of used) writer.uint(k).uint(stats.bins[k] ?? 0);
}

function readLatency(reader: ByteReader): LatencyStats {
  const stats = emptyLatency();
  stats.max = reader.optionalUint();
  const used = reader.uint();
  for (let i = 0; i < used; i += 1) {
    const bin = reader.uint();
    stats.bins[Math.min(bin, LATENCY_BINS - 1)] = reader.uint();
  }
  return stats;
}

/** A row's buckets: offset within the row -> aggregate, sorted by offset when written. */
function decodeRow(data: Uint8Array): Map<number, BucketAggregate> {
  const reader = new ByteReader(data);
  const buckets = new Map<number, BucketAggregate>();
  while (!reader.done) {
    const offset = reader.uint();
    const checks = reader.uint();
    const failures = reader.uint();
    buckets.set(offset, { checks, failures, connect: readLatency(reader), firstByte: readLatency(reader) });
  }
  return buckets;
}

function encodeRow(buckets: Map<number, BucketAggregate>): Uint8Array {
  const writer = new ByteWriter();
  for (const offset of [...buckets.keys()].sort((a, b) => a - b)) {
    const bucket = buckets.get(offset) as BucketAggregate;
    writer.uint(offset).uint(bucket.checks).uint(bucket.failures);
    writeLatency(writer, bucket.connect);
    writeLatency(writer, bucket.firstByte);
  }
  return writer.bytes();
}

/** A check after the one at `previousAt` in its chunk (0 for a chunk's first): its time is a difference. */
function encodeCheck(writer: ByteWriter, check: StoredCheck, previousAt: number): void {
  writer
    .int(check.at - previousAt)
    .uint(check.ok ? 1 : 0)
    .optionalUint(check.status)
    .optionalUint(check.connectMs === null ? null : Math.round(check.connectMs))
    .optionalUint(check.firstByteMs === null ? null : Math.round(check.firstByteMs));
  writeIp(writer, check.exitIp);
  writer
    .optionalUint(check.asn)
    .optionalString(check.country)
    .optionalString(check.errorKind)
    .optionalString(check.error);
}

function decodeChecks(data: Uint8Array): StoredCheck[] {
  const reader = new ByteReader(data);
  const checks: StoredCheck[] = [];
  let at = 0;
  while (!reader.done) {
    at += reader.int();
    checks.push({
      at,
      ok: reader.uint() === 1,
      status: reader.optionalUint(),
      connectMs: reader.optionalUint(),
      firstByteMs: reader.optionalUint(),
      exitIp: readIp(reader),
      asn: reader.optionalUint(),
      country: reader.optionalString(),
      errorKind: reader.optionalString(),
      error: reader.optionalString(),
    });
  }
  return checks;
}

interface Statements {
  findTarget: StatementSync;
  addTarget: StatementSync;
  listTargets: StatementSync;
  readRow: StatementSync;
  writeRow: StatementSync;
  pruneRows: StatementSync;
  readRows: StatementSync;
  lastChunk: StatementSync;
  appendChunk: StatementSync;
  newChunk: StatementSync;
  pruneChunks: StatementSync;
  readChunks: StatementSync;
}

/**
 * The health checks' history in one SQLite file (`node:sqlite`, no native module to rebuild for
 * Electron): per target, buckets per minute (24 h), hour (30 days) and day (365 days) packed several
 * to a row, and the last 500 raw checks. WAL with `synchronous = NORMAL`: a committed check is in the
 * WAL file before `record` returns, so a kill -9 loses nothing committed (only a power cut may lose
 * the last transactions, never the file). Written by the job owner only; any process may read.
 */
export class HealthStore {
  private readonly statements: Statements;
  private readonly targetIds = new Map<string, number>();

  private constructor(private readonly db: DatabaseSync) {
    this.statements = {
      findTarget: db.prepare('SELECT id FROM targets WHERE key = ?'),
      addTarget: db.prepare('INSERT INTO targets (key) VALUES (?) RETURNING id'),
      listTargets: db.prepare('SELECT key FROM targets ORDER BY id'),
      readRow: db.prepare('SELECT data FROM series WHERE target = ? AND resolution = ? AND row = ?'),
      writeRow: db.prepare(
        'INSERT INTO series (target, resolution, row, data) VALUES (?, ?, ?, ?) ' +
          'ON CONFLICT (target, resolution, row) DO UPDATE SET data = excluded.data',
      ),
      pruneRows: db.prepare('DELETE FROM series WHERE target = ? AND resolution = ? AND row < ?'),
      readRows: db.prepare(
        'SELECT row, data FROM series WHERE target = ? AND resolution = ? AND row BETWEEN ? AND ? ORDER BY row',
      ),
      lastChunk: db.prepare(
        'SELECT chunk, count, last_at, data FROM raw_checks WHERE target = ? ORDER BY chunk DESC LIMIT 1',
      ),
      appendChunk: db.prepare(
        'UPDATE raw_checks SET count = count + 1, last_at = ?, data = ? WHERE target = ? AND chunk = ?',
      ),
      newChunk: db.prepare(
        'INSERT INTO raw_checks (target, chunk, count, last_at, data) VALUES (?, ?, 1, ?, ?)',
      ),
      pruneChunks: db.prepare('DELETE FROM raw_checks WHERE target = ? AND chunk < ?'),
      readChunks: db.prepare('SELECT data FROM raw_checks WHERE target = ? ORDER BY chunk DESC'),
    };
  }

  /** Opens (creating or migrating) the store; refuses a file written by a newer version. */
  static open(file: string): HealthStore {
    if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
    const db = new DatabaseSync(file, { timeout: 5_000 });
    try {
      db.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = OFF;');
      migrate(db);
      return new HealthStore(db);
    } catch (error) {
      db.close();
      throw error;
    }
  }

  /** Adds one check to its target's minute, hour and day buckets and to its raw checks, in one transaction. */
  record(targetKey: string, check: StoredCheck): void {
    const aggregate = aggregateOf(check);
    this.transaction(() => {
      const target = this.targetId(targetKey);
      for (const resolution of Object.keys(RESOLUTIONS) as Resolution[]) {
        this.mergeInto(target, resolution, check.at, aggregate);
      }
      this.appendCheck(target, check);
    });
  }

  /**
   * Merges whole aggregates into buckets (one transaction): what `record` does per check, and how a
   * history is written in bulk (the benchmark's year of buckets).
   */
  mergeBuckets(
    targetKey: string,
    entries: readonly { resolution: Resolution; at: number; aggregate: BucketAggregate }[],
  ): void {
    this.transaction(() => {
      const target = this.targetId(targetKey);
      for (const entry of entries) this.mergeInto(target, entry.resolution, entry.at, entry.aggregate);
    });
  }

  /** The buckets of `[fromMs, toMs)` at one resolution, oldest first; empty buckets are absent. */
  buckets(targetKey: string, resolution: Resolution, fromMs: number, toMs: number): StoredBucket[] {
    const target = this.existingTarget(targetKey);
    if (target === null) return [];
    const spec = RESOLUTIONS[resolution];
    const firstSlot = Math.floor(fromMs / spec.slotMs);
    const lastSlot = Math.ceil(toMs / spec.slotMs) - 1;
    const rows = this.statements.readRows.all(
      target,
      spec.code,
      Math.floor(firstSlot / spec.perRow),
      Math.floor(lastSlot / spec.perRow),
    ) as { row: number; data: Uint8Array }[];
    const out: StoredBucket[] = [];
    for (const { row, data } of rows) {
      for (const [offset, aggregate] of [...decodeRow(data)].sort((a, b) => a[0] - b[0])) {
        const slot = row * spec.perRow + offset;
        if (slot < firstSlot || slot > lastSlot) continue;
        out.push({ start: slot * spec.slotMs, ...aggregate });
      }
    }
    return out;
  }

  /** Everything of `[fromMs, toMs)` at one resolution merged into one aggregate. */
  totals(targetKey: string, resolution: Resolution, fromMs: number, toMs: number): BucketAggregate {
    const total = emptyAggregate();
    for (const bucket of this.buckets(targetKey, resolution, fromMs, toMs)) mergeAggregate(total, bucket);
    return total;
  }

  /** The newest raw checks, newest first (at most `RAW_CHECKS_KEPT`, or `limit`). */
  recentChecks(targetKey: string, limit = RAW_CHECKS_KEPT): StoredCheck[] {
    const target = this.existingTarget(targetKey);
    if (target === null) return [];
    const out: StoredCheck[] = [];
    for (const { data } of this.statements.readChunks.all(target) as { data: Uint8Array }[]) {
      out.push(...decodeChecks(data).reverse());
      if (out.length >= limit) break;
    }
    return out.slice(0, Math.min(limit, RAW_CHECKS_KEPT));
  }

  targetKeys(): string[] {
    return (this.statements.listTargets.all() as { key: string }[]).map((row) => row.key);
  }

  /** `PRAGMA integrity_check`'s answer: `ok` for a sound file. */
  integrityCheck(): string {
    const row = this.db.prepare('PRAGMA integrity_check').get() as { integrity_check?: string } | undefined;
    return row?.integrity_check ?? 'no answer';
  }

  close(): void {
    if (this.db.isOpen) this.db.close();
  }

  private transaction(work: () => void): void {
    this.db.exec('BEGIN IMMEDIATE');
    try {
      work();
      this.db.exec('COMMIT');
    } catch (error) {
      this.db.exec('ROLLBACK');
      throw error;
    }
  }

  private existingTarget(key: string): number | null {
    const cached = this.targetIds.get(key);
    if (cached !== undefined) return cached;
    const row = this.statements.findTarget.get(key) as { id: number } | undefined;
    if (!row) return null;
    this.targetIds.set(key, row.id);
    return row.id;
  }

  private targetId(key: string): number {
    const found = this.existingTarget(key);
    if (found !== null) return found;
    const row = this.statements.addTarget.get(key) as { id: number };
    this.targetIds.set(key, row.id);
    return row.id;
  }

  private mergeInto(target: number, resolution: Resolution, at: number, aggregate: BucketAggregate): void {
    const spec = RESOLUTIONS[resolution];
    const slot = Math.floor(at / spec.slotMs);
    const row = Math.floor(slot / spec.perRow);
    const offset = slot - row * spec.perRow;
    const existing = this.statements.readRow.get(target, spec.code, row) as { data: Uint8Array } | undefined;
    const buckets = existing ? decodeRow(existing.data) : new Map<number, BucketAggregate>();
    const bucket = buckets.get(offset) ?? emptyAggregate();
    mergeAggregate(bucket, aggregate);
    buckets.set(offset, bucket);
    this.statements.writeRow.run(target, spec.code, row, encodeRow(buckets));
    if (!existing) {
      // A new row: rows wholly older than the kept window go (once per row, not per check).
      const oldestKeptSlot = Math.floor((at - spec.keepMs) / spec.slotMs);
      this.statements.pruneRows.run(target, spec.code, Math.floor(oldestKeptSlot / spec.perRow));
    }
  }

  private appendCheck(target: number, check: StoredCheck): void {
    const last = this.statements.lastChunk.get(target) as
      { chunk: number; count: number; last_at: number; data: Uint8Array } | undefined;
    if (last && last.count < RAW_CHUNK) {
      const writer = new ByteWriter();
      encodeCheck(writer, check, last.last_at);
      // Joined here: SQL's `||` would turn the blob into text.
      const data = Buffer.concat([last.data, writer.bytes()]);
      this.statements.appendChunk.run(check.at, data, target, last.chunk);
      return;
    }
    const writer = new ByteWriter();
    encodeCheck(writer, check, 0);
    const chunk = (last?.chunk ?? 0) + 1;
    this.statements.newChunk.run(target, chunk, check.at, writer.bytes());
    // Keep enough whole chunks for RAW_CHECKS_KEPT besides the one being filled.
    this.statements.pruneChunks.run(target, chunk - RAW_CHECKS_KEPT / RAW_CHUNK);
  }
}

function migrate(db: DatabaseSync): void {
  const version = Number((db.prepare('PRAGMA user_version').get() as { user_version: number }).user_version);
  if (version > HEALTH_SCHEMA_VERSION) {
    throw new HealthStoreVersionError(
      `The health history was written by a newer version of Proxy Manager (schema ${version}; ` +
        `this one reads up to ${HEALTH_SCHEMA_VERSION}). Update the app to see it.`,
    );
  }
  for (let step = version; step < HEALTH_SCHEMA_VERSION; step += 1) {
    db.exec('BEGIN IMMEDIATE');
    try {
      db.exec(MIGRATIONS[step] as string);
      db.exec(`PRAGMA user_version = ${step + 1}`);
      db.exec('COMMIT');
    } catch (error) {
      db.exec('ROLLBACK');
      throw error;
    }
  }
}

/**
 * The store opened on first use, once: a file that cannot be opened (a newer schema, a broken disk)
 * is logged, and checks then run without history rather than not at all.
 */
export class LazyHealthStore {
  private store: HealthStore | null = null;
  private failed = false;

  constructor(
    private readonly file: string,
    private readonly log: (line: string) => void = () => undefined,
  ) {}

  get(): HealthStore | null {
    if (this.store || this.failed) return this.store;
    try {
      this.store = HealthStore.open(this.file);
    } catch (error) {
      this.failed = true;
      this.log(
        `[health] the health history cannot be opened: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
    return this.store;
  }

  close(): void {
    this.store?.close();
    this.store = null;
    this.failed = false;
  }
}
