#!/usr/bin/env node
// Flips Electron's fuses in a packaged app, before code signing (the signature then protects them).
//
// Where it runs: electron-builder's `afterPack` hook (electron-builder.yml, `npm run dist`), on the
// packaged executable after the app is copied in and before signing; electron-builder has already
// embedded the asar integrity hash the fuse checks (macOS Info.plist, Windows resources; Electron
// validates it on those two, the fuse has no effect on Linux). tests/packaging checks the result.
// By hand: `node scripts/apply-fuses.mjs <path to the packaged executable or .app>`.
// Never on node_modules/electron/dist: that binary runs `npm start`, which loads the app from a folder.
import { flipFuses, FuseV1Options, FuseVersion } from '@electron/fuses';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

/**
 * Every fuse of the V1 wire, set explicitly (`strictlyRequireAllFuses`: a fuse added by a later
 * Electron stops the packaging until someone decides on it).
 */
export const FUSES = {
  version: FuseVersion.V1,
  strictlyRequireAllFuses: true,
  // ELECTRON_RUN_AS_NODE would turn the signed app into a plain Node for any local process.
  [FuseV1Options.RunAsNode]: false,
  // Chromium's cookie store encrypted with the OS key (the app keeps no cookies; cheap insurance).
  [FuseV1Options.EnableCookieEncryption]: true,
  // NODE_OPTIONS / NODE_EXTRA_CA_CERTS could preload code or trust another CA for the API calls.
  [FuseV1Options.EnableNodeOptionsEnvironmentVariable]: false,
  // --inspect / SIGUSR1 would open a debugger into the main process, which holds the API key.
  [FuseV1Options.EnableNodeCliInspectArguments]: false,
  // Only the app.asar whose hash the packager embedded, and never a loose `app/` folder beside it.
  [FuseV1Options.EnableEmbeddedAsarIntegrityValidation]: true,
  [FuseV1Options.OnlyLoadAppFromAsar]: true,
  [FuseV1Options.LoadBrowserProcessSpecificV8Snapshot]: false,
  // The UI is served from app://; file:// pages get no more than a browser would give them.
  [FuseV1Options.GrantFileProtocolExtraPrivileges]: false,
  [FuseV1Options.WasmTrapHandlers]: true,
};

/**
 * Flips the fuses in one executable (or macOS `.app`).
 * @param {string} executable
 * @param {{ flip?: typeof flipFuses, resetAdHocDarwinSignature?: boolean }} [options]
 */
export async function applyFuses(executable, options = {}) {
  const flip = options.flip ?? flipFuses;
  return flip(executable, {
    ...FUSES,
    resetAdHocDarwinSignature: options.resetAdHocDarwinSignature ?? false,
  });
}

/**
 * The executable electron-builder just packed, from its afterPack context.
 * @param {{ appOutDir: string, electronPlatformName: string, packager: { appInfo: { productFilename: string }, executableName?: string } }} context
 */
export function packagedExecutable(context) {
  const name = context.packager.appInfo.productFilename;
  switch (context.electronPlatformName) {
    case 'darwin':
    case 'mas':
      return join(context.appOutDir, `${name}.app`);
    case 'win32':
      return join(context.appOutDir, `${name}.exe`);
    default:
      return join(context.appOutDir, context.packager.executableName ?? name.toLowerCase());
  }
}

/** electron-builder's `afterPack` hook. */
export default async function afterPack(context) {
  const darwin = context.electronPlatformName === 'darwin' || context.electronPlatformName === 'mas';
  await applyFuses(packagedExecutable(context), { resetAdHocDarwinSignature: darwin });
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const executable = process.argv[2];
  if (!executable) {
    console.error('Usage: node scripts/apply-fuses.mjs <packaged executable or .app>');
    process.exitCode = 2;
  } else {
    const count = await applyFuses(executable, { resetAdHocDarwinSignature: process.platform === 'darwin' });
    console.log(`Fuses applied to ${executable} (${count} fuse wire${count === 1 ? '' : 's'}).`);
  }
}
