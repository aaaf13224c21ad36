import type { Asn, Carrier, City, Coin, Country, State } from '../../../src-shared/api-types';
import type { CommandContext, CommandSpec } from '../command-spec';
import { table } from '../output';

const countryArg = { args: ['countryCode'], rename: { countryCode: 'country' } };

export const catalogCommands = {
  countries: {
    path: ['catalog', 'countries'],
    channel: 'catalog:countries',
    summary: 'List the countries of the catalog (public, no key needed)',
    examples: ['proxy-manager catalog countries --product mobile'],
    render: (countries: Country[], context: CommandContext) =>
      table(context.out, countries, [
        { header: 'CODE', value: (c) => c.code },
        { header: 'NAME', value: (c) => c.name },
        { header: 'REGION', value: (c) => c.region },
        { header: 'PRODUCTS', value: (c) => c.products },
        { header: 'CITIES', value: (c) => c.cities, right: true },
        { header: 'ASNS', value: (c) => c.asns, right: true },
        { header: 'CARRIERS', value: (c) => c.carriers, right: true },
      ]),
  },
  states: {
    path: ['catalog', 'states'],
    channel: 'catalog:states',
    summary: 'List the states or provinces of a country (the -state- targeting values)',
    examples: ['proxy-manager catalog states US'],
    fields: countryArg,
    render: (states: State[], context: CommandContext) =>
      table(context.out, states, [
        { header: 'ID', value: (s) => s.id },
        { header: 'CODE', value: (s) => s.code },
        { header: 'NAME', value: (s) => s.name },
        { header: 'CITIES', value: (s) => s.cities, right: true },
      ]),
  },
  cities: {
    path: ['catalog', 'cities'],
    channel: 'catalog:cities',
    summary: 'List the cities of a country (with mobile products: cities that have 4G/5G modems)',
    examples: ['proxy-manager catalog cities US --product mobile'],
    fields: countryArg,
    render: (cities: City[], context: CommandContext) =>
      table(context.out, cities, [
        { header: 'ID', value: (c) => c.id },
        { header: 'NAME', value: (c) => c.name },
        { header: 'STATE', value: (c) => c.state },
      ]),
  },
  asns: {
    path: ['catalog', 'asns'],
    channel: 'catalog:asns',
    summary: 'List the ISPs (ASN) of a country (residential only)',
    examples: ['proxy-manager catalog asns DE'],
    fields: countryArg,
    render: (asns: Asn[], context: CommandContext) =>
      table(context.out, asns, [
        { header: 'ASN', value: (a) => a.asn, right: true },
        { header: 'NAME', value: (a) => a.name },
      ]),
  },
  carriers: {
    path: ['catalog', 'carriers'],
    channel: 'catalog:carriers',
    summary: 'List the mobile carriers of a country with available 4G/5G ports',
    examples: ['proxy-manager catalog carriers US'],
    fields: countryArg,
    render: (carriers: Carrier[], context: CommandContext) =>
      table(context.out, carriers, [
        { header: 'ID', value: (c) => c.id },
        { header: 'NAME', value: (c) => c.name },
        { header: 'NETWORKS', value: (c) => c.networkTypes },
        { header: 'AVAILABLE', value: (c) => (c.available ? 'yes' : 'no') },
      ]),
  },
  coins: {
    path: ['catalog', 'coins'],
    channel: 'catalog:coins',
    summary: 'List the coins and networks accepted for top-ups',
    examples: ['proxy-manager catalog coins'],
    render: (coins: Coin[], context: CommandContext) =>
      table(
        context.out,
        coins.flatMap((coin) => coin.networks.map((network) => ({ coin, network }))),
        [
          { header: 'COIN', value: (r) => r.coin.code },
          { header: 'NETWORK', value: (r) => r.network.id },
          { header: 'CONFIRMATIONS', value: (r) => r.network.confirmationsRequired, right: true },
          { header: 'MINUTES', value: (r) => r.network.estimatedMinutes, right: true },
          { header: 'ADDRESS', value: (r) => r.network.address },
        ],
      ),
  },
} satisfies Record<string, CommandSpec>;
