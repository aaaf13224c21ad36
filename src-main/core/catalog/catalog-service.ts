import type { ProxyServiceClient } from '../../api';
import type { DomainHandlers } from '../../../src-shared/contract';
import type { DomainService } from '../domain-service';
import type { ApiCaller } from '../session/api-caller';

/** The public catalog, through the active profile's base URL; no key is sent. */
export class CatalogService implements DomainService<'catalog'> {
  constructor(private readonly api: Pick<ApiCaller, 'active'>) {}

  handlers(): DomainHandlers<'catalog'> {
    return {
      'catalog:countries': (input) =>
        this.publicCall((client) => client.listCountries(input?.product ? { product: input.product } : {})),
      'catalog:states': (input) => this.publicCall((client) => client.listStates(input.countryCode)),
      'catalog:cities': (input) =>
        this.publicCall((client) =>
          client.listCities(input.countryCode, input.product ? { product: input.product } : {}),
        ),
      'catalog:asns': (input) => this.publicCall((client) => client.listAsns(input.countryCode)),
      'catalog:carriers': (input) => this.publicCall((client) => client.listCarriers(input.countryCode)),
      'catalog:coins': () => this.publicCall((client) => client.listCoins()),
    };
  }

  private async publicCall<T>(run: (client: ProxyServiceClient) => Promise<T>): Promise<T> {
    return (await this.api.active('public', run)).value;
  }
}
