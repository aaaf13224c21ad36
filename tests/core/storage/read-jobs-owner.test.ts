import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createNodeAppCore } from '../../../src-main/core/node-app-core';
import { FakeClock } from '../../../src-main/core/runtime/fake-clock';
import { InstanceLock, readJobsOwner } from '../../../src-main/core/storage/instance-lock';
import { tempDataDir } from '../../cli/support/cli-harness';

// What a one-shot process (the CLI) reads before it decides where a call goes, and what it takes.

const START = Date.UTC(2026, 2, 10, 12);

describe('readJobsOwner', () => {
  it('names the live holder, and nobody for no lock, a dead pid or a stale heartbeat', async () => {
    const dataDir = tempDataDir();
    const clock = new FakeClock(START);
    const alive = new Set([4242]);
    const deps = { clock, hostname: 'host-a', isProcessAlive: (pid: number) => alive.has(pid) };
    expect(await readJobsOwner(dataDir, deps)).toBeNull();

    const lock = new InstanceLock({
      dataDir,
      mode: 'web',
      pid: 4242,
      watch: false,
      log: () => undefined,
      ...deps,
    });
    await lock.acquire();
    expect(await readJobsOwner(dataDir, deps)).toEqual({
      pid: 4242,
      mode: 'web',
      hostname: 'host-a',
      since: START,
    });
    // Reading never takes it.
    expect(lock.status()).toEqual({ owner: true, since: START });

    alive.delete(4242);
    expect(await readJobsOwner(dataDir, deps)).toBeNull();
    alive.add(4242);
    // A heartbeat older than 5 minutes: a pid reused after a reboot, or a holder on another host.
    const later = (ms: number) => ({ ...deps, clock: new FakeClock(START + ms) });
    expect(await readJobsOwner(dataDir, later(5 * 60_000))).not.toBeNull();
    expect(await readJobsOwner(dataDir, later(5 * 60_000 + 1))).toBeNull();
    await lock.release();
    expect(await readJobsOwner(dataDir, deps)).toBeNull();
  });
});

describe('createNodeAppCore({ backgroundJobs: false })', () => {
  it('takes no jobs lock and says it runs no jobs', async () => {
    const dataDir = tempDataDir();
    const core = await createNodeAppCore({
      mode: 'web',
      dataDir,
      backgroundJobs: false,
      keychainProbeTimeoutMs: 2_000,
      log: () => undefined,
    });
    await core.start({ checkConnection: false });
    expect(existsSync(join(dataDir, 'jobs.lock'))).toBe(false);
    expect((await core.getState()).jobs).toEqual({
      owner: false,
      message: expect.stringContaining('not in a one-shot command'),
    });
    await core.dispose();
  });
});
