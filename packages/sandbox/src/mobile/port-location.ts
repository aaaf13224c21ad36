import { findCarrier, findCity, findCountry } from '../catalog/catalog-queries';
import type { CarrierData } from '../catalog/catalog-types';
import type { BodyReader } from '../http/input-reader';

const COUNTRY_CODE = /^[A-Z]{2}$/;

/** A place for a port, as asked in a relocation or a purchase. */
export interface LocationRequest {
  country: string;
  carrier: string;
  /** Null or absent: any city the carrier serves. */
  city: string | null;
}

/**
 * Reads `country`, `carrier` and `city` and records a field error for each one that is malformed or
 * not in the catalog (422). Whether the carrier has a free modem there is `checkAvailability`'s job.
 */
export function readLocation(reader: BodyReader): LocationRequest | undefined {
  const errorsBefore = reader.errors.errors.length;
  const country = reader.string('country', { required: true, min: 1 });
  const carrier = reader.string('carrier', { required: true, min: 1 });
  const city = reader.string('city', { nullable: true });
  let countryKnown = false;
  if (country !== undefined) {
    if (!COUNTRY_CODE.test(country)) {
      reader.addError(
        'country',
        'invalid_format',
        'must be an ISO 3166-1 alpha-2 code in upper case, e.g. "US"',
      );
    } else if (!findCountry(country)) {
      reader.addError('country', 'not_found', `${country} is not a country of the catalog`);
    } else {
      countryKnown = true;
    }
  }
  if (countryKnown && country !== undefined) {
    if (carrier !== undefined && !findCarrier(country, carrier)) {
      reader.addError('carrier', 'not_found', `${carrier} is not a carrier in ${country}`);
    }
    if (typeof city === 'string' && !findCity(country, city)) {
      reader.addError('city', 'not_found', `${city} is not a city in ${country}`);
    }
  }
  if (reader.errors.errors.length > errorsBefore || country === undefined || carrier === undefined) {
    return undefined;
  }
  return { country, carrier, city: city ?? null };
}

export type AvailabilityCheck =
  { ok: true; carrier: CarrierData } | { ok: false; reason: 'location_unavailable'; message: string };

/** Whether the carrier has a free modem in that place (checked again at the moment it is needed). */
export function checkAvailability(location: LocationRequest): AvailabilityCheck {
  const country = findCountry(location.country);
  const carrier = findCarrier(location.country, location.carrier);
  const unavailable = (message: string): AvailabilityCheck => ({
    ok: false,
    reason: 'location_unavailable',
    message,
  });
  if (!country || !carrier)
    return unavailable(`${location.carrier} in ${location.country} is not in the catalog`);
  if (!country.products.includes('mobile')) return unavailable(`${country.name} has no mobile ports`);
  if (!carrier.available) return unavailable(`${carrier.name} has no free modem in ${country.name}`);
  if (location.city !== null && !carrier.cities.includes(location.city)) {
    return unavailable(`${carrier.name} has no modem in ${location.city}`);
  }
  return { ok: true, carrier };
}
