import { create } from 'zustand';
import type { Asn, Carrier, City, Coin, Country, State } from '../../../../src-shared/api-types';
import type { IpcResult } from '../../../../src-shared/contract';
import { callApi } from '../../api/window-api';
import { idle, type Loadable } from '../../shared/loadable';
import { createLoadableSlice, inField, inMap, type LoadableSlice } from '../../shared/loadable-slice';

type CatalogProduct = 'residential' | 'mobile' | 'mobile-gb';
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
  /** The cities of several countries, in one call. */
  loadCitiesOf: (countryCodes: readonly string[], product: ProductFilter) => Promise<void>;
  loadAsns: (countryCode: string, force?: boolean) => Promise<void>;
  loadCarriers: (countryCode: string, force?: boolean) => Promise<void>;
  loadCoins: (force?: boolean) => Promise<void>;
  reset: () => void;
}

export const citiesKey = (countryCode: string, product: ProductFilter) => `${countryCode}|${product}`;

/** The lists with no account behind them: also what `reset` goes back to. */
const empty = () => ({
  countries: {},
  states: {},
  cities: {},
  asns: {},
  carriers: {},
  coins: idle<Coin[]>(),
  selectedCountry: null,
});

export const useCatalogStore = create<CatalogStore>()((set) => ({
  view: 'countries',
  product: 'all',
  search: '',
  detailTab: 'states',
  cityProduct: 'all',
  ...empty(),

  setView: (view) => set({ view }),
  setProduct: (product) => set({ product }),
  setSearch: (search) => set({ search }),
  selectCountry: (selectedCountry) => set({ selectedCountry }),
  setDetailTab: (detailTab) => set({ detailTab }),
  setCityProduct: (cityProduct) => set({ cityProduct }),

  loadCountries: (product, force = false) => catalogLists.countries.load([product], force),
  loadStates: (countryCode, force = false) => catalogLists.states.load([countryCode], force),
  loadCities: (countryCode, product, force = false) =>
    catalogLists.cities.load([countryCode, product], force),
  loadCitiesOf: (countryCodes, product) =>
    catalogLists.cities.loadMany(countryCodes.map((code): [string, ProductFilter] => [code, product])),
  loadAsns: (countryCode, force = false) => catalogLists.asns.load([countryCode], force),
  loadCarriers: (countryCode, force = false) => catalogLists.carriers.load([countryCode], force),
  loadCoins: (force = false) => catalogLists.coins.load([], force),

  reset: () => {
    for (const list of Object.values(catalogLists)) list.forget();
    set(empty());
  },
}));

const byCountry = (countryCode: string) => countryCode;

/**
 * Cities for several (country, product) queries in one `catalog:citiesOf` call per product: a list
 * names the places of all its rows on its first render (40 countries were 40 calls, whose fetches
 * alone held the rows back by tens of milliseconds). Answers come back in the order asked.
 */
async function citiesOf(queries: [string, ProductFilter][]): Promise<IpcResult<City[]>[]> {
  const products = [...new Set(queries.map(([, product]) => product))];
  const answers = await Promise.all(
    products.map(async (product) => {
      // Distinct two-letter codes are never more than the call takes.
      const countryCodes = [...new Set(queries.filter(([, p]) => p === product).map(([code]) => code))];
      const input = productInput(product);
      const result = await callApi((api) =>
        api.catalog.citiesOf(input ? { countryCodes, product: input } : { countryCodes }),
      );
      return [product, result] as const;
    }),
  );
  const byProduct = new Map(answers);
  return queries.map(([countryCode, product]): IpcResult<City[]> => {
    const result = byProduct.get(product);
    if (!result?.ok) return result ?? { ok: false, error: { code: 'not_found', message: 'No answer.' } };
    const cities = result.value[countryCode];
    return cities
      ? { ok: true, value: cities }
      : { ok: false, error: { code: 'not_found', message: `No cities could be read for ${countryCode}.` } };
  });
}

/** One slice per list of the catalog; the screens read them through `useLoadable`. */
export const catalogLists: {
  countries: LoadableSlice<CatalogStore, Country[], [ProductFilter]>;
  states: LoadableSlice<CatalogStore, State[], [string]>;
  cities: LoadableSlice<CatalogStore, City[], [string, ProductFilter]>;
  asns: LoadableSlice<CatalogStore, Asn[], [string]>;
  carriers: LoadableSlice<CatalogStore, Carrier[], [string]>;
  coins: LoadableSlice<CatalogStore, Coin[], []>;
} = {
  countries: createLoadableSlice(useCatalogStore, {
    place: inMap<CatalogStore, Country[]>('countries'),
    key: (product: ProductFilter) => product,
    fetch: (product) => {
      const input = productInput(product);
      return callApi((api) => api.catalog.countries(input ? { product: input } : undefined));
    },
  }),
  states: createLoadableSlice(useCatalogStore, {
    place: inMap<CatalogStore, State[]>('states'),
    key: byCountry,
    fetch: (countryCode) => callApi((api) => api.catalog.states({ countryCode })),
  }),
  cities: createLoadableSlice(useCatalogStore, {
    place: inMap<CatalogStore, City[]>('cities'),
    key: citiesKey,
    fetch: async (countryCode, product) => (await citiesOf([[countryCode, product]]))[0]!,
    fetchMany: citiesOf,
  }),
  asns: createLoadableSlice(useCatalogStore, {
    place: inMap<CatalogStore, Asn[]>('asns'),
    key: byCountry,
    fetch: (countryCode) => callApi((api) => api.catalog.asns({ countryCode })),
  }),
  carriers: createLoadableSlice(useCatalogStore, {
    place: inMap<CatalogStore, Carrier[]>('carriers'),
    key: byCountry,
    fetch: (countryCode) => callApi((api) => api.catalog.carriers({ countryCode })),
  }),
  coins: createLoadableSlice(useCatalogStore, {
    place: inField<CatalogStore, Coin[]>('coins'),
    fetch: () => callApi((api) => api.catalog.coins()),
  }),
};
