import { z } from 'zod';
import type { Asn, Carrier, City, Coin, Country, State } from '../api-types';
import { call, type DomainCalls } from './define';
import { catalogProduct, countryCode, noInput } from './shared-inputs';

/** Names of places for lists: country code -> name, and per country, city id -> name. */
export interface CatalogNames {
  countries: Record<string, string>;
  cities: Record<string, Record<string, string>>;
}

export const CATALOG_NAMES_COUNTRIES_MAX = 300;

/** The public catalog: no key needed. Main keeps countries and cities across restarts (a day, then refreshed). */
export const catalogCalls = {
  'catalog:countries': call<Country[]>('read')(
    z.strictObject({ product: catalogProduct.optional() }).optional(),
  ),
  'catalog:states': call<State[]>('read')(z.strictObject({ countryCode })),
  'catalog:cities': call<City[]>('read')(z.strictObject({ countryCode, product: catalogProduct.optional() })),
  'catalog:asns': call<Asn[]>('read')(z.strictObject({ countryCode })),
  'catalog:carriers': call<Carrier[]>('read')(z.strictObject({ countryCode })),
  'catalog:coins': call<Coin[]>('read')(noInput),
  /**
   * The names lists show: every country, and the cities of every country main has cached, plus those
   * of `countryCodes` (read once when missing). One call instead of one per country.
   */
  'catalog:names': call<CatalogNames>('read')(
    z.strictObject({ countryCodes: z.array(countryCode).max(CATALOG_NAMES_COUNTRIES_MAX).optional() }).optional(),
  ),
} as const satisfies DomainCalls<'catalog'>;
