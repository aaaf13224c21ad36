import {
  app,
  type BrowserWindow,
  ipcMain,
  Menu,
  protocol,
  screen,
  session,
  type WebFrameMain,
} from 'electron';
import { join } from 'node:path';
import type { AppCore } from '../core/app-core';
import { defaultDataDir } from '../core/app-paths';
import { createNodeAppCore } from '../core/node-app-core';
import { createGuardedDispatcher } from '../dispatch/guarded-dispatcher';
import { createIpcHandlers } from '../dispatch/handler-table';
import { applyAppMenu, planAppMenu } from './app-menu';
import { APP_SCHEME, APP_SCHEME_PRIVILEGES, createAppProtocolHandler } from './app-protocol';
import { appResourcesDir, trayIconFiles, windowIconFile } from './app-resources';
import { type OwnedControl, serveControlWhileOwner } from '../control/control-while-owner';
import { type OwnedRest, serveRestWhileOwner } from '../rest/rest-while-owner';
import { cliArgumentsOf, runCli } from './cli-launch';
import { developmentCspListener, developmentRendererCsp, RENDERER_CSP } from './content-security-policy';
import { DesktopLifecycle } from './desktop-lifecycle';
import { SettingsDesktopPreferences } from './desktop-preferences';
import { createElectronTray } from './electron-tray';
import { registerIpcHandlers } from './ipc-wiring';
import {
  createMainWindow,
  guardWebContents,
  isAppFrame,
  isDevelopmentRun,
  rendererUrlFor,
} from './main-window';
import { SystemTrayService } from './tray';
import type { TrayStateService } from '../core/tray/tray-state';
import { trayUpdateOf } from '../core/tray/tray-menu';
import type { SettingsView, UpdateStatus } from '../../src-shared/contract';
import { GlobalShortcut } from './global-shortcut';
import { openNotificationRoute } from './notification-click';
import { createOsNotifier } from './os-notifications';
import { createInstallerOpener, createLinkOpener } from './open-external';
import { createFileSaver } from './save-file';

// The desktop app and web mode share one data folder (settings; keys stay in the keychain).
app.setPath('userData', defaultDataDir());
// Must happen before `ready`: only then does the scheme get a real origin and a secure context.
protocol.registerSchemesAsPrivileged([{ scheme: APP_SCHEME, privileges: APP_SCHEME_PRIVILEGES }]);

const development = isDevelopmentRun(app.isPackaged, process.env.ELECTRON_RENDERER_URL);
const rendererUrl = rendererUrlFor(development, process.env.ELECTRON_RENDERER_URL);
const log = (line: string) => process.stderr.write(`${line}\n`);
// Icons: the repository's resources/ under `npm start`, beside app.asar once packaged.
const resourcesDir = appResourcesDir({
  isPackaged: app.isPackaged,
  appPath: app.getAppPath(),
  resourcesPath: process.resourcesPath,
});
let mainWindow: BrowserWindow | null = null;
let core: AppCore | null = null;
let control: OwnedControl | null = null;
let rest: OwnedRest | null = null;
let trayState: TrayStateService | null = null;
// Off until the user turns it on in Settings; rotates the first pinned port.
const shortcut = new GlobalShortcut({
  onPress: () => void trayState?.rotateFirstPinned(),
  onUnavailable: (accelerator) => log(`the global shortcut ${accelerator} is taken by another app`),
});

// Whatever creates a web contents, the same guards apply (the main window's are already set).
app.on('web-contents-created', (_event, contents) => guardWebContents(contents, rendererUrl));

// The defaults until the core is up, then the settings' `desktop` and its changes.
const desktopPreferences = new SettingsDesktopPreferences();
const tray = new SystemTrayService({
  // Created after `ready` (the tray follows the settings), when the display's scale is known.
  createTray: () =>
    createElectronTray(
      process.platform,
      trayIconFiles(process.platform, resourcesDir, screen.getPrimaryDisplay().scaleFactor),
      log,
    ),
  onAction: (action) => lifecycle.handleTrayAction(action),
});
const lifecycle = new DesktopLifecycle({
  app,
  platform: process.platform,
  preferences: desktopPreferences,
  tray,
  showWindow: () => showWindow({ hidden: false }),
  openRoute,
  // Unpackaged (`npm start`), the executable is Electron itself and needs the app folder.
  loginItem: { path: process.execPath, args: app.isPackaged ? [] : [app.getAppPath()] },
  onPortsAction: (action) => void trayState?.handleAction(action),
  onWindowVisibility: (visible) => core?.windowVisibility(visible),
});

/** A notification or tray click: the window at what it is about (`app:navigate`, or the new window's URL). */
function openRoute(route: unknown): void {
  openNotificationRoute(route, (initial) => showWindow({ hidden: false, route: initial }));
}

function showWindow({ hidden, route = null }: { hidden: boolean; route?: string | null }): {
  window: BrowserWindow;
  created: boolean;
} {
  if (mainWindow && !mainWindow.isDestroyed()) {
    if (mainWindow.isMinimized()) mainWindow.restore();
    if (!mainWindow.isVisible()) mainWindow.show();
    mainWindow.focus();
    return { window: mainWindow, created: false };
  }
  const preloadPath = join(app.getAppPath(), 'out', 'preload', 'index.js');
  const window = createMainWindow({
    preloadPath,
    rendererUrl,
    development,
    showOnReady: !hidden,
    initialRoute: route,
    icon: windowIconFile(process.platform, resourcesDir),
  });
  mainWindow = window;
  lifecycle.attachWindow(window);
  window.on('closed', () => {
    mainWindow = null;
  });
  return { window, created: true };
}

async function boot(): Promise<void> {
  const appDir = app.getAppPath();
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
  core = await createNodeAppCore({
    mode: 'desktop',
    dataDir: app.getPath('userData'),
    log,
    notifications: {
      notifier: createOsNotifier({ onClick: openRoute }),
      isWindowFocused: () => mainWindow !== null && !mainWindow.isDestroyed() && mainWindow.isFocused(),
    },
    // The core checks every link first (a known top-up's explorer link or payment URI, `TopUpLinks`).
    openExternal: createLinkOpener(),
    saveFile: createFileSaver({ defaultDir: () => app.getPath('downloads'), window: () => mainWindow }),
    updates: {
      currentVersion: app.getVersion(),
      openPath: createInstallerOpener(join(app.getPath('userData'), 'updates')),
      // An AppImage starts again from its (replaced) file, not from the old mount's executable.
      relaunch: () => {
        const appImage = process.env.APPIMAGE;
        app.relaunch(appImage ? { execPath: appImage, args: process.argv.slice(1) } : undefined);
        lifecycle.quit();
      },
    },
    onDesktopParts: ({ tray: ports }) => {
      trayState = ports;
      ports.subscribe((state) => tray.setPorts(state));
    },
  });
  const started = core;
  desktopPreferences.attach(started.services.settings.view().desktop, (listener) =>
    started.subscribe(listener),
  );
  const dispatch = createGuardedDispatcher<WebFrameMain | null>({
    handlers: createIpcHandlers(core),
    isTrustedSender: (frame) => isAppFrame(mainWindow, frame, rendererUrl),
    uiCalls: core.uiCalls,
    log,
  });
  registerIpcHandlers(ipcMain, dispatch);
  core.subscribe((channel, payload) => {
    if (mainWindow && !mainWindow.isDestroyed()) mainWindow.webContents.send(channel, payload);
    if (channel === 'settings:changed') shortcut.apply((payload as SettingsView).shortcut);
    if (channel === 'updates:changed') tray.setUpdate(trayUpdateOf(payload as UpdateStatus));
  });
  shortcut.apply(started.services.settings.view().shortcut);
  const { startHidden } = lifecycle.start(
    process.argv,
    process.platform === 'darwin' && app.getLoginItemSettings().wasOpenedAtLogin,
  );
  // Before the jobs start: a login start in the tray polls at the tray's pace from the first cycle.
  lifecycle.noteWindowVisibility(!startHidden);
  showWindow({ hidden: startHidden });
  app.on('second-instance', () => showWindow({ hidden: false }));
  app.on('activate', () => showWindow({ hidden: false }));
  await core.start({ demo: process.argv.includes('--demo') });
  // The CLI's way in while this process owns the background jobs (docs/automation.md).
  control = serveControlWhileOwner({ core, dataDir: app.getPath('userData'), log });
  // The local REST API, when Settings → Automation turns it on (docs/automation.md).
  rest = serveRestWhileOwner({ core, version: app.getVersion(), log });
}

// `proxy-manager ports list` (src-main/shell/cli-launch.ts): a command, not the app. It opens no
// window and takes no single-instance lock, so it runs beside an open window.
const cliArguments = cliArgumentsOf(process.argv, { defaultApp: process.defaultApp });
if (cliArguments) {
  app.dock?.hide();
  void runCli(cliArguments, { version: app.getVersion() }).then((status) => app.exit(status));
} else if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  app.on('window-all-closed', () => lifecycle.onWindowAllClosed());
  app.on('will-quit', () => shortcut.release());
  app.on('before-quit', () => {
    lifecycle.dispose();
    const closing = Promise.allSettled([control?.close(), rest?.close()]);
    void closing.finally(() => void core?.dispose());
  });
  app
    .whenReady()
    .then(boot)
    .catch((error: unknown) => {
      log(`startup failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      app.exit(1);
    });
}
