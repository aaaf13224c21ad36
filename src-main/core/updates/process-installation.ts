import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { detectInstallation } from './install-kind';
import type { UpdatesWiring } from './wire-updates';

/**
 * This process's installation, from what Node can see (no Electron): an AppImage sets `APPIMAGE`;
 * a packaged app runs in Electron without `defaultApp` (which `electron .` sets); dpkg's file list
 * tells a deb from an rpm. The version is the packaged app's package.json (what Electron's
 * `app.getVersion()` reads; the shell passes that itself), npm's for `npm run`, else 0.0.0.
 */
function versionOf(packaged: boolean): string {
  const resources = (process as { resourcesPath?: string }).resourcesPath;
  if (packaged && resources) {
    try {
      const manifest = JSON.parse(readFileSync(join(resources, 'app.asar', 'package.json'), 'utf8')) as {
        version?: unknown;
      };
      if (typeof manifest.version === 'string') return manifest.version;
    } catch {
      // Not where electron-builder puts it: fall through.
    }
  }
  return process.env.npm_package_version ?? '0.0.0';
}

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
    currentVersion: versionOf(packaged),
    installation,
    downloadsDir: join(dataDir, 'updates'),
    // A source checkout, web mode under npm and the tests never reach out on their own.
    dailyChecks: installation.kind !== 'unpackaged',
    ...extra,
  };
}
