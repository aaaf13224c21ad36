/**
 * What a transaction id looks like on each network (the spec's txid rules), written once for the
 * sandbox (which refuses a malformed declaration) and the core (which refuses it before sending).
 * No runtime dependencies, so the renderer may import it too.
 */

const TXID_NETWORKS = ['bitcoin', 'litecoin', 'tron', 'ethereum', 'solana'] as const;
export type TxidNetwork = (typeof TXID_NETWORKS)[number];

/** The spec's `txid` limit (max 128 characters). */
export const MAX_TXID_LENGTH = 128;

const BASE58_ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const BASE58_PATTERN = /^[1-9A-HJ-NP-Za-km-z]+$/;
const HEX64 = /^[0-9a-fA-F]{64}$/;
const ETHEREUM_TXID = /^0x[0-9a-fA-F]{64}$/;
const SOLANA_SIGNATURE_BYTES = 64;

export function isTxidNetwork(network: string): network is TxidNetwork {
  return (TXID_NETWORKS as readonly string[]).includes(network);
}

/** Number of bytes `text` decodes to in base58 (leading `1`s are zero bytes), or null when not base58. */
function base58ByteLength(text: string): number | null {
  if (!BASE58_PATTERN.test(text)) return null;
  let value = 0n;
  for (const char of text) value = value * 58n + BigInt(BASE58_ALPHABET.indexOf(char));
  const leadingZeros = /^1*/.exec(text)?.[0].length ?? 0;
  const bodyBytes = value === 0n ? 0 : Math.ceil(value.toString(16).length / 2);
  return leadingZeros + bodyBytes;
}

/** What a txid of the network looks like, for error messages. */
export const TXID_FORMAT_DESCRIPTION: Readonly<Record<TxidNetwork, string>> = {
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
export function normalizeTxid(network: TxidNetwork, txid: string): string | null {
  if (txid.length > MAX_TXID_LENGTH) return null;
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
