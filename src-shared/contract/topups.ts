import { z } from 'zod';
import { freeFormObject } from './free-form';
import type { TopUp, TopUpPage } from '../api-types';
import { MAX_TXID_LENGTH } from '../txid-format';
import { call, type DomainCalls, type DomainEvents, event } from './define';
import { noInput, page, perPage, resourceId } from './shared-inputs';

export const TOP_UP_STATUSES = ['awaiting_payment', 'verifying', 'credited', 'rejected', 'expired'] as const;

/**
 * Bounds for `amountUsd`. `min` is the spec's. The spec's 10,000.00 is only the service's *default*
 * maximum (an account may be allowed more), so the app lets the service decide above it (the wizard
 * warns); `max` is the app's own bound against a typo (an extra zero or two).
 */
const TOP_UP_AMOUNT_USD = { min: '25.00', max: '1000000.00' } as const;
const PURCHASE_QUANTITY = { min: 1, max: 100 } as const;
const TOP_UP_ID_MAX = 128;
const PLAN_ID_MAX = 128;
const PROMO_CODE_MAX = 64;
const COIN_CODE_MAX = 16;
const NETWORK_ID_MAX = 32;

export interface TopUpsChanged {
  profileId: string;
  /** The top-ups whose state main learned of; others are unchanged. */
  changed: TopUp[];
}

/** A plan the user already has (from their subscriptions and ports), offered in the purchase step. */
export interface TopUpPlanChoice {
  planId: string;
  /** What the user knows it by: the subscription's or port's label and product. */
  label: string;
  source: 'subscription' | 'port';
}

/** What the pay step shows: the QR code encodes exactly `paymentUri`. */
export interface TopUpPaymentDetails {
  topUpId: string;
  paymentUri: string;
  /** An SVG document of the QR code of `paymentUri` (made in main with `qrcode`). */
  qrSvg: string;
  /** The address the funds go to (the network's fixed deposit address). */
  depositAddress: string;
  /** The exact amount to send, as the service gave it (no grouping, no rounding). */
  amountCrypto: string;
  coin: string;
  network: string;
  /**
   * For a token on an EIP-681 URI (`ethereum:TOKEN@chain/transfer?address=DEPOSIT&uint256=UNITS`),
   * the token's contract: the URI's target is NOT where the funds go. Null for a native coin.
   */
  tokenContract: string | null;
  /** The transaction's explorer link (https only), once there is a txid; null before. */
  explorerUrl: string | null;
  /** The explorer's host name, for the link's text. */
  explorerHost: string | null;
}

/** Where a simulated payment is sent from (demo mode only): the exact amount, less, or after `expiresAt`. */
const SIMULATED_PAYMENTS = ['exact', 'short', 'late'] as const;
export type SimulatedPayment = (typeof SIMULATED_PAYMENTS)[number];

export interface TopUpsCsvExport {
  /** Suggested file name, e.g. `topups-credited.csv`. */
  fileName: string;
  csv: string;
  rows: number;
}

/** A pending payment as the tray shows it. */
export interface PendingTopUpSummary {
  profileId: string;
  topUpId: string;
  status: string;
  /** E.g. "Top-up of 50.00 USD: 1 of 2 confirmations". */
  text: string;
}

const AMOUNT_PATTERN = /^\d{1,7}\.\d{2}$/;

/** Compares two non-negative decimal strings with exactly two decimals, without floats. */
function compareCents(a: string, b: string): number {
  const cents = (value: string): bigint => BigInt(value.replace('.', ''));
  const difference = cents(a) - cents(b);
  return difference === 0n ? 0 : difference < 0n ? -1 : 1;
}

/** USD as a string with exactly two decimals, 25.00 to 1,000,000.00 (see `TOP_UP_AMOUNT_USD`); never a float. */
export const amountUsd = z
  .string('Enter an amount in USD, e.g. 50.00')
  .trim()
  .regex(AMOUNT_PATTERN, 'An amount in USD with two decimals, e.g. 50.00')
  // The bounds are only checked on a well-formed amount (the pattern's message covers the rest).
  .refine((value) => !AMOUNT_PATTERN.test(value) || compareCents(value, TOP_UP_AMOUNT_USD.min) >= 0, {
    message: `At least ${TOP_UP_AMOUNT_USD.min} USD`,
  })
  .refine((value) => !AMOUNT_PATTERN.test(value) || compareCents(value, TOP_UP_AMOUNT_USD.max) <= 0, {
    message: 'At most 1,000,000.00 USD in one top-up (a bound against typos)',
  });

const topUpId = resourceId('Choose a top-up', TOP_UP_ID_MAX);

const purchaseInput = z.strictObject({
  planId: resourceId('Choose a plan', PLAN_ID_MAX),
  quantity: z
    .int('A whole number')
    .min(PURCHASE_QUANTITY.min, `At least ${PURCHASE_QUANTITY.min}`)
    .max(PURCHASE_QUANTITY.max, `At most ${PURCHASE_QUANTITY.max}`),
  options: freeFormObject.optional(),
  promoCode: z.string().trim().min(1).max(PROMO_CODE_MAX).optional(),
});

export const topUpCreateInput = z.strictObject({
  amountUsd,
  coin: z.string().trim().min(1, 'Choose a coin').max(COIN_CODE_MAX),
  network: z.string().trim().min(1, 'Choose a network').max(NETWORK_ID_MAX),
  purchase: purchaseInput.optional(),
  /** Made once per wizard attempt (a uuid): a double click or a resubmit maps to the same top-up. */
  attemptId: z.uuid('An attempt id is a uuid'),
});

export const topupsCalls = {
  'topups:list': call<TopUpPage>('read')(
    z
      .strictObject({
        page: page.optional(),
        perPage: perPage.optional(),
        status: z.enum(TOP_UP_STATUSES).optional(),
      })
      .optional(),
  ),
  'topups:get': call<TopUp>('read')(z.strictObject({ topUpId })),
  /**
   * Creates a top-up (and starts watching it). The attempt's Idempotency-Key is stored before the
   * request and reused on every retry, so one attempt makes at most one top-up.
   */
  'topups:create': call<TopUp>('spend')(topUpCreateInput),
  /**
   * "I have sent it". The txid, when given, is checked against the top-up's network in main before
   * anything is sent (a field error on `txid`).
   */
  'topups:declareTxid': call<TopUp>('spend')(
    z.strictObject({
      topUpId,
      txid: z.string().trim().min(1).max(MAX_TXID_LENGTH, `At most ${MAX_TXID_LENGTH} characters`).optional(),
    }),
  ),
  /** Plans from the user's own subscriptions and ports, for the purchase step. */
  'topups:plans': call<TopUpPlanChoice[]>('read')(noInput),
  /** Demo mode only: sends a payment on the in-process sandbox's chain. Refused otherwise. */
  'topups:simulatePayment': call<TopUp>('spend')(
    z.strictObject({ topUpId, kind: z.enum(SIMULATED_PAYMENTS) }),
  ),
  'topups:exportCsv': call<TopUpsCsvExport>('read')(
    z.strictObject({ status: z.enum(TOP_UP_STATUSES).optional() }).optional(),
  ),
  'topups:paymentDetails': call<TopUpPaymentDetails>('read')(z.strictObject({ topUpId })),
  /** Pending payments of every watched top-up (the tray's badge and lines). */
  'topups:pending': call<PendingTopUpSummary[]>('read')(noInput),
} as const satisfies DomainCalls<'topups'>;

export const topupsEvents = {
  'topups:changed': event<TopUpsChanged>(),
} as const satisfies DomainEvents<'topups'>;
