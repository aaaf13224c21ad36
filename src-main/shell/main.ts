import { app, type BrowserWindow, ipcMain, type WebFrameMain } from 'electron';
import { join } from 'node:path';
import type { AppCore } from '../core/app-core';
import { defaultDataDir } from '../core/app-paths';
import { createNodeAppCore } from '../core/create-app-core';
import { createGuardedDispatcher } from '../ipc/guarded-dispatcher';
import { createIpcHandlers } from '../ipc/ipc-handlers';
import type { TrayStateService } from '../core/ports/tray-state';
import type { SettingsView } from '../ipc/contract';
import { GlobalShortcut } from './global-shortcut';
import { registerIpcHandlers } from './ipc-wiring';
import { createMainWindow, isAppFrame, rendererUrlFor } from './main-window';
import { createOsNotifier } from './os-notifications';

// The desktop app and web mode share one data folder (settings; keys stay in the keychain).
app.setPath('userData', defaultDataDir());

const log = (line: string) => process.stderr.write(`${line}\n`);
let mainWindow: BrowserWindow | null = null;
let core: AppCore | null = null;
let trayState: TrayStateService | null = null;
// Off until the user turns it on in Settings; rotates the first pinned port.
const shortcut = new GlobalShortcut({
  onPress: () => void trayState?.rotateFirstPinned(),
  onUnavailable: (accelerator) => log(`the global shortcut ${accelerator} is taken by another app`),
});

function showWindow(rendererUrl: string, preloadPath: string): void {
  if (mainWindow && !mainWindow.isDestroyed()) {
    if (mainWindow.isMinimized()) mainWindow.restore();
    mainWindow.focus();
    return;
  }
  mainWindow = createMainWindow({ preloadPath, rendererUrl });
  mainWindow.on('closed', () => {
    mainWindow = null;
  });
}

async function boot(): Promise<void> {
  const appDir = app.getAppPath();
  const rendererUrl = rendererUrlFor(appDir, process.env.ELECTRON_RENDERER_URL);
  const preloadPath = join(appDir, 'out', 'preload', 'index.js');
  core = await createNodeAppCore({
    mode: 'desktop',
    dataDir: app.getPath('userData'),
    log,
    notifications: {
      notifier: createOsNotifier({ onClick: () => showWindow(rendererUrl, preloadPath) }),
      isWindowFocused: () => mainWindow !== null && !mainWindow.isDestroyed() && mainWindow.isFocused(),
    },
    onDesktopParts: ({ tray }) => {
      trayState = tray;
    },
  });
  const dispatch = createGuardedDispatcher<WebFrameMain | null>({
    handlers: createIpcHandlers(core),
    isTrustedSender: (frame) => isAppFrame(mainWindow, frame, rendererUrl),
    log,
  });
  registerIpcHandlers(ipcMain, dispatch);
  core.subscribe((channel, payload) => {
    if (mainWindow && !mainWindow.isDestroyed()) mainWindow.webContents.send(channel, payload);
    if (channel === 'settings:changed') shortcut.apply((payload as SettingsView).shortcut);
  });
  shortcut.apply((await core.services.settings.handlers()['settings:get'](undefined)).shortcut);
  showWindow(rendererUrl, preloadPath);
  app.on('second-instance', () => showWindow(rendererUrl, preloadPath));
  app.on('activate', () => showWindow(rendererUrl, preloadPath));
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
  app.on('will-quit', () => shortcut.release());
  app
    .whenReady()
    .then(boot)
    .catch((error: unknown) => {
      log(`startup failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      app.exit(1);
    });
}
