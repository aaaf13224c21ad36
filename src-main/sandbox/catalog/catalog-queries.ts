import { CATALOG_COUNTRIES } from './catalog-data';
import type { CarrierData, CityData, CountryData } from './catalog-types';

const byCode = new Map(CATALOG_COUNTRIES.map((c) => [c.code, c]));

export function findCountry(code: string): CountryData | undefined {
  return byCode.get(code);
}

export function findCarrier(countryCode: string, carrierId: string): CarrierData | undefined {
  return findCountry(countryCode)?.carriers.find((c) => c.id === carrierId);
}

export function findCity(countryCode: string, cityId: string): CityData | undefined {
  return findCountry(countryCode)?.cities.find((c) => c.id === cityId);
}

/** Cities of a country where at least one carrier has 4G/5G modems. */
export function mobileCityIds(country: CountryData): Set<string> {
  return new Set(country.carriers.flatMap((c) => c.cities));
}
