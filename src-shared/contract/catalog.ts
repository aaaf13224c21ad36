import { z } from 'zod';
import type { Asn, Carrier, City, Coin, Country, State } from '../api-types';
import { call, type DomainCalls } from './define';
import { catalogProduct, countryCode, noInput } from './shared-inputs';

/** The public catalog: no key needed. */
export const catalogCalls = {
  'catalog:countries': call<Country[]>('read')(
    z.strictObject({ product: catalogProduct.optional() }).optional(),
  ),
  'catalog:states': call<State[]>('read')(z.strictObject({ countryCode })),
  'catalog:cities': call<City[]>('read')(z.strictObject({ countryCode, product: catalogProduct.optional() })),
  'catalog:asns': call<Asn[]>('read')(z.strictObject({ countryCode })),
  'catalog:carriers': call<Carrier[]>('read')(z.strictObject({ countryCode })),
  'catalog:coins': call<Coin[]>('read')(noInput),
} as const satisfies DomainCalls<'catalog'>;
