import type { Carrier } from '../../../../src-shared/api-types';

/** City ids of a carrier, whatever form the service gives them in (ids or objects naming a city). */
export function carrierCityIdsOf(carrier: Pick<Carrier, 'cities'>): string[] {
  return carrier.cities.flatMap((city) => (typeof city === 'string' ? [city] : city.id ? [city.id] : []));
}
