import type { CountryData } from './catalog-types';

/**
 * The sandbox's catalog. Real ISO codes, states, cities, ASNs and carriers; the deposit side
 * (coins) lives with the top-ups.
 */
export const CATALOG_COUNTRIES: readonly CountryData[] = [
  {
    code: 'US',
    name: 'United States',
    region: 'North America',
    products: ['residential', 'mobile', 'mobile-gb'],
    states: [
      { id: 'california', code: 'CA', name: 'California' },
      { id: 'new_york', code: 'NY', name: 'New York' },
      { id: 'texas', code: 'TX', name: 'Texas' },
    ],
    cities: [
      { id: 'los_angeles', name: 'Los Angeles', state: 'california' },
      { id: 'new_york', name: 'New York', state: 'new_york' },
      { id: 'houston', name: 'Houston', state: 'texas' },
    ],
    asns: [
      { asn: 7922, name: 'Comcast Cable Communications' },
      { asn: 701, name: 'Verizon Business' },
    ],
    carriers: [
      {
        id: 'tmobile_us',
        name: 'T-Mobile US',
        networkTypes: ['4G', '5G'],
        available: true,
        cities: ['los_angeles', 'new_york'],
      },
      {
        id: 'verizon',
        name: 'Verizon Wireless',
        networkTypes: ['4G', '5G'],
        available: true,
        cities: ['new_york', 'houston'],
      },
      { id: 'att', name: 'AT&T Mobility', networkTypes: ['4G', '5G'], available: false, cities: ['houston'] },
    ],
  },
  {
    code: 'DE',
    name: 'Germany',
    region: 'Europe',
    products: ['residential', 'mobile', 'mobile-gb'],
    states: [],
    cities: [
      { id: 'berlin', name: 'Berlin', state: null },
      { id: 'munich', name: 'Munich', state: null },
    ],
    asns: [{ asn: 3320, name: 'Deutsche Telekom AG' }],
    carriers: [
      {
        id: 'telekom_de',
        name: 'Telekom Deutschland',
        networkTypes: ['4G', '5G'],
        available: true,
        cities: ['berlin', 'munich'],
      },
      { id: 'o2_de', name: 'O2 Germany', networkTypes: ['4G'], available: false, cities: ['berlin'] },
    ],
  },
];
