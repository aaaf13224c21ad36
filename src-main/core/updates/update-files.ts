/**
 * Where a verified download ends up. Every file is written under a temp name in its final folder
 * and renamed into place only once its size and sha256 matched the signed feed, so that a crash, a
 * full disk or a refused download leaves the old file (the running AppImage) exactly as it was.
 */
import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, promises as fs } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { removeStaleTempFiles } from '../../lib/atomic-file';
import { UpdateRefusedError, type UpdatePlatform } from './update-feed';

/** Writes, flushes and verifies the file it is given (`UpdateHttp.download`). */
export type VerifiedWrite = (tempPath: string) => Promise<void>;

const EXTENSIONS: Record<UpdatePlatform, string> = {
  'linux-x64-appimage': 'AppImage',
  'linux-x64-deb': 'deb',
  'linux-x64-rpm': 'rpm',
  'mac-arm64-dmg': 'dmg',
  'mac-x64-dmg': 'dmg',
  'win-x64-nsis': 'exe',
};

/** Our own name for a downloaded installer: nothing of it comes from the feed's URL. */
export function installerFileName(version: string, platform: UpdatePlatform): string {
  return `proxy-manager-${version}-${platform}.${EXTENSIONS[platform]}`;
}

function tempBeside(target: string): string {
  return join(
    dirname(target),
    `.${basename(target)}.${process.pid}.${randomBytes(6).toString('hex')}.update`,
  );
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** What a download cut off by a crash or a power loss left beside `target` (its writer is gone). */
async function sweepStaleTemps(target: string): Promise<void> {
  const pattern = new RegExp(`^\\.${escapeRegExp(basename(target))}\\.(\\d+)\\.[0-9a-f]{12}\\.update$`);
  await removeStaleTempFiles(target, { extraPatterns: [pattern] });
}

async function syncFolder(folder: string): Promise<void> {
  let handle: fs.FileHandle | undefined;
  try {
    handle = await fs.open(folder, 'r');
    await handle.sync();
  } catch {
    // Windows cannot open a folder to flush it; the rename is already done.
  } finally {
    await handle?.close();
  }
}

/**
 * Replaces `target` with a verified download, atomically: the new file is written beside it (a
 * rename is atomic only within one file system), flushed, given the old file's mode, and renamed
 * over it; then the folder is flushed. On any failure the temp file is removed and `target` is
 * left as it was. A running AppImage keeps running from its open inode; the next start is the new one.
 */
export async function replaceFileAtomically(target: string, write: VerifiedWrite): Promise<void> {
  let mode = 0o755;
  try {
    mode = (await fs.stat(target)).mode & 0o7777;
  } catch {
    // A missing target is created (the AppImage was moved away meanwhile); executable by default.
  }
  await sweepStaleTemps(target);
  const temp = tempBeside(target);
  try {
    await write(temp);
    await fs.chmod(temp, mode);
    await fs.rename(temp, target);
  } catch (error) {
    await fs.rm(temp, { force: true });
    throw error;
  }
  await syncFolder(dirname(target));
}

/** Puts a verified installer at `target` (in the app's updates folder), the same way. */
export async function saveVerifiedFile(target: string, write: VerifiedWrite): Promise<void> {
  await fs.mkdir(dirname(target), { recursive: true, mode: 0o700 });
  await sweepStaleTemps(target);
  const temp = tempBeside(target);
  try {
    await write(temp);
    await fs.rename(temp, target);
  } catch (error) {
    await fs.rm(temp, { force: true });
    throw error;
  }
  await syncFolder(dirname(target));
}

/**
 * Checks a file on disk again right before it is opened: an installer that sat in the data folder
 * since its download is never handed to the OS unless it is still byte for byte what the feed signed.
 */
export async function verifyFileOnDisk(path: string, size: number, sha256: string): Promise<void> {
  const stat = await fs.stat(path);
  if (stat.size !== size) {
    throw new UpdateRefusedError(
      'size_mismatch',
      `${path} is no longer the ${size} bytes that were verified.`,
    );
  }
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  if (hash.digest('hex') !== sha256) {
    throw new UpdateRefusedError(
      'hash_mismatch',
      `${path} changed since it was verified; it was not opened.`,
    );
  }
}
