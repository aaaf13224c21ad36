import type { City, Country, ProxyServiceClient } from '../../api';
import type { CatalogNames, DomainHandlers } from '../../../src-shared/contract';
import type { DomainService } from '../domain-service';
import type { ApiCaller } from '../session/api-caller';
import { CatalogCache } from './catalog-cache';

export interface CatalogServiceOptions {
  /** Countries and cities as main last read them, per catalog, across restarts. Default: memory only. */
  cache?: CatalogCache;
  /** Names the active profile's catalog (its base URL and path style); null without an active profile. */
  catalogOf?: () => string | null;
}

const countriesList = (product: string | undefined) => `countries:${product ?? 'all'}`;
const citiesList = (countryCode: string, product: string | undefined) =>
  `cities:${countryCode}|${product ?? 'all'}`;

/**
 * The public catalog, through the active profile's base URL; no key is sent. Countries and cities
 * come from the catalog cache (`CatalogCache`: at once, refreshed behind when a day old).
 */
export class CatalogService implements DomainService<'catalog'> {
  private readonly cache: CatalogCache;

  constructor(
    private readonly api: Pick<ApiCaller, 'active'>,
    private readonly options: CatalogServiceOptions = {},
  ) {
    this.cache = options.cache ?? new CatalogCache({ now: Date.now });
  }

  handlers(): DomainHandlers<'catalog'> {
    return {
      'catalog:countries': (input) => this.countries(input?.product),
      'catalog:states': (input) => this.publicCall((client) => client.listStates(input.countryCode)),
      'catalog:cities': (input) => this.cities(input.countryCode, input.product),
      'catalog:asns': (input) => this.publicCall((client) => client.listAsns(input.countryCode)),
      'catalog:carriers': (input) => this.publicCall((client) => client.listCarriers(input.countryCode)),
      'catalog:coins': () => this.publicCall((client) => client.listCoins()),
      'catalog:names': (input) => this.names(input?.countryCodes ?? []),
    };
  }

  private countries(product: string | undefined): Promise<Country[]> {
    return this.cached(countriesList(product), (client) =>
      client.listCountries(product ? { product } : {}),
    );
  }

  private cities(countryCode: string, product: string | undefined): Promise<City[]> {
    return this.cached(citiesList(countryCode, product), (client) =>
      client.listCities(countryCode, product ? { product } : {}),
    );
  }

  private async names(countryCodes: readonly string[]): Promise<CatalogNames> {
    const catalog = this.options.catalogOf?.() ?? null;
    const [countries] = await Promise.all([
      this.countries(undefined),
      // A country whose cities cannot be read is named without them (its ids read as words).
      ...[...new Set(countryCodes)].map((code) => this.cities(code, undefined).catch(() => [])),
    ]);
    const cities: CatalogNames['cities'] = {};
    if (catalog !== null) {
      for (const code of new Set([...countryCodes, ...countries.map((country) => country.code)])) {
        const list = this.cache.peek<City[]>(catalog, citiesList(code, undefined));
        if (list) cities[code] = Object.fromEntries(list.map((city) => [city.id, city.name]));
      }
    }
    return {
      countries: Object.fromEntries(countries.map((country) => [country.code, country.name])),
      cities,
    };
  }

  /** A list through the cache of the active profile's catalog (straight from the service without one). */
  private cached<T>(list: string, run: (client: ProxyServiceClient) => Promise<T>): Promise<T> {
    const catalog = this.options.catalogOf?.() ?? null;
    if (catalog === null) return this.publicCall(run);
    return this.cache.get(catalog, list, () => this.publicCall(run));
  }

  private async publicCall<T>(run: (client: ProxyServiceClient) => Promise<T>): Promise<T> {
    return (await this.api.active('public', run)).value;
  }
}
