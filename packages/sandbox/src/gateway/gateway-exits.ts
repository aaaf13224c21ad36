import { CATALOG_COUNTRIES } from '../catalog/catalog-data';
import { findCountry } from '../catalog/catalog-queries';
import type { CarrierData, CityData, CountryData } from '../catalog/catalog-types';
import { HOSTS_PER_POOL, poolAddress } from '../mobile/ip-pool';
import { stableHash } from '../seeded-random';
import type { TrafficProductId } from '../subscriptions/subscription-types';
import type { Targeting } from './gateway-username';

/** Where a request leaves the (simulated) network: what the echo shows. */
export interface ExitInfo {
  ip: string;
  country: string;
  state: string | null;
  city: string | null;
  zip: string | null;
  asn: number | null;
  asnName: string | null;
  carrier: string | null;
  carrierName: string | null;
  networkType: string | null;
}

export type ExitResolution = { ok: true; exit: ExitInfo } | { ok: false; message: string };

/**
 * Residential exits come from 198.18.0.0/15 (RFC 2544, reserved for benchmarks), so a sandbox exit
 * IP can never be mistaken for a real one. Mobile exits use the carriers' CGNAT pools (100.64.0.0/10).
 */
const RESIDENTIAL_BASE = 198 * 2 ** 24 + 18 * 2 ** 16;
const RESIDENTIAL_BLOCKS = 512;

function residentialIp(draw: string): string {
  const index = stableHash(`residential-ip|${draw}`) % (RESIDENTIAL_BLOCKS * 254);
  const address = RESIDENTIAL_BASE + Math.floor(index / 254) * 256 + (index % 254) + 1;
  return [24, 16, 8, 0].map((shift) => Math.floor(address / 2 ** shift) % 256).join('.');
}

const pick = <T>(items: readonly T[], draw: string, salt: string): T | null =>
  items.length === 0 ? null : (items[stableHash(`${salt}|${draw}`) % items.length] as T);

interface Place {
  country: CountryData;
  /** Cities the exit may be in (the targeted one, or all that fit); empty: no city. */
  cities: readonly CityData[];
}

/** Checks the location segments against the catalog; `allowedCities` limits cities (mobile: modems). */
function resolvePlace(
  product: TrafficProductId,
  targeting: Targeting,
  draw: string,
  allowedCities: (country: CountryData) => readonly CityData[],
): Place | { message: string } {
  const code = targeting.country ?? (targeting.zip !== undefined ? 'US' : undefined);
  const offered = CATALOG_COUNTRIES.filter((c) => c.products.includes(product));
  let country: CountryData | null;
  if (code === undefined) {
    country = pick(offered, draw, 'country');
    if (!country) return { message: `No country offers ${product}` };
  } else {
    const found = findCountry(code);
    if (!found) return { message: `${code} is not a country of the catalog` };
    if (!found.products.includes(product)) return { message: `${found.name} has no ${product} exits` };
    country = found;
  }
  if (targeting.zip !== undefined && country.code !== 'US') {
    return { message: `-zip- takes US ZIP codes only; the country is ${country.name}` };
  }
  let cities = allowedCities(country);
  if (targeting.state !== undefined) {
    if (country.states.length === 0) return { message: `${country.name} has no state targeting` };
    const state = targeting.state;
    if (!country.states.some((s) => s.id === state)) {
      return { message: `"${state}" is not a state of ${country.name} (see the catalog's states)` };
    }
    cities = cities.filter((c) => c.state === state);
    if (targeting.city === undefined && cities.length === 0 && product !== 'residential') {
      return { message: `No 4G/5G modems in ${state}, ${country.name}` };
    }
  }
  if (targeting.city !== undefined) {
    const id = targeting.city;
    const city = country.cities.find((c) => c.id === id);
    if (!city) return { message: `"${id}" is not a city of ${country.name} (see the catalog's cities)` };
    if (targeting.state !== undefined && city.state !== targeting.state) {
      return { message: `${city.name} is not in ${targeting.state}` };
    }
    if (!cities.some((c) => c.id === id)) return { message: `No 4G/5G modems in ${city.name}` };
    cities = [city];
  }
  // The sandbox has no ZIP database, so it places no ZIP: any 5-digit ZIP is taken at its word and
  // echoed back. Alone it exits somewhere in the US with no city; with -state- the exit is in that
  // state (one of its cities when the catalog lists any, as for -state- alone), never checked
  // against the ZIP: a real gateway may answer a pair that disagrees with its no-exit page.
  if (targeting.zip !== undefined && targeting.state === undefined) cities = [];
  return { country, cities };
}

/**
 * The exit of a traffic subscription's request: the targeting checked against the catalog, then a
 * place, ISP or carrier and IP drawn deterministically from `draw` (seed, account, targeting and
 * session or request). Residential traffic exits through an ASN, mobile-gb traffic through a carrier.
 */
export function resolveSubscriptionExit(
  product: TrafficProductId,
  targeting: Targeting,
  draw: string,
): ExitResolution {
  if (product === 'residential') {
    const place = resolvePlace(product, targeting, draw, (c) => c.cities);
    if ('message' in place) return { ok: false, message: place.message };
    const { country } = place;
    let asn = country.asns.find((a) => a.asn === targeting.asn) ?? null;
    if (targeting.asn !== undefined && !asn) {
      return {
        ok: false,
        message: `AS${targeting.asn} is not an ISP of ${country.name} (see the catalog's asns)`,
      };
    }
    asn ??= pick(country.asns, draw, 'asn');
    const city = pick(place.cities, draw, 'city');
    const exit: ExitInfo = {
      ip: residentialIp(`${draw}|${country.code}|${city?.id ?? ''}|${asn?.asn ?? ''}`),
      country: country.code,
      state: city?.state ?? targeting.state ?? null,
      city: city?.id ?? null,
      zip: targeting.zip ?? null,
      asn: asn?.asn ?? null,
      asnName: asn?.name ?? null,
      carrier: null,
      carrierName: null,
      networkType: null,
    };
    return { ok: true, exit };
  }
  if (targeting.asn !== undefined) {
    return {
      ok: false,
      message: 'ASN targeting is for residential traffic only; mobile-gb exits by carrier',
    };
  }
  const modemCarriers = (c: CountryData): CarrierData[] =>
    c.carriers.filter((carrier) => carrier.available && carrier.cities.length > 0);
  const place = resolvePlace(product, targeting, draw, (c) => {
    const ids = new Set(modemCarriers(c).flatMap((carrier) => carrier.cities));
    return c.cities.filter((city) => ids.has(city.id));
  });
  if ('message' in place) return { ok: false, message: place.message };
  const { country } = place;
  const city = pick(place.cities, draw, 'city');
  const carriers = modemCarriers(country).filter((c) => city === null || c.cities.includes(city.id));
  const carrier = pick(carriers, draw, 'carrier');
  if (!carrier) return { ok: false, message: `No 4G/5G modems in ${country.name}` };
  const exit: ExitInfo = {
    ip: poolAddress(country.code, carrier.id, stableHash(`mobile-gb-ip|${draw}`) % HOSTS_PER_POOL),
    country: country.code,
    state: city?.state ?? targeting.state ?? null,
    city: city?.id ?? null,
    zip: targeting.zip ?? null,
    asn: null,
    asnName: null,
    carrier: carrier.id,
    carrierName: carrier.name,
    networkType: pick(carrier.networkTypes, draw, 'network') ?? '4G',
  };
  return { ok: true, exit };
}
