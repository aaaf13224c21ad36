import type { UpdatePlatform } from './update-feed';

/**
 * How this copy of the app was installed decides what an update does: an AppImage replaces its own
 * file; a deb, rpm, dmg or NSIS installer is downloaded, verified and handed to the user (or the OS).
 * `unpackaged` (a source checkout, web mode run by npm) only learns of new releases.
 */
type InstallKind = 'appimage' | 'deb' | 'rpm' | 'dmg' | 'nsis' | 'unpackaged';

export interface Installation {
  kind: InstallKind;
  /** The feed's artefact for this installation; null: nothing to download. */
  platform: UpdatePlatform | null;
  /** AppImage: the file to replace (`$APPIMAGE`). */
  appImagePath: string | null;
}

export interface InstallationFacts {
  platform: NodeJS.Platform;
  arch: string;
  env: NodeJS.ProcessEnv;
  /** The running executable (`process.execPath`). */
  execPath: string;
  /** Whether the app runs from an installer's layout (Electron's `app.isPackaged`); false in Node. */
  packaged: boolean;
  /** Whether dpkg lists the package (a deb install) rather than rpm. */
  dpkgOwns: boolean;
}

/** Pure: decided from the facts the shell or a test gives. */
export function detectInstallation(facts: InstallationFacts): Installation {
  const none: Installation = { kind: 'unpackaged', platform: null, appImagePath: null };
  if (facts.platform === 'linux' && facts.env.APPIMAGE) {
    return { kind: 'appimage', platform: 'linux-x64-appimage', appImagePath: facts.env.APPIMAGE };
  }
  if (!facts.packaged) return none;
  if (facts.platform === 'linux' && facts.arch === 'x64') {
    return facts.dpkgOwns
      ? { kind: 'deb', platform: 'linux-x64-deb', appImagePath: null }
      : { kind: 'rpm', platform: 'linux-x64-rpm', appImagePath: null };
  }
  if (facts.platform === 'darwin') {
    const platform = facts.arch === 'arm64' ? 'mac-arm64-dmg' : 'mac-x64-dmg';
    return { kind: 'dmg', platform, appImagePath: null };
  }
  if (facts.platform === 'win32' && facts.arch === 'x64') {
    return { kind: 'nsis', platform: 'win-x64-nsis', appImagePath: null };
  }
  return none;
}
