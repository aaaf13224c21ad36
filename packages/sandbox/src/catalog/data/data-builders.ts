import type { AsnData, CarrierData, CityData, StateData } from '../catalog-types';

/*
 * Short constructors for the catalog tables: the data files read as tables, one entry a line,
 * instead of hundreds of repeated member names.
 */

export const state = (id: string, code: string, name: string): StateData => ({ id, code, name });

/** A city; `stateId` is null in countries without state targeting. */
export const city = (id: string, name: string, stateId: string | null = null): CityData => ({
  id,
  name,
  state: stateId,
});

export const asn = (number: number, name: string): AsnData => ({ asn: number, name });

export type NetworkType = '4G' | '5G';

/**
 * A mobile carrier. `unavailable`: no free 4G/5G port right now, so a relocation there is refused;
 * `cities` lists the city ids where it has modems (possibly none).
 */
export const carrier = (
  id: string,
  name: string,
  networkTypes: NetworkType[],
  availability: 'available' | 'unavailable',
  cities: string[],
): CarrierData => ({ id, name, networkTypes, available: availability === 'available', cities });
