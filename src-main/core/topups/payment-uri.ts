/**
 * Reads a wallet payment URI (BIP21, EIP-681, Solana Pay, tron:) to tell where the funds go apart
 * from what the URI targets. For a token on EIP-681 the URI's target is the token contract and the
 * deposit address is in `address=`: wallets that mis-read this have sent funds to the contract.
 */
export interface PaymentUriParts {
  scheme: string;
  /** Where the funds go. */
  recipient: string;
  /** The token's contract for a token payment; null for the chain's own coin. */
  tokenContract: string | null;
}

/** Null when the URI is not one of the forms above (it is then shown as it is, without a breakdown). */
export function readPaymentUri(uri: string): PaymentUriParts | null {
  const match = /^([a-z][a-z0-9+.-]*):([^?]*)(?:\?(.*))?$/i.exec(uri);
  if (!match) return null;
  const scheme = (match[1] ?? '').toLowerCase();
  const path = match[2] ?? '';
  const query = new URLSearchParams(match[3] ?? '');
  if (scheme === 'ethereum') {
    // EIP-681: ethereum:[pay-]TARGET[@CHAIN][/FUNCTION]?params
    const eip = /^(?:pay-)?([^@/]+)(?:@\d+)?(?:\/(\w+))?$/.exec(path);
    if (!eip) return null;
    const target = eip[1] ?? '';
    if (eip[2] === 'transfer') {
      const recipient = query.get('address');
      return recipient ? { scheme, recipient, tokenContract: target } : null;
    }
    return eip[2] === undefined ? { scheme, recipient: target, tokenContract: null } : null;
  }
  if (path.length === 0) return null;
  const token = query.get('spl-token') ?? query.get('token');
  return { scheme, recipient: path, tokenContract: token };
}
