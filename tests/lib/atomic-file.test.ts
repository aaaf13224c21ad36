import { spawnSync } from 'node:child_process';
import {
  chmod,
  mkdtemp,
  mkdir,
  readdir,
  readFile,
  rm,
  stat,
  symlink,
  utimes,
  writeFile,
} from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { removeStaleTempFiles, STALE_TEMP_AGE_MS, writeFileAtomic } from '../../src-main/lib/atomic-file';

let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'pm-atomic-'));
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('writeFileAtomic', () => {
  it('creates a file and replaces it, leaving no temp file behind', async () => {
    const file = join(dir, 'settings.json');
    await writeFileAtomic(file, 'first');
    await writeFileAtomic(file, 'second, longer than the first');
    expect(await readFile(file, 'utf8')).toBe('second, longer than the first');
    expect(await readdir(dir)).toEqual(['settings.json']);
  });

  it('writes a new file readable by its owner only', async () => {
    if (process.platform === 'win32') return;
    const file = join(dir, 'private.json');
    await writeFileAtomic(file, '{}');
    expect((await stat(file)).mode & 0o777).toBe(0o600);
  });

  it('makes an existing world-readable file owner-only when it replaces it', async () => {
    if (process.platform === 'win32') return;
    const file = join(dir, 'state.json');
    await writeFile(file, 'old', { mode: 0o644 });
    await chmod(file, 0o644);
    await writeFileAtomic(file, 'new');
    expect((await stat(file)).mode & 0o777).toBe(0o600);
  });

  it('keeps the old content and removes its temp file when the rename fails', async () => {
    // A folder in the way of the target makes the rename fail after the temp file is written.
    const target = join(dir, 'busy');
    await mkdir(target);
    await writeFile(join(target, 'inside'), 'kept');
    await expect(writeFileAtomic(target, 'new')).rejects.toThrow();
    expect((await readdir(dir)).sort()).toEqual(['busy']);
    expect(await readFile(join(target, 'inside'), 'utf8')).toBe('kept');
  });

  it('fails without leaving anything when the folder does not exist', async () => {
    await expect(writeFileAtomic(join(dir, 'missing', 'x.json'), 'x')).rejects.toThrow(/ENOENT/);
    expect(await readdir(dir)).toEqual([]);
  });

  it('leaves one whole payload when writes of the same file overlap', async () => {
    const file = join(dir, 'race.json');
    const payloads = Array.from({ length: 10 }, (_, index) => `${index}`.repeat(10_000));
    await Promise.all(payloads.map((payload) => writeFileAtomic(file, payload)));
    expect(payloads).toContain(await readFile(file, 'utf8'));
    expect(await readdir(dir)).toEqual(['race.json']);
  });
});

/** A pid that belonged to a process which has exited (reuse this soon is practically impossible). */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', '0']);
  return child.pid;
}

describe('stale temp files of interrupted writes', () => {
  const tempName = (target: string, pid: number, hex = 'a1b2c3d4e5f6') => `.${target}.${pid}.${hex}.tmp`;

  it('are removed by the first write of their target when their writer is gone', async () => {
    const file = join(dir, 'settings.json');
    const dead = deadPid();
    await writeFile(join(dir, tempName('settings.json', dead)), 'half a secret');
    await writeFileAtomic(file, 'whole');
    expect(await readdir(dir)).toEqual(['settings.json']);
  });

  it('are kept while their writer lives and is recent, removed once older than an hour', async () => {
    const file = join(dir, 'settings.json');
    const live = join(dir, tempName('settings.json', process.ppid));
    await writeFile(live, 'in progress');
    const start = Date.now();
    expect(await removeStaleTempFiles(file, { now: () => start })).toEqual([]);
    expect(await readdir(dir)).toContain(tempName('settings.json', process.ppid));
    expect(await removeStaleTempFiles(file, { now: () => start + STALE_TEMP_AGE_MS + 1000 })).toEqual([
      tempName('settings.json', process.ppid),
    ]);
  });

  it('keep this process own recent temp files (a write in progress)', async () => {
    const file = join(dir, 'settings.json');
    await writeFile(join(dir, tempName('settings.json', process.pid)), 'mine');
    expect(await removeStaleTempFiles(file, { isProcessAlive: () => false })).toEqual([]);
  });

  it('touch nothing that is not clearly a temp file of this target', async () => {
    const file = join(dir, 'settings.json');
    const dead = deadPid();
    const others = [
      'settings.json.bak',
      tempName('other.json', dead),
      tempName('settings.json', dead, 'nothex000000'),
      `.settings.json.${dead}.a1b2c3d4e5f6.tmp.keep`,
      `settings.json.${dead}.a1b2c3d4e5f6.tmp`,
    ];
    for (const name of others) await writeFile(join(dir, name), 'x');
    await mkdir(join(dir, tempName('settings.json', dead, 'aaaaaaaaaaaa')));
    await symlink(join(dir, 'settings.json.bak'), join(dir, tempName('settings.json', dead, 'bbbbbbbbbbbb')));
    const old = new Date(Date.now() - 2 * STALE_TEMP_AGE_MS);
    for (const name of others) await utimes(join(dir, name), old, old);
    expect(await removeStaleTempFiles(file)).toEqual([]);
    expect((await readdir(dir)).length).toBe(others.length + 2);
  });

  it('take an older naming scheme when the caller names it', async () => {
    const file = join(dir, 'state.json');
    await writeFile(join(dir, 'state.json.tmp-4242-3'), 'x');
    expect(
      await removeStaleTempFiles(file, {
        extraPatterns: [/^state\.json\.tmp-(\d+)-\d+$/],
        isProcessAlive: () => false,
      }),
    ).toEqual(['state.json.tmp-4242-3']);
  });
});
