import type {
  Carrier,
  City,
  Coin,
  Country,
  State,
  SubUser,
  Subscription,
  TopUp,
  TopUpPage,
} from '../../../src-shared/api-types';
import type {
  AppState,
  ConnectionTestResult,
  ProfileSummary,
  SettingsView,
  SubUsersListView,
} from '../../../src-shared/contract';
import { defaultSettings } from '../../../src-main/core/settings/settings-schema';
import { toSettingsView } from '../../../src-main/core/settings/settings-service';
import type { MobilePortView, PortsListView } from '../../../src-shared/contract';
import { portsListView } from '../../../src-main/core/ports/port-rows';
import { subUsersListView } from '../../../src-main/core/subscriptions/sub-user-rows';

export function profile(overrides: Partial<ProfileSummary> = {}): ProfileSummary {
  return {
    id: 'prof_work',
    name: 'Work',
    baseUrl: 'https://api.example.com/api/v1',
    pathStyle: 'literal',
    kind: 'account',
    active: true,
    key: { configured: true, masked: '…a1b2', source: 'keychain' },
    ...overrides,
  };
}

export function demoProfile(): ProfileSummary {
  return profile({
    id: 'prof_demo',
    name: 'Demo (sandbox)',
    baseUrl: 'http://127.0.0.1:4010/api/v1',
    kind: 'demo',
    key: { configured: true, masked: '…-key', source: 'demo' },
  });
}

export function appState(overrides: Partial<AppState> = {}): AppState {
  const active = overrides.activeProfile === undefined ? profile() : overrides.activeProfile;
  return {
    mode: 'web',
    profiles: active ? [active] : [],
    activeProfile: active,
    connection: { status: 'online', message: 'Connected to Work.', checkedAt: '2026-03-10T12:00:00.000Z' },
    keychain: { available: true, reason: null },
    demo: { running: false },
    jobs: { owner: true, message: null },
    notices: [],
    ...overrides,
  };
}

export const noProfileState = (overrides: Partial<AppState> = {}) =>
  appState({
    activeProfile: null,
    profiles: [],
    connection: { status: 'not_configured', message: 'Add a profile or try the demo.', checkedAt: null },
    ...overrides,
  });

/** Main's own default settings as the renderer receives them, so the fixture never falls behind. */
export const settingsView = (overrides: Partial<SettingsView> = {}): SettingsView => ({
  ...toSettingsView(defaultSettings()),
  ...overrides,
});

export const passedTest = (overrides: Partial<ConnectionTestResult> = {}): ConnectionTestResult => ({
  ok: true,
  pathStyle: 'strip-v1',
  baseUrl: 'https://api.example.com/api/v1',
  suffixAdded: null,
  duplicateOf: null,
  message: 'Connected. Adopted base URL without /v1.',
  probes: [
    {
      pathStyle: 'literal',
      pathStyles: ['literal'],
      url: 'https://api.example.com/api/v1/v1/catalog/coins',
      ok: false,
      detail: 'HTTP 404',
    },
    {
      pathStyle: 'strip-v1',
      pathStyles: ['strip-v1'],
      url: 'https://api.example.com/api/v1/catalog/coins',
      ok: true,
      detail: 'HTTP 200',
    },
  ],
  authenticated: { ok: true, message: 'The service accepted the API key.' },
  ...overrides,
});

export const rejectedKeyTest = (): ConnectionTestResult =>
  passedTest({
    ok: false,
    pathStyle: 'literal',
    message: 'The base URL answers, but the key did not work.',
    probes: [
      {
        pathStyle: 'literal',
        pathStyles: ['literal'],
        url: 'https://api.example.com/api/v1/v1/catalog/coins',
        ok: true,
        detail: 'HTTP 200',
      },
    ],
    authenticated: { ok: false, message: 'The service rejected this API key.' },
  });

export const country = (overrides: Partial<Country> = {}): Country => ({
  code: 'US',
  name: 'United States',
  region: 'North America',
  products: ['residential', 'mobile', 'mobile-gb'],
  cities: 3,
  asns: 2,
  carriers: 2,
  ...overrides,
});

export const countries = (): Country[] => [
  country(),
  country({ code: 'DE', name: 'Germany', region: 'Europe', products: ['residential', 'mobile'] }),
  country({ code: 'CL', name: 'Chile', region: 'South America', products: ['residential'] }),
];

export const states = (): State[] => [
  { id: 'california', code: 'CA', name: 'California', cities: 2 },
  { id: 'new_york', code: 'NY', name: 'New York', cities: 1 },
];

export const cities = (): City[] => [
  { id: 'los_angeles', name: 'Los Angeles', state: 'california' },
  { id: 'new_york', name: 'New York', state: 'new_york' },
];

export const carriers = (): Carrier[] => [
  {
    id: 'tmobile_us',
    name: 'T-Mobile US',
    networkTypes: ['4G', '5G'],
    available: true,
    cities: ['los_angeles'],
  },
  { id: 'sprint', name: 'Sprint', networkTypes: ['4G'], available: false, cities: [] },
];

export const coins = (): Coin[] => [
  {
    code: 'USDT',
    name: 'Tether',
    networks: [
      {
        id: 'tron',
        name: 'Tron (TRC-20)',
        confirmationsRequired: 20,
        estimatedMinutes: 3,
        memoRequired: false,
        address: 'TXYZ',
      },
      {
        id: 'ethereum',
        name: 'Ethereum (ERC-20)',
        confirmationsRequired: 12,
        estimatedMinutes: null,
        memoRequired: false,
        address: '0xabc',
      },
    ],
  },
];

export const port = (overrides: Partial<MobilePortView> = {}): MobilePortView => ({
  id: 'port_1',
  label: 'Sneaker drops LA',
  status: 'active',
  country: 'US',
  city: 'los_angeles',
  carrier: 'tmobile_us',
  carrierName: 'T-Mobile US',
  networkType: '5G',
  currentIp: '100.85.1.2',
  ipChangedAt: '2026-03-10T11:55:00.000Z',
  endpoint: { host: 'gw.example.com', httpPort: 8000, socksPort: 9000 },
  username: 'u',
  password: 'p',
  rotation: { mode: 'interval', intervalMinutes: 30 },
  minRotationIntervalSeconds: 30,
  planId: 'mobile-30d',
  autoRenew: true,
  createdAt: '2026-03-01T00:00:00.000Z',
  expiresAt: '2026-04-01T00:00:00.000Z',
  hasRotationLink: true,
  ...overrides,
});

export const subscription = (overrides: Partial<Subscription> = {}): Subscription => ({
  id: 'sub_1',
  productId: 'residential',
  label: 'Price monitoring',
  planId: 'res-50',
  status: 'active',
  trafficTotalBytes: 50_000_000_000,
  trafficUsedBytes: 12_500_000_000,
  trafficRemainingBytes: 37_500_000_000,
  expiresAt: '2026-04-10T00:00:00.000Z',
  autoRenew: false,
  username: 'u',
  password: 'p',
  endpoint: { host: 'gw.example.com', httpPort: 8000, socksPort: 9000 },
  subUserCount: 3,
  createdAt: '2026-03-01T00:00:00.000Z',
  ...overrides,
});

export const topUp = (overrides: Partial<TopUp> = {}): TopUp => ({
  id: 'topup_1',
  status: 'credited',
  final: true,
  amountUsd: '1234.50',
  coin: 'USDT',
  network: 'tron',
  address: 'TXYZ',
  amountCrypto: '1234.500001',
  rate: '1.00',
  paymentUri: 'tron:TXYZ?amount=1234.500001',
  expiresAt: '2026-03-10T12:30:00.000Z',
  txidDeadline: '2026-03-13T12:30:00.000Z',
  confirmationsRequired: 20,
  confirmations: 20,
  txid: null,
  txidSubmittedAt: null,
  amountReceivedCrypto: '1234.500001',
  explorerUrl: null,
  creditedUsd: '1234.50',
  creditedAt: '2026-03-10T12:10:00.000Z',
  rejection: null,
  purchase: null,
  createdAt: '2026-03-10T12:00:00.000Z',
  ...overrides,
});

export const topUpPage = (data: TopUp[], page = 1, totalPages = 1, total = data.length): TopUpPage => ({
  data,
  pagination: { page, perPage: 20, total, totalPages },
});

/** `ports:list`'s answer for these ports: the lean table main sends (`src-main/core/ports/port-rows.ts`). */
export function portsAnswer(
  ports: MobilePortView[],
  options: { profileId?: string; asOf?: string; revalidating?: boolean } = {},
): PortsListView {
  return portsListView(options.profileId ?? 'prof_work', {
    items: ports,
    readAt: Date.parse(options.asOf ?? new Date().toISOString()),
    revalidating: options.revalidating ?? false,
  });
}

/** A sub-user as main holds it (the API's whole object, password included). */
export const subUser = (overrides: Partial<SubUser> = {}): SubUser => ({
  id: 'su_1',
  label: 'Scraper',
  username: 'u-su1',
  password: 'pw',
  trafficLimitBytes: 2_000_000_000,
  trafficUsedBytes: 500_000_000,
  enabled: true,
  createdAt: '2026-03-02T00:00:00.000Z',
  ...overrides,
});

/** `subscriptions:subUsers`'s lean table of these sub-users, as main answers it (their passwords left out). */
export function subUsersTable(subUsers: SubUser[] = [], limit: number | null = 20): SubUsersListView {
  return subUsersListView({ data: subUsers, limit });
}
