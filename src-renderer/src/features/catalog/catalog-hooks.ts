import { useEffect } from 'react';
import { citiesKey, useCatalogStore, type ProductFilter } from './catalog-store';

/**
 * Each hook reads one list and asks the store to load it: on mount (which also retries a failed
 * load) and again whenever the list falls back to idle (the account changed and the cache was dropped).
 */

const isIdle = (loadable: { status: string } | undefined) => !loadable || loadable.status === 'idle';

export function useCountries(product: ProductFilter) {
  const loadable = useCatalogStore((store) => store.countries[product]);
  const load = useCatalogStore((store) => store.loadCountries);
  const idle = isIdle(loadable);
  useEffect(() => {
    void load(product);
  }, [load, product, idle]);
  return { loadable, retry: () => void load(product, true) };
}

export function useStates(countryCode: string) {
  const loadable = useCatalogStore((store) => store.states[countryCode]);
  const load = useCatalogStore((store) => store.loadStates);
  const idle = isIdle(loadable);
  useEffect(() => {
    void load(countryCode);
  }, [load, countryCode, idle]);
  return { loadable, retry: () => void load(countryCode, true) };
}

export function useCities(countryCode: string, product: ProductFilter) {
  const loadable = useCatalogStore((store) => store.cities[citiesKey(countryCode, product)]);
  const load = useCatalogStore((store) => store.loadCities);
  const idle = isIdle(loadable);
  useEffect(() => {
    void load(countryCode, product);
  }, [load, countryCode, product, idle]);
  return { loadable, retry: () => void load(countryCode, product, true) };
}

export function useAsns(countryCode: string) {
  const loadable = useCatalogStore((store) => store.asns[countryCode]);
  const load = useCatalogStore((store) => store.loadAsns);
  const idle = isIdle(loadable);
  useEffect(() => {
    void load(countryCode);
  }, [load, countryCode, idle]);
  return { loadable, retry: () => void load(countryCode, true) };
}

export function useCarriers(countryCode: string) {
  const loadable = useCatalogStore((store) => store.carriers[countryCode]);
  const load = useCatalogStore((store) => store.loadCarriers);
  const idle = isIdle(loadable);
  useEffect(() => {
    void load(countryCode);
  }, [load, countryCode, idle]);
  return { loadable, retry: () => void load(countryCode, true) };
}

export function useCoins() {
  const loadable = useCatalogStore((store) => store.coins);
  const load = useCatalogStore((store) => store.loadCoins);
  const idle = isIdle(loadable);
  useEffect(() => {
    void load();
  }, [load, idle]);
  return { loadable, retry: () => void load(true) };
}
