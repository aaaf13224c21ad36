import type { CountryData } from './catalog-types';
import { AFRICA_MIDDLE_EAST } from './data/africa-middle-east';
import { AMERICAS } from './data/americas';
import { ASIA_PACIFIC } from './data/asia-pacific';
import { EUROPE } from './data/europe';

/**
 * The sandbox's catalog: real ISO 3166-1 countries, their states or provinces where the service
 * targets them, cities, ASNs and mobile carriers. Tables live under `data/`, one file a region; the
 * deposit side (coins) lives with the top-ups.
 *
 * Invariants (checked by tests/sandbox/catalog/catalog-data.test.ts):
 * - a country offers `mobile` exactly when at least one of its carriers is available, and `mobile-gb`
 *   only where it offers `mobile` (both run on the same modems);
 * - every country lists at least one unavailable carrier; in countries without mobile products the
 *   carriers are listed but have no modems (`cities: []`).
 */
export const CATALOG_COUNTRIES: readonly CountryData[] = [
  ...AMERICAS,
  ...EUROPE,
  ...ASIA_PACIFIC,
  ...AFRICA_MIDDLE_EAST,
];
