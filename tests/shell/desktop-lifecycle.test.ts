import { EventEmitter } from 'node:events';
import { describe, expect, it, type Mock, vi } from 'vitest';
import { DesktopLifecycle } from '../../src-main/shell/desktop-lifecycle';
import {
  DEFAULT_DESKTOP_PREFERENCES,
  type DesktopPreferences,
  type DesktopPreferencesSource,
} from '../../src-main/shell/desktop-preferences';
import { type NavigableWindow, openNotificationRoute } from '../../src-main/shell/notification-click';
import { SystemTrayService, type TrayHandle } from '../../src-main/shell/tray';

/** Electron's `app`, as far as the lifecycle sees it: quitting emits before-quit, as Electron does. */
class FakeApp extends EventEmitter {
  quits = 0;
  loginItems: unknown[] = [];
  quit() {
    this.quits += 1;
    this.emit('before-quit');
  }
  setLoginItemSettings(settings: unknown) {
    this.loginItems.push(settings);
  }
}

/** A BrowserWindow: `close()` runs the close listeners and closes unless one prevented it. */
class FakeWindow extends EventEmitter {
  visible = true;
  destroyed = false;
  close() {
    let prevented = false;
    this.emit('close', { preventDefault: () => (prevented = true) });
    if (prevented) return;
    this.destroyed = true;
    this.visible = false;
    this.emit('closed');
  }
  hide() {
    this.visible = false;
    this.emit('hide');
  }
  show() {
    this.visible = true;
    this.emit('show');
  }
}

function preferencesSource(initial: Partial<DesktopPreferences> = {}) {
  let current: DesktopPreferences = { ...DEFAULT_DESKTOP_PREFERENCES, ...initial };
  const listeners = new Set<(p: DesktopPreferences) => void>();
  const source: DesktopPreferencesSource = {
    getDesktopPreferences: () => current,
    onDesktopPreferencesChanged: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
  const change = (patch: Partial<DesktopPreferences>) => {
    current = { ...current, ...patch };
    for (const listener of listeners) listener(current);
  };
  return { source, change, listeners };
}

function setup(options: { platform?: NodeJS.Platform; preferences?: Partial<DesktopPreferences> } = {}) {
  const app = new FakeApp();
  const prefs = preferencesSource(options.preferences);
  const trayHandles: {
    setMenu: Mock<TrayHandle['setMenu']>;
    onClick: Mock<TrayHandle['onClick']>;
  }[] = [];
  const lifecycleRef: { current?: DesktopLifecycle } = {};
  const tray = new SystemTrayService({
    createTray: () => {
      const handle = {
        setToolTip: vi.fn(),
        setMenu: vi.fn<TrayHandle['setMenu']>(),
        onClick: vi.fn<TrayHandle['onClick']>(),
        destroy: vi.fn(),
      };
      trayHandles.push(handle);
      return handle;
    },
    onAction: (action) => lifecycleRef.current!.handleTrayAction(action),
  });
  const showWindow = vi.fn();
  // The window main.ts shows for a route (already open and loaded here), and what it was sent.
  const shownAt: (string | null)[] = [];
  const sent: unknown[] = [];
  const openWindow: NavigableWindow = {
    webContents: {
      isLoading: () => false,
      once: () => {},
      send: (channel, payload) => sent.push([channel, payload]),
    },
  };
  const seen: boolean[] = [];
  const lifecycle = new DesktopLifecycle({
    openRoute: (route) =>
      openNotificationRoute(route, (initial) => {
        shownAt.push(initial);
        return { window: openWindow, created: false };
      }),
    onWindowVisibility: (visible) => seen.push(visible),
    app,
    platform: options.platform ?? 'linux',
    preferences: prefs.source,
    tray,
    showWindow,
    loginItem: { path: '/opt/proxy-manager/proxy-manager', args: [] },
  });
  lifecycleRef.current = lifecycle;
  return { app, prefs, tray, trayHandles, showWindow, shownAt, sent, lifecycle, seen };
}

describe('desktop lifecycle: close to tray', () => {
  it('closing the window hides it and the app keeps running in the tray (default on)', () => {
    const { app, tray, lifecycle } = setup();
    lifecycle.start([]);
    expect(tray.isShown).toBe(true);
    const window = new FakeWindow();
    lifecycle.attachWindow(window);
    window.close();
    expect(window.destroyed).toBe(false);
    expect(window.visible).toBe(false);
    expect(tray.state.windowVisible).toBe(false);
    lifecycle.onWindowAllClosed();
    expect(app.quits).toBe(0);
  });

  it('Quit in the tray menu ends the app, and the window no longer hides instead of closing', () => {
    const { app, trayHandles, lifecycle } = setup();
    lifecycle.start([]);
    const window = new FakeWindow();
    lifecycle.attachWindow(window);
    const [items, onAction] = trayHandles[0]!.setMenu.mock.calls.at(-1)!;
    const quit = items.find((item) => item.kind === 'action' && item.action.type === 'quit');
    expect(quit).toBeDefined();
    onAction(quit!.kind === 'action' ? quit!.action : { type: 'quit' });
    expect(app.quits).toBe(1);
    expect(lifecycle.quitting).toBe(true);
    window.close();
    expect(window.destroyed).toBe(true);
  });

  it('a quit from elsewhere (Cmd+Q, the OS logging out) is not turned into a hide', () => {
    const { app, lifecycle } = setup();
    lifecycle.start([]);
    const window = new FakeWindow();
    lifecycle.attachWindow(window);
    app.emit('before-quit');
    window.close();
    expect(window.destroyed).toBe(true);
  });

  it('Open in the tray (or a click on the icon) shows the window at the overview', () => {
    const { trayHandles, showWindow, shownAt, sent, lifecycle } = setup();
    lifecycle.start([]);
    const [items, onAction] = trayHandles[0]!.setMenu.mock.calls.at(-1)!;
    const open = items[0]!;
    onAction(open.kind === 'action' ? open.action : { type: 'quit' });
    expect(shownAt).toEqual(['/overview']);
    trayHandles[0]!.onClick.mock.calls[0]![0]();
    expect(shownAt).toEqual(['/overview', '/overview']);
    expect(sent).toEqual([
      ['app:navigate', { route: '/overview' }],
      ['app:navigate', { route: '/overview' }],
    ]);
    expect(showWindow).not.toHaveBeenCalled();
  });

  it('a pending top-up in the tray shows the window and navigates to that top-up (app:navigate)', () => {
    const { tray, trayHandles, showWindow, shownAt, sent, lifecycle } = setup();
    lifecycle.start([]);
    tray.setPorts({
      ...tray.state.ports,
      payments: [{ topUpId: 'tu 1', text: 'Top-up of 50.00 USD: awaiting payment' }],
    });
    const [items, onAction] = trayHandles[0]!.setMenu.mock.calls.at(-1)!;
    const payment = items.find((item) => item.kind === 'action' && item.label.startsWith('Top-up of'));
    expect(payment?.kind).toBe('action');
    onAction(payment!.kind === 'action' ? payment!.action : { type: 'quit' });
    expect(shownAt).toEqual(['/topups/tu%201']);
    expect(sent).toEqual([['app:navigate', { route: '/topups/tu%201' }]]);
    expect(showWindow).not.toHaveBeenCalled();
  });

  it('with closeToTray off: no tray, closing the window closes it and the app quits (not on macOS)', () => {
    const { app, tray, lifecycle } = setup({ preferences: { closeToTray: false } });
    lifecycle.start([]);
    expect(tray.isShown).toBe(false);
    const window = new FakeWindow();
    lifecycle.attachWindow(window);
    window.close();
    expect(window.destroyed).toBe(true);
    lifecycle.onWindowAllClosed();
    expect(app.quits).toBe(1);

    const mac = setup({ platform: 'darwin', preferences: { closeToTray: false } });
    mac.lifecycle.start([]);
    mac.lifecycle.onWindowAllClosed();
    expect(mac.app.quits).toBe(0);
  });

  it('follows a change of closeToTray while running', () => {
    const { prefs, tray, lifecycle } = setup();
    lifecycle.start([]);
    const window = new FakeWindow();
    lifecycle.attachWindow(window);
    prefs.change({ closeToTray: false });
    expect(tray.isShown).toBe(false);
    window.close();
    expect(window.destroyed).toBe(true);
    lifecycle.dispose();
    expect(prefs.listeners.size).toBe(0);
  });
});

describe('desktop lifecycle: start at login and start minimised', () => {
  it('registers the login item on Windows with --hidden when start minimised is on, and only on change', () => {
    const { app, prefs, lifecycle } = setup({ platform: 'win32' });
    lifecycle.start([]);
    expect(app.loginItems).toEqual([
      { openAtLogin: false, path: '/opt/proxy-manager/proxy-manager', args: [] },
    ]);
    prefs.change({ startAtLogin: true, startMinimized: true });
    expect(app.loginItems.at(-1)).toEqual({
      openAtLogin: true,
      path: '/opt/proxy-manager/proxy-manager',
      args: ['--hidden'],
    });
    prefs.change({ closeToTray: false });
    expect(app.loginItems).toHaveLength(2);
  });

  it('uses no login items on Linux (Electron has none there)', () => {
    const { app, prefs, lifecycle } = setup({ platform: 'linux' });
    lifecycle.start([]);
    prefs.change({ startAtLogin: true });
    expect(app.loginItems).toEqual([]);
    expect(lifecycle.loginItemsSupported).toBe(false);
  });

  it('starts hidden for --hidden or a macOS login start with start minimised; a start by hand shows the window', () => {
    expect(setup().lifecycle.start(['electron', '.', '--hidden'])).toEqual({ startHidden: true });
    expect(setup({ preferences: { startMinimized: true } }).lifecycle.start([])).toEqual({
      startHidden: false,
    });
    expect(
      setup({ platform: 'darwin', preferences: { startMinimized: true } }).lifecycle.start([], true),
    ).toEqual({ startHidden: true });
    expect(setup({ platform: 'darwin' }).lifecycle.start([], true)).toEqual({ startHidden: false });
  });

  it('never starts hidden without a tray to come back through; start minimised alone keeps the tray', () => {
    const noTray = setup({ preferences: { closeToTray: false } });
    expect(noTray.lifecycle.start(['--hidden'])).toEqual({ startHidden: false });
    const minimised = setup({ preferences: { closeToTray: false, startMinimized: true } });
    expect(minimised.lifecycle.start(['--hidden'])).toEqual({ startHidden: true });
    expect(minimised.tray.isShown).toBe(true);
  });
});

describe("desktop lifecycle: whether the user sees the window (the usage poller's pace)", () => {
  it('tells the start, then each change: hidden to the tray, shown, minimised, restored, closed', () => {
    const { lifecycle, seen } = setup();
    const { startHidden } = lifecycle.start(['--hidden']);
    expect(startHidden).toBe(true);
    lifecycle.noteWindowVisibility(!startHidden);
    const window = new FakeWindow();
    lifecycle.attachWindow(window);
    expect(seen).toEqual([false]);
    window.show();
    expect(seen).toEqual([false, true]);
    window.emit('minimize');
    window.emit('restore');
    window.close(); // hidden to the tray (closeToTray is on by default)
    expect(seen).toEqual([false, true, false, true, false]);
    // A repeated state is not told again.
    window.hide();
    expect(seen).toEqual([false, true, false, true, false]);
    window.show();
    window.emit('closed');
    expect(seen).toEqual([false, true, false, true, false, true, false]);
  });
});
