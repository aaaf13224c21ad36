import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  HEALTH_SCHEMA_VERSION,
  HealthStore,
  HealthStoreVersionError,
  RAW_CHECKS_KEPT,
  type StoredCheck,
} from '../../../src-main/core/health/health-store';
import { percentile } from '../../../src-main/core/health/latency-histogram';
import { spawnTs } from '../../support/spawn-ts';

const T0 = Date.parse('2026-03-10T12:00:00.000Z');
const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;

let dir: string;
let file: string;
let store: HealthStore | null = null;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'health-store-'));
  file = join(dir, 'health.sqlite');
});

afterEach(() => {
  store?.close();
  store = null;
  rmSync(dir, { recursive: true, force: true });
});

const check = (at: number, overrides: Partial<StoredCheck> = {}): StoredCheck => ({
  at,
  ok: true,
  status: 200,
  connectMs: 12,
  firstByteMs: 90,
  exitIp: '100.64.1.2',
  asn: 64600,
  country: 'DE',
  errorKind: null,
  error: null,
  ...overrides,
});

describe('HealthStore', () => {
  it('adds each check to its minute, hour and day buckets and keeps it raw, newest first', () => {
    store = HealthStore.open(file);
    store.record('a', check(T0 + 5_000, { connectMs: 10, firstByteMs: 100 }));
    store.record('a', check(T0 + 35_000, { connectMs: 30, firstByteMs: 300 }));
    store.record(
      'a',
      check(T0 + 5 * MIN, {
        ok: false,
        status: 503,
        firstByteMs: 4,
        errorKind: 'unavailable',
        error: 'Modem offline',
      }),
    );
    store.record('b', check(T0));
    const minutes = store.buckets('a', 'minute', T0, T0 + HOUR);
    expect(minutes.map((b) => [b.start - T0, b.checks, b.failures])).toEqual([
      [0, 2, 0],
      [5 * MIN, 1, 1],
    ]);
    expect(minutes[0]?.connect.max).toBe(30);
    const hour = store.totals('a', 'hour', T0, T0 + HOUR);
    expect([hour.checks, hour.failures, hour.firstByte.max]).toEqual([3, 1, 300]);
    // A refusal's first byte is not the proxy's latency.
    expect(hour.firstByte.bins.reduce((a, b) => a + b, 0)).toBe(2);
    expect(store.totals('a', 'day', T0 - 12 * HOUR, T0 + 12 * HOUR).checks).toBe(3);
    const raw = store.recentChecks('a');
    expect(raw.map((c) => c.at - T0)).toEqual([5 * MIN, 35_000, 5_000]);
    expect(raw[0]).toEqual(
      check(T0 + 5 * MIN, {
        ok: false,
        status: 503,
        firstByteMs: 4,
        errorKind: 'unavailable',
        error: 'Modem offline',
      }),
    );
    expect(store.targetKeys()).toEqual(['a', 'b']);
    expect(store.recentChecks('nobody')).toEqual([]);
  });

  it('keeps minutes for 24 h, hours for 30 days and days for 365 days', () => {
    store = HealthStore.open(file);
    for (const hours of [0, 12, 25]) store.record('a', check(T0 + hours * HOUR));
    // At 25 h the minutes of 0 h are gone, those of 12 h kept; at 50 h only the newest remain.
    expect(store.buckets('a', 'minute', 0, T0 + DAY * 3).map((b) => (b.start - T0) / HOUR)).toEqual([12, 25]);
    store.record('a', check(T0 + 50 * HOUR));
    expect(store.buckets('a', 'minute', 0, T0 + DAY * 3).map((b) => (b.start - T0) / HOUR)).toEqual([50]);
    for (let day = 3; day < 800; day += 1) store.record('a', check(T0 + day * DAY));
    const end = T0 + 800 * DAY;
    const hours = store.buckets('a', 'hour', 0, end);
    expect(hours.length).toBeGreaterThanOrEqual(30);
    expect(hours.length).toBeLessThanOrEqual(31);
    const days = store.buckets('a', 'day', 0, end);
    expect(days.length).toBeGreaterThanOrEqual(365);
    // Rows of 32 days go once wholly out of the window, checked when a new row starts.
    expect(days.length).toBeLessThanOrEqual(365 + 2 * 32);
    expect(days[0]?.start).toBeGreaterThan(end - (365 + 2 * 32) * DAY);
    expect(days.at(-1)?.start).toBe(T0 - (T0 % DAY) + 799 * DAY);
  });

  it('keeps at least the last 500 raw checks and not many more', () => {
    store = HealthStore.open(file);
    for (let n = 0; n < 1234; n += 1) store.record('a', check(T0 + n * 30_000, { status: n }));
    const raw = store.recentChecks('a', 10_000);
    expect(raw).toHaveLength(RAW_CHECKS_KEPT);
    expect(raw[0]?.status).toBe(1233);
    expect(raw.at(-1)?.status).toBe(1233 - RAW_CHECKS_KEPT + 1);
    const db = new DatabaseSync(file);
    const stored = db.prepare('SELECT sum(count) AS n FROM raw_checks').get() as { n: number };
    db.close();
    expect(stored.n).toBeGreaterThanOrEqual(RAW_CHECKS_KEPT);
    expect(stored.n).toBeLessThanOrEqual(RAW_CHECKS_KEPT + 25);
  });

  it('computes p50 and p95 from the bucket histogram within a bin, and the max exactly', () => {
    store = HealthStore.open(file);
    for (let n = 1; n <= 100; n += 1) store.record('a', check(T0 + n * 1000, { connectMs: n * 10 }));
    const totals = store.totals('a', 'hour', T0, T0 + HOUR);
    const p50 = percentile(totals.connect, 0.5) as number;
    const p95 = percentile(totals.connect, 0.95) as number;
    expect(p50).toBeGreaterThanOrEqual(500 / 1.42);
    expect(p50).toBeLessThanOrEqual(500 * 1.42);
    expect(p95).toBeGreaterThanOrEqual(950 / 1.42);
    expect(p95).toBeLessThanOrEqual(1000);
    expect(totals.connect.max).toBe(1000);
  });

  it('migrates a new file to the current schema, keeps data across reopen, refuses a newer file', () => {
    store = HealthStore.open(file);
    store.record('a', check(T0));
    store.close();
    store = HealthStore.open(file);
    expect(store.recentChecks('a')).toHaveLength(1);
    store.close();
    store = null;
    const db = new DatabaseSync(file);
    expect((db.prepare('PRAGMA user_version').get() as { user_version: number }).user_version).toBe(
      HEALTH_SCHEMA_VERSION,
    );
    expect((db.prepare('PRAGMA journal_mode').get() as { journal_mode: string }).journal_mode).toBe('wal');
    db.exec(`PRAGMA user_version = ${HEALTH_SCHEMA_VERSION + 1}`);
    db.close();
    expect(() => HealthStore.open(file)).toThrow(HealthStoreVersionError);
  });

  it('survives kill -9 in the middle of writes: readable, integrity ok, nothing committed lost', async () => {
    const child = spawnTs('tests/core/health/support/health-writer.ts', [file], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let committed = 0;
    await new Promise<void>((resolve, reject) => {
      child.once('error', reject);
      child.stdout?.setEncoding('utf8').on('data', (text: string) => {
        const lines = text.trim().split('\n');
        committed = Math.max(committed, Number(lines.at(-1)));
        if (committed >= 400) {
          child.kill('SIGKILL');
          resolve();
        }
      });
      child.once('exit', () => resolve());
    });
    await new Promise((resolve) =>
      child.exitCode !== null || child.signalCode ? resolve(null) : child.once('exit', resolve),
    );
    expect(child.signalCode).toBe('SIGKILL');
    expect(committed).toBeGreaterThanOrEqual(400);
    store = HealthStore.open(file);
    expect(store.integrityCheck()).toBe('ok');
    const start = Date.parse('2026-03-10T00:00:00.000Z');
    let checks = 0;
    for (let k = 0; k < 7; k += 1)
      checks += store.totals(`port-${k}`, 'day', start - DAY, start + 10 * DAY).checks;
    // Every check printed was committed before it was printed; one more may have committed after.
    expect(checks).toBeGreaterThanOrEqual(committed);
    expect(checks).toBeLessThanOrEqual(committed + 1);
    let minutes = 0;
    for (let k = 0; k < 7; k += 1)
      minutes += store.totals(`port-${k}`, 'minute', start, start + 10 * DAY).checks;
    expect(minutes).toBe(checks);
  });
});
