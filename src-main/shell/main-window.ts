import { BrowserWindow, type WebContents, type WebFrameMain } from 'electron';
import { APP_RENDERER_URL } from './app-protocol';

export interface MainWindowOptions {
  /** `out/preload/index.js`. */
  preloadPath: string;
  /** `app://renderer/index.html`, or the dev server URL under `electron-vite dev`. */
  rendererUrl: string;
  /** DevTools only under `electron-vite dev`. */
  development: boolean;
  /** Start hidden (start minimised, or at login); default: show once painted. */
  showOnReady?: boolean;
  /** Open at this route (`/ports/<id>`, a clicked notification's), in the URL fragment. */
  initialRoute?: string | null;
  /** The window's icon on Linux and Windows (`windowIconFile`); macOS uses the .app's. */
  icon?: string;
}

/** The page's URL at a route: the app routes in the fragment (`#/ports/<id>`). */
export function rendererUrlAt(rendererUrl: string, route: string | null | undefined): string {
  if (!route) return rendererUrl;
  const url = new URL(rendererUrl);
  url.hash = route;
  return url.toString();
}

/**
 * Whether this run is development: `electron-vite dev` sets ELECTRON_RENDERER_URL. A packaged app
 * never honours it, so no environment variable can point a shipped app at another page or turn
 * DevTools on.
 */
export function isDevelopmentRun(isPackaged: boolean, devServerUrl: string | undefined): boolean {
  return !isPackaged && typeof devServerUrl === 'string' && devServerUrl !== '';
}

/** Where the renderer comes from: the dev server under development, `app://` otherwise. */
export function rendererUrlFor(development: boolean, devServerUrl: string | undefined): string {
  return development && devServerUrl ? devServerUrl : APP_RENDERER_URL;
}

/**
 * The app's own page, whatever screen (`#/catalog`) it shows. Compared by scheme, host, path and
 * query: Node's URL gives `file:` and every custom scheme the opaque origin "null", so comparing
 * origins would let any `x://…/index.html` through.
 */
export function isRendererPage(url: string, rendererUrl: string): boolean {
  try {
    const actual = new URL(url);
    const expected = new URL(rendererUrl);
    return (
      actual.protocol === expected.protocol &&
      actual.host === expected.host &&
      actual.pathname === expected.pathname &&
      actual.search === expected.search
    );
  } catch {
    return false;
  }
}

const guarded = new WeakSet<WebContents>();

/**
 * The guards every web contents gets, whatever created it: no `<webview>` (the app has none, so an
 * attempt to attach one is an attack), no new windows, no navigation or redirect anywhere but the
 * app's own page, in the top frame or any subframe.
 */
export function guardWebContents(contents: WebContents, rendererUrl: string): void {
  // Called for the main window and again from `web-contents-created` for every contents.
  if (guarded.has(contents)) return;
  guarded.add(contents);
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler(() => ({ action: 'deny' }));
  contents.on('will-navigate', (event, url) => {
    if (!isRendererPage(url, rendererUrl)) event.preventDefault();
  });
  contents.on('will-frame-navigate', (event) => {
    if (!event.isMainFrame || !isRendererPage(event.url, rendererUrl)) event.preventDefault();
  });
  contents.on('will-redirect', (event) => event.preventDefault());
}

/**
 * The single app window, locked down: isolated and sandboxed renderer without Node, no `<webview>`,
 * no middle-click (`auxclick`) navigation, no DevTools outside development, the guards above, and
 * no permission (camera, notifications, …) granted to the page.
 */
export function createMainWindow(options: MainWindowOptions): BrowserWindow {
  const window = new BrowserWindow({
    width: 1200,
    height: 800,
    minWidth: 800,
    minHeight: 560,
    show: false,
    title: 'Proxy Manager',
    ...(options.icon ? { icon: options.icon } : {}),
    webPreferences: {
      preload: options.preloadPath,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
      webviewTag: false,
      navigateOnDragDrop: false,
      disableBlinkFeatures: 'Auxclick',
      devTools: options.development,
      spellcheck: false,
    },
  });
  const contents = window.webContents;
  guardWebContents(contents, options.rendererUrl);
  contents.session.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  contents.session.setPermissionCheckHandler(() => false);
  if (options.showOnReady ?? true) window.once('ready-to-show', () => window.show());
  void window.loadURL(rendererUrlAt(options.rendererUrl, options.initialRoute));
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
  return isRendererPage(frame.url, rendererUrl);
}
