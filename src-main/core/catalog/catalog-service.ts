import { systemClock } from '../runtime/clock';
import type { ProxyServiceClient } from '../../api';
import type { Asn, CatalogProduct, City, Coin, Country, State, Carrier } from '../../../src-shared/api-types';
import type { DomainHandlers } from '../../../src-shared/contract';
import type { DomainService } from '../domain-service';
import type { ApiCaller } from '../session/api-caller';
import { mapBounded } from '../../lib/map-bounded';
import { CatalogCache } from './catalog-cache';

/** Countries whose cities `citiesOf` reads from the service at the same time (on a cold cache). */
const CITY_READS_AT_ONCE = 6;

export interface CatalogServiceOptions {
  /** Countries and cities as main last read them, per catalog, across restarts. Default: memory only. */
  cache?: CatalogCache;
  /** Names the active profile's catalog (its base URL and path style); null without an active profile. */
  catalogOf?: () => string | null;
}

/**
 * The public catalog, through the active profile's base URL; no key is sent. Countries and cities
 * (what every list names its places with) come from the catalog cache: at once, even right after a
 * start (`catalog-cache.json`), read again behind the cached ones once they are a day old.
 */
export class CatalogService implements DomainService<'catalog'> {
  private readonly cache: CatalogCache;

  constructor(
    private readonly api: Pick<ApiCaller, 'active'>,
    private readonly options: CatalogServiceOptions = {},
  ) {
    this.cache = options.cache ?? new CatalogCache({ clock: systemClock });
  }

  handlers(): DomainHandlers<'catalog'> {
    return {
      'catalog:countries': (input) => this.countries(input?.product),
      'catalog:states': ({ countryCode }) => this.states(countryCode),
      'catalog:cities': ({ countryCode, product }) => this.cities(countryCode, product),
      'catalog:citiesOf': ({ countryCodes, product }) => this.citiesOf(countryCodes, product),
      'catalog:asns': ({ countryCode }) => this.asns(countryCode),
      'catalog:carriers': ({ countryCode }) => this.carriers(countryCode),
      'catalog:coins': () => this.coins(),
    };
  }

  countries(product?: CatalogProduct): Promise<Country[]> {
    return this.cached(`countries:${product ?? 'all'}`, (client) =>
      client.listCountries(product ? { product } : {}),
    );
  }

  states(countryCode: string): Promise<State[]> {
    return this.publicCall((client) => client.listStates(countryCode));
  }

  cities(countryCode: string, product?: CatalogProduct): Promise<City[]> {
    return this.cached(`cities:${countryCode}|${product ?? 'all'}`, (client) =>
      client.listCities(countryCode, product ? { product } : {}),
    );
  }

  /**
   * Several countries' cities in one answer: a list names the places of all its rows at once (one
   * call from the window instead of one per country). Read from the cache; what it lacks is read a
   * few countries at a time. A country whose read failed is left out (its places show as ids) unless
   * none could be read, which is the error.
   */
  async citiesOf(countryCodes: readonly string[], product?: CatalogProduct): Promise<Record<string, City[]>> {
    const reads = await mapBounded([...new Set(countryCodes)], CITY_READS_AT_ONCE, async (code) => {
      try {
        return { code, ok: true as const, cities: await this.cities(code, product) };
      } catch (error) {
        return { code, ok: false as const, error };
      }
    });
    const answer: Record<string, City[]> = {};
    for (const read of reads) if (read.ok) answer[read.code] = read.cities;
    const failure = reads.find((read) => !read.ok);
    if (failure && Object.keys(answer).length === 0) throw failure.error;
    return answer;
  }

  asns(countryCode: string): Promise<Asn[]> {
    return this.publicCall((client) => client.listAsns(countryCode));
  }

  carriers(countryCode: string): Promise<Carrier[]> {
    return this.publicCall((client) => client.listCarriers(countryCode));
  }

  coins(): Promise<Coin[]> {
    return this.publicCall((client) => client.listCoins());
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
