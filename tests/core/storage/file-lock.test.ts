import { mkdtemp, readdir, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Clock } from '../../../src-main/core/runtime/clock';
import { FakeClock } from '../../../src-main/core/runtime/fake-clock';
import {
  FileLockTimeoutError,
  isProcessAlive,
  removeIfUnchanged,
  tryLockFile,
  withFileLock,
  type LockOwner,
} from '../../../src-main/core/storage/file-lock';

let dir: string;
let lockPath: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'pm-file-lock-'));
  lockPath = join(dir, 'settings.json.lock');
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Time that moves only by the waits asked of it, each over in one event-loop turn. */
function steppingClock(): Clock & { slept: number[] } {
  let now = Date.UTC(2026, 0, 1);
  const slept: number[] = [];
  return {
    slept,
    now: () => now,
    sleep: (ms) => {
      slept.push(ms);
      now += ms;
      return new Promise((resolve) => setImmediate(resolve));
    },
  };
}

const owner = (overrides: Partial<LockOwner> = {}): LockOwner => ({
  pid: 4242,
  hostname: 'this-host',
  token: 't',
  since: Date.UTC(2026, 0, 1),
  heartbeatAt: Date.UTC(2026, 0, 1),
  mode: 'update',
  ...overrides,
});

describe('withFileLock', () => {
  it('runs critical sections of the same lock one at a time, and removes the lock afterwards', async () => {
    const clock = steppingClock();
    const trace: string[] = [];
    const section = (name: string) => async () => {
      trace.push(`${name} in`);
      await new Promise((resolve) => setTimeout(resolve, 5));
      trace.push(`${name} out`);
      return name;
    };
    const options = { clock, hostname: 'this-host', isProcessAlive: () => true };
    const results = await Promise.all([
      withFileLock(lockPath, section('a'), options),
      withFileLock(lockPath, section('b'), options),
      withFileLock(lockPath, section('c'), options),
    ]);
    expect(results).toEqual(['a', 'b', 'c']);
    for (let index = 0; index < trace.length; index += 2) {
      expect(trace[index]?.endsWith(' in')).toBe(true);
      expect(trace[index + 1]).toBe(trace[index]?.replace(' in', ' out'));
    }
    expect(clock.slept.length).toBeGreaterThan(0);
    expect(await readdir(dir)).toEqual([]);
  });

  it('releases the lock when the section throws', async () => {
    await expect(
      withFileLock(lockPath, () => Promise.reject(new Error('boom')), { clock: steppingClock() }),
    ).rejects.toThrow('boom');
    expect(await readdir(dir)).toEqual([]);
  });

  it('gives up after the timeout, naming the process that holds the lock', async () => {
    await writeFile(lockPath, JSON.stringify(owner({ heartbeatAt: Date.UTC(2026, 0, 1) })));
    const clock = steppingClock();
    const error = await withFileLock(lockPath, () => Promise.resolve('never'), {
      clock,
      hostname: 'this-host',
      isProcessAlive: () => true,
      staleAfterMs: 60_000,
      timeoutMs: 2_000,
    }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(FileLockTimeoutError);
    expect((error as FileLockTimeoutError).message).toContain('process 4242 (update)');
    expect(clock.slept.reduce((sum, ms) => sum + ms, 0)).toBeGreaterThanOrEqual(2_000);
    expect(JSON.parse(await readFile(lockPath, 'utf8'))).toMatchObject({ pid: 4242 });
  });

  it('takes a lock left by a dead process of this host at once', async () => {
    await writeFile(lockPath, JSON.stringify(owner()));
    const clock = steppingClock();
    const result = await withFileLock(lockPath, () => Promise.resolve('ran'), {
      clock,
      hostname: 'this-host',
      isProcessAlive: (pid) => pid !== 4242,
    });
    expect(result).toBe('ran');
    expect(clock.slept).toEqual([]);
  });
});

describe('tryLockFile', () => {
  const base = {
    pid: 1,
    hostname: 'this-host',
    isProcessAlive: () => true,
    mode: 'desktop',
    staleAfterMs: 60_000,
  };

  it('treats an unreadable lock as being written (held) while young, and as stale when old', async () => {
    await writeFile(lockPath, '');
    const clock = new FakeClock();
    expect(await tryLockFile(lockPath, { ...base, clock })).toEqual({ acquired: false, heldBy: null });
    // A file-system timestamp, hence real time: an empty lock two minutes old is a crash's leftover.
    const old = new Date(Date.now() - 120_000);
    await utimes(lockPath, old, old);
    expect(await tryLockFile(lockPath, { ...base, clock })).toMatchObject({ acquired: true });
  });

  it('treats a lock of another host as held until its heartbeat is older than staleAfterMs', async () => {
    const clock = new FakeClock();
    const far = owner({ hostname: 'far', pid: 1, heartbeatAt: clock.now() - 60_000 });
    await writeFile(lockPath, JSON.stringify(far));
    const dead = { ...base, clock, isProcessAlive: () => false };
    expect(await tryLockFile(lockPath, dead)).toMatchObject({ acquired: false, heldBy: { hostname: 'far' } });
    await clock.advance(1);
    expect(await tryLockFile(lockPath, dead)).toMatchObject({ acquired: true });
  });
});

describe('removeIfUnchanged', () => {
  it('removes the lock it judged stale', async () => {
    await writeFile(lockPath, 'stale');
    await removeIfUnchanged(lockPath, 'stale');
    expect(await readdir(dir)).toEqual([]);
  });

  it('leaves a fresh lock that another process took after this one judged the old one stale', async () => {
    await writeFile(lockPath, 'fresh lock of the process that won');
    await removeIfUnchanged(lockPath, 'stale');
    expect(await readFile(lockPath, 'utf8')).toBe('fresh lock of the process that won');
    expect(await readdir(dir)).toEqual(['settings.json.lock']);
  });

  it('leaves even a stale lock while another contender holds the takeover turn', async () => {
    await writeFile(lockPath, 'stale');
    await writeFile(`${lockPath}.takeover`, '77');
    await removeIfUnchanged(lockPath, 'stale');
    expect(await readFile(lockPath, 'utf8')).toBe('stale');
    expect((await readdir(dir)).sort()).toEqual(['settings.json.lock', 'settings.json.lock.takeover']);
  });

  it('clears a takeover turn left by a process that died during it, so the next round can proceed', async () => {
    await writeFile(lockPath, 'stale');
    await writeFile(`${lockPath}.takeover`, '77');
    const old = new Date(Date.now() - 60_000);
    await utimes(`${lockPath}.takeover`, old, old);
    await removeIfUnchanged(lockPath, 'stale');
    expect(await readdir(dir)).toEqual(['settings.json.lock']);
    await removeIfUnchanged(lockPath, 'stale');
    expect(await readdir(dir)).toEqual([]);
  });

  it('does nothing when the lock is already gone', async () => {
    await removeIfUnchanged(lockPath, 'stale');
    expect(await readdir(dir)).toEqual([]);
  });
});

describe('isProcessAlive', () => {
  it('knows this process is alive and a pid that cannot exist is not', () => {
    expect(isProcessAlive(process.pid)).toBe(true);
    expect(isProcessAlive(2 ** 30)).toBe(false);
  });
});
