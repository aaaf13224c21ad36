import { z } from 'zod';
import type { Asn, Carrier, City, Coin, Country, State } from '../api-types';
import { call, type DomainCalls } from './define';
import { catalogProduct, countryCode, noInput } from './shared-inputs';

/** The public catalog: no key needed. */
export const catalogCalls = {
  'catalog:countries': call<Country[]>()(z.strictObject({ product: catalogProduct.optional() }).optional()),
  'catalog:states': call<State[]>()(z.strictObject({ countryCode })),
  'catalog:cities': call<City[]>()(z.strictObject({ countryCode, product: catalogProduct.optional() })),
  'catalog:asns': call<Asn[]>()(z.strictObject({ countryCode })),
  'catalog:carriers': call<Carrier[]>()(z.strictObject({ countryCode })),
  'catalog:coins': call<Coin[]>()(noInput),
} as const satisfies DomainCalls<'catalog'>;
