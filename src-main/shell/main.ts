import { app, type BrowserWindow, ipcMain, Menu, protocol, session, type WebFrameMain } from 'electron';
import { join } from 'node:path';
import type { AppCore } from '../core/app-core';
import { defaultDataDir } from '../core/app-paths';
import { createNodeAppCore } from '../core/create-app-core';
import { createGuardedDispatcher } from '../ipc/guarded-dispatcher';
import { createIpcHandlers } from '../ipc/ipc-handlers';
import { applyAppMenu, planAppMenu } from './app-menu';
import { APP_SCHEME, APP_SCHEME_PRIVILEGES, createAppProtocolHandler } from './app-protocol';
import { developmentCspListener, developmentRendererCsp, RENDERER_CSP } from './content-security-policy';
import { registerIpcHandlers } from './ipc-wiring';
import {
  createMainWindow,
  guardWebContents,
  isAppFrame,
  isDevelopmentRun,
  rendererUrlFor,
} from './main-window';

// The desktop app and web mode share one data folder (settings; keys stay in the keychain).
app.setPath('userData', defaultDataDir());
// Must happen before `ready`: only then does the scheme get a real origin and a secure context.
protocol.registerSchemesAsPrivileged([{ scheme: APP_SCHEME, privileges: APP_SCHEME_PRIVILEGES }]);

const development = isDevelopmentRun(app.isPackaged, process.env.ELECTRON_RENDERER_URL);
const rendererUrl = rendererUrlFor(development, process.env.ELECTRON_RENDERER_URL);
const log = (line: string) => process.stderr.write(`${line}\n`);
let mainWindow: BrowserWindow | null = null;
let core: AppCore | null = null;

// Whatever creates a web contents, the same guards apply (the main window's are already set).
app.on('web-contents-created', (_event, contents) => guardWebContents(contents, rendererUrl));

function showWindow(preloadPath: string): void {
  if (mainWindow && !mainWindow.isDestroyed()) {
    if (mainWindow.isMinimized()) mainWindow.restore();
    mainWindow.focus();
    return;
  }
  mainWindow = createMainWindow({ preloadPath, rendererUrl, development });
  mainWindow.on('closed', () => {
    mainWindow = null;
  });
}

async function boot(): Promise<void> {
  const appDir = app.getAppPath();
  const preloadPath = join(appDir, 'out', 'preload', 'index.js');
  applyAppMenu(Menu, planAppMenu({ development, platform: process.platform, appName: app.getName() }));
  protocol.handle(
    APP_SCHEME,
    createAppProtocolHandler({
      rootDir: join(appDir, 'out', 'renderer'),
      contentSecurityPolicy: RENDERER_CSP,
    }),
  );
  if (development) {
    session.defaultSession.webRequest.onHeadersReceived(
      { urls: [`${new URL(rendererUrl).origin}/*`] },
      developmentCspListener(developmentRendererCsp(rendererUrl)),
    );
  }
  core = await createNodeAppCore({ mode: 'desktop', dataDir: app.getPath('userData'), log });
  const dispatch = createGuardedDispatcher<WebFrameMain | null>({
    handlers: createIpcHandlers(core),
    isTrustedSender: (frame) => isAppFrame(mainWindow, frame, rendererUrl),
    log,
  });
  registerIpcHandlers(ipcMain, dispatch);
  core.subscribe((channel, payload) => {
    if (mainWindow && !mainWindow.isDestroyed()) mainWindow.webContents.send(channel, payload);
  });
  showWindow(preloadPath);
  app.on('second-instance', () => showWindow(preloadPath));
  app.on('activate', () => showWindow(preloadPath));
  await core.start({ demo: process.argv.includes('--demo') });
}

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });
  app.on('before-quit', () => {
    void core?.dispose();
  });
  app
    .whenReady()
    .then(boot)
    .catch((error: unknown) => {
      log(`startup failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      app.exit(1);
    });
}
