import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';

export interface AtomicWriteOptions {
  /** File mode of a newly written file; default 0o600 (user data: readable by its owner only). */
  mode?: number;
}

/**
 * A temp file older than this is left over whoever wrote it: no write of ours lasts an hour. Only
 * for temp files of a live process (the pid may have been reused); a dead writer's go at once.
 */
export const STALE_TEMP_AGE_MS = 60 * 60 * 1000;

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** `.settings.json.<pid>.<12 hex>.tmp`: the only names `writeFileAtomic` creates next to `file`. */
function tempFilePattern(file: string): RegExp {
  return new RegExp(`^\\.${escapeRegExp(basename(file))}\\.(\\d+)\\.[0-9a-f]{12}\\.tmp$`);
}

function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export interface StaleTempCleanup {
  /** Injected clock; default `Date.now`. */
  now?: () => number;
  /** Injected for tests; default asks the OS (signal 0). */
  isProcessAlive?: (pid: number) => boolean;
  /**
   * Other names that are this file's temp files (an older writer's scheme); the first group must be
   * the writer's pid. Matched against names in the same folder only.
   */
  extraPatterns?: readonly RegExp[];
}

/**
 * Removes the temp files that interrupted writes of `file` left behind (a crash or power loss
 * between the temp file's creation and its rename). Only files that are clearly ours are touched:
 * a plain file in the same folder, named by our scheme, whose writer process is gone, or that is
 * older than STALE_TEMP_AGE_MS. Best effort: what cannot be listed or removed stays. Answers the
 * names removed.
 */
export async function removeStaleTempFiles(file: string, options: StaleTempCleanup = {}): Promise<string[]> {
  const now = options.now ?? Date.now;
  const alive = options.isProcessAlive ?? isProcessAlive;
  const patterns = [tempFilePattern(file), ...(options.extraPatterns ?? [])];
  const folder = dirname(file);
  let names: string[];
  try {
    names = await fs.readdir(folder);
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const name of names) {
    const pid = patterns.map((pattern) => pattern.exec(name)?.[1]).find((match) => match !== undefined);
    if (pid === undefined) continue;
    const path = join(folder, name);
    try {
      const stat = await fs.lstat(path);
      if (!stat.isFile()) continue;
      const writerGone = Number(pid) !== process.pid && !alive(Number(pid));
      if (!writerGone && now() - stat.mtimeMs < STALE_TEMP_AGE_MS) continue;
      await fs.rm(path);
      removed.push(name);
    } catch {
      // Gone already, or not ours to remove: leave it.
    }
  }
  return removed;
}

/** Targets whose stale temp files this process has already looked for (once per target is enough). */
const swept = new Set<string>();

/**
 * Replaces `file` so that a reader (or the next start after a crash or power loss) sees either
 * the old content or the new one, never a mix: write a temp file in the same folder (a rename
 * is atomic only within one file system), flush it to disk, rename it over the target, then
 * flush the folder so that the rename itself survives a crash. The first write of a target in a
 * process also removes temp files that interrupted writes left next to it.
 *
 * Why not a library: write-file-atomic 8 would run here (it needs Node 22.22 or 24.15; our tests
 * and CI run Node 24), but it brings ownership handling and an exit hook (signal-exit) we do not
 * need, and the technique is this one function. Callers serialise their own writes (two writers
 * of one file race on the rename: each file stays whole, but the last rename wins).
 */
export async function writeFileAtomic(
  file: string,
  data: string | Uint8Array,
  options: AtomicWriteOptions = {},
): Promise<void> {
  const folder = dirname(file);
  const target = resolve(file);
  if (!swept.has(target)) {
    swept.add(target);
    await removeStaleTempFiles(file);
  }
  const temp = join(folder, `.${basename(file)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    const handle = await fs.open(temp, 'wx', options.mode ?? 0o600);
    try {
      await handle.writeFile(data);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await fs.rename(temp, file);
  } catch (error) {
    await fs.rm(temp, { force: true });
    throw error;
  }
  await syncFolder(folder);
}

async function syncFolder(folder: string): Promise<void> {
  let handle: fs.FileHandle | undefined;
  try {
    handle = await fs.open(folder, 'r');
    await handle.sync();
  } catch {
    // Windows cannot open or flush a folder; the rename is already done, so this is best effort.
  } finally {
    await handle?.close();
  }
}
