import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  appResourcesDir,
  linuxTraySize,
  trayIconFiles,
  windowIconFile,
} from '../../src-main/shell/app-resources';

const ROOT = join(import.meta.dirname, '..', '..');
const PLATFORMS: NodeJS.Platform[] = ['darwin', 'win32', 'linux'];

describe('app resources', () => {
  it("are the repository's resources/ unpackaged, and the folder beside app.asar packaged", () => {
    const where = { appPath: '/src/proxy-manager', resourcesPath: '/opt/Proxy Manager/resources' };
    expect(appResourcesDir({ ...where, isPackaged: false })).toBe(join('/src/proxy-manager', 'resources'));
    expect(appResourcesDir({ ...where, isPackaged: true })).toBe('/opt/Proxy Manager/resources');
  });

  it('name a tray image per platform: template images on macOS, an .ico on Windows, PNGs on Linux', () => {
    expect(trayIconFiles('darwin', '/r')).toEqual({
      plain: join('/r', 'tray', 'trayTemplate.png'),
      badged: join('/r', 'tray', 'trayBadgeTemplate.png'),
      template: true,
    });
    expect(trayIconFiles('win32', '/r')).toEqual({
      plain: join('/r', 'tray', 'tray.ico'),
      badged: join('/r', 'tray', 'tray-badge.ico'),
      template: false,
    });
    expect(trayIconFiles('linux', '/r', 1.5)).toEqual({
      plain: join('/r', 'tray', 'tray-32.png'),
      badged: join('/r', 'tray', 'tray-badge-32.png'),
      template: false,
    });
  });

  it('pick the Linux tray PNG for the display scale (22 px at 100 %, then 24, then 32)', () => {
    expect(linuxTraySize(1)).toBe(22);
    expect(linuxTraySize(1.1)).toBe(24);
    expect(linuxTraySize(1.25)).toBe(32);
    expect(linuxTraySize(2)).toBe(32);
    expect(linuxTraySize(0)).toBe(22);
    expect(linuxTraySize(Number.NaN)).toBe(22);
  });

  it('give the window an icon on Linux and Windows only (macOS uses the .app’s)', () => {
    expect(windowIconFile('darwin', '/r')).toBeUndefined();
    expect(windowIconFile('win32', '/r')).toBe(join('/r', 'icon.ico'));
    expect(windowIconFile('linux', '/r')).toBe(join('/r', 'icons', '256x256.png'));
  });

  it.each(PLATFORMS)('exist in resources/ for %s (what `npm start` loads)', (platform) => {
    const dir = appResourcesDir({ isPackaged: false, appPath: ROOT, resourcesPath: '/nowhere' });
    const files = [1, 1.1, 2].flatMap((scale) => {
      const { plain, badged } = trayIconFiles(platform, dir, scale);
      return [plain, badged];
    });
    const window = windowIconFile(platform, dir);
    if (window) files.push(window);
    if (platform === 'darwin')
      files.push(join(dir, 'tray', 'trayTemplate@2x.png'), join(dir, 'tray', 'trayBadgeTemplate@2x.png'));
    expect(files.filter((file) => !existsSync(file))).toEqual([]);
  });
});
