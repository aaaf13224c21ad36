import { FuseState, FuseV1Options, FuseVersion, getCurrentFuseWire } from '@electron/fuses';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import afterPack, { applyFuses, FUSES, packagedExecutable } from '../../scripts/apply-fuses.mjs';

const SENTINEL = 'dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX';
const ENABLE = '1'.charCodeAt(0);
const DISABLE = '0'.charCodeAt(0);
let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

/** A stand-in executable: bytes around the fuse wire exactly as Electron lays it out (Electron's defaults). */
function fakeElectronBinary(): string {
  dir = mkdtempSync(join(tmpdir(), 'pm-fuses-'));
  const defaults = [ENABLE, DISABLE, ENABLE, ENABLE, DISABLE, DISABLE, DISABLE, ENABLE, ENABLE];
  const file = join(dir, 'proxy-manager');
  writeFileSync(
    file,
    Buffer.concat([
      Buffer.alloc(4096, 7),
      Buffer.from(SENTINEL),
      Buffer.from([1, defaults.length, ...defaults]),
      Buffer.alloc(4096, 9),
    ]),
  );
  return file;
}

describe('fuses for the packaged app', () => {
  it('turns off RunAsNode, NODE_OPTIONS and --inspect; turns on cookie encryption, asar integrity and asar-only', () => {
    expect(FUSES).toMatchObject({
      version: FuseVersion.V1,
      [FuseV1Options.RunAsNode]: false,
      [FuseV1Options.EnableNodeOptionsEnvironmentVariable]: false,
      [FuseV1Options.EnableNodeCliInspectArguments]: false,
      [FuseV1Options.EnableCookieEncryption]: true,
      [FuseV1Options.EnableEmbeddedAsarIntegrityValidation]: true,
      [FuseV1Options.OnlyLoadAppFromAsar]: true,
      [FuseV1Options.GrantFileProtocolExtraPrivileges]: false,
    });
  });

  it('decides every fuse this @electron/fuses knows, and refuses to pack when a new one appears', () => {
    expect(FUSES.strictlyRequireAllFuses).toBe(true);
    const known = Object.values(FuseV1Options).filter((v): v is number => typeof v === 'number');
    for (const fuse of known) expect(typeof FUSES[fuse as FuseV1Options]).toBe('boolean');
  });

  it('flips them in an Electron binary with @electron/fuses (read back from the file)', async () => {
    const binary = fakeElectronBinary();
    expect(await applyFuses(binary)).toBe(1);
    const wire = await getCurrentFuseWire(binary);
    expect(wire[FuseV1Options.RunAsNode]).toBe(FuseState.DISABLE);
    expect(wire[FuseV1Options.EnableNodeOptionsEnvironmentVariable]).toBe(FuseState.DISABLE);
    expect(wire[FuseV1Options.EnableNodeCliInspectArguments]).toBe(FuseState.DISABLE);
    expect(wire[FuseV1Options.EnableCookieEncryption]).toBe(FuseState.ENABLE);
    expect(wire[FuseV1Options.EnableEmbeddedAsarIntegrityValidation]).toBe(FuseState.ENABLE);
    expect(wire[FuseV1Options.OnlyLoadAppFromAsar]).toBe(FuseState.ENABLE);
    expect(wire[FuseV1Options.GrantFileProtocolExtraPrivileges]).toBe(FuseState.DISABLE);
  });

  it("as electron-builder's afterPack hook, flips the executable it just packed", async () => {
    expect(
      packagedExecutable({
        appOutDir: '/dist/linux-unpacked',
        electronPlatformName: 'linux',
        packager: { appInfo: { productFilename: 'Proxy Manager' }, executableName: 'proxy-manager' },
      }),
    ).toBe('/dist/linux-unpacked/proxy-manager');
    expect(
      packagedExecutable({
        appOutDir: '/dist/mac',
        electronPlatformName: 'darwin',
        packager: { appInfo: { productFilename: 'Proxy Manager' } },
      }),
    ).toBe('/dist/mac/Proxy Manager.app');
    expect(
      packagedExecutable({
        appOutDir: 'C:/dist/win-unpacked',
        electronPlatformName: 'win32',
        packager: { appInfo: { productFilename: 'Proxy Manager' } },
      }),
    ).toMatch(/Proxy Manager\.exe$/);

    const binary = fakeElectronBinary();
    await afterPack({
      appOutDir: dir!,
      electronPlatformName: 'linux',
      packager: { appInfo: { productFilename: 'Proxy Manager' }, executableName: 'proxy-manager' },
    });
    expect((await getCurrentFuseWire(binary))[FuseV1Options.RunAsNode]).toBe(FuseState.DISABLE);
  });

  it('passes the configuration through unchanged to the flipper', async () => {
    const flip = vi.fn(() => Promise.resolve(1));
    await applyFuses('/x/app', { flip, resetAdHocDarwinSignature: true });
    expect(flip).toHaveBeenCalledWith('/x/app', { ...FUSES, resetAdHocDarwinSignature: true });
  });
});
