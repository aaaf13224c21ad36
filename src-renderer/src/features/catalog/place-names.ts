import { useEffect, useMemo } from 'react';
import type { City, Country } from '../../../../src-shared/api-types';
import { citiesKey, useCatalogStore } from './catalog-store';

type CatalogState = ReturnType<typeof useCatalogStore.getState>;

/** `los_angeles` -> `Los Angeles`: what a city id reads as until (or unless) the catalog names it. */
function humaniseId(id: string): string {
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
 * once, the cities of every country not yet known in one call (the catalog store caches them per
 * account). Ids are shown,
 * readable, while the catalog loads or when it does not know a place.
 */
export function usePlaceNames(countryCodes: readonly string[]): PlaceNames {
  const key = useMemo(() => [...new Set(countryCodes)].sort().join(','), [countryCodes]);
  const codes = useMemo(() => (key ? key.split(',') : []), [key]);
  useEffect(() => {
    const store = useCatalogStore.getState();
    void store.loadCountries('all');
    if (codes.length > 0) void store.loadCitiesOf(codes, 'all');
  }, [codes]);
  // The names these places read as, as text, read straight from the catalog store: the screen renders
  // again, and the rows' `PlaceNames` is rebuilt, only when that text changes. A loading flag, another
  // country's list, or an answer that names nothing new (the countries when only ids were known, a
  // city list without these cities) re-renders nothing: each did a commit of the 1,000-port screen
  // (22 ms each of the list benchmark's cold click, every row with it).
  const namesTextOf = useMemo(() => namesTextSelector(codes), [codes]);
  const namesText = useCatalogStore(namesTextOf);
  return useMemo(() => placeNames(JSON.parse(namesText) as KnownNames), [namesText]);
}

/** What the catalog named, for the countries asked for only (ids map to names). */
interface KnownNames {
  countries: [string, string | null][];
  cities: [string, [string, string][]][];
}

function placeNames(known: KnownNames): PlaceNames {
  const countryNames = new Map(known.countries);
  const cityNames = new Map(known.cities.map(([code, list]) => [code, new Map(list)]));
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
}

/** A store selector: the names of `codes`' countries and their cities as text, kept while its inputs are. */
function namesTextSelector(codes: readonly string[]): (state: CatalogState) => string {
  let last: { countries: Country[] | null; lists: (City[] | null)[]; text: string } | null = null;
  return (state: CatalogState) => {
    const countries = state.countries.all?.data ?? null;
    const lists = codes.map((code) => state.cities[citiesKey(code, 'all')]?.data ?? null);
    if (last?.countries === countries && lists.every((list, index) => list === last?.lists[index]))
      return last.text;
    const countryNames = new Map((countries ?? []).map((country) => [country.code, country.name]));
    const known: KnownNames = {
      countries: codes.map((code) => [code, countryNames.get(code) ?? null]),
      cities: codes.map((code, index) => [
        code,
        (lists[index] ?? []).map((city): [string, string] => [city.id, city.name]),
      ]),
    };
    last = { countries, lists, text: JSON.stringify(known) };
    return last.text;
  };
}
