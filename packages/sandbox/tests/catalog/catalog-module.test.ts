import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CATALOG_COUNTRIES } from '../../src/catalog/catalog-data';
import type { CountryData, ProductId } from '../../src/catalog/catalog-types';
import { TestSandbox } from '../../src/testing';

interface Country {
  code: string;
  name: string;
  region: string;
  products: string[];
  cities: number;
  asns: number;
  carriers: number;
}
interface State {
  id: string;
  code: string;
  name: string;
  cities: number;
}
interface City {
  id: string;
  name: string;
  state: string | null;
}
interface Asn {
  asn: number;
  name: string;
}
interface Carrier {
  id: string;
  name: string;
  networkTypes: string[];
  available: boolean;
  cities: string[];
}
interface ErrorBody {
  error: { code: string; message: string; fields?: { field: string; code: string; message: string }[] };
}

let sandbox: TestSandbox;

beforeAll(async () => {
  sandbox = await TestSandbox.start();
});

afterAll(async () => {
  await sandbox.close();
});

/** The catalog is public: every request here goes without a key. */
async function get<T>(path: string): Promise<{ status: number; json: T }> {
  const answer = await sandbox.request<T>('GET', path, { key: null });
  return { status: answer.status, json: answer.json };
}

async function list<T>(path: string): Promise<T[]> {
  const answer = await get<{ data: T[] }>(path);
  expect(answer.status, path).toBe(200);
  expect(Array.isArray(answer.json.data)).toBe(true);
  return answer.json.data;
}

const data = (code: string): CountryData => {
  const country = CATALOG_COUNTRIES.find((c) => c.code === code);
  if (!country) throw new Error(`no ${code} in the data`);
  return country;
};

const collator = new Intl.Collator('en', { sensitivity: 'base' });
const namesSorted = (items: { name: string }[]) =>
  items
    .map((i) => i.name)
    .every((name, i, all) => i === 0 || collator.compare(all[i - 1] as string, name) <= 0);

const ids = (items: { id: string }[]) => items.map((i) => i.id);

function expectValidationErrorOnProduct(answer: { status: number; json: unknown }): void {
  expect(answer.status).toBe(422);
  const body = answer.json as ErrorBody;
  expect(body.error.code).toBe('validation_error');
  expect(body.error.fields).toEqual([
    { field: 'product', code: 'invalid_value', message: expect.any(String) },
  ]);
}

function expectNotFound(answer: { status: number; json: unknown }): void {
  expect(answer.status).toBe(404);
  const body = answer.json as ErrorBody;
  expect(body.error.code).toBe('not_found');
  expect(typeof body.error.message).toBe('string');
}

describe('GET /v1/catalog/countries', () => {
  it('lists every country with exactly the spec fields, sorted by name', async () => {
    const countries = await list<Country>('/v1/catalog/countries');
    expect(countries.length).toBe(CATALOG_COUNTRIES.length);
    expect(countries.length).toBeGreaterThanOrEqual(40);
    for (const country of countries) {
      expect(Object.keys(country).sort()).toEqual(
        ['asns', 'carriers', 'cities', 'code', 'name', 'products', 'region'].sort(),
      );
      expect(country.code).toMatch(/^[A-Z]{2}$/);
      expect(Number.isInteger(country.cities)).toBe(true);
      expect(Number.isInteger(country.asns)).toBe(true);
      expect(Number.isInteger(country.carriers)).toBe(true);
    }
    expect(namesSorted(countries)).toBe(true);
    expect(countries.map((c) => c.code)).toContain('US');
  });

  it('reports the United States with its products and counts', async () => {
    const countries = await list<Country>('/v1/catalog/countries');
    const us = countries.find((c) => c.code === 'US');
    const source = data('US');
    expect(us).toEqual({
      code: 'US',
      name: 'United States',
      region: 'North America',
      products: ['residential', 'mobile', 'mobile-gb'],
      cities: source.cities.length,
      asns: source.asns.length,
      carriers: source.carriers.length,
    });
  });

  it.each<ProductId>(['residential', 'mobile', 'mobile-gb'])(
    'with product=%s lists exactly the countries that offer it',
    async (product) => {
      const countries = await list<Country>(`/v1/catalog/countries?product=${product}`);
      const expected = CATALOG_COUNTRIES.filter((c) => c.products.includes(product)).map((c) => c.code);
      expect(countries.map((c) => c.code).sort()).toEqual([...expected].sort());
      expect(countries.every((c) => c.products.includes(product))).toBe(true);
      // The filter matters: some countries do not offer the product.
      expect(countries.length).toBeLessThan(CATALOG_COUNTRIES.length);
      expect(namesSorted(countries)).toBe(true);
    },
  );

  it('keeps the same country objects (counts unfiltered) whatever the product filter', async () => {
    const all = await list<Country>('/v1/catalog/countries');
    const mobile = await list<Country>('/v1/catalog/countries?product=mobile');
    for (const country of mobile) expect(country).toEqual(all.find((c) => c.code === country.code));
  });

  it.each(['unknown', 'Residential', 'MOBILE', ''])(
    'refuses product=%j with 422 on the field product',
    async (value) => {
      expectValidationErrorOnProduct(await get(`/v1/catalog/countries?product=${encodeURIComponent(value)}`));
    },
  );
});

describe('GET /v1/catalog/countries/{countryCode}/states', () => {
  it('lists the 50 US states and DC, sorted by name, with their city counts', async () => {
    const states = await list<State>('/v1/catalog/countries/US/states');
    expect(states).toHaveLength(51);
    expect(namesSorted(states)).toBe(true);
    for (const state of states) expect(Object.keys(state).sort()).toEqual(['cities', 'code', 'id', 'name']);
    expect(states.find((s) => s.id === 'district_of_columbia')).toMatchObject({ code: 'DC' });
    const cities = await list<City>('/v1/catalog/countries/US/cities');
    for (const state of states) {
      expect(state.cities, state.id).toBe(cities.filter((c) => c.state === state.id).length);
    }
    expect(states.find((s) => s.id === 'texas')).toEqual({
      id: 'texas',
      code: 'TX',
      name: 'Texas',
      cities: data('US').cities.filter((c) => c.state === 'texas').length,
    });
    expect(states.find((s) => s.id === 'texas')?.cities).toBeGreaterThan(1);
    expect(states.find((s) => s.id === 'wyoming')?.cities).toBe(0);
  });

  it.each([
    ['CA', 13],
    ['AU', 8],
    ['MX', 32],
    ['BR', 27],
    ['IN', 36],
  ])('lists the states or provinces of %s (%i)', async (code, count) => {
    const states = await list<State>(`/v1/catalog/countries/${code}/states`);
    expect(states).toHaveLength(count);
    expect(namesSorted(states)).toBe(true);
  });

  it('is an empty list for a country without state targeting', async () => {
    expect(data('DE').states).toHaveLength(0);
    expect(await list<State>('/v1/catalog/countries/DE/states')).toEqual([]);
  });

  it.each(['XX', 'us', 'USA', 'U'])('answers 404 not_found for the country code %j', async (code) => {
    expectNotFound(await get(`/v1/catalog/countries/${code}/states`));
  });

  it('points a lower-case code to its upper-case form', async () => {
    const answer = await get<ErrorBody>('/v1/catalog/countries/us/states');
    expect(answer.json.error.message).toContain('US');
  });
});

describe('GET /v1/catalog/countries/{countryCode}/cities', () => {
  it('lists every city of the country by name, each with its state id', async () => {
    const cities = await list<City>('/v1/catalog/countries/US/cities');
    expect(cities).toHaveLength(data('US').cities.length);
    expect(namesSorted(cities)).toBe(true);
    for (const city of cities) expect(Object.keys(city).sort()).toEqual(['id', 'name', 'state']);
    expect(cities.find((c) => c.id === 'los_angeles')).toEqual({
      id: 'los_angeles',
      name: 'Los Angeles',
      state: 'california',
    });
    const stateIds = new Set(ids(await list<State>('/v1/catalog/countries/US/states')));
    expect(cities.every((c) => c.state !== null && stateIds.has(c.state))).toBe(true);
  });

  it('gives null states in a country without state targeting', async () => {
    const cities = await list<City>('/v1/catalog/countries/DE/cities');
    expect(ids(cities)).toEqual(expect.arrayContaining(['berlin', 'munich']));
    expect(cities.every((c) => c.state === null)).toBe(true);
  });

  it.each<ProductId>(['mobile', 'mobile-gb'])(
    'with product=%s lists only the cities where a carrier has modems',
    async (product) => {
      const all = await list<City>('/v1/catalog/countries/US/cities');
      const mobile = await list<City>(`/v1/catalog/countries/US/cities?product=${product}`);
      const carriers = await list<Carrier>('/v1/catalog/countries/US/carriers');
      const withModems = new Set(carriers.flatMap((c) => c.cities));
      expect(ids(mobile).sort()).toEqual([...withModems].sort());
      expect(mobile.length).toBeLessThan(all.length);
      expect(ids(mobile)).not.toContain('buffalo');
      expect(ids(mobile)).toContain('houston');
      expect(namesSorted(mobile)).toBe(true);
    },
  );

  it('with product=residential lists every city', async () => {
    const all = await list<City>('/v1/catalog/countries/US/cities');
    expect(await list<City>('/v1/catalog/countries/US/cities?product=residential')).toEqual(all);
  });

  it('is empty for a product the country does not offer', async () => {
    expect(data('VN').products).not.toContain('residential');
    expect(data('VN').cities.length).toBeGreaterThan(0);
    expect(await list<City>('/v1/catalog/countries/VN/cities?product=residential')).toEqual([]);
    expect(data('CL').products).not.toContain('mobile-gb');
    expect(await list<City>('/v1/catalog/countries/CL/cities?product=mobile-gb')).toEqual([]);
    expect(await list<City>('/v1/catalog/countries/CL/cities?product=mobile')).toEqual([]);
  });

  it('refuses an invalid product with 422 on the field product', async () => {
    expectValidationErrorOnProduct(await get('/v1/catalog/countries/US/cities?product=4g'));
  });

  it('answers 404 for an unknown country, even with an invalid product', async () => {
    expectNotFound(await get('/v1/catalog/countries/ZZ/cities'));
    expectNotFound(await get('/v1/catalog/countries/de/cities'));
    expectNotFound(await get('/v1/catalog/countries/ZZ/cities?product=bogus'));
  });
});

describe('GET /v1/catalog/countries/{countryCode}/asns', () => {
  it('lists the ASNs of the country by number', async () => {
    const asns = await list<Asn>('/v1/catalog/countries/US/asns');
    expect(asns).toHaveLength(data('US').asns.length);
    for (const entry of asns) {
      expect(Object.keys(entry).sort()).toEqual(['asn', 'name']);
      expect(Number.isInteger(entry.asn)).toBe(true);
    }
    const numbers = asns.map((a) => a.asn);
    expect(numbers).toEqual([...numbers].sort((a, b) => a - b));
    expect(asns).toContainEqual({ asn: 7922, name: 'Comcast Cable Communications' });
  });

  it('is empty for a country without the residential product', async () => {
    const vietnam = data('VN');
    expect(vietnam.products).not.toContain('residential');
    expect(vietnam.asns.length).toBeGreaterThan(0);
    expect(await list<Asn>('/v1/catalog/countries/VN/asns')).toEqual([]);
    const countries = await list<Country>('/v1/catalog/countries');
    expect(countries.find((c) => c.code === 'VN')?.asns).toBe(0);
  });

  it('answers 404 for an unknown country', async () => {
    expectNotFound(await get('/v1/catalog/countries/QQ/asns'));
    expectNotFound(await get('/v1/catalog/countries/gb/asns'));
  });
});

describe('GET /v1/catalog/countries/{countryCode}/carriers', () => {
  it('lists every carrier by name with network types, availability and modem cities', async () => {
    const carriers = await list<Carrier>('/v1/catalog/countries/US/carriers');
    expect(namesSorted(carriers)).toBe(true);
    for (const carrier of carriers) {
      expect(Object.keys(carrier).sort()).toEqual(['available', 'cities', 'id', 'name', 'networkTypes']);
      expect(carrier.networkTypes.length).toBeGreaterThan(0);
    }
    const byId = new Map(carriers.map((c) => [c.id, c]));
    expect(byId.get('tmobile_us')).toMatchObject({ available: true, networkTypes: ['4G', '5G'] });
    expect(byId.get('tmobile_us')?.cities).toEqual(expect.arrayContaining(['los_angeles', 'new_york']));
    expect(byId.get('verizon')).toMatchObject({ available: true });
    expect(byId.get('verizon')?.cities).toEqual(expect.arrayContaining(['new_york', 'houston']));
    expect(byId.get('att')).toMatchObject({ available: false });
    expect(byId.get('att')?.cities).toContain('houston');
    const cityIds = new Set(ids(await list<City>('/v1/catalog/countries/US/cities')));
    expect(carriers.every((c) => c.cities.every((id) => cityIds.has(id)))).toBe(true);
  });

  it("lists each carrier's cities in the order of the city list", async () => {
    const cities = ids(await list<City>('/v1/catalog/countries/US/cities'));
    for (const carrier of await list<Carrier>('/v1/catalog/countries/US/carriers')) {
      expect(carrier.cities).toEqual(cities.filter((id) => carrier.cities.includes(id)));
    }
  });

  it('keeps the German carriers other parts of the sandbox rely on', async () => {
    const carriers = await list<Carrier>('/v1/catalog/countries/DE/carriers');
    const telekom = carriers.find((c) => c.id === 'telekom_de');
    const o2 = carriers.find((c) => c.id === 'o2_de');
    expect(telekom).toMatchObject({ available: true });
    expect(telekom?.cities).toEqual(expect.arrayContaining(['berlin', 'munich']));
    expect(o2).toMatchObject({ available: false });
    expect(o2?.cities).toContain('berlin');
  });

  it('lists the carriers of a country without mobile products as unavailable, without modems', async () => {
    expect(data('CL').products).toEqual(['residential']);
    const carriers = await list<Carrier>('/v1/catalog/countries/CL/carriers');
    expect(carriers.length).toBeGreaterThan(0);
    expect(carriers.every((c) => !c.available && c.cities.length === 0)).toBe(true);
  });

  it('answers 404 for an unknown country', async () => {
    expectNotFound(await get('/v1/catalog/countries/AA/carriers'));
    expectNotFound(await get('/v1/catalog/countries/fr/carriers'));
  });
});
