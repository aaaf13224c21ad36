import { z } from 'zod';
import type { Asn, Carrier, City, Coin, Country, State } from '../api-types';
import { call, type DomainCalls } from './define';
import { catalogProduct, countryCode, noInput } from './shared-inputs';

/** Every two-letter code once: a caller that names each country once is never refused. */
const CITIES_OF_MAX = 26 * 26;

/** The public catalog: no key needed. */
export const catalogCalls = {
  'catalog:countries': call<Country[]>('read')(
    z.strictObject({ product: catalogProduct.optional() }).optional(),
  ),
  'catalog:states': call<State[]>('read')(z.strictObject({ countryCode })),
  'catalog:cities': call<City[]>('read')(z.strictObject({ countryCode, product: catalogProduct.optional() })),
  /**
   * The cities of several countries in one call (a list's place names): a map from country code to
   * its cities. A country the service could not answer for is left out, unless none could be read.
   */
  'catalog:citiesOf': call<Record<string, City[]>>('read')(
    z.strictObject({
      countryCodes: z.array(countryCode).min(1, 'Name at least one country').max(CITIES_OF_MAX),
      product: catalogProduct.optional(),
    }),
  ),
  'catalog:asns': call<Asn[]>('read')(z.strictObject({ countryCode })),
  'catalog:carriers': call<Carrier[]>('read')(z.strictObject({ countryCode })),
  'catalog:coins': call<Coin[]>('read')(noInput),
} as const satisfies DomainCalls<'catalog'>;
