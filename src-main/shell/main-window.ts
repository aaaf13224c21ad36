import { BrowserWindow, type WebFrameMain } from 'electron';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

export interface MainWindowOptions {
  /** `out/preload/index.js`. */
  preloadPath: string;
  /** `out/renderer/index.html`, or the dev server URL under `electron-vite dev`. */
  rendererUrl: string;
}

/** Where the renderer comes from: the dev server when electron-vite runs one, the built file otherwise. */
export function rendererUrlFor(appDir: string, devServerUrl: string | undefined): string {
  return devServerUrl ?? pathToFileURL(join(appDir, 'out', 'renderer', 'index.html')).toString();
}

/**
 * The single app window, locked down: isolated and sandboxed renderer without Node, no navigation
 * away from the app, no new windows, no permissions (camera, notifications, …) granted to the page.
 */
export function createMainWindow(options: MainWindowOptions): BrowserWindow {
  const window = new BrowserWindow({
    width: 1200,
    height: 800,
    minWidth: 800,
    minHeight: 560,
    show: false,
    title: 'Proxy Manager',
    webPreferences: {
      preload: options.preloadPath,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      spellcheck: false,
    },
  });
  const contents = window.webContents;
  contents.on('will-navigate', (event, url) => {
    if (url !== options.rendererUrl) event.preventDefault();
  });
  contents.on('will-redirect', (event) => event.preventDefault());
  contents.setWindowOpenHandler(() => ({ action: 'deny' }));
  contents.session.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  contents.session.setPermissionCheckHandler(() => false);
  window.once('ready-to-show', () => window.show());
  void window.loadURL(options.rendererUrl);
  return window;
}

/** Only the app's own top frame, showing the app's own page, may call main. */
export function isAppFrame(
  window: BrowserWindow | null,
  frame: WebFrameMain | null,
  rendererUrl: string,
): boolean {
  if (!window || window.isDestroyed() || !frame) return false;
  if (frame !== window.webContents.mainFrame) return false;
  const expected = new URL(rendererUrl);
  const actual = new URL(frame.url);
  return actual.origin === expected.origin && actual.pathname === expected.pathname;
}
