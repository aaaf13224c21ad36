import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CATALOG_COUNTRIES, readCountries } from '../../src/catalog/catalog-data';
import { PRODUCT_IDS, type CountryData } from '../../src/catalog/catalog-types';
import { TestSandbox } from '../../src/testing';

const SNAKE_CASE = /^[a-z0-9]+(?:_[a-z0-9]+)*$/;
const REGIONS = ['Africa', 'Asia', 'Europe', 'Middle East', 'North America', 'Oceania', 'South America'];
const regionNames = new Intl.DisplayNames(['en'], { type: 'region' });

const country = (code: string): CountryData => {
  const found = CATALOG_COUNTRIES.find((c) => c.code === code);
  if (!found) throw new Error(`no ${code} in the data`);
  return found;
};

const duplicates = (values: readonly (string | number)[]) =>
  values.filter((value, index) => values.indexOf(value) !== index);

describe('catalog data', () => {
  it('is read from the data files with the products checked: an unknown one is refused at start-up', () => {
    const [gb] = CATALOG_COUNTRIES.filter((c) => c.code === 'GB');
    expect(readCountries('test.json', [{ ...gb!, products: ['mobile', 'mobile-gb'] }])[0]?.products).toEqual([
      'mobile',
      'mobile-gb',
    ]);
    expect(() => readCountries('test.json', [{ ...gb!, products: ['residential', 'mobile-5g'] }])).toThrow(
      'catalog/data/test.json: GB lists an unknown product (residential, mobile-5g)',
    );
  });

  it('has at least 40 countries with valid, unique ISO 3166-1 alpha-2 codes and unique names', () => {
    expect(CATALOG_COUNTRIES.length).toBeGreaterThanOrEqual(40);
    for (const { code } of CATALOG_COUNTRIES) {
      expect(code).toMatch(/^[A-Z]{2}$/);
      // ICU knows every assigned code; an unassigned one comes back unchanged.
      expect(regionNames.of(code), code).not.toBe(code);
    }
    expect(duplicates(CATALOG_COUNTRIES.map((c) => c.code))).toEqual([]);
    expect(duplicates(CATALOG_COUNTRIES.map((c) => c.name))).toEqual([]);
  });

  it('gives every country a known region and products in the canonical order', () => {
    for (const c of CATALOG_COUNTRIES) {
      expect(REGIONS, c.code).toContain(c.region);
      expect(c.products.length, c.code).toBeGreaterThan(0);
      expect(c.products, c.code).toEqual(PRODUCT_IDS.filter((p) => c.products.includes(p)));
    }
  });

  it('varies products so that every product filter keeps some countries and drops others', () => {
    for (const product of PRODUCT_IDS) {
      const offering = CATALOG_COUNTRIES.filter((c) => c.products.includes(product)).length;
      expect(offering, product).toBeGreaterThan(0);
      expect(offering, product).toBeLessThan(CATALOG_COUNTRIES.length);
    }
  });

  it('has the 50 US states plus DC with unique USPS codes', () => {
    const states = country('US').states;
    expect(states).toHaveLength(51);
    expect(states.every((s) => /^[A-Z]{2}$/.test(s.code))).toBe(true);
    expect(duplicates(states.map((s) => s.code))).toEqual([]);
    expect(states.map((s) => s.id)).toEqual(
      expect.arrayContaining(['california', 'new_york', 'texas', 'district_of_columbia']),
    );
    expect(states.find((s) => s.id === 'new_york')).toEqual({ id: 'new_york', code: 'NY', name: 'New York' });
  });

  it('targets states in a few more countries and leaves the others without', () => {
    const withStates = CATALOG_COUNTRIES.filter((c) => c.states.length > 0).map((c) => c.code);
    expect(withStates.sort()).toEqual(['AU', 'BR', 'CA', 'IN', 'MX', 'US']);
  });

  it('gives states snake-case ids and codes that are unique within their country', () => {
    for (const c of CATALOG_COUNTRIES) {
      for (const s of c.states) {
        expect(s.id, `${c.code} ${s.id}`).toMatch(SNAKE_CASE);
        expect(s.code, `${c.code} ${s.id}`).toMatch(/^[A-Z]{2,3}$/);
        expect(s.name.length).toBeGreaterThan(0);
      }
      expect(duplicates(c.states.map((s) => s.id)), c.code).toEqual([]);
      expect(duplicates(c.states.map((s) => s.code)), c.code).toEqual([]);
    }
  });

  it('gives every country several cities with unique snake-case ids and an existing state (or null)', () => {
    for (const c of CATALOG_COUNTRIES) {
      expect(c.cities.length, c.code).toBeGreaterThan(0);
      expect(duplicates(c.cities.map((city) => city.id)), c.code).toEqual([]);
      const stateIds = new Set(c.states.map((s) => s.id));
      for (const city of c.cities) {
        expect(city.id, `${c.code} ${city.id}`).toMatch(SNAKE_CASE);
        if (c.states.length === 0) expect(city.state, `${c.code} ${city.id}`).toBeNull();
        else expect(stateIds.has(city.state ?? ''), `${c.code} ${city.id} in ${city.state}`).toBe(true);
      }
    }
    expect(CATALOG_COUNTRIES.filter((c) => c.cities.length >= 3).length).toBeGreaterThanOrEqual(40);
  });

  it('lists ASNs for every country, each a positive integer used once', () => {
    for (const c of CATALOG_COUNTRIES) {
      expect(c.asns.length, c.code).toBeGreaterThan(0);
      for (const a of c.asns) {
        expect(Number.isInteger(a.asn) && a.asn > 0, `${c.code} ${a.asn}`).toBe(true);
        expect(a.name.length).toBeGreaterThan(0);
      }
    }
    expect(duplicates(CATALOG_COUNTRIES.flatMap((c) => c.asns.map((a) => a.asn)))).toEqual([]);
  });

  it('gives carriers globally unique snake-case ids, 4G/5G network types and existing cities', () => {
    for (const c of CATALOG_COUNTRIES) {
      const cityIds = new Set(c.cities.map((city) => city.id));
      for (const carrier of c.carriers) {
        const label = `${c.code} ${carrier.id}`;
        expect(carrier.id, label).toMatch(SNAKE_CASE);
        expect(carrier.networkTypes.length, label).toBeGreaterThan(0);
        expect(
          carrier.networkTypes.every((t) => t === '4G' || t === '5G'),
          label,
        ).toBe(true);
        expect(duplicates(carrier.cities), label).toEqual([]);
        for (const cityId of carrier.cities) expect(cityIds.has(cityId), `${label} in ${cityId}`).toBe(true);
        if (carrier.available) expect(carrier.cities.length, label).toBeGreaterThan(0);
      }
    }
    expect(duplicates(CATALOG_COUNTRIES.flatMap((c) => c.carriers.map((carrier) => carrier.id)))).toEqual([]);
  });

  it('has at least one unavailable carrier in every country', () => {
    for (const c of CATALOG_COUNTRIES) {
      expect(
        c.carriers.some((carrier) => !carrier.available),
        c.code,
      ).toBe(true);
    }
  });

  it('offers mobile exactly where a carrier is available, and mobile-gb only with mobile', () => {
    for (const c of CATALOG_COUNTRIES) {
      const anyAvailable = c.carriers.some((carrier) => carrier.available);
      expect(c.products.includes('mobile'), c.code).toBe(anyAvailable);
      if (c.products.includes('mobile-gb')) expect(c.products, c.code).toContain('mobile');
      if (!c.products.includes('mobile')) {
        expect(
          c.carriers.every((carrier) => carrier.cities.length === 0),
          c.code,
        ).toBe(true);
      }
    }
  });

  it('keeps the ids and availability that seeds and tests elsewhere rely on', () => {
    const us = country('US');
    const de = country('DE');
    const carrier = (c: CountryData, id: string) => c.carriers.find((x) => x.id === id);
    expect(carrier(us, 'tmobile_us')).toMatchObject({ available: true });
    expect(carrier(us, 'tmobile_us')?.cities).toEqual(expect.arrayContaining(['los_angeles', 'new_york']));
    expect(carrier(us, 'verizon')).toMatchObject({ available: true });
    expect(carrier(us, 'verizon')?.cities).toEqual(expect.arrayContaining(['new_york', 'houston']));
    expect(carrier(us, 'att')).toMatchObject({ available: false });
    expect(carrier(us, 'att')?.cities).toContain('houston');
    expect(us.cities.map((c) => c.id)).toEqual(
      expect.arrayContaining(['los_angeles', 'new_york', 'houston']),
    );
    expect(carrier(de, 'telekom_de')).toMatchObject({ available: true });
    expect(carrier(de, 'telekom_de')?.cities).toEqual(expect.arrayContaining(['berlin', 'munich']));
    expect(carrier(de, 'o2_de')).toMatchObject({ available: false });
    expect(carrier(de, 'o2_de')?.cities).toContain('berlin');
  });
});

describe('catalog data over HTTP', () => {
  let sandbox: TestSandbox;

  beforeAll(async () => {
    sandbox = await TestSandbox.start();
  });

  afterAll(async () => {
    await sandbox.close();
  });

  async function list<T>(path: string, key: string | null = null): Promise<T[]> {
    const answer = await sandbox.request<{ data: T[] }>('GET', path, { key });
    expect(answer.status, path).toBe(200);
    return answer.json.data;
  }

  it('reports counts that equal the data and the lists of every country', async () => {
    const countries = await list<{ code: string; cities: number; asns: number; carriers: number }>(
      '/v1/catalog/countries',
    );
    expect(countries).toHaveLength(CATALOG_COUNTRIES.length);
    await Promise.all(
      countries.map(async (entry) => {
        const source = country(entry.code);
        const base = `/v1/catalog/countries/${entry.code}`;
        const [states, cities, asns, carriers] = await Promise.all([
          list<{ id: string; cities: number }>(`${base}/states`),
          list<{ id: string }>(`${base}/cities`),
          list<{ asn: number }>(`${base}/asns`),
          list<{ id: string }>(`${base}/carriers`),
        ]);
        const expectedAsns = source.products.includes('residential') ? source.asns.length : 0;
        expect(entry, entry.code).toMatchObject({
          cities: source.cities.length,
          asns: expectedAsns,
          carriers: source.carriers.length,
        });
        expect(cities.length, entry.code).toBe(entry.cities);
        expect(asns.length, entry.code).toBe(entry.asns);
        expect(carriers.length, entry.code).toBe(entry.carriers);
        expect(states.length, entry.code).toBe(source.states.length);
        for (const state of states) {
          expect(state.cities, `${entry.code} ${state.id}`).toBe(
            source.cities.filter((c) => c.state === state.id).length,
          );
        }
      }),
    );
  });

  it.each([
    '/v1/catalog/countries',
    '/v1/catalog/countries?product=mobile',
    '/v1/catalog/countries/US/states',
    '/v1/catalog/countries/US/cities?product=mobile',
    '/v1/catalog/countries/US/asns',
    '/v1/catalog/countries/US/carriers',
  ])('answers %s without a key, and a wrong or scopeless key changes nothing', async (path) => {
    const anonymous = await sandbox.request('GET', path, { key: null });
    expect(anonymous.status).toBe(200);
    const wrongKey = await sandbox.request('GET', path, { key: 'not-a-real-key' });
    expect(wrongKey.status).toBe(200);
    expect(wrongKey.json).toEqual(anonymous.json);
    const scopeless = await sandbox.request('GET', path, { key: 'readonly-key' });
    expect(scopeless.status).toBe(200);
    expect(scopeless.json).toEqual(anonymous.json);
    const garbled = await sandbox.request('GET', path, {
      key: null,
      headers: { Authorization: 'Basic Zm9vOmJhcg==' },
    });
    expect(garbled.status).toBe(200);
    expect(garbled.json).toEqual(anonymous.json);
  });
});
