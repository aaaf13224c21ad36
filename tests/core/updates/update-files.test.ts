import { promises as fs } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { replaceFileAtomically } from '../../../src-main/core/updates/update-files';

let dir: string;
let target: string;

beforeEach(async () => {
  dir = await fs.mkdtemp(join(tmpdir(), 'pm-replace-'));
  target = join(dir, 'app.AppImage');
  await fs.writeFile(target, 'old', { mode: 0o750 });
});

afterEach(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

describe('replaceFileAtomically', () => {
  it('writes beside the target, keeps its mode, and renames over it', async () => {
    let tempSeen = '';
    await replaceFileAtomically(target, async (temp) => {
      tempSeen = temp;
      expect(temp.startsWith(`${dir}/.app.AppImage.`)).toBe(true);
      await fs.writeFile(temp, 'new');
      // Until the rename, the old file is untouched.
      expect(await fs.readFile(target, 'utf8')).toBe('old');
    });
    expect(await fs.readFile(target, 'utf8')).toBe('new');
    expect((await fs.stat(target)).mode & 0o777).toBe(0o750);
    await expect(fs.access(tempSeen)).rejects.toThrow();
    expect(await fs.readdir(dir)).toEqual(['app.AppImage']);
  });

  it('keeps the old file and removes the temp file when the write fails half-way', async () => {
    await expect(
      replaceFileAtomically(target, async (temp) => {
        await fs.writeFile(temp, 'half');
        throw new Error('disk full');
      }),
    ).rejects.toThrow('disk full');
    expect(await fs.readFile(target, 'utf8')).toBe('old');
    expect(await fs.readdir(dir)).toEqual(['app.AppImage']);
  });

  it('keeps the old one when the rename itself fails', async () => {
    // A folder in the target's place: rename(file, folder) fails on every OS.
    const folderTarget = join(dir, 'busy.AppImage');
    await fs.mkdir(folderTarget);
    await fs.writeFile(join(folderTarget, 'inside'), 'kept');
    await expect(replaceFileAtomically(folderTarget, (temp) => fs.writeFile(temp, 'new'))).rejects.toThrow();
    expect(await fs.readFile(join(folderTarget, 'inside'), 'utf8')).toBe('kept');
    expect((await fs.readdir(dir)).sort()).toEqual(['app.AppImage', 'busy.AppImage']);
  });

  it('removes what an interrupted download by a dead process left beside the target', async () => {
    // pid 2^22+ is above Linux's pid_max default range; treated as gone by the OS check.
    const leftover = join(dir, '.app.AppImage.4194999.0123456789ab.update');
    await fs.writeFile(leftover, 'half of an old download');
    await replaceFileAtomically(target, (temp) => fs.writeFile(temp, 'new'));
    expect(await fs.readdir(dir)).toEqual(['app.AppImage']);
  });
});
