import { useEffect, useMemo } from 'react';
import type { CatalogNames } from '../../../../src-shared/contract';
import { useCatalogStore } from '../catalog/catalog-store';

type CatalogState = ReturnType<typeof useCatalogStore.getState>;

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
 * Country and city names from the public catalog for the countries the ports are in, from one call
 * (`catalog:names`, answered from main's catalog cache; asked for when the Ports navigation starts).
 * Countries whose cities the names lack are asked for once. Ids are shown, readable, while the names
 * load or when the catalog does not know a place.
 */
export function usePlaceNames(countryCodes: readonly string[]): PlaceNames {
  const key = useMemo(() => [...new Set(countryCodes)].sort().join(','), [countryCodes]);
  const codes = useMemo(() => (key ? key.split(',') : []), [key]);
  const names = useCatalogStore((state: CatalogState) => state.names);
  useEffect(() => {
    const store = useCatalogStore.getState();
    if (names.status === 'idle') {
      void store.loadNames(codes);
      return;
    }
    if (names.status !== 'ready' || !names.data) return;
    const missing = codes.filter((code) => names.data?.cities[code] === undefined);
    if (missing.length > 0) void store.loadNames(missing);
  }, [codes, names]);
  // The names these places read as, as text: the screen renders again, and the rows' `PlaceNames` is
  // rebuilt, only when that text changes. A loading flag, or an answer that names nothing new for
  // these countries, re-renders nothing (each such commit re-rendered the 1,000-port screen).
  const namesText = useMemo(() => namesTextOf(codes, names.data), [codes, names.data]);
  return useMemo(() => placeNames(JSON.parse(namesText) as KnownNames), [namesText]);
}

/** What the catalog named, for the countries asked for only (ids map to names). */
interface KnownNames {
  countries: [string, string | null][];
  cities: [string, [string, string][]][];
}

function namesTextOf(codes: readonly string[], names: CatalogNames | null): string {
  const known: KnownNames = {
    countries: codes.map((code) => [code, names?.countries[code] ?? null]),
    cities: codes.map((code) => [code, Object.entries(names?.cities[code] ?? {})]),
  };
  return JSON.stringify(known);
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
