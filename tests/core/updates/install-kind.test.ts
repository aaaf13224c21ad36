import { describe, expect, it } from 'vitest';
import { detectInstallation, type InstallationFacts } from '../../../src-main/core/updates/install-kind';

const base: InstallationFacts = {
  platform: 'linux',
  arch: 'x64',
  env: {},
  execPath: '/opt/Proxy Manager/proxy-manager',
  packaged: true,
  dpkgOwns: true,
};

describe('detectInstallation', () => {
  it('tells each installer apart', () => {
    expect(detectInstallation({ ...base, env: { APPIMAGE: '/home/u/pm.AppImage' } })).toEqual({
      kind: 'appimage',
      platform: 'linux-x64-appimage',
      appImagePath: '/home/u/pm.AppImage',
    });
    expect(detectInstallation(base).kind).toBe('deb');
    expect(detectInstallation({ ...base, dpkgOwns: false }).kind).toBe('rpm');
    expect(detectInstallation({ ...base, platform: 'darwin', arch: 'arm64' }).platform).toBe('mac-arm64-dmg');
    expect(detectInstallation({ ...base, platform: 'darwin', arch: 'x64' }).platform).toBe('mac-x64-dmg');
    expect(detectInstallation({ ...base, platform: 'win32' }).platform).toBe('win-x64-nsis');
  });

  it('offers no installer to a source checkout or web mode', () => {
    expect(detectInstallation({ ...base, packaged: false })).toEqual({
      kind: 'unpackaged',
      platform: null,
      appImagePath: null,
    });
  });
});
