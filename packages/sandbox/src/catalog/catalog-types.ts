export type ProductId = 'residential' | 'mobile' | 'mobile-gb';
export const PRODUCT_IDS: readonly ProductId[] = ['residential', 'mobile', 'mobile-gb'];

export const isProductId = (value: string): value is ProductId =>
  (PRODUCT_IDS as readonly string[]).includes(value);

/** Source data of one country; the counts the API reports (cities, asns, carriers) are derived from it. */
export interface CountryData {
  /** ISO 3166-1 alpha-2, upper case. */
  code: string;
  name: string;
  /** e.g. `Europe`, `North America`, `Asia`, `South America`, `Africa`, `Oceania`, `Middle East`. */
  region: string;
  products: ProductId[];
  /** `-state-{state}` targeting values; empty for countries without state targeting. */
  states: StateData[];
  cities: CityData[];
  asns: AsnData[];
  carriers: CarrierData[];
}

interface StateData {
  /**
   * Lower case, the `-state-{state}` username segment, e.g. `california`: the English (for Mexico
   * and Brazil, the local) name in ASCII snake case.
   */
  id: string;
  /** The postal or ISO 3166-2 subdivision code that users know from addresses, e.g. `CA`. */
  code: string;
  name: string;
}

export interface CityData {
  /** Lower case, unique within the country, e.g. `los_angeles`. */
  id: string;
  name: string;
  /** State id, or null in countries without state targeting. */
  state: string | null;
}

interface AsnData {
  asn: number;
  name: string;
}

export interface CarrierData {
  /** Lower case, unique within the country, e.g. `tmobile_us`. */
  id: string;
  name: string;
  networkTypes: string[];
  /** False when no 4G/5G port is free: relocation there is 409 `location_unavailable`. */
  available: boolean;
  /** City ids where the carrier has modems (possibly none). */
  cities: string[];
}

/*
 * Response shapes of the catalog endpoints (the spec's "Catalog entries" table). Counts are derived
 * from the source data so that they always equal the lengths of the lists the endpoints return.
 */

export interface CountryEntry {
  code: string;
  name: string;
  region: string;
  products: ProductId[];
  /** Number of cities `GET .../cities` lists without a product filter. */
  cities: number;
  /** Number of ASNs `GET .../asns` lists (0 without the residential product). */
  asns: number;
  /** Number of carriers `GET .../carriers` lists, available or not. */
  carriers: number;
}

export interface StateEntry {
  id: string;
  code: string;
  name: string;
  /** Number of the country's cities in this state. */
  cities: number;
}

export type CityEntry = CityData;

export type AsnEntry = AsnData;

export type CarrierEntry = CarrierData;
