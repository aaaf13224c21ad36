import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CatalogCache } from '../../../src-main/core/catalog/catalog-cache';
import { CatalogService } from '../../../src-main/core/catalog/catalog-service';
import { FakeClock } from '../../../src-main/core/runtime/fake-clock';
import type { ProxyServiceClient } from '../../../src-main/api';

const DAY_MS = 86_400_000;
const CATALOG = 'https://api.example|prefixed';

describe('the catalog cache (countries and cities, across restarts)', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });
  const file = () => {
    const dir = mkdtempSync(join(tmpdir(), 'pm-catalog-cache-'));
    dirs.push(dir);
    return join(dir, 'catalog-cache.json');
  };

  it('answers from the file after a restart without asking the service, then refreshes a day-old list behind it', async () => {
    const path = file();
    const clock = new FakeClock(Date.parse('2026-03-10T12:00:00Z'));
    const reads: string[] = [];
    const read = (value: string[]) => () => {
      reads.push(value.join(','));
      return Promise.resolve(value);
    };

    const first = new CatalogCache({ file: path, clock, writeDelayMs: 0 });
    await first.load();
    expect(await first.get(CATALOG, 'countries:all', read(['US', 'DE']))).toEqual(['US', 'DE']);
    await first.flush();
    expect(JSON.parse(readFileSync(path, 'utf8')).version).toBe(1);

    // A restart: a new cache reads the file, and the service is not asked.
    const second = new CatalogCache({ file: path, clock, writeDelayMs: 0 });
    await second.load();
    expect(await second.get(CATALOG, 'countries:all', read(['never']))).toEqual(['US', 'DE']);
    expect(reads).toEqual(['US,DE']);

    // A day later: the cached list at once, the service read behind it, the new list next time.
    await clock.advance(DAY_MS + 1);
    expect(await second.get(CATALOG, 'countries:all', read(['US', 'DE', 'FR']))).toEqual(['US', 'DE']);
    await expect.poll(() => reads.length).toBe(2);
    await expect.poll(() => second.peek<string[]>(CATALOG, 'countries:all')).toEqual(['US', 'DE', 'FR']);
    await second.flush();

    // The refreshed list is what the next start finds.
    const third = new CatalogCache({ file: path, clock });
    await third.load();
    expect(third.peek(CATALOG, 'countries:all')).toEqual(['US', 'DE', 'FR']);
  });

  it('keeps the old list when a refresh fails, and starts empty from a damaged file', async () => {
    const path = file();
    const clock = new FakeClock(0);
    const cache = new CatalogCache({ file: path, clock, writeDelayMs: 0 });
    await cache.get(CATALOG, 'cities:US|all', () => Promise.resolve(['la']));
    await clock.advance(DAY_MS + 1);
    expect(await cache.get(CATALOG, 'cities:US|all', () => Promise.reject(new Error('offline')))).toEqual([
      'la',
    ]);
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(cache.peek(CATALOG, 'cities:US|all')).toEqual(['la']);

    writeFileSync(path, '{not json');
    const damaged = new CatalogCache({ file: path, clock });
    await damaged.load();
    expect(damaged.peek(CATALOG, 'cities:US|all')).toBeUndefined();
  });

  it('the catalog service answers countries and cities from it, per catalog (base URL), other lists from the service', async () => {
    let calls = 0;
    const client = {
      listCountries: () => {
        calls += 1;
        return Promise.resolve([{ code: 'US', name: 'United States' }]);
      },
      listCities: () => {
        calls += 1;
        return Promise.resolve([{ id: 'la', name: 'Los Angeles' }]);
      },
      listCoins: () => {
        calls += 1;
        return Promise.resolve([]);
      },
    } as unknown as ProxyServiceClient;
    let catalog = CATALOG;
    const service = new CatalogService(
      {
        active: async (_kind: string, run: (c: ProxyServiceClient) => Promise<unknown>) => ({
          profileId: 'p',
          value: await run(client),
        }),
      } as never,
      { cache: new CatalogCache({ clock: new FakeClock(0) }), catalogOf: () => catalog },
    );
    const handlers = service.handlers();
    await handlers['catalog:countries'](undefined);
    await handlers['catalog:countries'](undefined);
    await handlers['catalog:cities']({ countryCode: 'US' });
    await handlers['catalog:cities']({ countryCode: 'US' });
    expect(calls).toBe(2);
    await handlers['catalog:coins'](undefined);
    await handlers['catalog:coins'](undefined);
    expect(calls).toBe(4);
    // Another base URL is another catalog.
    catalog = 'http://127.0.0.1:9|prefixed';
    await handlers['catalog:countries'](undefined);
    expect(calls).toBe(5);
  });
});
