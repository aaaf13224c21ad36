import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { jobStateSection, MemoryJobSection } from '../../../src-main/core/storage/job-section';
import { JobStateStore } from '../../../src-main/core/storage/job-state-store';

describe('jobStateSection', () => {
  it('keeps sections in state.json that a new store reads back, and concurrent updates keep each other', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pm-job-section-'));
    const store = await JobStateStore.open({ dataDir: dir });
    const receipts = jobStateSection<{ n: number }>(store, 'rotation-receipts');
    const relocations = jobStateSection<string[]>(store, 'relocations');
    expect(await receipts.read()).toBeUndefined();
    await Promise.all([
      receipts.update((current) => ({ n: (current?.n ?? 0) + 1 })),
      relocations.update((current) => [...(current ?? []), 'mp_1']),
      receipts.update((current) => ({ n: (current?.n ?? 0) + 1 })),
    ]);
    const again = await JobStateStore.open({ dataDir: dir });
    expect(await jobStateSection(again, 'rotation-receipts').read()).toEqual({ n: 2 });
    expect(await jobStateSection(again, 'relocations').read()).toEqual(['mp_1']);
    expect(JSON.parse(readFileSync(join(dir, 'state.json'), 'utf8')).sections).toEqual({
      'rotation-receipts': { value: { n: 2 } },
      relocations: { value: ['mp_1'] },
    });
  });

  it('update resolves with what it stored, after it is on disk', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pm-job-section-'));
    const store = await JobStateStore.open({ dataDir: dir });
    const section = jobStateSection<number>(store, 'counter');
    expect(await section.update(() => 7)).toBe(7);
    expect(JSON.parse(readFileSync(join(dir, 'state.json'), 'utf8')).sections.counter).toEqual({ value: 7 });
  });

  it('a memory section hands out copies, so callers cannot change what is stored', async () => {
    const section = new MemoryJobSection<{ list: number[] }>({ list: [1] });
    const read = await section.read();
    read?.list.push(2);
    expect(await section.read()).toEqual({ list: [1] });
  });
});
