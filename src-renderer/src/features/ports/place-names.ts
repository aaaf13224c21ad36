import { useEffect, useMemo } from 'react';
import { useShallow } from 'zustand/react/shallow';
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
  const key = useMemo(() => [...new Set(countryCodes)].sort().join(','), [countryCodes]);
  const codes = useMemo(() => (key ? key.split(',') : []), [key]);
  useEffect(() => {
    const store = useCatalogStore.getState();
    void store.loadCountries('all');
    for (const code of codes) void store.loadCities(code, 'all');
  }, [codes]);
  const countries = useCatalogStore((state) => state.countries.all?.data ?? null);
  // Only the city lists of these countries, and only their data: a loading flag or another
  // country's list does not make new names (a new `PlaceNames` re-renders every row of the list).
  const cityLists = useCatalogStore(
    useShallow((state) => codes.map((code) => state.cities[citiesKey(code, 'all')]?.data ?? null)),
  );
  return useMemo(() => {
    const countryNames = new Map((countries ?? []).map((country) => [country.code, country.name]));
    const cityNames = new Map(
      codes.map((code, index) => [
        code,
        new Map((cityLists[index] ?? []).map((city) => [city.id, city.name])),
      ]),
    );
    const country = (code: string) => countryNames.get(code) ?? code;
    const city = (code: string, id: string | null) =>
      id ? (cityNames.get(code)?.get(id) ?? humaniseId(id)) : null;
    // The list asks for the same few places for every row (and again to sort and search): once each.
    const locations = new Map<string, string>();
    return {
      country,
      city,
      location: (code, id) => {
        const cacheKey = `${code}|${id ?? ''}`;
        let text = locations.get(cacheKey);
        if (text === undefined) {
          const name = city(code, id);
          text = name ? `${name}, ${country(code)}` : country(code);
          locations.set(cacheKey, text);
        }
        return text;
      },
    };
  }, [countries, codes, cityLists]);
}
