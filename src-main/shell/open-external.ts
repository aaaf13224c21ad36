import { shell } from 'electron';
import { WALLET_SCHEMES } from '../core/topups/topup-links';

/** The part of Electron's `shell` used here (tests inject a fake). */
export type OsOpener = (url: string) => Promise<void>;

/**
 * The app's only way out to the OS for a link (Electron checklist 15: never `shell.openExternal`
 * with untrusted content). The core's `TopUpLinks` has already checked that the link is a known
 * top-up's explorer link or payment URI; this checks the scheme once more, so that nothing but
 * https and the wallet schemes can ever reach the OS, whatever a future caller passes.
 */
export function createLinkOpener(open: OsOpener = (url) => shell.openExternal(url)): OsOpener {
  return (url) => {
    const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(url)?.[1]?.toLowerCase() ?? '';
    if (scheme !== 'https' && !(WALLET_SCHEMES as readonly string[]).includes(scheme)) {
      return Promise.reject(new Error(`links of the scheme "${scheme}" are not opened`));
    }
    return open(url);
  };
}
