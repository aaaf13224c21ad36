import { existsSync } from 'node:fs';
import { join } from 'node:path';
import packageJson from '../../../package.json';
import { detectInstallation } from './install-kind';
import type { UpdatesWiring } from './wire-updates';

/**
 * This process's installation, from what Node can see (no Electron): an AppImage sets `APPIMAGE`;
 * a packaged app runs in Electron without `defaultApp` (which `electron .` sets); dpkg's file list
 * tells a deb from an rpm. The version is package.json's, which the packaged app carries too.
 */
export function processUpdatesWiring(dataDir: string, extra: Partial<UpdatesWiring> = {}): UpdatesWiring {
  const packaged = process.versions.electron !== undefined && !process.defaultApp;
  const installation = detectInstallation({
    platform: process.platform,
    arch: process.arch,
    env: process.env,
    execPath: process.execPath,
    packaged,
    dpkgOwns: existsSync('/var/lib/dpkg/info/proxy-manager.list'),
  });
  return {
    currentVersion: packageJson.version,
    installation,
    downloadsDir: join(dataDir, 'updates'),
    // A source checkout, web mode under npm and the tests never reach out on their own.
    dailyChecks: installation.kind !== 'unpackaged',
    ...extra,
  };
}
