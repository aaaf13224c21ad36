import { CATALOG_COUNTRIES } from '../catalog/catalog-data';
import type { SeedContext } from '../sandbox-world';
import type { SeededRandom } from '../seeded-random';
import type {
  SubscriptionRecord,
  SubscriptionsState,
  SubUserRecord,
  TrafficProductId,
} from './subscription-types';

const PASSWORD_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789';
const USERNAME_ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';
const GENERATED_PASSWORD_LENGTH = 20;

/** 20 letters and digits (no look-alikes such as 0/O, 1/l/I): about 116 bits, safe in a proxy URL. */
export const generatePassword = (random: SeededRandom): string =>
  random.chars(GENERATED_PASSWORD_LENGTH, PASSWORD_ALPHABET);

/**
 * Printable ASCII without spaces: what every proxy client accepts in `user:password@host` and in
 * `Proxy-Authorization` without encoding surprises.
 */
export const isAcceptablePassword = (password: string): boolean => /^[\x21-\x7e]+$/.test(password);

const takenUsernames = (state: SubscriptionsState): Set<string> => {
  const taken = new Set<string>();
  for (const sub of state.subscriptions) {
    taken.add(sub.username);
    for (const subUser of sub.subUsers) taken.add(subUser.username);
  }
  return taken;
};

/**
 * Main users are `u` plus 9 lower-case letters or digits. Usernames never contain `-`, which the
 * gateway reserves for targeting segments (`-country-us`, `-state-...`).
 */
function uniqueMainUsername(state: SubscriptionsState, random: SeededRandom): string {
  const taken = takenUsernames(state);
  for (;;) {
    const candidate = `u${random.chars(9, USERNAME_ALPHABET)}`;
    if (!taken.has(candidate)) return candidate;
  }
}

/** Sub-users are the main username, `_`, and 5 lower-case letters or digits, so their owner shows. */
function uniqueSubUsername(state: SubscriptionsState, sub: SubscriptionRecord, random: SeededRandom): string {
  const taken = takenUsernames(state);
  for (;;) {
    const candidate = `${sub.username}_${random.chars(5, USERNAME_ALPHABET)}`;
    if (!taken.has(candidate)) return candidate;
  }
}

/** Exit countries for a product: the catalog's countries that sell it, one to four, heaviest first. */
function pickCountries(productId: TrafficProductId, random: SeededRandom, count: number): string[] {
  const offered = CATALOG_COUNTRIES.filter((c) => c.products.includes(productId)).map((c) => c.code);
  const pool = offered.length > 0 ? [...offered] : ['US'];
  const picked: string[] = [];
  while (picked.length < Math.min(count, pool.length)) {
    const index = random.int(0, pool.length - 1);
    picked.push(pool.splice(index, 1)[0] as string);
  }
  return picked;
}

export interface NewSubscription {
  productId: TrafficProductId;
  planId: string;
  label: string;
  trafficTotalBytes: number;
  expiresAt: number | null;
  autoRenew: boolean;
  createdAt: number;
  /** Mean daily traffic of the main user (the demo's simulated load). */
  meanDailyBytes: number;
}

/** Adds a subscription with fresh credentials; its traffic starts at `createdAt`. */
export function addSubscription(
  state: SubscriptionsState,
  context: Pick<SeedContext, 'random' | 'newId'>,
  input: NewSubscription,
): SubscriptionRecord {
  const id = context.newId('sub');
  const record: SubscriptionRecord = {
    id,
    productId: input.productId,
    label: input.label,
    planId: input.planId,
    trafficTotalBytes: input.trafficTotalBytes,
    expiresAt: input.expiresAt,
    autoRenew: input.autoRenew,
    username: uniqueMainUsername(state, context.random),
    password: generatePassword(context.random),
    createdAt: input.createdAt,
    main: {
      key: id,
      meanDailyBytes: input.meanDailyBytes,
      countries: pickCountries(input.productId, context.random, context.random.int(2, 4)),
      usedBytes: 0,
      daily: {},
    },
    subUsers: [],
    settledAt: input.createdAt,
    renewals: [],
  };
  state.subscriptions.push(record);
  return record;
}

export interface NewSubUser {
  label: string;
  password?: string | undefined;
  trafficLimitBytes: number | null;
  enabled?: boolean;
  createdAt: number;
  /** Default: drawn from the seeded random, 40-400 MB a day. */
  meanDailyBytes?: number;
}

/** Adds a sub-user to `sub`, which must be settled up to `createdAt` (its traffic starts then). */
export function addSubUser(
  state: SubscriptionsState,
  sub: SubscriptionRecord,
  context: Pick<SeedContext, 'random' | 'newId'>,
  input: NewSubUser,
): SubUserRecord {
  const id = context.newId('su');
  const record: SubUserRecord = {
    id,
    label: input.label,
    username: uniqueSubUsername(state, sub, context.random),
    password: input.password ?? generatePassword(context.random),
    trafficLimitBytes: input.trafficLimitBytes,
    enabled: input.enabled ?? true,
    createdAt: input.createdAt,
    deletedAt: null,
    key: id,
    meanDailyBytes: input.meanDailyBytes ?? context.random.int(40, 400) * 1_000_000,
    countries: pickCountries(sub.productId, context.random, context.random.int(1, 3)),
    usedBytes: 0,
    daily: {},
  };
  sub.subUsers.push(record);
  return record;
}
