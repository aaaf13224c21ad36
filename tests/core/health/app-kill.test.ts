import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import { TestSandbox } from '@proxy-manager/sandbox/testing';
import { HealthStore } from '../../../src-main/core/health/health-store';
import { SettingsStore } from '../../../src-main/core/settings/settings-store';
import { spawnTs } from '../../support/spawn-ts';

/*
 * kill -9 of the whole app while it runs health checks: a child process runs the core as web mode
 * builds it (health.sqlite in its data folder) against a sandbox of 300 ports, checking each every
 * 30 s on a fake clock it moves in small real-time steps, so checks are written all the time (up to
 * 8 under way). This process reads the database as the child writes it (WAL lets a reader in), then
 * kills the child with SIGKILL while checks are still being written. Afterwards the file is
 * readable, passes integrity_check, and every bucket and raw check seen committed before the kill is
 * still there, each target's minute buckets counting exactly its raw checks (one transaction each).
 */

const PORTS = 300;
/** Checks seen committed before the kill (a few seconds of the child's work). */
const KILL_AFTER = 150;

interface Seen {
  /** `target|resolution|row` of every bucket row. */
  rows: Set<string>;
  /** Raw checks committed per target key. */
  raw: Map<string, number>;
  total: number;
}

/** What a reader sees committed in the file now (null before the child created it). */
function readCommitted(file: string): Seen | null {
  if (!existsSync(file)) return null;
  let db: DatabaseSync | null = null;
  try {
    db = new DatabaseSync(file, { readOnly: true, timeout: 5_000 });
    const rows = db.prepare('SELECT target, resolution, row FROM series').all() as {
      target: number;
      resolution: number;
      row: number;
    }[];
    const raw = db
      .prepare(
        'SELECT t.key AS key, SUM(r.count) AS n FROM raw_checks r JOIN targets t ON t.id = r.target GROUP BY t.key',
      )
      .all() as { key: string; n: number }[];
    return {
      rows: new Set(rows.map((row) => `${row.target}|${row.resolution}|${row.row}`)),
      raw: new Map(raw.map((entry) => [entry.key, Number(entry.n)])),
      total: raw.reduce((sum, entry) => sum + Number(entry.n), 0),
    };
  } catch (error) {
    // Before the child made its tables there is nothing to read yet.
    if (error instanceof Error && /no such table/.test(error.message)) return null;
    throw error;
  } finally {
    db?.close();
  }
}

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe('kill -9 of the app while it runs health checks', () => {
  it('leaves the database readable, integrity ok, with no bucket or check seen committed lost', async () => {
    const sandbox = await TestSandbox.start({ scale: { ports: PORTS } });
    cleanups.push(() => sandbox.close());
    const dataDir = mkdtempSync(join(tmpdir(), 'pm-health-kill-'));
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    const settings = await SettingsStore.open({ dataDir });
    await settings.update((draft) => {
      draft.healthChecks.portsEverySeconds = 30;
      // The gateway answers a plain-http URL itself (its echo): no network beyond the sandbox.
      draft.healthChecks.checkUrl = 'http://127.0.0.1:9/ip';
    });
    const file = join(dataDir, 'health.sqlite');

    const child = spawnTs('tests/core/health/support/app-under-kill.ts', [dataDir, sandbox.baseUrl], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    cleanups.push(async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    });

    // Real time, bounded: the child starts (a few seconds), then writes checks continuously.
    let seen: Seen | null = null;
    const deadline = Date.now() + 30_000;
    while (!seen || seen.total < KILL_AFTER) {
      if (Date.now() > deadline) throw new Error(`the child committed ${seen?.total ?? 0} checks in 30 s`);
      if (child.exitCode !== null) throw new Error(`the child exited with ${child.exitCode}`);
      await new Promise((resolve) => setTimeout(resolve, 25));
      seen = readCommitted(file);
    }
    // Still writing at the moment of the kill: the next read sees more, then SIGKILL at once.
    let latest = seen;
    while (latest.total === seen.total) {
      if (Date.now() > deadline) throw new Error('the child stopped writing checks');
      await new Promise((resolve) => setTimeout(resolve, 5));
      latest = readCommitted(file) ?? latest;
    }
    child.kill('SIGKILL');
    await exited;
    expect(child.signalCode).toBe('SIGKILL');

    const after = readCommitted(file);
    if (!after) throw new Error('the database is gone');
    for (const row of latest.rows) expect(after.rows.has(row), row).toBe(true);
    for (const [key, count] of latest.raw) expect(after.raw.get(key) ?? 0, key).toBeGreaterThanOrEqual(count);
    expect(after.total).toBeGreaterThanOrEqual(latest.total);
    // Many ports were checked, not a few again and again.
    expect(after.raw.size).toBeGreaterThan(50);

    const store = HealthStore.open(file);
    cleanups.push(() => store.close());
    expect(store.integrityCheck()).toBe('ok');
    const start = Date.parse('2026-03-10T00:00:00.000Z');
    // Real checks through the gateway (its echo answered), not only failures.
    const good = [...after.raw.keys()].filter((key) => store.recentChecks(key).some((check) => check.ok));
    expect(good.length).toBeGreaterThan(0);
    for (const [key, count] of after.raw) {
      // A check's raw row and its buckets are written in one transaction: never one without the other.
      expect(store.totals(key, 'minute', start, start + 86_400_000).checks, key).toBe(count);
      expect(store.recentChecks(key)).toHaveLength(count);
    }
  }, 60_000);
});
