import type { RouteContext, RouteDefinition, RouteResult } from '../http/router';
import { QueryReader } from '../http/input-reader';
import { SandboxError } from '../http/sandbox-error';
import type { SandboxModule, SandboxWorld } from '../sandbox-world';
import {
  asnsFor,
  carriersFor,
  citiesFor,
  countryEntry,
  findCountry,
  listCountries,
  statesFor,
} from './catalog-queries';
import { type CountryData, type CountryEntry, PRODUCT_IDS, type ProductId } from './catalog-types';

const ok = (data: unknown): RouteResult => ({ status: 200, body: { data } });

function readProduct(ctx: RouteContext): ProductId | undefined {
  const query = new QueryReader(ctx.query);
  const product = query.oneOf('product', PRODUCT_IDS);
  query.throwIfAny();
  return product;
}

function countryOf(ctx: RouteContext): CountryData {
  const code = ctx.params.countryCode ?? '';
  const country = findCountry(code);
  if (country) return country;
  // Lower case is refused like any unknown code (the spec says upper case), with a hint.
  const hint = findCountry(code.toUpperCase())
    ? `; country codes are upper case (${code.toUpperCase()})`
    : '; use an ISO 3166-1 alpha-2 code from /v1/catalog/countries';
  throw new SandboxError(404, 'not_found', `Country ${code} not found${hint}`);
}

/** The public catalog: countries, states, cities, ASNs and carriers. The data never changes. */
export function createCatalogModule(_world: SandboxWorld): SandboxModule {
  const base = '/v1/catalog/countries';
  // The country list is the costliest answer (every count of every country) and never changes.
  const countryLists = new Map<ProductId | 'all', CountryEntry[]>();
  const countries = (product: ProductId | undefined): CountryEntry[] => {
    const key = product ?? 'all';
    let entries = countryLists.get(key);
    if (!entries) {
      entries = listCountries(product).map(countryEntry);
      countryLists.set(key, entries);
    }
    return entries;
  };
  const routes: RouteDefinition[] = [
    {
      method: 'GET',
      path: base,
      auth: 'public',
      handler: (ctx) => ok(countries(readProduct(ctx))),
    },
    {
      method: 'GET',
      path: `${base}/:countryCode/states`,
      auth: 'public',
      handler: (ctx) => ok(statesFor(countryOf(ctx))),
    },
    {
      method: 'GET',
      path: `${base}/:countryCode/cities`,
      auth: 'public',
      handler: (ctx) => {
        // An unknown country answers 404 even when `product` is also invalid.
        const country = countryOf(ctx);
        return ok(citiesFor(country, readProduct(ctx)));
      },
    },
    {
      method: 'GET',
      path: `${base}/:countryCode/asns`,
      auth: 'public',
      handler: (ctx) => ok(asnsFor(countryOf(ctx))),
    },
    {
      method: 'GET',
      path: `${base}/:countryCode/carriers`,
      auth: 'public',
      handler: (ctx) => ok(carriersFor(countryOf(ctx))),
    },
  ];
  return { name: 'catalog', routes };
}
