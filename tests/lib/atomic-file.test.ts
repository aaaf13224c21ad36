import { mkdtemp, mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeFileAtomic } from '../../src-main/lib/atomic-file';

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
