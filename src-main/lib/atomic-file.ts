import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import { basename, dirname, join } from 'node:path';

export interface AtomicWriteOptions {
  /** File mode of a newly written file; default 0o600 (user data: readable by its owner only). */
  mode?: number;
}

/**
 * Replaces `file` so that a reader (or the next start after a crash or power loss) sees either
 * the old content or the new one, never a mix: write a temp file in the same folder (a rename
 * is atomic only within one file system), flush it to disk, rename it over the target, then
 * flush the folder so that the rename itself survives a crash.
 *
 * Why not a library: write-file-atomic 8 needs Node 22 (our tests and CI run Node 20), older
 * majors bring ownership and exit-hook machinery we do not need, and the technique is this
 * one function. Callers serialise their own writes (two writers of one file race on the rename:
 * each file stays whole, but the last rename wins).
 */
export async function writeFileAtomic(
  file: string,
  data: string | Uint8Array,
  options: AtomicWriteOptions = {},
): Promise<void> {
  const folder = dirname(file);
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
