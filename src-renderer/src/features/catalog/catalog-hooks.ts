import { useLoadable } from '../../shared/loadable-slice';
import { catalogLists, useCatalogStore, type ProductFilter } from './catalog-store';

/** Each list of the catalog, read and loaded through the one keyed-loadable hook. */

export const useCountries = (product: ProductFilter) =>
  useLoadable(useCatalogStore, catalogLists.countries, product);
export const useStates = (countryCode: string) =>
  useLoadable(useCatalogStore, catalogLists.states, countryCode);
export const useCities = (countryCode: string, product: ProductFilter) =>
  useLoadable(useCatalogStore, catalogLists.cities, countryCode, product);
export const useAsns = (countryCode: string) => useLoadable(useCatalogStore, catalogLists.asns, countryCode);
export const useCarriers = (countryCode: string) =>
  useLoadable(useCatalogStore, catalogLists.carriers, countryCode);
export const useCoins = () => useLoadable(useCatalogStore, catalogLists.coins);
