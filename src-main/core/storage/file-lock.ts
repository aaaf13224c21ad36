import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import { hostname as osHostname } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { z } from 'zod';
import { systemClock, type Clock } from '../runtime/clock';

/**
 * Lock files shared by processes on one data folder (the desktop app and web mode): a short
 * mutex around read-modify-write of a JSON file (`withFileLock`) and the long-held owner lock of
 * the background jobs (`InstanceLock`). Hand-written rather than `proper-lockfile` because that
 * needs a new dependency in the shared install, decides staleness by file mtime only (the real
 * clock, so tests could not drive it) and cannot name the owning process for the UI.
 *
 * A lock is a small JSON file created in one atomic step: written whole to a temp file, then
 * hard-linked to the lock name, which fails with EEXIST when the lock exists (an exclusive
 * create like `wx`, but a reader never sees a half-written lock). Where hard links are not
 * supported (FAT, some network shares) it falls back to `open(..., 'wx')`.
 */

const lockOwnerSchema = z.object({
  pid: z.int().positive(),
  hostname: z.string(),
  /** Random per acquisition: tells this holder's file from a later one by the same process. */
  token: z.string().min(1),
  /** Epoch ms when the lock was taken. */
  since: z.number(),
  /** Epoch ms of the holder's last sign of life; `since` for a lock that is not refreshed. */
  heartbeatAt: z.number(),
  /** What holds it: `desktop`, `web`, or a purpose such as `settings-update`. */
  mode: z.string().max(40),
});
export type LockOwner = z.infer<typeof lockOwnerSchema>;

export interface LockProcessDeps {
  clock: Clock;
  pid: number;
  hostname: string;
  /** Whether a process of this host is still running; injected by tests. */
  isProcessAlive: (pid: number) => boolean;
}

export function defaultLockProcessDeps(overrides: Partial<LockProcessDeps> = {}): LockProcessDeps {
  return {
    clock: overrides.clock ?? systemClock,
    pid: overrides.pid ?? process.pid,
    hostname: overrides.hostname ?? osHostname(),
    isProcessAlive: overrides.isProcessAlive ?? isProcessAlive,
  };
}

/** `kill(pid, 0)` probes without signalling: ESRCH means gone, EPERM means alive (another user). */
export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export type LockAttempt =
  | { acquired: true; owner: LockOwner }
  /** `heldBy` is null when the lock file exists but cannot be read yet (being created). */
  | { acquired: false; heldBy: LockOwner | null };

export interface TryLockOptions extends LockProcessDeps {
  mode: string;
  /**
   * A lock whose heartbeat is older than this is stale even if its pid looks alive (a pid reused
   * after a reboot, or another host's dead process, where the pid means nothing here).
   */
  staleAfterMs: number;
}

/**
 * One attempt to take the lock at `path`. A stale lock (its process dead on this host, or its
 * heartbeat older than `staleAfterMs`) is removed and the attempt repeated.
 */
export async function tryLockFile(path: string, options: TryLockOptions): Promise<LockAttempt> {
  for (let attempt = 0; attempt < 5; attempt += 1) {
    const now = options.clock.now();
    const owner: LockOwner = {
      pid: options.pid,
      hostname: options.hostname,
      token: randomBytes(12).toString('hex'),
      since: now,
      heartbeatAt: now,
      mode: options.mode,
    };
    if (await createExclusive(path, `${JSON.stringify(owner)}\n`)) return { acquired: true, owner };
    const existing = await readLock(path);
    if (existing === null) continue; // Released meanwhile: try again.
    if (!(await isStale(path, existing, options))) return { acquired: false, heldBy: existing.owner };
    await removeIfUnchanged(path, existing.text);
  }
  // Somebody keeps taking and dropping it: report the current holder, if any.
  const current = await readLock(path);
  return { acquired: false, heldBy: current?.owner ?? null };
}

/** Removes the lock only while it is still the one `owner` took. */
export async function releaseLockFile(path: string, owner: LockOwner): Promise<void> {
  const current = await readLock(path);
  if (current?.owner?.token === owner.token) await fs.rm(path, { force: true });
}

/** The lock as it is on disk, or null when there is none. `owner` is null when unreadable. */
export async function readLock(path: string): Promise<{ text: string; owner: LockOwner | null } | null> {
  let text: string;
  try {
    text = await fs.readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  return { text, owner: parseOwner(text) };
}

/** Rewrites a held lock with a new heartbeat; false when the file is no longer this owner's. */
export async function refreshLockFile(path: string, owner: LockOwner, heartbeatAt: number): Promise<boolean> {
  const current = await readLock(path);
  if (current?.owner?.token !== owner.token) return false;
  const next: LockOwner = { ...owner, heartbeatAt };
  const temp = tempName(path);
  await fs.writeFile(temp, `${JSON.stringify(next)}\n`, { mode: 0o600 });
  // A rename replaces the file in one step: the lock never disappears while it is refreshed.
  await fs.rename(temp, path);
  owner.heartbeatAt = heartbeatAt;
  return true;
}

export class FileLockTimeoutError extends Error {
  readonly code = 'lock_timeout';
  constructor(
    readonly lockPath: string,
    readonly heldBy: LockOwner | null,
  ) {
    super(
      heldBy
        ? `The data folder is busy: process ${heldBy.pid} (${heldBy.mode}) has held ${basename(lockPath)} too long`
        : `The data folder is busy: ${basename(lockPath)} could not be taken`,
    );
    this.name = 'FileLockTimeoutError';
  }
}

export interface FileLockOptions extends Partial<LockProcessDeps> {
  /** What the holder does, for a reader of the lock file. Default `update`. */
  mode?: string;
  /** Default 30 s: a mutex is held for the milliseconds of one read and one write. */
  staleAfterMs?: number;
  /** Give up after this long; longer than `staleAfterMs` so a crashed holder's lock is taken. */
  timeoutMs?: number;
}

/**
 * Runs `fn` while holding the mutex at `lockPath`, waiting (5 ms doubling to 200 ms, on the
 * injected clock) while another process holds it, and releasing it however `fn` ends.
 */
export async function withFileLock<T>(
  lockPath: string,
  fn: () => Promise<T>,
  options: FileLockOptions = {},
): Promise<T> {
  const deps = defaultLockProcessDeps(options);
  const staleAfterMs = options.staleAfterMs ?? 30_000;
  const timeoutMs = options.timeoutMs ?? staleAfterMs + 15_000;
  const startedAt = deps.clock.now();
  let delayMs = 5;
  for (;;) {
    const attempt = await tryLockFile(lockPath, { ...deps, mode: options.mode ?? 'update', staleAfterMs });
    if (attempt.acquired) {
      try {
        return await fn();
      } finally {
        await releaseLockFile(lockPath, attempt.owner);
      }
    }
    if (deps.clock.now() - startedAt >= timeoutMs) throw new FileLockTimeoutError(lockPath, attempt.heldBy);
    await deps.clock.sleep(delayMs);
    delayMs = Math.min(delayMs * 2, 200);
  }
}

function parseOwner(text: string): LockOwner | null {
  try {
    const parsed = lockOwnerSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

async function isStale(
  path: string,
  existing: { owner: LockOwner | null },
  options: TryLockOptions,
): Promise<boolean> {
  const owner = existing.owner;
  if (owner === null) {
    // Unreadable: being written right now (the `wx` fallback) or left damaged by a crash. Its
    // age comes from the file system's own clock, hence real time here.
    const stat = await fs.stat(path).catch(() => null);
    return stat !== null && Date.now() - stat.mtimeMs > options.staleAfterMs;
  }
  if (options.clock.now() - owner.heartbeatAt > options.staleAfterMs) return true;
  return owner.hostname === options.hostname && !options.isProcessAlive(owner.pid);
}

/** A takeover older than this (file-system time) was left by a process that died during it. */
const TAKEOVER_STALE_MS = 10_000;

/**
 * Removes a stale lock only if it is still the one judged stale. Removers take turns through a
 * second lock (`<lock>.takeover`, held for one read and one delete) and compare the text under
 * it, so a contender that judged an old lock stale can never delete the fresh lock another one
 * took meanwhile. Creating a lock needs no turn: the exclusive create already picks one winner.
 */
export async function removeIfUnchanged(path: string, staleText: string): Promise<void> {
  const takeover = `${path}.takeover`;
  if (!(await createExclusive(takeover, `${process.pid}\n`))) {
    const stat = await fs.stat(takeover).catch(() => null);
    // Another contender is at it (try again next round), unless it died there long ago.
    if (stat !== null && Date.now() - stat.mtimeMs > TAKEOVER_STALE_MS)
      await fs.rm(takeover, { force: true });
    return;
  }
  try {
    const current = await fs.readFile(path, 'utf8').catch(() => null);
    if (current === staleText) await fs.rm(path, { force: true });
  } finally {
    await fs.rm(takeover, { force: true });
  }
}

async function createExclusive(path: string, text: string): Promise<boolean> {
  const temp = tempName(path);
  await fs.writeFile(temp, text, { mode: 0o600, flag: 'wx' });
  try {
    await fs.link(temp, path);
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return false;
    if (code === 'EPERM' || code === 'ENOTSUP' || code === 'EOPNOTSUPP' || code === 'ENOSYS') {
      return createWithOpenExclusive(path, text);
    }
    throw error;
  } finally {
    await fs.rm(temp, { force: true });
  }
}

async function createWithOpenExclusive(path: string, text: string): Promise<boolean> {
  let handle: fs.FileHandle;
  try {
    handle = await fs.open(path, 'wx', 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
  try {
    await handle.writeFile(text);
  } finally {
    await handle.close();
  }
  return true;
}

function tempName(path: string): string {
  return join(dirname(path), `.${basename(path)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
}
