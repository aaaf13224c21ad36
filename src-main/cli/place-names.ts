import type { CallChannel, CallOutput, IpcResult } from '../../src-shared/contract';

/**
 * Place names for a person's text: the catalog's name of a country (`US` → United States) and of a
 * city (`ho_chi_minh_city` → Ho Chi Minh City), as the window shows them. `--json` keeps the ids.
 * An id the catalog does not know, or a catalog that cannot be read, shows as the id.
 */
export interface PlaceNames {
  country(code: string): string;
  city(countryCode: string, cityId: string | null): string | null;
}

export const PLACE_IDS: PlaceNames = { country: (code) => code, city: (_country, id) => id };

type CallResult = <C extends CallChannel>(channel: C, input: unknown) => Promise<IpcResult<CallOutput<C>>>;

/**
 * The names of these countries and of their cities: two catalog calls (the catalog the app caches,
 * `catalog:countries` and `catalog:citiesOf`), none when there is no country to name.
 */
export async function placeNamesOf(
  source: { callResult: CallResult },
  countryCodes: Iterable<string>,
): Promise<PlaceNames> {
  const codes = [...new Set(countryCodes)].filter((code) => /^[A-Z]{2}$/.test(code));
  if (codes.length === 0) return PLACE_IDS;
  const [countries, cities] = await Promise.all([
    source.callResult('catalog:countries', undefined),
    source.callResult('catalog:citiesOf', { countryCodes: codes }),
  ]);
  const countryNames = new Map(
    countries.ok ? countries.value.map((country) => [country.code, country.name]) : [],
  );
  const cityNames = new Map<string, string>();
  if (cities.ok) {
    for (const [code, list] of Object.entries(cities.value))
      for (const city of list) cityNames.set(`${code}/${city.id}`, city.name);
  }
  return {
    country: (code) => countryNames.get(code) ?? code,
    city: (code, id) => (id === null ? null : (cityNames.get(`${code}/${id}`) ?? id)),
  };
}
