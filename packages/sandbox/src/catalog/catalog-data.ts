import { isProductId, type CountryData } from './catalog-types';
import africaMiddleEast from './data/africa-middle-east.json';
import americas from './data/americas.json';
import asiaPacific from './data/asia-pacific.json';
import europe from './data/europe.json';

/** A country as a data file has it: JSON knows `products` only as strings. */
type CountryRow = Omit<CountryData, 'products'> & { products: readonly string[] };

/** The countries of one data file; an unknown product is a broken file, refused at start-up. */
export function readCountries(file: string, rows: readonly CountryRow[]): CountryData[] {
  return rows.map((row) => {
    const products = row.products.filter(isProductId);
    if (products.length !== row.products.length) {
      throw new Error(
        `catalog/data/${file}: ${row.code} lists an unknown product (${row.products.join(', ')})`,
      );
    }
    return { ...row, products };
  });
}

/**
 * The sandbox's catalog: real ISO 3166-1 countries, their states or provinces where the service
 * targets them, cities, ASNs and mobile carriers. The tables are data files under `data/`, one a
 * region, in the shapes of `catalog-types.ts`; the deposit side (coins) lives with the top-ups.
 *
 * Invariants (checked by tests/catalog/catalog-data.test.ts):
 * - a country offers `mobile` exactly when at least one of its carriers is available, and `mobile-gb`
 *   only where it offers `mobile` (both run on the same modems);
 * - every country lists at least one unavailable carrier; in countries without mobile products the
 *   carriers are listed but have no modems (`cities: []`).
 */
export const CATALOG_COUNTRIES: readonly CountryData[] = [
  ...readCountries('americas.json', americas),
  ...readCountries('europe.json', europe),
  ...readCountries('asia-pacific.json', asiaPacific),
  ...readCountries('africa-middle-east.json', africaMiddleEast),
];
