import type { SeededRandom } from '../seeded-random';
import type { NetworkId } from './coin-catalog';

export const MAX_TXID_LENGTH = 128;

const BASE58_ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const BASE58_PATTERN = /^[1-9A-HJ-NP-Za-km-z]+$/;
const HEX64 = /^[0-9a-fA-F]{64}$/;
const ETHEREUM_TXID = /^0x[0-9a-fA-F]{64}$/;
const SOLANA_SIGNATURE_BYTES = 64;

/** Number of bytes `text` decodes to in base58 (leading `1`s are zero bytes), or null when not base58. */
export function base58ByteLength(text: string): number | null {
  if (!BASE58_PATTERN.test(text)) return null;
  let value = 0n;
  for (const char of text) value = value * 58n + BigInt(BASE58_ALPHABET.indexOf(char));
  const leadingZeros = /^1*/.exec(text)?.[0].length ?? 0;
  const bodyBytes = value === 0n ? 0 : Math.ceil(value.toString(16).length / 2);
  return leadingZeros + bodyBytes;
}

export function encodeBase58(bytes: readonly number[]): string {
  let value = 0n;
  for (const byte of bytes) value = value * 256n + BigInt(byte);
  let out = '';
  while (value > 0n) {
    out = `${BASE58_ALPHABET[Number(value % 58n)]}${out}`;
    value /= 58n;
  }
  for (const byte of bytes) {
    if (byte !== 0) break;
    out = `1${out}`;
  }
  return out;
}

/** What a txid of the network looks like, for error messages. */
export const TXID_FORMAT_DESCRIPTION: Readonly<Record<NetworkId, string>> = {
  bitcoin: '64 hexadecimal characters',
  litecoin: '64 hexadecimal characters',
  tron: '64 hexadecimal characters',
  ethereum: '0x followed by 64 hexadecimal characters',
  solana: 'a base58 transaction signature (64 bytes, 87-88 characters)',
};

/**
 * The txid in the network's canonical spelling (hex in lower case, so that `ABC...` and `abc...` are
 * one transaction), or null when it is not in the network's format.
 */
export function normalizeTxid(network: NetworkId, txid: string): string | null {
  switch (network) {
    case 'bitcoin':
    case 'litecoin':
    case 'tron':
      return HEX64.test(txid) ? txid.toLowerCase() : null;
    case 'ethereum':
      return ETHEREUM_TXID.test(txid) ? txid.toLowerCase() : null;
    case 'solana':
      return base58ByteLength(txid) === SOLANA_SIGNATURE_BYTES ? txid : null;
  }
}

const randomHex = (random: SeededRandom, length: number): string => random.chars(length, '0123456789abcdef');

/** A fresh txid in the network's format, from the sandbox's seeded randomness. */
export function generateTxid(network: NetworkId, random: SeededRandom): string {
  switch (network) {
    case 'bitcoin':
    case 'litecoin':
    case 'tron':
      return randomHex(random, 64);
    case 'ethereum':
      return `0x${randomHex(random, 64)}`;
    case 'solana': {
      // A non-zero first byte keeps the signature at its usual 87-88 characters.
      const bytes = [random.int(1, 255)];
      for (let i = 1; i < SOLANA_SIGNATURE_BYTES; i += 1) bytes.push(random.int(0, 255));
      return encodeBase58(bytes);
    }
  }
}
