import type { AccountState } from '../sandbox-state';
import type { SeedContext } from '../sandbox-world';
import { DAY_MS } from '../usage/usage-report';
import { addSubscription, addSubUser } from './subscription-records';
import { settleSubscription } from './subscription-traffic';
import type { SubscriptionRecord, SubscriptionsState } from './subscription-types';

export type { SubscriptionsState } from './subscription-types';

const GB = 1_000_000_000;
const MB = 1_000_000;

/**
 * The demo account's history is played through the same traffic engine the API uses, so the seeded
 * numbers obey every rule (caps, disabled sub-users, totals). No expiry falls inside the history, so
 * no renewal is charged while seeding.
 */
const SEED_ACCOUNT: AccountState = { balanceUsd: '0.00' };

/**
 * Plays the subscription's history once without a traffic limit, then again with the main user's load
 * scaled so that about `targetBytes` are used at the end (traffic is linear in the mean, up to rounding).
 */
function playHistoryTo(sub: SubscriptionRecord, history: () => void, targetBytes: number): void {
  const total = sub.trafficTotalBytes;
  sub.trafficTotalBytes = Number.MAX_SAFE_INTEGER;
  history();
  const others = sub.subUsers.reduce((sum, s) => sum + s.usedBytes, 0);
  const factor = Math.max(0, targetBytes - others) / Math.max(1, sub.main.usedBytes);
  for (const consumer of [sub.main, ...sub.subUsers]) {
    consumer.usedBytes = 0;
    consumer.daily = {};
  }
  sub.settledAt = sub.createdAt;
  sub.main.meanDailyBytes = Math.floor(sub.main.meanDailyBytes * factor);
  sub.trafficTotalBytes = total;
  history();
}

/**
 * A believable account: four subscriptions over both traffic products. One with several sub-users
 * (one at its cap, one uncapped, one disabled) and auto-renewal, one close to running out of traffic,
 * one expiring in two days without auto-renewal, and one whose traffic never expires.
 */
export function seedSubscriptionsState(context: SeedContext): SubscriptionsState {
  const state: SubscriptionsState = { version: 1, subscriptions: [] };
  const now = context.now;
  const daysAgo = (days: number) => now - days * DAY_MS;

  // Two 25 GB periods bought (the first renewed automatically), 20 days left.
  const scraping = addSubscription(state, context, {
    productId: 'residential',
    planId: 'res-pro',
    label: 'Price monitoring',
    trafficTotalBytes: 50 * GB,
    expiresAt: daysAgo(40) + 60 * DAY_MS,
    autoRenew: true,
    createdAt: daysAgo(40),
    meanDailyBytes: 380 * MB,
  });
  scraping.renewals.push({ at: daysAgo(10), priceUsd: '75.00' });
  addSubUser(state, scraping, context, {
    label: 'Scraper EU',
    trafficLimitBytes: 8 * GB,
    createdAt: daysAgo(35),
    meanDailyBytes: 260 * MB,
  });
  addSubUser(state, scraping, context, {
    label: 'Scraper US',
    trafficLimitBytes: null,
    createdAt: daysAgo(30),
    meanDailyBytes: 240 * MB,
  });
  const qa = addSubUser(state, scraping, context, {
    label: 'QA team',
    trafficLimitBytes: 2 * GB,
    createdAt: daysAgo(25),
    meanDailyBytes: 70 * MB,
  });
  settleSubscription(scraping, daysAgo(6), SEED_ACCOUNT);
  qa.enabled = false;
  settleSubscription(scraping, now, SEED_ACCOUNT);

  // 5 GB of mobile traffic, about 93% used: it runs out within a day or two of demo time.
  const social = addSubscription(state, context, {
    productId: 'mobile-gb',
    planId: 'mgb-5',
    label: 'Social accounts',
    trafficTotalBytes: 5 * GB,
    expiresAt: daysAgo(21) + 30 * DAY_MS,
    autoRenew: true,
    createdAt: daysAgo(21),
    meanDailyBytes: 150 * MB,
  });
  addSubUser(state, social, context, {
    label: 'Instagram',
    trafficLimitBytes: 2 * GB,
    createdAt: daysAgo(14),
    meanDailyBytes: 60 * MB,
  });
  playHistoryTo(social, () => settleSubscription(social, now, SEED_ACCOUNT), 4.65 * GB);

  // Expires in two days and will not renew.
  const seo = addSubscription(state, context, {
    productId: 'residential',
    planId: 'res-starter',
    label: 'SEO rank tracker',
    trafficTotalBytes: 5 * GB,
    expiresAt: daysAgo(28) + 30 * DAY_MS,
    autoRenew: false,
    createdAt: daysAgo(28),
    meanDailyBytes: 65 * MB,
  });
  settleSubscription(seo, now, SEED_ACCOUNT);

  // Pay-as-you-go traffic that never expires.
  const ads = addSubscription(state, context, {
    productId: 'mobile-gb',
    planId: 'mgb-20',
    label: 'Ad verification',
    trafficTotalBytes: 40 * GB,
    expiresAt: null,
    autoRenew: false,
    createdAt: daysAgo(75),
    meanDailyBytes: 120 * MB,
  });
  addSubUser(state, ads, context, {
    label: 'Verifier Berlin',
    trafficLimitBytes: 10 * GB,
    createdAt: daysAgo(60),
    meanDailyBytes: 90 * MB,
  });
  addSubUser(state, ads, context, {
    label: 'Verifier Madrid',
    trafficLimitBytes: null,
    createdAt: daysAgo(60),
    meanDailyBytes: 110 * MB,
  });
  settleSubscription(ads, now, SEED_ACCOUNT);

  return state;
}
