import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FakeClock } from '../../../src-main/core/runtime/fake-clock';
import {
  InstanceLock,
  JOBS_LOCK_FILE_NAME,
  type InstanceLockOptions,
  type InstanceLockStatus,
} from '../../../src-main/core/storage/instance-lock';

const START = Date.UTC(2026, 0, 1);
const MINUTE = 60_000;

let dataDir: string;
let clock: FakeClock;
let locks: InstanceLock[];
/** Pids of this test's pretend processes that are still running. */
let alive: Set<number>;

beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'pm-instance-lock-'));
  clock = new FakeClock(START);
  locks = [];
  alive = new Set([1000, 2000, 3000, 4000, 5000, 6000]);
});

afterEach(async () => {
  for (const lock of locks) await lock.release();
  await rm(dataDir, { recursive: true, force: true });
});

function lockFor(pid: number, mode: string, extra: Partial<InstanceLockOptions> = {}): InstanceLock {
  const lock = new InstanceLock({
    dataDir,
    mode,
    pid,
    hostname: 'this-host',
    clock,
    isProcessAlive: (candidate) => alive.has(candidate),
    log: () => undefined,
    ...extra,
  });
  locks.push(lock);
  return lock;
}

async function readLockFile(): Promise<Record<string, unknown>> {
  return JSON.parse(await readFile(join(dataDir, JOBS_LOCK_FILE_NAME), 'utf8')) as Record<string, unknown>;
}

/**
 * Moves time on by `ms` and waits until `beating` heartbeat jobs have each finished their run
 * (file I/O included) and gone back to sleep: their next sleep call is the signal, not time.
 */
async function beat(ms: number, beating: number): Promise<void> {
  // Every beat must be asleep already, or its first sleep would be counted as the next one.
  await clock.settle();
  expect(clock.pending.length).toBeGreaterThanOrEqual(beating);
  const calls = clock.sleeps.length;
  await clock.advance(ms);
  await clock.whenSleepCalls(calls + beating);
}

function changes(lock: InstanceLock): InstanceLockStatus[] {
  const seen: InstanceLockStatus[] = [];
  lock.onChange((status) => seen.push(status));
  return seen;
}

describe('InstanceLock', () => {
  it('gives the first process the jobs, and tells the second who has them and since when', async () => {
    const desktop = lockFor(1000, 'desktop');
    expect(desktop.status()).toBeNull();
    expect(await desktop.acquire()).toEqual({ owner: true, since: START });
    expect(await readLockFile()).toMatchObject({
      pid: 1000,
      mode: 'desktop',
      hostname: 'this-host',
      since: START,
    });

    await clock.advance(5 * MINUTE);
    const web = lockFor(2000, 'web');
    expect(await web.acquire()).toEqual({
      owner: false,
      heldBy: { pid: 1000, mode: 'desktop', hostname: 'this-host', since: START },
    });
    expect(web.status()).toEqual(await web.retry());
    expect((await readLockFile()).pid).toBe(1000);
  });

  it('answers the same to overlapping acquire calls of one process', async () => {
    const desktop = lockFor(1000, 'desktop');
    const results = await Promise.all([desktop.acquire(), desktop.retry(), desktop.acquire()]);
    expect(results).toEqual([
      { owner: true, since: START },
      { owner: true, since: START },
      { owner: true, since: START },
    ]);
  });

  it('releases on dispose, after which another process takes over', async () => {
    const desktop = lockFor(1000, 'desktop');
    const web = lockFor(2000, 'web', { watch: false });
    await desktop.acquire();
    expect((await web.acquire()).owner).toBe(false);
    await desktop.release();
    await desktop.release();
    expect(await readdir(dataDir)).toEqual([]);
    expect(await web.retry()).toEqual({ owner: true, since: START });
    await expect(desktop.acquire()).rejects.toThrow('released');
  });

  it('takes over a lock whose process is dead, at once', async () => {
    const crashed = lockFor(1000, 'desktop');
    await crashed.acquire();
    alive.delete(1000); // It crashed: nothing released the file.
    const web = lockFor(2000, 'web');
    expect(await web.acquire()).toEqual({ owner: true, since: START });
    expect(await readLockFile()).toMatchObject({ pid: 2000, mode: 'web' });
  });

  it('takes over a lock from another host only once its heartbeat is stale', async () => {
    const farOwner = {
      pid: 1000,
      hostname: 'other-host',
      token: 'far',
      since: START - 60 * MINUTE,
      heartbeatAt: START - 4.5 * MINUTE,
      mode: 'desktop',
    };
    await writeFile(join(dataDir, JOBS_LOCK_FILE_NAME), JSON.stringify(farOwner));
    // The pid means nothing on this host (and 1000 is "alive" here): only the heartbeat counts.
    const web = lockFor(2000, 'web', { staleAfterMs: 5 * MINUTE, heartbeatMs: MINUTE });
    expect((await web.acquire()).owner).toBe(false);
    const seen = changes(web);
    await beat(MINUTE, 1);
    expect(seen).toEqual([{ owner: true, since: START + MINUTE }]);
  });

  it('keeps a live owner by its heartbeat: a watcher never takes over while it beats', async () => {
    const desktop = lockFor(1000, 'desktop', { heartbeatMs: MINUTE, staleAfterMs: 3 * MINUTE });
    await desktop.acquire();
    const web = lockFor(2000, 'web', {
      heartbeatMs: MINUTE,
      staleAfterMs: 3 * MINUTE,
      hostname: 'other-host',
    });
    const seen = changes(web);
    await web.acquire();
    for (let minute = 1; minute <= 10; minute += 1) {
      await beat(MINUTE, 2);
      expect((await readLockFile()).heartbeatAt).toBe(START + minute * MINUTE);
    }
    expect(seen.every((status) => !status.owner)).toBe(true);
    expect(desktop.status()?.owner).toBe(true);
  });

  it('lets a waiting process take over on its next beat when the owner exits', async () => {
    const desktop = lockFor(1000, 'desktop', { heartbeatMs: MINUTE });
    const web = lockFor(2000, 'web', { heartbeatMs: MINUTE });
    await desktop.acquire();
    const seen = changes(web);
    await web.acquire();
    await desktop.release();
    await beat(MINUTE, 1);
    expect(seen.map((status) => status.owner)).toEqual([false, true]);
  });

  it('tells an owner whose lock was taken over that it lost it, and then leaves the new lock alone', async () => {
    const desktop = lockFor(1000, 'desktop', { heartbeatMs: MINUTE });
    await desktop.acquire();
    const seen = changes(desktop);
    const intruder = {
      pid: 3000,
      hostname: 'this-host',
      token: 'x',
      since: START,
      heartbeatAt: START,
      mode: 'web',
    };
    await writeFile(join(dataDir, JOBS_LOCK_FILE_NAME), JSON.stringify(intruder));
    await beat(MINUTE, 1);
    expect(seen).toEqual([
      { owner: false, heldBy: { pid: 3000, mode: 'web', hostname: 'this-host', since: START } },
    ]);
    await desktop.release();
    expect((await readLockFile()).pid).toBe(3000);
  });

  it('gives the lock to exactly one of several processes asking at once', async () => {
    for (let round = 0; round < 10; round += 1) {
      const pids = [1000, 2000, 3000, 4000, 5000];
      const contenders = pids.map((pid) => lockFor(pid, 'web', { watch: false }));
      const results = await Promise.all(contenders.map((lock) => lock.acquire()));
      expect(results.filter((result) => result.owner)).toHaveLength(1);
      expect((await readLockFile()).pid).toBe(pids[results.findIndex((result) => result.owner)]);
      for (const lock of contenders) await lock.release();
      expect(await readdir(dataDir)).toEqual([]);
    }
  });

  it('gives a stale lock to exactly one of several processes taking it over at once', async () => {
    for (let round = 0; round < 10; round += 1) {
      const dead = {
        pid: 999,
        hostname: 'this-host',
        token: `dead-${round}`,
        since: START,
        heartbeatAt: START,
        mode: 'desktop',
      };
      await writeFile(join(dataDir, JOBS_LOCK_FILE_NAME), JSON.stringify(dead));
      const contenders = [1000, 2000, 3000, 4000, 5000].map((pid) => lockFor(pid, 'web', { watch: false }));
      const results = await Promise.all(contenders.map((lock) => lock.acquire()));
      expect(results.filter((result) => result.owner)).toHaveLength(1);
      const owners = results
        .filter((result) => !result.owner)
        .map((result) => (result.owner ? 0 : result.heldBy?.pid));
      const winnerPid = (await readLockFile()).pid;
      expect(owners.every((pid) => pid === winnerPid || pid === undefined)).toBe(true);
      for (const lock of contenders) await lock.release();
      expect((await readdir(dataDir)).filter((name) => !name.startsWith('.'))).toEqual([]);
    }
  });
});
