import { join } from 'node:path';

/**
 * The icon files the shell loads, and where they are. Unpackaged (`npm start`, tests) they are the
 * repository's `resources/`; packaged, electron-builder copies them beside app.asar
 * (`extraResources` in electron-builder.yml) under the same relative paths. `scripts/
 * generate-icons.mjs` draws them all from the SVGs in `resources/`.
 */
export interface AppResourcesLocation {
  isPackaged: boolean;
  /** `app.getAppPath()`: the repository when unpackaged (`electron .`). */
  appPath: string;
  /** `process.resourcesPath`: the folder holding app.asar when packaged. */
  resourcesPath: string;
}

export function appResourcesDir({ isPackaged, appPath, resourcesPath }: AppResourcesLocation): string {
  return isPackaged ? resourcesPath : join(appPath, 'resources');
}

/** The tray's two images: as is, and with the pending-payments badge. */
export interface TrayIconFiles {
  plain: string;
  badged: string;
  /** macOS: black and alpha only, tinted by the menu bar (the names end in `Template`). */
  template: boolean;
}

/** The Linux tray PNGs, smallest first (a 22 px panel, 24 px, 32 px for scaled panels). */
const LINUX_TRAY_SIZES = [22, 24, 32] as const;

/**
 * The Linux PNG for a display scale: the smallest at least 22 px times the scale, else the
 * largest. (macOS picks @2x itself; Windows picks the size for the DPI from the .ico.)
 */
export function linuxTraySize(scaleFactor: number): number {
  const wanted = 22 * (Number.isFinite(scaleFactor) && scaleFactor > 0 ? scaleFactor : 1);
  return LINUX_TRAY_SIZES.find((size) => size >= wanted - 0.5) ?? LINUX_TRAY_SIZES.at(-1)!;
}

export function trayIconFiles(
  platform: NodeJS.Platform,
  resourcesDir: string,
  scaleFactor = 1,
): TrayIconFiles {
  const tray = (name: string) => join(resourcesDir, 'tray', name);
  if (platform === 'darwin') {
    // trayTemplate@2x.png beside it is loaded for Retina displays.
    return { plain: tray('trayTemplate.png'), badged: tray('trayBadgeTemplate.png'), template: true };
  }
  if (platform === 'win32') {
    return { plain: tray('tray.ico'), badged: tray('tray-badge.ico'), template: false };
  }
  const size = linuxTraySize(scaleFactor);
  return { plain: tray(`tray-${size}.png`), badged: tray(`tray-badge-${size}.png`), template: false };
}

/**
 * BrowserWindow's `icon` (taskbar, Alt+Tab, window list). None on macOS, where the .app's icon.icns
 * is used.
 */
export function windowIconFile(platform: NodeJS.Platform, resourcesDir: string): string | undefined {
  if (platform === 'darwin') return undefined;
  return platform === 'win32' ? join(resourcesDir, 'icon.ico') : join(resourcesDir, 'icons', '256x256.png');
}
