import { join } from 'node:path';
import type { JobsStatus } from '../../../src-shared/contract';
import type { JobsOwnership } from '../runtime/background-jobs';
import { DeadlineJob, describeError } from '../runtime/deadline-job';
import {
  defaultLockProcessDeps,
  readLock,
  refreshLockFile,
  releaseLockFile,
  tryLockFile,
  type LockOwner,
  type LockProcessDeps,
} from './file-lock';

export const JOBS_LOCK_FILE_NAME = 'jobs.lock';

/** Who runs the background jobs of a data folder, as the UI shows it. */
export interface JobsOwner {
  pid: number;
  /** `desktop` or `web`. */
  mode: string;
  hostname: string;
  /** Epoch ms when that process took the lock. */
  since: number;
}

export type InstanceLockStatus =
  | { owner: true; since: number }
  /**
   * Another process runs the jobs: "Background jobs run in the desktop app (pid 1234) since …;
   * this window is read-only for schedules". `heldBy` is null in the instant a lock is being
   * created and cannot be read yet.
   */
  | { owner: false; heldBy: JobsOwner | null };

export interface InstanceLockOptions extends Partial<LockProcessDeps> {
  dataDir: string;
  /** `desktop` or `web`: written into the lock for the other process to show. */
  mode: string;
  /** How often the owner refreshes its heartbeat, and a non-owner retries. Default 60 s. */
  heartbeatMs?: number;
  /**
   * A lock not refreshed for this long is taken over even when its pid looks alive (a pid reused
   * after a reboot; a process on another host sharing the folder). Default 5 minutes. On this
   * host a dead pid is taken over at once.
   */
  staleAfterMs?: number;
  /** Keep retrying while not the owner, to take over when the owner exits. Default true. */
  watch?: boolean;
  log?: (line: string) => void;
}

/**
 * Only one process per data folder (the desktop app or web mode) runs background jobs: the one
 * holding `jobs.lock`. The holder refreshes a heartbeat in the file; a non-holder retries on the
 * same beat and takes over when the holder's pid is dead (same host) or its heartbeat is stale.
 * A holder that finds the file no longer its own (taken over after a long suspend) reports
 * `owner: false` through `onChange`, and must stop its jobs.
 */
export class InstanceLock {
  readonly file: string;
  private readonly deps: LockProcessDeps;
  private readonly heartbeatMs: number;
  private readonly staleAfterMs: number;
  private readonly log: (line: string) => void;
  private held: LockOwner | null = null;
  private current: InstanceLockStatus | null = null;
  private lastBeat = 0;
  private released = false;
  private attempting: Promise<InstanceLockStatus> | null = null;
  private readonly listeners = new Set<(status: InstanceLockStatus) => void>();
  /** The owner's heartbeat, and a non-owner's retry, on one beat. */
  private readonly beat: DeadlineJob;

  constructor(private readonly options: InstanceLockOptions) {
    this.file = join(options.dataDir, JOBS_LOCK_FILE_NAME);
    this.deps = defaultLockProcessDeps(options);
    this.heartbeatMs = options.heartbeatMs ?? 60_000;
    this.staleAfterMs = options.staleAfterMs ?? 5 * 60_000;
    this.log = options.log ?? ((line) => process.stderr.write(`${line}\n`));
    this.beat = new DeadlineJob({
      name: 'jobs-lock',
      clock: this.deps.clock,
      log: this.log,
      retryAfterErrorMs: this.heartbeatMs,
      nextDeadline: () => {
        if (this.released || this.current === null) return null;
        if (!this.held && options.watch === false) return null;
        return this.lastBeat + this.heartbeatMs;
      },
      run: () => this.onBeat(),
    });
  }

  /** The last known status; null before the first `acquire`. */
  status(): InstanceLockStatus | null {
    return this.current;
  }

  /** Takes the lock if it is free or stale; otherwise says who holds it. Starts the heartbeat. */
  async acquire(): Promise<InstanceLockStatus> {
    const status = await this.attempt();
    this.beat.start('acquire');
    // The beat may be waiting on a deadline set before this attempt.
    this.beat.trigger('acquire');
    return status;
  }

  /** One attempt at a time: a second one would find this instance's own lock and report it as foreign. */
  private attempt(): Promise<InstanceLockStatus> {
    this.attempting ??= this.attemptOnce().finally(() => {
      this.attempting = null;
    });
    return this.attempting;
  }

  private async attemptOnce(): Promise<InstanceLockStatus> {
    if (this.released) throw new Error('This instance lock was released; create a new one');
    if (this.held) return this.setStatus({ owner: true, since: this.held.since });
    const result = await tryLockFile(this.file, {
      ...this.deps,
      mode: this.options.mode,
      staleAfterMs: this.staleAfterMs,
    });
    this.lastBeat = this.deps.clock.now();
    let status: InstanceLockStatus;
    if (result.acquired) {
      this.held = result.owner;
      status = { owner: true, since: result.owner.since };
    } else {
      status = { owner: false, heldBy: result.heldBy ? toJobsOwner(result.heldBy) : null };
    }
    return this.setStatus(status);
  }

  /** Tries again now to take over (the same as `acquire`). */
  retry(): Promise<InstanceLockStatus> {
    return this.acquire();
  }

  /** Called on every change of ownership; returns the unsubscribe function. */
  onChange(listener: (status: InstanceLockStatus) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Stops the heartbeat and removes the lock if it is still this process's. Idempotent. */
  async release(): Promise<void> {
    this.released = true;
    await this.beat.stop('release');
    const held = this.held;
    this.held = null;
    if (held) await releaseLockFile(this.file, held);
  }

  private async onBeat(): Promise<void> {
    const now = this.deps.clock.now();
    this.lastBeat = now;
    if (this.held) {
      if (await refreshLockFile(this.file, this.held, now)) return;
      const taken = await readLock(this.file);
      this.log(`[jobs-lock] lost ${this.file}: another process took it over; background jobs stop here`);
      this.held = null;
      this.setStatus({ owner: false, heldBy: taken?.owner ? toJobsOwner(taken.owner) : null });
      return;
    }
    await this.attempt();
  }

  private setStatus(status: InstanceLockStatus): InstanceLockStatus {
    const previous = this.current;
    this.current = status;
    if (!sameStatus(previous, status)) {
      for (const listener of this.listeners) {
        try {
          listener(status);
        } catch (error) {
          this.log(`[jobs-lock] a listener failed: ${describeError(error)}`);
        }
      }
    }
    return status;
  }
}

/**
 * Who runs the background jobs of `dataDir` now, read without taking the lock (a one-shot process
 * such as the CLI asks before it decides where to send a call): null when nobody does, including
 * when the lock is stale (its pid dead on this host, or its heartbeat older than `staleAfterMs`).
 */
export async function readJobsOwner(
  dataDir: string,
  options: Partial<LockProcessDeps> & { staleAfterMs?: number } = {},
): Promise<JobsOwner | null> {
  const deps = defaultLockProcessDeps(options);
  const owner = (await readLock(join(dataDir, JOBS_LOCK_FILE_NAME)))?.owner;
  if (!owner) return null;
  if (deps.clock.now() - owner.heartbeatAt > (options.staleAfterMs ?? 5 * 60_000)) return null;
  if (owner.hostname === deps.hostname && !deps.isProcessAlive(owner.pid)) return null;
  return toJobsOwner(owner);
}

function toJobsOwner(owner: LockOwner): JobsOwner {
  return { pid: owner.pid, mode: owner.mode, hostname: owner.hostname, since: owner.since };
}

function sameStatus(a: InstanceLockStatus | null, b: InstanceLockStatus): boolean {
  if (a === null || a.owner !== b.owner) return false;
  if (a.owner && b.owner) return a.since === b.since;
  if (!a.owner && !b.owner) {
    return a.heldBy?.pid === b.heldBy?.pid && a.heldBy?.since === b.heldBy?.since;
  }
  return false;
}

/** The sentence the jobs banner shows in a process that does not own the jobs. */
export function describeLockStatus(status: InstanceLockStatus | null): JobsStatus {
  if (status === null)
    return { owner: false, message: 'Checking which Proxy Manager process runs the background jobs…' };
  if (status.owner) return { owner: true, message: null };
  const held = status.heldBy;
  const who = held
    ? `the ${held.mode === 'web' ? 'web mode server' : 'desktop app'} (pid ${held.pid}${held.hostname ? ` on ${held.hostname}` : ''}) since ${new Date(held.since).toLocaleString()}`
    : 'another Proxy Manager process';
  return {
    owner: false,
    message: `Background jobs (schedules, usage alerts, payment watching) run in ${who}; this one is read-only for them and takes over when that one exits.`,
  };
}

/** The instance lock as the core sees it. */
export function lockOwnership(lock: InstanceLock): JobsOwnership {
  return {
    status: () => describeLockStatus(lock.status()),
    onChange: (listener) => lock.onChange((status) => listener(describeLockStatus(status))),
  };
}
