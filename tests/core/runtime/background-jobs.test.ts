import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { JobsStatus } from '../../../src-shared/contract';
import { BackgroundJobs, type JobsOwnership } from '../../../src-main/core/runtime/background-jobs';
import {
  describeLockStatus,
  InstanceLock,
  lockOwnership,
} from '../../../src-main/core/storage/instance-lock';

function switchableOwnership(owner: boolean): JobsOwnership & { set(owner: boolean): void } {
  let status: JobsStatus = { owner, message: owner ? null : 'elsewhere' };
  const listeners = new Set<(status: JobsStatus) => void>();
  return {
    status: () => status,
    onChange: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    set(next) {
      status = { owner: next, message: next ? null : 'elsewhere' };
      for (const listener of listeners) listener(status);
    },
  };
}

function recordingJob(name: string, log: string[]) {
  return {
    name,
    start: (reason: string) => void log.push(`start ${name} (${reason})`),
    stop: (reason: string) => void log.push(`stop ${name} (${reason})`),
  };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('BackgroundJobs', () => {
  it('starts its jobs in order in the owning process and stops them in reverse', async () => {
    const log: string[] = [];
    const jobs = new BackgroundJobs(switchableOwnership(true));
    jobs.add(recordingJob('scheduler', log));
    jobs.add(recordingJob('watcher', log));
    await jobs.start();
    await jobs.stop();
    expect(log).toEqual([
      'start scheduler (owner)',
      'start watcher (owner)',
      'stop watcher (quit)',
      'stop scheduler (quit)',
    ]);
  });

  it('starts nothing while another process owns the jobs, and takes over when told', async () => {
    const log: string[] = [];
    const ownership = switchableOwnership(false);
    let changes = 0;
    const jobs = new BackgroundJobs(ownership, undefined, () => (changes += 1));
    jobs.add(recordingJob('scheduler', log));
    await jobs.start();
    expect(log).toEqual([]);
    ownership.set(true);
    await settle();
    expect(log).toEqual(['start scheduler (owner)']);
    ownership.set(false);
    await settle();
    expect(log).toEqual(['start scheduler (owner)', 'stop scheduler (not owner)']);
    expect(changes).toBe(2);
    await jobs.stop();
    expect(log).toHaveLength(2);
  });

  it('a job added while running starts at once', async () => {
    const log: string[] = [];
    const jobs = new BackgroundJobs(switchableOwnership(true));
    await jobs.start();
    jobs.add(recordingJob('late', log));
    await settle();
    expect(log).toEqual(['start late (owner)']);
  });

  it('with two processes on one data folder, only the first runs the jobs; the second says who does', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'pm-jobs-'));
    const desktop = new InstanceLock({ dataDir, mode: 'desktop', watch: false });
    const web = new InstanceLock({ dataDir, mode: 'web', watch: false, pid: process.pid + 1 });
    await desktop.acquire();
    await web.acquire();
    const log: string[] = [];
    const first = new BackgroundJobs(lockOwnership(desktop));
    const second = new BackgroundJobs(lockOwnership(web));
    first.add(recordingJob('desktop scheduler', log));
    second.add(recordingJob('web scheduler', log));
    await first.start();
    await second.start();
    expect(log).toEqual(['start desktop scheduler (owner)']);
    const status = lockOwnership(web).status();
    expect(status.owner).toBe(false);
    expect(status.message).toMatch(/run in the desktop app \(pid \d+/);
    await first.stop();
    await second.stop();
    await desktop.release();
    await web.release();
  });

  it('describes a lock being read, and a holder that cannot be named', () => {
    expect(describeLockStatus(null).owner).toBe(false);
    expect(describeLockStatus({ owner: false, heldBy: null }).message).toMatch(
      /another Proxy Manager process/,
    );
    expect(describeLockStatus({ owner: true, since: 0 })).toEqual({ owner: true, message: null });
  });
});
