/**
 * What the top-up wizard checks before anything is sent. Amounts stay decimal strings: they are
 * compared as whole cents (BigInt), never parsed into floats, so 10000.01 is never "about 10000".
 */

const MIN_AMOUNT_USD = '25.00';
/** The spec's maximum is the service's default: above it the wizard warns and the service decides. */
const SERVICE_DEFAULT_MAX_USD = '10000.00';
/** The app's own bound, against a typo (an extra zero or two), not a rule of the service. */
const MAX_AMOUNT_USD = '1000000.00';

const AMOUNT_PATTERN = /^(\d+)(?:\.(\d{0,2}))?$/;
// Thousands separators are accepted as typed ("10,000.00") and dropped before sending.
const GROUPED_PATTERN = /^\d{1,3}(?:,\d{3})+(?:\.\d{0,2})?$/;

const cents = (value: string): bigint => {
  const [whole = '0', fraction = ''] = value.split('.');
  return BigInt(whole) * 100n + BigInt(fraction.padEnd(2, '0') || '0');
};

const fromCents = (value: bigint): string => {
  const whole = value / 100n;
  const fraction = (value % 100n).toString().padStart(2, '0');
  return `${whole}.${fraction}`;
};

/** `warning`: sent as it is, but the user should know (above the service's default maximum). */
export type AmountCheck = { ok: true; amountUsd: string; warning?: string } | { ok: false; message: string };

/**
 * The amount as the service wants it (`50.00`), or why it cannot be sent. Meant to run on every
 * keystroke: a half-typed `50.` is valid (it means 50.00), `50.123` is not.
 */
export function checkAmountUsd(typed: string): AmountCheck {
  const text = typed.trim();
  if (text === '') return { ok: false, message: 'Enter an amount in USD, e.g. 50.00.' };
  const plain = GROUPED_PATTERN.test(text) ? text.replaceAll(',', '') : text;
  const match = AMOUNT_PATTERN.exec(plain);
  if (!match) {
    return /^[\d,]*\.\d{3,}$/.test(text)
      ? { ok: false, message: 'Use at most two decimals (cents).' }
      : { ok: false, message: 'Use digits and a dot for cents, e.g. 50.00.' };
  }
  const value = cents(plain);
  if (value < cents(MIN_AMOUNT_USD)) return { ok: false, message: 'The minimum is 25.00 USD.' };
  if (value > cents(MAX_AMOUNT_USD)) {
    return {
      ok: false,
      message:
        'The app takes at most 1,000,000.00 USD in one top-up, to catch a typo. For more, make several top-ups.',
    };
  }
  if (value > cents(SERVICE_DEFAULT_MAX_USD)) {
    return {
      ok: true,
      amountUsd: fromCents(value),
      warning:
        'This is above 10,000.00 USD, the service’s default maximum. Your account may be allowed more: the service decides, and says so on the amount if it refuses.',
    };
  }
  return { ok: true, amountUsd: fromCents(value) };
}

export type QuantityCheck = { ok: true; quantity: number } | { ok: false; message: string };

export function checkQuantity(typed: string): QuantityCheck {
  const text = typed.trim();
  if (!/^\d{1,6}$/.test(text) || Number(text) < 1) {
    return { ok: false, message: 'Enter a whole number of 1 or more.' };
  }
  return { ok: true, quantity: Number(text) };
}

export type OptionsCheck = { ok: true; options: Record<string, unknown> } | { ok: false; message: string };

/** Purchase options: their shape is the service's, so they are typed as a JSON object. */
export function checkOptions(typed: string): OptionsCheck {
  const text = typed.trim();
  if (text === '') return { ok: true, options: {} };
  try {
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) {
      return { ok: true, options: parsed as Record<string, unknown> };
    }
  } catch {
    // Reported below like any other non-object.
  }
  return { ok: false, message: 'Options are a JSON object, e.g. {"country": "US"}.' };
}

// Txids ------------------------------------------------------------------------------------------------

const BASE58_ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const BASE58_PATTERN = /^[1-9A-HJ-NP-Za-km-z]+$/;
const HEX64 = /^[0-9a-fA-F]{64}$/;
const ETHEREUM_TXID = /^0x[0-9a-fA-F]{64}$/;
const SOLANA_SIGNATURE_BYTES = 64;

/** Bytes `text` decodes to in base58 (each leading `1` is a zero byte), or null when it is not base58. */
function base58ByteLength(text: string): number | null {
  if (!BASE58_PATTERN.test(text)) return null;
  let value = 0n;
  for (const char of text) value = value * 58n + BigInt(BASE58_ALPHABET.indexOf(char));
  const leadingZeros = /^1*/.exec(text)?.[0].length ?? 0;
  const bodyBytes = value === 0n ? 0 : Math.ceil(value.toString(16).length / 2);
  return leadingZeros + bodyBytes;
}

const TXID_FORMATS: Readonly<Record<string, { test: (txid: string) => boolean; description: string }>> = {
  bitcoin: { test: (txid) => HEX64.test(txid), description: '64 hexadecimal characters' },
  litecoin: { test: (txid) => HEX64.test(txid), description: '64 hexadecimal characters' },
  tron: { test: (txid) => HEX64.test(txid), description: '64 hexadecimal characters' },
  ethereum: {
    test: (txid) => ETHEREUM_TXID.test(txid),
    description: '0x followed by 64 hexadecimal characters',
  },
  solana: {
    test: (txid) => base58ByteLength(txid) === SOLANA_SIGNATURE_BYTES,
    description: 'a base58 transaction signature of 64 bytes (87-88 characters)',
  },
};

export type TxidCheck = { ok: true; txid: string | null } | { ok: false; message: string };

/**
 * The txid to declare (null: none, the payment is matched by its exact amount), or why it is not one
 * of `network`. A network the app does not know is left to the service to judge.
 */
export function checkTxid(network: string, typed: string): TxidCheck {
  const txid = typed.trim();
  if (txid === '') return { ok: true, txid: null };
  if (txid.length > 128) return { ok: false, message: 'A transaction id has at most 128 characters.' };
  const format = TXID_FORMATS[network];
  if (!format || format.test(txid)) return { ok: true, txid };
  return { ok: false, message: `A ${network} transaction id is ${format.description}.` };
}

// Payment URIs -----------------------------------------------------------------------------------------

export interface PaymentTarget {
  /** Where the funds must arrive. */
  depositAddress: string;
  /** The token contract a wallet calls (EIP-681 `transfer`), or the token named by the URI; null for a coin. */
  tokenContract: string | null;
}

/**
 * Reads what a payment URI tells a wallet to do. For an EIP-681 token transfer the URI's target is the
 * token contract and the deposit address is in `address=`: wallets that mis-read this have sent funds to
 * the contract, so the wizard shows both, each labelled.
 */
export function paymentTargetOf(paymentUri: string, depositAddress: string): PaymentTarget {
  const match = /^[a-z][a-z0-9+.-]*:([^@?/]+)(?:@[^/?]*)?(\/[^?]*)?(?:\?(.*))?$/i.exec(paymentUri);
  if (!match) return { depositAddress, tokenContract: null };
  const [, target = '', functionName, query = ''] = match;
  const params = new URLSearchParams(query);
  if (functionName === '/transfer') {
    return { depositAddress: params.get('address') ?? depositAddress, tokenContract: target };
  }
  const token = params.get('spl-token') ?? params.get('token');
  return { depositAddress, tokenContract: token };
}

/** Only https explorer links are opened: anything else from the network is not followed. */
export function safeExplorerUrl(url: string | null | undefined): string | null {
  if (!url) return null;
  try {
    return new URL(url).protocol === 'https:' ? url : null;
  } catch {
    return null;
  }
}

/** The rejection's words, whatever shape it has (the spec does not show it). */
export function describeRejection(rejection: unknown): string | null {
  if (typeof rejection === 'string') return rejection || null;
  if (typeof rejection !== 'object' || rejection === null) return null;
  const record = rejection as Record<string, unknown>;
  const parts = [record.message, record.reason, record.code].filter(
    (part): part is string => typeof part === 'string' && part !== '',
  );
  return parts.length > 0 ? [...new Set(parts)].join(' — ') : null;
}
