import { useEffect } from 'react';
import { citiesKey, useCatalogStore, type ProductFilter } from './catalog-store';

/** Each hook reads one list and asks the store to load it when it is not there yet. */

export function useCountries(product: ProductFilter) {
  const loadable = useCatalogStore((store) => store.countries[product]);
  const load = useCatalogStore((store) => store.loadCountries);
  useEffect(() => {
    void load(product);
  }, [load, product]);
  return { loadable, retry: () => void load(product, true) };
}

export function useStates(countryCode: string) {
  const loadable = useCatalogStore((store) => store.states[countryCode]);
  const load = useCatalogStore((store) => store.loadStates);
  useEffect(() => {
    void load(countryCode);
  }, [load, countryCode]);
  return { loadable, retry: () => void load(countryCode, true) };
}

export function useCities(countryCode: string, product: ProductFilter) {
  const loadable = useCatalogStore((store) => store.cities[citiesKey(countryCode, product)]);
  const load = useCatalogStore((store) => store.loadCities);
  useEffect(() => {
    void load(countryCode, product);
  }, [load, countryCode, product]);
  return { loadable, retry: () => void load(countryCode, product, true) };
}

export function useAsns(countryCode: string) {
  const loadable = useCatalogStore((store) => store.asns[countryCode]);
  const load = useCatalogStore((store) => store.loadAsns);
  useEffect(() => {
    void load(countryCode);
  }, [load, countryCode]);
  return { loadable, retry: () => void load(countryCode, true) };
}

export function useCarriers(countryCode: string) {
  const loadable = useCatalogStore((store) => store.carriers[countryCode]);
  const load = useCatalogStore((store) => store.loadCarriers);
  useEffect(() => {
    void load(countryCode);
  }, [load, countryCode]);
  return { loadable, retry: () => void load(countryCode, true) };
}

export function useCoins() {
  const loadable = useCatalogStore((store) => store.coins);
  const load = useCatalogStore((store) => store.loadCoins);
  useEffect(() => {
    void load();
  }, [load]);
  return { loadable, retry: () => void load(true) };
}
