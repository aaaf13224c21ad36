import { useEffect, useMemo } from 'react';
import { citiesKey, useCatalogStore } from '../catalog/catalog-store';

/** `los_angeles` -> `Los Angeles`: what a city id reads as until (or unless) the catalog names it. */
export function humaniseId(id: string): string {
  return id
    .split(/[_-]+/)
    .filter(Boolean)
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join(' ');
}

export interface PlaceNames {
  country: (code: string) => string;
  city: (country: string, cityId: string | null) => string | null;
  /** `Los Angeles, United States` or `Germany`. */
  location: (country: string, cityId: string | null) => string;
}

/**
 * Country and city names from the public catalog for the countries the ports are in: the countries
 * once, each country's cities once (the catalog store caches them per account). Ids are shown,
 * readable, while the catalog loads or when it does not know a place.
 */
export function usePlaceNames(countryCodes: readonly string[]): PlaceNames {
  const key = [...new Set(countryCodes)].sort().join(',');
  useEffect(() => {
    const store = useCatalogStore.getState();
    void store.loadCountries('all');
    for (const code of key ? key.split(',') : []) void store.loadCities(code, 'all');
  }, [key]);
  const countries = useCatalogStore((state) => state.countries.all?.data ?? null);
  const cities = useCatalogStore((state) => state.cities);
  return useMemo(() => {
    const countryNames = new Map((countries ?? []).map((country) => [country.code, country.name]));
    const cityNames = new Map<string, Map<string, string>>();
    const cityName = (country: string, id: string) => {
      let names = cityNames.get(country);
      if (!names) {
        names = new Map((cities[citiesKey(country, 'all')]?.data ?? []).map((city) => [city.id, city.name]));
        cityNames.set(country, names);
      }
      return names.get(id) ?? humaniseId(id);
    };
    const country = (code: string) => countryNames.get(code) ?? code;
    const city = (code: string, id: string | null) => (id ? cityName(code, id) : null);
    return {
      country,
      city,
      location: (code, id) => {
        const name = city(code, id);
        return name ? `${name}, ${country(code)}` : country(code);
      },
    };
  }, [countries, cities]);
}
