import { CATALOG_COUNTRIES } from './catalog-data';
import type {
  AsnEntry,
  CarrierData,
  CarrierEntry,
  CityData,
  CityEntry,
  CountryData,
  CountryEntry,
  ProductId,
  StateEntry,
} from './catalog-types';

const byCode = new Map(CATALOG_COUNTRIES.map((c) => [c.code, c]));

/** Exact ISO 3166-1 alpha-2 match: `us` is not `US`. */
export function findCountry(code: string): CountryData | undefined {
  return byCode.get(code);
}

export function findCarrier(countryCode: string, carrierId: string): CarrierData | undefined {
  return findCountry(countryCode)?.carriers.find((c) => c.id === carrierId);
}

export function findCity(countryCode: string, cityId: string): CityData | undefined {
  return findCountry(countryCode)?.cities.find((c) => c.id === cityId);
}

/** Cities of a country where at least one carrier (available or not) has 4G/5G modems. */
function mobileCityIds(country: CountryData): Set<string> {
  return new Set(country.carriers.flatMap((c) => c.cities));
}

function offersProduct(country: CountryData, product: ProductId): boolean {
  return country.products.includes(product);
}

// Accents and case do not change the order ("Türkiye" sorts among the T's); ids break ties.
const collator = new Intl.Collator('en', { sensitivity: 'base' });
const byName = <T extends { name: string }>(key: (item: T) => string) => {
  return (a: T, b: T): number => collator.compare(a.name, b.name) || key(a).localeCompare(key(b));
};

/** Countries by English name, optionally only those that offer `product`. */
export function listCountries(product?: ProductId): CountryData[] {
  return CATALOG_COUNTRIES.filter((c) => product === undefined || offersProduct(c, product)).sort(
    byName((c) => c.code),
  );
}

/**
 * Cities by name. Without `product`, every city of the country. With a product the country does not
 * offer, none. With `mobile` or `mobile-gb`, only the cities where a carrier has 4G/5G modems.
 */
export function citiesFor(country: CountryData, product?: ProductId): CityEntry[] {
  let cities = country.cities;
  if (product !== undefined) {
    if (!offersProduct(country, product)) return [];
    if (product !== 'residential') {
      const withModems = mobileCityIds(country);
      cities = cities.filter((c) => withModems.has(c.id));
    }
  }
  return cities.map((c) => ({ id: c.id, name: c.name, state: c.state })).sort(byName((c) => c.id));
}

/** ASN targeting is a residential feature: none for a country without the residential product. */
export function asnsFor(country: CountryData): AsnEntry[] {
  if (!offersProduct(country, 'residential')) return [];
  return country.asns.map((a) => ({ asn: a.asn, name: a.name })).sort((a, b) => a.asn - b.asn);
}

/** States by name, each with the number of the country's cities in it. */
export function statesFor(country: CountryData): StateEntry[] {
  return country.states
    .map((s) => ({
      id: s.id,
      code: s.code,
      name: s.name,
      cities: country.cities.filter((c) => c.state === s.id).length,
    }))
    .sort(byName((s) => s.id));
}

/** Every carrier by name, available or not; each carrier's cities in the order `citiesFor` lists them. */
export function carriersFor(country: CountryData): CarrierEntry[] {
  const cityOrder = new Map(citiesFor(country).map((c, index) => [c.id, index]));
  const position = (id: string) => cityOrder.get(id) ?? Number.MAX_SAFE_INTEGER;
  return country.carriers
    .map((c) => ({
      id: c.id,
      name: c.name,
      networkTypes: [...c.networkTypes],
      available: c.available,
      cities: [...c.cities].sort((a, b) => position(a) - position(b)),
    }))
    .sort(byName((c) => c.id));
}

/** The country resource; its counts are the lengths of the lists the per-country endpoints return. */
export function countryEntry(country: CountryData): CountryEntry {
  return {
    code: country.code,
    name: country.name,
    region: country.region,
    products: [...country.products],
    cities: citiesFor(country).length,
    asns: asnsFor(country).length,
    carriers: carriersFor(country).length,
  };
}
