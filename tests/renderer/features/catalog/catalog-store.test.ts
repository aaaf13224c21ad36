import { describe, expect, it } from 'vitest';
import { citiesKey, useCatalogStore } from '../../../../src-renderer/src/features/catalog/catalog-store';
import { deferred, fail, ok } from '../../support/fake-api';
import { cities, coins, countries } from '../../support/fixtures';
import { useFakeApi } from '../../support/renderer-test-kit';

describe('catalog store', () => {
  const fake = useFakeApi(() => ({
    'catalog:countries': () => ok(countries()),
    'catalog:citiesOf': ({ countryCodes }) =>
      ok(Object.fromEntries(countryCodes.map((code) => [code, cities()]))),
    'catalog:coins': () => ok(coins()),
  }));

  it('asks for countries without a product for "all" and with it otherwise, caching each', async () => {
    await useCatalogStore.getState().loadCountries('all');
    await useCatalogStore.getState().loadCountries('mobile');
    await useCatalogStore.getState().loadCountries('mobile');
    expect(fake.current.callsTo('catalog:countries')).toEqual([undefined, { product: 'mobile' }]);
    expect(useCatalogStore.getState().countries.mobile).toMatchObject({ status: 'ready', error: null });
  });

  it('keeps an error with its message and loads again on retry', async () => {
    fake.current.handle('catalog:countries', () => fail('network_error', 'Cannot reach the service.'));
    await useCatalogStore.getState().loadCountries('all');
    expect(useCatalogStore.getState().countries.all).toMatchObject({
      status: 'error',
      data: null,
      error: { message: 'Cannot reach the service.' },
    });
    fake.current.handle('catalog:countries', () => ok(countries()));
    await useCatalogStore.getState().loadCountries('all', true);
    expect(useCatalogStore.getState().countries.all?.status).toBe('ready');
    expect(useCatalogStore.getState().countries.all?.data).toHaveLength(3);
  });

  it('keeps the data it had when a refresh fails', async () => {
    await useCatalogStore.getState().loadCoins();
    fake.current.handle('catalog:coins', () => fail('timeout', 'Timed out.'));
    await useCatalogStore.getState().loadCoins(true);
    expect(useCatalogStore.getState().coins).toMatchObject({ status: 'error', error: { code: 'timeout' } });
    expect(useCatalogStore.getState().coins.data).toHaveLength(1);
  });

  it('does not start a second load of the same list while one is in flight', async () => {
    const pending = deferred<ReturnType<typeof ok>>();
    fake.current.handle('catalog:coins', () => pending.promise as never);
    const first = useCatalogStore.getState().loadCoins();
    const second = useCatalogStore.getState().loadCoins(true);
    pending.resolve(ok(coins()));
    await Promise.all([first, second]);
    expect(fake.current.callsTo('catalog:coins')).toHaveLength(1);
  });

  it('caches cities per country and product', async () => {
    await useCatalogStore.getState().loadCities('US', 'mobile');
    await useCatalogStore.getState().loadCities('US', 'all');
    expect(fake.current.callsTo('catalog:citiesOf')).toEqual([
      { countryCodes: ['US'], product: 'mobile' },
      { countryCodes: ['US'] },
    ]);
    expect(Object.keys(useCatalogStore.getState().cities).sort()).toEqual(
      [citiesKey('US', 'all'), citiesKey('US', 'mobile')].sort(),
    );
  });

  it('asks for the cities of several countries in one call, writing every answer in one update', async () => {
    // Main left FR out (the service could not answer for it): that country alone is an error.
    fake.current.handle('catalog:citiesOf', ({ countryCodes }) =>
      ok(Object.fromEntries(countryCodes.filter((code) => code !== 'FR').map((code) => [code, cities()]))),
    );
    const store = useCatalogStore.getState();
    let updates = 0;
    const stop = useCatalogStore.subscribe(() => (updates += 1));
    await store.loadCitiesOf(['US', 'DE', 'FR', 'US'], 'all');
    stop();
    // Marked loading together, answered together.
    expect(updates).toBe(2);
    await store.loadCitiesOf(['US', 'DE'], 'all');
    await store.loadCities('US', 'mobile');
    expect(fake.current.callsTo('catalog:citiesOf')).toEqual([
      { countryCodes: ['US', 'DE', 'FR'] },
      { countryCodes: ['US'], product: 'mobile' },
    ]);
    const lists = useCatalogStore.getState().cities;
    expect(lists[citiesKey('DE', 'all')]).toMatchObject({ status: 'ready', data: cities() });
    expect(lists[citiesKey('US', 'mobile')]?.status).toBe('ready');
    expect(lists[citiesKey('FR', 'all')]).toMatchObject({ status: 'error', error: { code: 'not_found' } });
  });

  it('gives every country of a call the error when the call fails', async () => {
    fake.current.handle('catalog:citiesOf', () => fail('network_error', 'Cannot reach the service.'));
    const store = useCatalogStore.getState();
    await store.loadCitiesOf(['US', 'DE'], 'all');
    const lists = useCatalogStore.getState().cities;
    expect(lists[citiesKey('US', 'all')]?.error?.code).toBe('network_error');
    expect(lists[citiesKey('DE', 'all')]?.error?.code).toBe('network_error');
  });

  it('drops an answer that arrives after a reset (the account changed meanwhile)', async () => {
    const pending = deferred<ReturnType<typeof ok>>();
    fake.current.handle('catalog:countries', () => pending.promise as never);
    const load = useCatalogStore.getState().loadCountries('all');
    useCatalogStore.getState().reset();
    pending.resolve(ok(countries()));
    await load;
    expect(useCatalogStore.getState().countries).toEqual({});
  });
});
