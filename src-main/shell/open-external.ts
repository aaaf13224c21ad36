import { shell } from 'electron';
import { basename, dirname, resolve } from 'node:path';
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

/** Electron's `shell.openPath`: an empty string, or the reason it could not open the file. */
export type OsPathOpener = (path: string) => Promise<string>;

/**
 * Hands a downloaded update installer to the OS (dmg, NSIS; a deb or rpm opens in the software
 * centre). The core's `UpdatesService` has checked the file's size and sha256 against the signed
 * feed just before; this only ever opens an installer of the updates folder, by our own naming.
 */
export function createInstallerOpener(
  updatesDir: string,
  open: OsPathOpener = (path) => shell.openPath(path),
): (path: string) => Promise<void> {
  return async (path) => {
    const file = resolve(path);
    if (
      dirname(file) !== resolve(updatesDir) ||
      !/^proxy-manager-[^/\\]+\.(deb|rpm|dmg|exe)$/.test(basename(file))
    ) {
      throw new Error('Only a verified installer from the updates folder is opened.');
    }
    const problem = await open(file);
    if (problem) throw new Error(`The installer could not be opened: ${problem}`);
  };
}
