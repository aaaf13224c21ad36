import type { SeededRandom } from '../seeded-random';
import { BASE58_ALPHABET, SOLANA_SIGNATURE_BYTES } from '../lib/txid-format';
import type { NetworkId } from './coin-catalog';

function encodeBase58(bytes: readonly number[]): string {
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
