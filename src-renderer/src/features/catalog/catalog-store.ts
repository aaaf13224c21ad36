import { create } from 'zustand';
import type { Asn, Carrier, City, Coin, Country, State } from '../../../../src-main/api/api-types';
import type { IpcResult } from '../../../../src-main/ipc/contract';
import { callApi } from '../../api/window-api';
import { idle, loading, needsLoad, settled, type Loadable } from '../../shared/loadable';

export type CatalogProduct = 'residential' | 'mobile' | 'mobile-gb';
/** `all` is "no product filter". */
export type ProductFilter = 'all' | CatalogProduct;
export type CountryDetailTab = 'states' | 'cities' | 'asns' | 'carriers';
export type CatalogView = 'countries' | 'coins';

const productInput = (product: ProductFilter) => (product === 'all' ? undefined : product);

/**
 * The public catalog. Every list is cached under the key of its query (`US|mobile`), so answers that
 * arrive late for a country the user has already left cannot overwrite what is on screen, and going
 * back to a country shows it at once. The cache is dropped when the account changes (another base URL).
 */
interface CatalogStore {
  view: CatalogView;
  product: ProductFilter;
  search: string;
  selectedCountry: string | null;
  detailTab: CountryDetailTab;
  cityProduct: ProductFilter;

  countries: Partial<Record<ProductFilter, Loadable<Country[]>>>;
  states: Record<string, Loadable<State[]>>;
  cities: Record<string, Loadable<City[]>>;
  asns: Record<string, Loadable<Asn[]>>;
  carriers: Record<string, Loadable<Carrier[]>>;
  coins: Loadable<Coin[]>;

  setView: (view: CatalogView) => void;
  setProduct: (product: ProductFilter) => void;
  setSearch: (search: string) => void;
  selectCountry: (code: string | null) => void;
  setDetailTab: (tab: CountryDetailTab) => void;
  setCityProduct: (product: ProductFilter) => void;

  loadCountries: (product: ProductFilter, force?: boolean) => Promise<void>;
  loadStates: (countryCode: string, force?: boolean) => Promise<void>;
  loadCities: (countryCode: string, product: ProductFilter, force?: boolean) => Promise<void>;
  loadAsns: (countryCode: string, force?: boolean) => Promise<void>;
  loadCarriers: (countryCode: string, force?: boolean) => Promise<void>;
  loadCoins: (force?: boolean) => Promise<void>;
  reset: () => void;
}

type KeyedList = 'states' | 'cities' | 'asns' | 'carriers';

export const citiesKey = (countryCode: string, product: ProductFilter) => `${countryCode}|${product}`;

const initialData = {
  countries: {},
  states: {},
  cities: {},
  asns: {},
  carriers: {},
  coins: idle<Coin[]>(),
};

/** Bumped by `reset`: answers to calls made before it belong to the previous account. */
let generation = 0;

export const useCatalogStore = create<CatalogStore>()((set, get) => {
  /** Loads one keyed list; the generic keeps each list's element type. */
  async function loadKeyed<T>(
    list: KeyedList,
    key: string,
    force: boolean,
    run: () => Promise<IpcResult<T[]>>,
  ): Promise<void> {
    const current = (get()[list] as Record<string, Loadable<T[]>>)[key];
    if (!needsLoad(current, force)) return;
    const mine = generation;
    set((store) => ({ [list]: { ...store[list], [key]: loading(current) } }));
    const result = await run();
    if (mine !== generation) return;
    set((store) => {
      const previous = (store[list] as Record<string, Loadable<T[]>>)[key];
      return { [list]: { ...store[list], [key]: settled(previous, result) } };
    });
  }

  return {
    view: 'countries',
    product: 'all',
    search: '',
    selectedCountry: null,
    detailTab: 'states',
    cityProduct: 'all',
    ...initialData,

    setView: (view) => set({ view }),
    setProduct: (product) => set({ product }),
    setSearch: (search) => set({ search }),
    selectCountry: (selectedCountry) => set({ selectedCountry }),
    setDetailTab: (detailTab) => set({ detailTab }),
    setCityProduct: (cityProduct) => set({ cityProduct }),

    loadCountries: async (product, force = false) => {
      const current = get().countries[product];
      if (!needsLoad(current, force)) return;
      const mine = generation;
      set((store) => ({ countries: { ...store.countries, [product]: loading(current) } }));
      const input = productInput(product);
      const result = await callApi((api) => api.catalog.countries(input ? { product: input } : undefined));
      if (mine !== generation) return;
      set((store) => ({
        countries: { ...store.countries, [product]: settled(store.countries[product], result) },
      }));
    },

    loadStates: (countryCode, force = false) =>
      loadKeyed('states', countryCode, force, () => callApi((api) => api.catalog.states({ countryCode }))),

    loadCities: (countryCode, product, force = false) => {
      const input = productInput(product);
      return loadKeyed('cities', citiesKey(countryCode, product), force, () =>
        callApi((api) => api.catalog.cities(input ? { countryCode, product: input } : { countryCode })),
      );
    },

    loadAsns: (countryCode, force = false) =>
      loadKeyed('asns', countryCode, force, () => callApi((api) => api.catalog.asns({ countryCode }))),

    loadCarriers: (countryCode, force = false) =>
      loadKeyed('carriers', countryCode, force, () =>
        callApi((api) => api.catalog.carriers({ countryCode })),
      ),

    loadCoins: async (force = false) => {
      const current = get().coins;
      if (!needsLoad(current, force)) return;
      const mine = generation;
      set({ coins: loading(current) });
      const result = await callApi((api) => api.catalog.coins());
      if (mine !== generation) return;
      set((store) => ({ coins: settled(store.coins, result) }));
    },

    reset: () => {
      generation += 1;
      set({ ...initialData, selectedCountry: null });
    },
  };
});
