import type { PortsTrayAction } from '../core/tray/tray-menu';
import type { AppRoute } from '../../src-shared/contract';
import type { DesktopPreferences, DesktopPreferencesSource } from './desktop-preferences';
import type { TrayAction } from './tray';

/** The part of Electron's `app` the lifecycle uses. */
interface LifecycleApp {
  quit(): void;
  on(event: 'before-quit', listener: () => void): unknown;
  setLoginItemSettings(settings: { openAtLogin: boolean; path?: string; args?: string[] }): void;
}

/** The part of a `BrowserWindow` the lifecycle uses. */
export interface LifecycleWindow {
  on(event: 'close', listener: (event: { preventDefault(): void }) => void): unknown;
  on(event: 'show' | 'hide' | 'closed' | 'minimize' | 'restore', listener: () => void): unknown;
  hide(): void;
}

/** The part of the tray service the lifecycle drives. */
interface LifecycleTray {
  setEnabled(enabled: boolean): void;
  setWindowVisible(visible: boolean): void;
  readonly isShown: boolean;
}

export interface DesktopLifecycleOptions {
  app: LifecycleApp;
  platform: NodeJS.Platform;
  preferences: DesktopPreferencesSource;
  tray: LifecycleTray;
  /** Creates the window, or shows, restores and focuses the existing one. */
  showWindow: () => void;
  /** What the OS starts at login: the executable and the arguments before `--hidden`. */
  loginItem: { path?: string; args: string[] };
  /** Shows the window at a route (a pending top-up in the tray), as a notification click does. */
  openRoute?: (route: AppRoute) => void;
  /** Rotate a port, rotate all pinned, pause schedules: the core's tray state does them. */
  onPortsAction?: (action: PortsTrayAction) => void;
  /**
   * Whether the user can see the window (shown and not minimised), told on each change: the core's
   * usage poller reads faster while it is seen (`core.windowVisibility`).
   */
  onWindowVisibility?: (visible: boolean) => void;
}

/** The argument a login start passes on Windows so that the app comes up in the tray. */
const HIDDEN_ARG = '--hidden';
/** Where the tray's "Open" (and a click on its icon) takes the window. */
const OVERVIEW_ROUTE: AppRoute = '/overview';

/**
 * When the app keeps running and when it ends. Closing the window hides it to the tray while
 * `closeToTray` is on (and a tray is there to come back through); Quit in the tray, Cmd+Q, the OS
 * logging out or installing an update end it. Start at login goes to the OS through
 * `setLoginItemSettings` (macOS and Windows; Electron has no login items on Linux). Start minimised
 * applies to login starts, as in most desktop apps (a start by hand always shows the window): on
 * Windows the login item carries `--hidden`; macOS login items take no arguments (Electron 45 has
 * no `openAsHidden` any more), so there `wasOpenedAtLogin` tells.
 */
export class DesktopLifecycle {
  readonly #options: DesktopLifecycleOptions;
  #quitting = false;
  #loginItemApplied: string | null = null;
  #unsubscribe: (() => void) | null = null;
  #seen: boolean | null = null;

  constructor(options: DesktopLifecycleOptions) {
    this.#options = options;
    // Whoever asks to quit (the tray, Cmd+Q, the OS), the window must not veto it by hiding.
    options.app.on('before-quit', () => {
      this.#quitting = true;
    });
  }

  get quitting(): boolean {
    return this.#quitting;
  }

  get loginItemsSupported(): boolean {
    return this.#options.platform === 'darwin' || this.#options.platform === 'win32';
  }

  /**
   * Applies the preferences, follows their changes, and says whether the window should start
   * hidden: `--hidden` (a Windows login start, or the user's own autostart entry on Linux), or a
   * macOS login start with `startMinimized` on.
   */
  start(argv: readonly string[], openedAtLogin = false): { startHidden: boolean } {
    const preferences = this.#options.preferences.getDesktopPreferences();
    this.#apply(preferences);
    this.#unsubscribe = this.#options.preferences.onDesktopPreferencesChanged((next) => this.#apply(next));
    const wantsHidden = argv.includes(HIDDEN_ARG) || (openedAtLogin && preferences.startMinimized);
    // Hidden with no tray would leave no way back to the window.
    return { startHidden: wantsHidden && this.#options.tray.isShown };
  }

  attachWindow(window: LifecycleWindow): void {
    window.on('close', (event) => {
      if (this.#quitting) return;
      const { closeToTray } = this.#options.preferences.getDesktopPreferences();
      if (closeToTray && this.#options.tray.isShown) {
        event.preventDefault();
        window.hide();
      }
    });
    window.on('show', () => {
      this.#options.tray.setWindowVisible(true);
      this.#setSeen(true);
    });
    window.on('hide', () => {
      this.#options.tray.setWindowVisible(false);
      this.#setSeen(false);
    });
    window.on('closed', () => {
      this.#options.tray.setWindowVisible(false);
      this.#setSeen(false);
    });
    // A minimised window is still "shown" for the tray's wording, but nobody reads it.
    window.on('minimize', () => this.#setSeen(false));
    window.on('restore', () => this.#setSeen(true));
  }

  /** The start: whether the window comes up shown (before its first `show`, or when it never does). */
  noteWindowVisibility(visible: boolean): void {
    this.#setSeen(visible);
  }

  #setSeen(visible: boolean): void {
    if (this.#seen === visible) return;
    this.#seen = visible;
    this.#options.onWindowVisibility?.(visible);
  }

  handleTrayAction(action: TrayAction): void {
    switch (action.type) {
      case 'open-window':
        // Opening the app from the tray answers "is anything about to break?" first.
        if (this.#options.openRoute) this.#options.openRoute(OVERVIEW_ROUTE);
        else this.#options.showWindow();
        return;
      case 'open-route':
        if (this.#options.openRoute) this.#options.openRoute(action.route);
        else this.#options.showWindow();
        return;
      case 'quit':
        this.quit();
        return;
      case 'rotate-port':
      case 'rotate-until-new':
      case 'rotate-all-pinned':
      case 'pause-schedules':
        this.#options.onPortsAction?.(action);
        return;
    }
  }

  quit(): void {
    this.#quitting = true;
    this.#options.app.quit();
  }

  /** `window-all-closed`: the last window is gone (closed for real, not hidden to the tray). */
  onWindowAllClosed(): void {
    if (this.#options.platform === 'darwin') return; // the macOS convention: the app stays in the Dock
    const { closeToTray } = this.#options.preferences.getDesktopPreferences();
    if (!closeToTray || !this.#options.tray.isShown) this.quit();
  }

  dispose(): void {
    this.#unsubscribe?.();
    this.#unsubscribe = null;
  }

  #apply(preferences: DesktopPreferences): void {
    this.#options.tray.setEnabled(preferences.closeToTray || preferences.startMinimized);
    this.#applyLoginItem(preferences);
  }

  #applyLoginItem({ startAtLogin, startMinimized }: DesktopPreferences): void {
    if (!this.loginItemsSupported) return;
    const key = JSON.stringify([startAtLogin, startMinimized]);
    if (key === this.#loginItemApplied) return;
    this.#loginItemApplied = key;
    const { path, args } = this.#options.loginItem;
    this.#options.app.setLoginItemSettings({
      openAtLogin: startAtLogin,
      ...(path ? { path } : {}),
      args: startMinimized ? [...args, HIDDEN_ARG] : [...args],
    });
  }
}
