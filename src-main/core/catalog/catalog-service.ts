import type { ProxyServiceClient } from '../../api';
import type { Asn, CatalogProduct, City, Coin, Country, State, Carrier } from '../../../src-shared/api-types';
import type { DomainHandlers } from '../../../src-shared/contract';
import type { DomainService } from '../domain-service';
import type { ApiCaller } from '../session/api-caller';

/** The public catalog, through the active profile's base URL; no key is sent. */
export class CatalogService implements DomainService<'catalog'> {
  constructor(private readonly api: Pick<ApiCaller, 'active'>) {}

  handlers(): DomainHandlers<'catalog'> {
    return {
      'catalog:countries': (input) => this.countries(input?.product),
      'catalog:states': ({ countryCode }) => this.states(countryCode),
      'catalog:cities': ({ countryCode, product }) => this.cities(countryCode, product),
      'catalog:asns': ({ countryCode }) => this.asns(countryCode),
      'catalog:carriers': ({ countryCode }) => this.carriers(countryCode),
      'catalog:coins': () => this.coins(),
    };
  }

  countries(product?: CatalogProduct): Promise<Country[]> {
    return this.publicCall((client) => client.listCountries(product ? { product } : {}));
  }

  states(countryCode: string): Promise<State[]> {
    return this.publicCall((client) => client.listStates(countryCode));
  }

  cities(countryCode: string, product?: CatalogProduct): Promise<City[]> {
    return this.publicCall((client) => client.listCities(countryCode, product ? { product } : {}));
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

  private async publicCall<T>(run: (client: ProxyServiceClient) => Promise<T>): Promise<T> {
    return (await this.api.active('public', run)).value;
  }
}
