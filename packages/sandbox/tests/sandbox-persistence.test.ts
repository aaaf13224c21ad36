import { spawnSync } from 'node:child_process';
import {
  promises as fs,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startSandbox } from '../src';
import { loadSandboxState, SandboxStateFileError, SandboxStateWriter } from '../src/sandbox-persistence';
import type { SandboxState } from '../src/sandbox-state';
import { TestSandbox, TEST_START_TIME } from '../src/testing';
import { probeModule } from './support/probe-module';

let folder: string;
let file: string;

beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), 'sandbox-persistence-'));
  file = join(folder, 'state.json');
});
afterEach(() => {
  vi.restoreAllMocks();
  rmSync(folder, { recursive: true, force: true });
});

const readState = (): SandboxState => JSON.parse(readFileSync(file, 'utf8')) as SandboxState;
const start = (options: Parameters<typeof TestSandbox.start>[0] = {}) =>
  TestSandbox.start({ extraModules: [probeModule], dataFile: file, logError: () => undefined, ...options });

describe('--data persistence', () => {
  it('writes a fresh state file as soon as the sandbox listens', async () => {
    const sandbox = await start();
    try {
      expect(sandbox.sandbox.restored).toBe(false);
      const state = readState();
      expect(state.version).toBe(1);
      expect(state.seed).toBe(7);
      expect(state.clock).toMatchObject({ mode: 'manual', valueMs: Date.parse(TEST_START_TIME) });
    } finally {
      await sandbox.close();
    }
  });

  it('has an API change on disk by the time it is answered', async () => {
    const sandbox = await start();
    try {
      const created = await sandbox.request('POST', '/v1/__probe/counter');
      expect(created.status).toBe(201);
      expect(readState().ids.probe).toBe(1);
    } finally {
      await sandbox.close();
    }
  });

  it('has every control change (clock, account) on disk by the time it is answered', async () => {
    const sandbox = await start();
    try {
      await sandbox.advance(600);
      expect(readState().clock.valueMs).toBe(Date.parse(TEST_START_TIME) + 600_000);
      await sandbox.control('POST', '/account', { balanceUsd: '321.00' });
      expect(readState().account.balanceUsd).toBe('321.00');
    } finally {
      await sandbox.close();
    }
  });

  it('continues from the file after a restart: state, clock, ids and random sequence', async () => {
    const first = await start();
    await first.request('POST', '/v1/__probe/counter');
    await first.advance(3600);
    await first.control('POST', '/account', { balanceUsd: '55.10' });
    const nextId = (await first.request('POST', '/v1/__probe/counter')).json.id as string;
    await first.close();
    const stateAfterFirst = readFileSync(file, 'utf8');

    // Different seed, start time and clock mode: the file wins.
    const second = await start({ seed: 99, startTime: '2030-01-01T00:00:00Z', clock: 'real' });
    try {
      expect(second.sandbox.restored).toBe(true);
      expect(await second.now()).toBe(new Date(Date.parse(TEST_START_TIME) + 3_600_000).toISOString());
      expect((await second.control('GET', '/clock')).json.mode).toBe('manual');
      expect((await second.control('GET', '/account')).json.balanceUsd).toBe('55.10');
      expect((await second.request('GET', '/v1/__probe/counter')).json.count).toBe(2);
      expect(readState().seed).toBe(7);
      const third = (await second.request('POST', '/v1/__probe/counter')).json.id as string;
      expect(third).toMatch(/^probe_0003/);
      expect(third).not.toBe(nextId);
    } finally {
      await second.close();
    }
    expect(stateAfterFirst).not.toBe(readFileSync(file, 'utf8'));
  });

  it('gives the same ids after a restart as without one (the random state is saved)', async () => {
    const straight = await TestSandbox.start({ extraModules: [probeModule] });
    const expected: string[] = [];
    for (let i = 0; i < 3; i += 1)
      expected.push((await straight.request('POST', '/v1/__probe/counter')).json.id);
    await straight.close();

    const first = await start();
    const ids = [(await first.request('POST', '/v1/__probe/counter')).json.id];
    await first.close();
    const second = await start();
    for (let i = 0; i < 2; i += 1) ids.push((await second.request('POST', '/v1/__probe/counter')).json.id);
    await second.close();
    expect(ids).toEqual(expected);
  });

  it('writes through a temp file in the same folder and renames it over the target', async () => {
    const rename = vi.spyOn(fs, 'rename');
    const sandbox = await start();
    await sandbox.request('POST', '/v1/__probe/counter');
    await sandbox.close();
    expect(rename).toHaveBeenCalled();
    for (const [from, to] of rename.mock.calls) {
      expect(to).toBe(file);
      expect(String(from).startsWith(join(folder, '.state.json.'))).toBe(true);
    }
    expect(readdirSync(folder)).toEqual(['state.json']);
  });

  it('writes the state file readable by its owner only (it holds proxy passwords)', async () => {
    if (process.platform === 'win32') return;
    const sandbox = await start();
    try {
      expect(statSync(file).mode & 0o777).toBe(0o600);
      await sandbox.request('POST', '/v1/__probe/counter');
      expect(statSync(file).mode & 0o777).toBe(0o600);
    } finally {
      await sandbox.close();
    }
  });

  it('removes temp files that interrupted saves left, of a writer that is gone, at start', async () => {
    const dead = spawnSync(process.execPath, ['-e', '0']).pid;
    const stale = [`state.json.tmp-${dead}-7`, `.state.json.${dead}.0123456789ab.tmp`];
    for (const name of stale) writeFileSync(join(folder, name), '{"half":');
    writeFileSync(join(folder, 'notes.txt'), 'kept');
    const sandbox = await start();
    await sandbox.close();
    expect(readdirSync(folder).sort()).toEqual(['notes.txt', 'state.json']);
  });

  it('keeps the previous file intact and leaves no temp file when a write fails', async () => {
    const sandbox = await start();
    try {
      const before = readFileSync(file, 'utf8');
      vi.spyOn(fs, 'rename').mockRejectedValueOnce(new Error('disk full'));
      const answer = await sandbox.request('POST', '/v1/__probe/counter');
      expect(answer.status).toBe(500);
      expect(answer.json.error.code).toBe('persistence_failed');
      expect(readFileSync(file, 'utf8')).toBe(before);
      expect(readdirSync(folder)).toEqual(['state.json']);
      // The next change saves again, with everything so far.
      expect((await sandbox.request('POST', '/v1/__probe/counter')).status).toBe(201);
      expect(readState().ids.probe).toBe(2);
    } finally {
      await sandbox.close();
    }
  });

  it('refuses to start on a file that is not JSON, with a clear message, and leaves it alone', async () => {
    writeFileSync(file, '{"version": 1, "seed": 7, tru');
    await expect(start()).rejects.toThrow(
      `${file} is not valid JSON (corrupt or not a sandbox state file); move it away to start with fresh demo data`,
    );
    expect(readFileSync(file, 'utf8')).toBe('{"version": 1, "seed": 7, tru');
  });

  it('refuses an empty file', async () => {
    writeFileSync(file, '');
    await expect(start()).rejects.toThrow(SandboxStateFileError);
  });

  it('refuses a file of another state version', async () => {
    writeFileSync(file, JSON.stringify({ version: 2 }));
    await expect(start()).rejects.toThrow('has state version 2, this sandbox reads 1');
  });

  it('refuses a file that lacks members, naming them', async () => {
    const sandbox = await start();
    await sandbox.close();
    const state = readState() as unknown as Record<string, unknown>;
    delete state.mobile;
    state.clock = { mode: 'sideways', valueMs: 0 };
    writeFileSync(file, JSON.stringify(state));
    await expect(start()).rejects.toThrow('bad or missing: clock, mobile');
  });

  it('frees the port and reports the path when the data file cannot be written', async () => {
    const missing = join(folder, 'no-such-folder', 'state.json');
    await expect(start({ dataFile: missing, port: 0 })).rejects.toThrow(
      `cannot save sandbox state to ${missing}`,
    );
  });

  it('does not save after close (a late handler cannot overwrite a newer sandbox file)', async () => {
    const sandbox = await start();
    await sandbox.close();
    const closedState = readFileSync(file, 'utf8');
    sandbox.sandbox.world.state.account.balanceUsd = '999.99';
    await sandbox.sandbox.close();
    expect(readFileSync(file, 'utf8')).toBe(closedState);
  });
});

describe('SandboxStateWriter', () => {
  const state = (n: number) => ({ version: 1, n }) as unknown as SandboxState;

  it('coalesces saves asked for before a write starts into that write, with the latest state', async () => {
    let n = 0;
    const writer = new SandboxStateWriter(file, () => state(n));
    const rename = vi.spyOn(fs, 'rename');
    n = 1;
    const saves = [writer.save(), writer.save(), writer.save()];
    n = 2;
    await Promise.all(saves);
    expect(rename).toHaveBeenCalledTimes(1);
    expect((readState() as unknown as { n: number }).n).toBe(2);
  });

  it('queues saves asked for during a write into exactly one more write', async () => {
    let n = 1;
    const writer = new SandboxStateWriter(file, () => state(n));
    const realOpen = fs.open.bind(fs);
    let writing!: () => void;
    const inWrite = new Promise<void>((resolve) => (writing = resolve));
    let opened = 0;
    vi.spyOn(fs, 'open').mockImplementation((...args: Parameters<typeof fs.open>) => {
      opened += 1;
      writing();
      return realOpen(...args);
    });
    const rename = vi.spyOn(fs, 'rename');
    const first = writer.save();
    await inWrite;
    n = 2;
    const during = [writer.save(), writer.save()];
    n = 3;
    await Promise.all([first, ...during]);
    expect(rename).toHaveBeenCalledTimes(2);
    // The folder is opened too (to sync the rename): two state writes, two folder syncs.
    expect(opened).toBe(4);
    expect((readState() as unknown as { n: number }).n).toBe(3);
  });

  it('rejects the save that failed and keeps saving afterwards', async () => {
    const writer = new SandboxStateWriter(file, () => state(1));
    vi.spyOn(fs, 'rename').mockRejectedValueOnce(new Error('EIO'));
    await expect(writer.save()).rejects.toThrow(`cannot save sandbox state to ${file}: EIO`);
    await writer.save();
    expect(readState()).toEqual(state(1));
  });

  it('writes once more on close and nothing after', async () => {
    let n = 1;
    const writer = new SandboxStateWriter(file, () => state(n));
    await writer.close();
    n = 2;
    await writer.save();
    expect((readState() as unknown as { n: number }).n).toBe(1);
  });
});

describe('loadSandboxState', () => {
  it('answers null for a file that does not exist yet', async () => {
    expect(await loadSandboxState(join(folder, 'absent.json'))).toBeNull();
  });

  it('refuses a path it cannot read, naming it', async () => {
    await expect(loadSandboxState(folder)).rejects.toThrow(`${folder} cannot be read (EISDIR)`);
  });
});

describe('startSandbox without --data', () => {
  it('writes no file', async () => {
    const sandbox = await startSandbox({ port: 0, clock: 'manual', latency: 'fast', seed: 1 });
    await sandbox.close();
    expect(readdirSync(folder)).toEqual([]);
  });
});
