import type { IncomingHttpHeaders } from 'node:http';
import { compare, isDecimalAmount, normalize, subtract } from '../lib/decimal';
import { BodyReader, type FieldErrors } from '../http/input-reader';
import { conflict } from '../http/sandbox-error';
import { readPurchase } from '../orders/purchase-request';
import type { SandboxWorld } from '../sandbox-world';
import { type CoinCode, findCoinNetwork, NETWORKS, type NetworkId } from './coin-catalog';
import { MAX_TOP_UP_USD, MIN_TOP_UP_USD } from './topup-model';
import type { NewTopUp } from './topup-service';
import { MAX_TXID_LENGTH, normalizeTxid, TXID_FORMAT_DESCRIPTION } from '../lib/txid-format';

const IDEMPOTENCY_HEADER = 'Idempotency-Key';
const MAX_IDEMPOTENCY_KEY_LENGTH = 128;

/** The `Idempotency-Key` header, or undefined when absent; a bad one is a field error. */
export function readIdempotencyKey(headers: IncomingHttpHeaders, errors: FieldErrors): string | undefined {
  const raw = headers[IDEMPOTENCY_HEADER.toLowerCase()];
  if (raw === undefined) return undefined;
  const key = Array.isArray(raw) ? raw.join(', ') : raw;
  if (key.length === 0) {
    errors.add(IDEMPOTENCY_HEADER, 'required', 'must not be empty');
    return undefined;
  }
  if (key.length > MAX_IDEMPOTENCY_KEY_LENGTH) {
    errors.add(IDEMPOTENCY_HEADER, 'too_long', `must be at most ${MAX_IDEMPOTENCY_KEY_LENGTH} characters`);
    return undefined;
  }
  return key;
}

/** JSON with object members in sorted order: two bodies that mean the same give the same text. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, member]) => member !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([name, member]) => `${JSON.stringify(name)}:${canonicalJson(member)}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

/**
 * Validates a `POST /v1/topups` body. Field errors (422, all at once, on top of `errors` which may
 * already hold a header error) come first; then 409 `coin_unavailable`, then 409 `plan_unavailable`.
 */
export function readNewTopUp(world: SandboxWorld, body: unknown, errors: FieldErrors): NewTopUp {
  const reader = BodyReader.of(body, { emptyAllowed: false }, errors);
  const amountInput = reader.string('amountUsd', { required: true });
  let amountUsd: string | undefined;
  if (amountInput !== undefined) {
    if (!isDecimalAmount(amountInput, 2)) {
      errors.add(
        'amountUsd',
        'invalid_format',
        'must be a USD amount with at most 2 decimals, e.g. "100.00"',
      );
    } else if (compare(amountInput, MIN_TOP_UP_USD) < 0) {
      errors.add('amountUsd', 'too_small', `must be at least ${MIN_TOP_UP_USD}`);
    } else if (compare(amountInput, MAX_TOP_UP_USD) > 0) {
      errors.add('amountUsd', 'too_big', `must be at most ${MAX_TOP_UP_USD}`);
    } else {
      amountUsd = normalize(amountInput, 2);
    }
  }
  const coin = reader.string('coin', { required: true, min: 1 });
  const network = reader.string('network', { required: true, min: 1 });
  const purchaseReader = reader.object('purchase', { nullable: true });
  const purchase = purchaseReader ? readPurchase(world, purchaseReader) : undefined;

  if (amountUsd !== undefined && purchase && purchase.plan.available) {
    const balance = world.state.account.balanceUsd;
    const shortfall = subtract(purchase.total, balance, 2);
    if (compare(amountUsd, shortfall) < 0) {
      errors.add(
        'amountUsd',
        'too_small',
        `must cover the purchase total of ${purchase.total} minus the balance of ${balance}: at least ${shortfall}`,
      );
    }
  }
  errors.throwIfAny();

  const pair = findCoinNetwork(coin as string, network as string);
  if (!pair) {
    throw conflict(
      'coin_unavailable',
      `${coin as string} on ${network as string} is not accepted; see GET /v1/catalog/coins`,
    );
  }
  if (purchase && !purchase.plan.available) {
    throw conflict('plan_unavailable', `The plan ${purchase.plan.id} is not available`);
  }
  return {
    amountUsd: amountUsd as string,
    coin: pair.coin.code,
    network: pair.network.id,
    purchase: purchase ?? null,
  };
}

/** The `txid` of a declaration, normalized, or null when the body has none. */
export function readDeclaredTxid(network: NetworkId, body: unknown): string | null {
  const reader = BodyReader.of(body, { emptyAllowed: true });
  const txid = reader.string('txid', { nullable: true, max: MAX_TXID_LENGTH });
  let normalized: string | null = null;
  if (typeof txid === 'string') {
    normalized = normalizeTxid(network, txid);
    if (normalized === null) {
      reader.errors.add(
        'txid',
        'invalid_format',
        `must be a ${network} txid: ${TXID_FORMAT_DESCRIPTION[network]}`,
      );
    }
  }
  reader.throwIfAny();
  return normalized;
}

/** Control `POST /chain/transactions` body. */
export function readChainTransaction(body: unknown): {
  network: NetworkId;
  amountCrypto: string;
  txid: string | null;
} {
  const reader = BodyReader.of(body, { emptyAllowed: false });
  const network = reader.oneOf('network', Object.keys(NETWORKS) as NetworkId[], { required: true });
  const amountCrypto = reader.string('amountCrypto', { required: true });
  if (amountCrypto !== undefined && (!isDecimalAmount(amountCrypto, 18) || compare(amountCrypto, '0') <= 0)) {
    reader.errors.add(
      'amountCrypto',
      'invalid_format',
      'must be a positive decimal with at most 18 decimals',
    );
  }
  const txid = reader.string('txid', { nullable: true, max: MAX_TXID_LENGTH });
  let normalized: string | null = null;
  if (typeof txid === 'string' && network !== undefined) {
    normalized = normalizeTxid(network, txid);
    if (normalized === null) {
      reader.errors.add(
        'txid',
        'invalid_format',
        `must be a ${network} txid: ${TXID_FORMAT_DESCRIPTION[network]}`,
      );
    }
  }
  reader.throwIfAny();
  return { network: network as NetworkId, amountCrypto: amountCrypto as string, txid: normalized };
}

/** Control `POST /rates` body: `{ "BTC": "65000.00", ... }`, any subset of the coins. */
export function readRates(body: unknown, coins: readonly CoinCode[]): Partial<Record<CoinCode, string>> {
  const reader = BodyReader.of(body, { emptyAllowed: false });
  const rates: Partial<Record<CoinCode, string>> = {};
  if (typeof body === 'object' && body !== null && !Array.isArray(body)) {
    for (const name of Object.keys(body)) {
      if (!(coins as readonly string[]).includes(name)) {
        reader.errors.add(name, 'invalid_value', `is not a coin; coins: ${coins.join(', ')}`);
      }
    }
  }
  for (const coin of coins) {
    const rate = reader.string(coin);
    if (rate === undefined) continue;
    if (!isDecimalAmount(rate, 8) || compare(rate, '0') <= 0) {
      reader.errors.add(coin, 'invalid_format', 'must be a positive USD rate with at most 8 decimals');
    } else {
      rates[coin] = rate;
    }
  }
  reader.throwIfAny();
  return rates;
}
