import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { JsonFileJobStore, MemoryJobSection } from '../../../src-main/core/ports/ports-job-store';

describe('JsonFileJobStore', () => {
  it('keeps sections in one file that a new store reads back', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pm-ports-jobs-'));
    const store = new JsonFileJobStore(dir);
    const receipts = store.section<{ n: number }>('rotationReceipts');
    const relocations = store.section<string[]>('relocations');
    // Concurrent updates of two sections: neither undoes the other.
    await Promise.all([
      receipts.update((current) => ({ n: (current?.n ?? 0) + 1 })),
      relocations.update((current) => [...(current ?? []), 'mp_1']),
      receipts.update((current) => ({ n: (current?.n ?? 0) + 1 })),
    ]);
    const again = new JsonFileJobStore(dir);
    expect(await again.section('rotationReceipts').read()).toEqual({ n: 2 });
    expect(await again.section('relocations').read()).toEqual(['mp_1']);
    expect(JSON.parse(readFileSync(join(dir, 'ports-jobs.json'), 'utf8'))).toEqual({
      rotationReceipts: { n: 2 },
      relocations: ['mp_1'],
    });
  });

  it('sets a damaged file aside and starts afresh, saying so', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pm-ports-jobs-'));
    writeFileSync(join(dir, 'ports-jobs.json'), '{"rotationReceipts": ');
    const lines: string[] = [];
    const store = new JsonFileJobStore(dir, 'ports-jobs.json', (line) => lines.push(line));
    expect(await store.section('rotationReceipts').read()).toBeUndefined();
    await store.section<number>('relocations').update(() => 1);
    expect(readdirSync(dir).some((name) => name.startsWith('ports-jobs.json.damaged-'))).toBe(true);
    expect(lines[0]).toMatch(/not readable JSON/);
  });

  it('a memory section hands out copies, so callers cannot change what is stored', async () => {
    const section = new MemoryJobSection<{ list: number[] }>({ list: [1] });
    const read = await section.read();
    read?.list.push(2);
    expect(await section.read()).toEqual({ list: [1] });
  });
});
