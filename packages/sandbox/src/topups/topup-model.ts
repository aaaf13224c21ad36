import { divide, fromUnits, toUnits } from '../lib/decimal';
import type { OrderRecord } from '../orders/order-placement';
import type { PurchaseOptions } from '../orders/purchase-request';
import type { SeedContext } from '../sandbox-world';
import { COINS, type CoinCode, findCoinNetwork, type NetworkId, NETWORKS, paymentUri } from './coin-catalog';
import { generateTxid } from './txid-format';

export type TopUpStatus = 'awaiting_payment' | 'verifying' | 'credited' | 'rejected' | 'expired';
export const TOP_UP_STATUSES: readonly TopUpStatus[] = [
  'awaiting_payment',
  'verifying',
  'credited',
  'rejected',
  'expired',
];

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
/** Rate lock and validity of a top-up. */
const TOP_UP_VALIDITY_MS = 30 * MINUTE_MS;
/** `txidDeadline` = `expiresAt` + this. */
const TXID_GRACE_MS = 72 * HOUR_MS;
/** A declaration with no payment found within this time is rejected. */
export const DECLARATION_WAIT_MS = 24 * HOUR_MS;
/** How long an `Idempotency-Key` is remembered. */
export const IDEMPOTENCY_TTL_MS = 24 * HOUR_MS;
export const MIN_TOP_UP_USD = '25.00';
export const MAX_TOP_UP_USD = '10000.00';

type PurchaseStatus = 'pending' | 'completed' | 'failed';

interface PurchaseRecord {
  planId: string;
  planName: string;
  quantity: number;
  options: PurchaseOptions;
  promoCode: string | null;
  total: string;
  status: PurchaseStatus;
  orderId: string | null;
  failureReason: string | null;
}

interface Rejection {
  /** `amount_mismatch`, `payment_not_found` or `payment_predates_topup`. */
  reason: string;
  message: string;
}

/** One top-up as persisted (times as epoch ms). */
export interface TopUpRecord {
  id: string;
  /** Creation order, the tie-breaker of events at the same instant. */
  seq: number;
  status: TopUpStatus;
  amountUsd: string;
  coin: CoinCode;
  network: NetworkId;
  address: string;
  amountCrypto: string;
  /** `amountUsd / rate` rounded up, in units of the coin's precision (a bigint as a string). */
  baseUnits: string;
  /** The unique offset added to the base, in the same units. */
  offset: number;
  rate: string;
  createdAt: number;
  expiresAt: number;
  txidDeadline: number;
  txid: string | null;
  txidSubmittedAt: number | null;
  /** When the matched payment arrived on chain; confirmations count from here. */
  paidAt: number | null;
  amountReceivedCrypto: string | null;
  /** USD per coin that the credit is computed at: the locked rate, or the rate when a late payment arrived. */
  creditRate: string | null;
  creditedUsd: string | null;
  creditedAt: number | null;
  rejection: Rejection | null;
  purchase: PurchaseRecord | null;
  /** The amount is free for other top-ups again (the top-up is final). */
  released: boolean;
}

/** A simulated transfer to a network's deposit address. */
export interface ChainTransactionRecord {
  txid: string;
  network: NetworkId;
  amountCrypto: string;
  receivedAt: number;
  /** The top-up the payment was matched to, if any. */
  topUpId: string | null;
}

export interface IdempotencyRecord {
  key: string;
  /** Canonical JSON of the request body. */
  fingerprint: string;
  topUpId: string;
  createdAt: number;
}

/** Persisted state of this domain (plain JSON, times as epoch ms). */
export interface TopUpsState {
  version: 1;
  nextSeq: number;
  /** USD per coin, decimal strings. */
  rates: Record<CoinCode, string>;
  /** In creation order. */
  items: TopUpRecord[];
  chain: ChainTransactionRecord[];
  /** In creation order, pruned after 24 h. */
  idempotency: IdempotencyRecord[];
  orders: OrderRecord[];
}

export const defaultRates = (): Record<CoinCode, string> =>
  Object.fromEntries(COINS.map((c) => [c.code, c.defaultRate])) as Record<CoinCode, string>;

/** `amountUsd / rate` rounded up to the coin's precision, as a unit count. */
export function baseCryptoUnits(amountUsd: string, rate: string, precision: number): bigint {
  return toUnits(divide(amountUsd, rate, precision, 'up'), precision);
}

/** A new top-up as created: awaiting payment, nothing received, its amount reserved. */
export function newTopUpRecord(input: {
  id: string;
  seq: number;
  coin: CoinCode;
  network: NetworkId;
  amountUsd: string;
  amountCrypto: string;
  baseUnits: bigint;
  offset: number;
  rate: string;
  createdAt: number;
  purchase: TopUpRecord['purchase'];
}): TopUpRecord {
  const pair = findCoinNetwork(input.coin, input.network);
  if (!pair) throw new Error(`no ${input.coin} on ${input.network}`);
  const expiresAt = input.createdAt + TOP_UP_VALIDITY_MS;
  return {
    id: input.id,
    seq: input.seq,
    status: 'awaiting_payment',
    amountUsd: input.amountUsd,
    coin: input.coin,
    network: input.network,
    address: pair.network.address,
    amountCrypto: input.amountCrypto,
    baseUnits: input.baseUnits.toString(),
    offset: input.offset,
    rate: input.rate,
    createdAt: input.createdAt,
    expiresAt,
    txidDeadline: expiresAt + TXID_GRACE_MS,
    txid: null,
    txidSubmittedAt: null,
    paidAt: null,
    amountReceivedCrypto: null,
    creditRate: null,
    creditedUsd: null,
    creditedAt: null,
    rejection: null,
    purchase: input.purchase,
    released: false,
  };
}

/**
 * A final top-up of the seeded history (its amount is not reserved), so that the demo's top-up list
 * is not empty: one credited BTC top-up and one USDT top-up that expired unpaid.
 */
function seedHistoricTopUp(
  context: SeedContext,
  state: TopUpsState,
  input: {
    coin: CoinCode;
    network: NetworkId;
    amountUsd: string;
    rate: string;
    createdAt: number;
    paidAfterMs: number | null;
  },
): void {
  const pair = findCoinNetwork(input.coin, input.network);
  if (!pair) throw new Error(`seed: no ${input.coin} on ${input.network}`);
  const base = baseCryptoUnits(input.amountUsd, input.rate, pair.coin.precision);
  const amountCrypto = fromUnits(base + 1n, pair.coin.precision);
  const record = newTopUpRecord({
    id: context.newId('topup'),
    seq: state.nextSeq++,
    coin: input.coin,
    network: input.network,
    amountUsd: input.amountUsd,
    amountCrypto,
    baseUnits: base,
    offset: 1,
    rate: input.rate,
    createdAt: input.createdAt,
    purchase: null,
  });
  // History: final from the start, so its amount is not reserved.
  record.status = 'expired';
  record.released = true;
  if (input.paidAfterMs !== null) {
    const paidAt = input.createdAt + input.paidAfterMs;
    const txid = generateTxid(input.network, context.random);
    state.chain.push({ txid, network: input.network, amountCrypto, receivedAt: paidAt, topUpId: record.id });
    Object.assign(record, {
      status: 'credited',
      txid,
      paidAt,
      amountReceivedCrypto: amountCrypto,
      creditRate: input.rate,
      creditedUsd: input.amountUsd,
      creditedAt: paidAt + pair.network.confirmationsRequired * pair.network.blockMs,
    });
  }
  state.items.push(record);
}

export function seedTopUpsState(context: SeedContext): TopUpsState {
  const state: TopUpsState = {
    version: 1,
    nextSeq: 1,
    rates: defaultRates(),
    items: [],
    chain: [],
    idempotency: [],
    orders: [],
  };
  const day = 24 * HOUR_MS;
  seedHistoricTopUp(context, state, {
    coin: 'BTC',
    network: 'bitcoin',
    amountUsd: '150.00',
    rate: '63250.00',
    createdAt: context.now - 9 * day,
    paidAfterMs: 7 * MINUTE_MS,
  });
  seedHistoricTopUp(context, state, {
    coin: 'USDT',
    network: 'tron',
    amountUsd: '50.00',
    rate: '1.00',
    createdAt: context.now - 5 * day,
    paidAfterMs: null,
  });
  return state;
}

/**
 * Scale data (`SandboxScale.topUps`): `total` top-ups in all, oldest first. `abandoned` of them were
 * created in the last 72 hours and never paid: they expire as the sandbox settles and stay non-final
 * (their amount reserved, a late payment still matched) until their txid deadline. The others are
 * history older than any deadline: credited (two in three) or expired unpaid, final either way.
 */
export function seedScaleTopUps(
  context: SeedContext,
  state: TopUpsState,
  total: number,
  abandoned: number,
): void {
  const open = Math.min(abandoned, total);
  const pairs = COINS.flatMap((coin) =>
    coin.networks.map((entry) => ({ coin: coin.code, network: entry.network })),
  );
  const day = 24 * HOUR_MS;
  for (let index = state.items.length; index < total - open; index += 1) {
    const pair = pairs[index % pairs.length] as (typeof pairs)[number];
    seedHistoricTopUp(context, state, {
      coin: pair.coin,
      network: pair.network,
      amountUsd: `${25 + (index % 400)}.00`,
      rate: state.rates[pair.coin],
      createdAt: context.now - (4 + (total - index) * 0.25) * day,
      paidAfterMs: index % 3 === 2 ? null : 5 * MINUTE_MS,
    });
  }
  for (let index = 0; index < open; index += 1) {
    const pair = pairs[index % pairs.length] as (typeof pairs)[number];
    const found = findCoinNetwork(pair.coin, pair.network);
    if (!found) continue;
    const amountUsd = `${100 + index}.00`;
    const rate = state.rates[pair.coin];
    const base = baseCryptoUnits(amountUsd, rate, found.coin.precision);
    // A distinct USD amount each: no two share a base, so offset 1 is free for all of them.
    state.items.push(
      newTopUpRecord({
        id: context.newId('topup'),
        seq: state.nextSeq++,
        coin: pair.coin,
        network: pair.network,
        amountUsd,
        amountCrypto: fromUnits(base + 1n, found.coin.precision),
        baseUnits: base,
        offset: 1,
        rate,
        // Spread over the 72 hours, each past its 30-minute validity.
        createdAt:
          context.now -
          TOP_UP_VALIDITY_MS -
          MINUTE_MS -
          Math.floor(((open - index) * 70 * HOUR_MS) / (open + 1)),
        purchase: null,
      }),
    );
  }
}

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

/** True once the top-up can no longer change: stop polling. */
function isFinal(record: TopUpRecord, now: number): boolean {
  if (record.status === 'credited') return true;
  return (record.status === 'expired' || record.status === 'rejected') && now >= record.txidDeadline;
}

/** Confirmations of the matched payment at `now`, counted per block and capped at the requirement. */
function confirmationsAt(record: TopUpRecord, now: number): number {
  const network = NETWORKS[record.network];
  if (record.status === 'credited') return network.confirmationsRequired;
  if (record.paidAt === null || record.status !== 'verifying') return 0;
  const blocks = Math.floor((now - record.paidAt) / network.blockMs);
  return Math.max(0, Math.min(network.confirmationsRequired, blocks));
}

/** The API's top-up resource. */
export function renderTopUp(record: TopUpRecord, now: number): Record<string, unknown> {
  const pair = findCoinNetwork(record.coin, record.network);
  if (!pair)
    throw new Error(`top-up ${record.id}: ${record.coin} on ${record.network} is not in the catalog`);
  return {
    id: record.id,
    status: record.status,
    final: isFinal(record, now),
    amountUsd: record.amountUsd,
    coin: record.coin,
    network: record.network,
    address: record.address,
    amountCrypto: record.amountCrypto,
    rate: record.rate,
    paymentUri: paymentUri(pair.coin, pair.entry, record.amountCrypto),
    expiresAt: iso(record.expiresAt),
    txidDeadline: iso(record.txidDeadline),
    confirmationsRequired: pair.network.confirmationsRequired,
    confirmations: confirmationsAt(record, now),
    txid: record.txid,
    txidSubmittedAt: iso(record.txidSubmittedAt),
    amountReceivedCrypto: record.amountReceivedCrypto,
    explorerUrl: record.txid === null ? null : pair.network.explorerUrl(record.txid),
    creditedUsd: record.creditedUsd,
    creditedAt: iso(record.creditedAt),
    rejection: record.rejection,
    purchase: record.purchase,
    createdAt: iso(record.createdAt),
  };
}
