import { EXTERNAL_URL_MAX } from '../../../src-shared/contract/app';
import { AppError } from '../errors';

/**
 * Wallet URI schemes of the networks the service takes payments on (the spec's `paymentUri`:
 * BIP21 for bitcoin and litecoin, EIP-681, Solana Pay, `tron:`). Anything else is never handed to
 * the OS, whatever a page asks.
 */
export const WALLET_SCHEMES = ['bitcoin', 'litecoin', 'ethereum', 'solana', 'tron'] as const;

export type ExternalLinkKind = 'explorer' | 'wallet';

/**
 * The links of top-ups main has read from the service (explorer links and payment URIs): the only
 * ones `app:openExternal` opens. A compromised or confused page can thus open nothing but a link
 * the service gave for one of the user's own top-ups, and only with an allowed scheme: https for
 * an explorer, a wallet scheme (`WALLET_SCHEMES`) for a payment URI. Bounded: the oldest are
 * forgotten first (the history's newest pages stay openable).
 */
export class TopUpLinks {
  private readonly known = new Map<string, ExternalLinkKind>();

  constructor(private readonly limit = 2000) {}

  remember(topUp: { paymentUri: string; explorerUrl: string | null }): void {
    const wallet = walletUri(topUp.paymentUri);
    if (wallet) this.add(wallet, 'wallet');
    const explorer = topUp.explorerUrl === null ? null : httpsUrl(topUp.explorerUrl);
    if (explorer) this.add(explorer, 'explorer');
  }

  /** The link as it will be opened, or an `invalid_input` error saying why not. */
  check(url: string): { url: string; kind: ExternalLinkKind } {
    const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(url)?.[1]?.toLowerCase() ?? '';
    if (scheme === 'https') {
      const normalised = httpsUrl(url);
      if (normalised && this.known.get(normalised) === 'explorer')
        return { url: normalised, kind: 'explorer' };
      throw refused('Only the explorer link of one of your top-ups opens in the browser.');
    }
    if ((WALLET_SCHEMES as readonly string[]).includes(scheme)) {
      if (this.known.get(url) === 'wallet') return { url, kind: 'wallet' };
      throw refused('Only the payment link of one of your top-ups opens in a wallet.');
    }
    throw refused('This kind of link is not opened from the app.');
  }

  private add(url: string, kind: ExternalLinkKind): void {
    this.known.delete(url);
    this.known.set(url, kind);
    while (this.known.size > this.limit) {
      const oldest = this.known.keys().next().value as string;
      this.known.delete(oldest);
    }
  }
}

/**
 * `app:openExternal` on the desktop: a link reaches the OS (`openExternal`, the shell's) only when it
 * is one main read for the user's own top-ups, with its allowed scheme; when the OS has no app for
 * it, the user is told what to do instead.
 */
export function topUpLinkOpener(
  links: Pick<TopUpLinks, 'check'>,
  openExternal: (url: string) => Promise<void>,
): (url: string) => Promise<void> {
  return async (url) => {
    const link = links.check(url);
    try {
      await openExternal(link.url);
    } catch (error) {
      throw new AppError(
        'link_not_opened',
        link.kind === 'wallet'
          ? 'No wallet app on this computer opens this payment link. Copy the address and the exact amount instead.'
          : 'The browser did not open the explorer link.',
        [],
        error,
      );
    }
  };
}

function refused(message: string): AppError {
  return new AppError('invalid_input', message, [{ field: 'url', message }]);
}

/** An https URL without credentials, as the URL parser writes it; null otherwise. */
function httpsUrl(value: string): string | null {
  if (value.length > EXTERNAL_URL_MAX) return null;
  try {
    const parsed = new URL(value);
    if (parsed.protocol !== 'https:' || parsed.username !== '' || parsed.password !== '') return null;
    return parsed.href;
  } catch {
    return null;
  }
}

/** A payment URI with a wallet scheme and nothing a shell could misread (controls, spaces); null otherwise. */
function walletUri(value: string): string | null {
  if (value.length > EXTERNAL_URL_MAX || !/^[\x21-\x7e]+$/.test(value)) return null;
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(value)?.[1]?.toLowerCase() ?? '';
  return (WALLET_SCHEMES as readonly string[]).includes(scheme) ? value : null;
}
