import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { BaseUrlProbeResult } from '../../src-main/api';
import { rememberedProbe } from '../../src-main/cli/remembered-probe';
import { tempDataDir } from './support/cli-harness';

const result = (adopted: BaseUrlProbeResult['adopted']): BaseUrlProbeResult => ({
  baseUrl: 'https://api.example.test/api/v1',
  requestedBaseUrl: 'https://api.example.test',
  suffixAdded: '/api/v1',
  adopted,
  readings: [],
  summary: 'answered',
});

describe('rememberedProbe', () => {
  it('probes a base URL once and remembers it for a week, in the data folder, without a key', async () => {
    const dataDir = tempDataDir();
    let now = Date.parse('2026-11-01T00:00:00Z');
    const probed: string[] = [];
    const probe = rememberedProbe(
      dataDir,
      (baseUrl) => {
        probed.push(baseUrl);
        return Promise.resolve(result('literal'));
      },
      () => now,
    );
    expect((await probe('https://api.example.test')).baseUrl).toBe('https://api.example.test/api/v1');
    expect(await probe('https://api.example.test')).toEqual(result('literal'));
    expect(probed).toEqual(['https://api.example.test']);
    // Another process (the next command) reads what this one remembered.
    const next = rememberedProbe(
      dataDir,
      () => Promise.reject(new Error('not asked')),
      () => now,
    );
    expect((await next('https://api.example.test')).adopted).toBe('literal');
    expect(readFileSync(join(dataDir, 'base-url-probes.json'), 'utf8')).not.toMatch(/key/i);
    now += 8 * 24 * 3_600_000;
    await probe('https://api.example.test');
    expect(probed).toHaveLength(2);
  });

  it('does not remember a probe that adopted nothing', async () => {
    const dataDir = tempDataDir();
    let calls = 0;
    const probe = rememberedProbe(dataDir, () => {
      calls += 1;
      return Promise.resolve(result(null));
    });
    await probe('https://down.example.test');
    await probe('https://down.example.test');
    expect(calls).toBe(2);
  });
});
