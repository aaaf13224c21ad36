import { describe, expect, it, vi } from 'vitest';

interface FakeContents {
  handlers: Record<string, (...args: any[]) => void>;
  on: (event: string, handler: (...args: any[]) => void) => void;
  setWindowOpenHandler: ReturnType<typeof vi.fn>;
  session: {
    setPermissionRequestHandler: ReturnType<typeof vi.fn>;
    setPermissionCheckHandler: ReturnType<typeof vi.fn>;
  };
  mainFrame: { url: string };
}

const created: { options: any; contents: FakeContents; loaded: string[]; once: string[] }[] = [];

function fakeContents(): FakeContents {
  const handlers: FakeContents['handlers'] = {};
  return {
    handlers,
    on: (event, handler) => {
      handlers[event] = handler;
    },
    setWindowOpenHandler: vi.fn(),
    session: { setPermissionRequestHandler: vi.fn(), setPermissionCheckHandler: vi.fn() },
    mainFrame: { url: 'app://renderer/index.html' },
  };
}

vi.mock('electron', () => {
  class BrowserWindow {
    readonly webContents = fakeContents();
    readonly loaded: string[] = [];
    readonly onceEvents: string[] = [];
    constructor(readonly options: any) {
      created.push({ options, contents: this.webContents, loaded: this.loaded, once: this.onceEvents });
    }
    once(event: string) {
      this.onceEvents.push(event);
    }
    isDestroyed() {
      return false;
    }
    loadURL(url: string) {
      this.loaded.push(url);
      return Promise.resolve();
    }
  }
  return { BrowserWindow };
});

const {
  createMainWindow,
  guardWebContents,
  isAppFrame,
  isDevelopmentRun,
  isRendererPage,
  rendererUrlAt,
  rendererUrlFor,
} = await import('../../src-main/shell/main-window');

const RENDERER = 'app://renderer/index.html';
const prevented = () => ({ preventDefault: vi.fn() });

describe('main window', () => {
  it('locks the renderer down: isolation, sandbox, no Node, no webview, no auxclick, no DevTools', () => {
    createMainWindow({ preloadPath: '/app/out/preload/index.js', rendererUrl: RENDERER, development: false });
    const { options, loaded } = created.at(-1)!;
    expect(options.webPreferences).toMatchObject({
      preload: '/app/out/preload/index.js',
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
      webviewTag: false,
      disableBlinkFeatures: 'Auxclick',
      devTools: false,
    });
    expect(options.webPreferences).not.toHaveProperty('enableBlinkFeatures');
    expect(loaded).toEqual([RENDERER]);
  });

  it('allows DevTools under development only', () => {
    createMainWindow({ preloadPath: '/p.js', rendererUrl: 'http://localhost:5173', development: true });
    expect(created.at(-1)!.options.webPreferences.devTools).toBe(true);
  });

  it('shows itself once painted, unless asked to start hidden', () => {
    createMainWindow({ preloadPath: '/p.js', rendererUrl: RENDERER, development: false });
    expect(created.at(-1)!.once).toEqual(['ready-to-show']);
    createMainWindow({ preloadPath: '/p.js', rendererUrl: RENDERER, development: false, showOnReady: false });
    expect(created.at(-1)!.once).toEqual([]);
  });

  it('takes the icon it is given (Linux and Windows), and sets none otherwise (macOS: the bundle’s)', () => {
    createMainWindow({
      preloadPath: '/p.js',
      rendererUrl: RENDERER,
      development: false,
      icon: '/r/icon.ico',
    });
    expect(created.at(-1)!.options.icon).toBe('/r/icon.ico');
    createMainWindow({ preloadPath: '/p.js', rendererUrl: RENDERER, development: false, icon: undefined });
    expect(created.at(-1)!.options).not.toHaveProperty('icon');
  });

  it('denies navigation away from the app, redirects, new windows and permissions', () => {
    createMainWindow({ preloadPath: '/p.js', rendererUrl: RENDERER, development: false });
    const { contents } = created.at(-1)!;
    const navigation = prevented();
    contents.handlers['will-navigate']?.(navigation, 'https://evil.example/');
    expect(navigation.preventDefault).toHaveBeenCalled();
    const fileNavigation = prevented();
    contents.handlers['will-navigate']?.(fileNavigation, 'file:///etc/passwd');
    expect(fileNavigation.preventDefault).toHaveBeenCalled();
    const reload = prevented();
    contents.handlers['will-navigate']?.(reload, `${RENDERER}#/catalog`);
    expect(reload.preventDefault).not.toHaveBeenCalled();
    const redirect = prevented();
    contents.handlers['will-redirect']?.(redirect, 'https://evil.example/');
    expect(redirect.preventDefault).toHaveBeenCalled();

    const openHandler = contents.setWindowOpenHandler.mock.calls[0]?.[0] as () => unknown;
    expect(openHandler()).toEqual({ action: 'deny' });
    const permission = contents.session.setPermissionRequestHandler.mock.calls[0]?.[0] as (
      ...a: any[]
    ) => void;
    const callback = vi.fn();
    permission({}, 'notifications', callback);
    expect(callback).toHaveBeenCalledWith(false);
    const check = contents.session.setPermissionCheckHandler.mock.calls[0]?.[0] as () => boolean;
    expect(check()).toBe(false);
  });

  it('refuses to attach any <webview> and any frame navigation but the top frame to the app page', () => {
    const contents = fakeContents();
    guardWebContents(contents as any, RENDERER);
    const webview = prevented();
    contents.handlers['will-attach-webview']?.(webview, {}, {});
    expect(webview.preventDefault).toHaveBeenCalled();

    const frameEvent = (url: string, isMainFrame: boolean) => ({ url, isMainFrame, preventDefault: vi.fn() });
    const subframe = frameEvent(RENDERER, false);
    contents.handlers['will-frame-navigate']?.(subframe);
    expect(subframe.preventDefault).toHaveBeenCalled();
    const away = frameEvent('https://evil.example/', true);
    contents.handlers['will-frame-navigate']?.(away);
    expect(away.preventDefault).toHaveBeenCalled();
    const otherScheme = frameEvent('evil://renderer/index.html', true);
    contents.handlers['will-frame-navigate']?.(otherScheme);
    expect(otherScheme.preventDefault).toHaveBeenCalled();
    const home = frameEvent(`${RENDERER}#/ports`, true);
    contents.handlers['will-frame-navigate']?.(home);
    expect(home.preventDefault).not.toHaveBeenCalled();
  });

  it('trusts only the main frame of the app window showing the app page', () => {
    const window = { isDestroyed: () => false, webContents: { mainFrame: { url: RENDERER } } } as any;
    const mainFrame = window.webContents.mainFrame;
    expect(isAppFrame(window, mainFrame, RENDERER)).toBe(true);
    expect(isAppFrame(window, { url: RENDERER } as any, RENDERER)).toBe(false);
    for (const url of ['https://evil.example/', 'evil://renderer/index.html', 'file:///index.html']) {
      const navigated = { isDestroyed: () => false, webContents: { mainFrame: { url } } } as any;
      expect(isAppFrame(navigated, navigated.webContents.mainFrame, RENDERER)).toBe(false);
    }
    expect(isAppFrame(null, mainFrame, RENDERER)).toBe(false);
    expect(isAppFrame(window, null, RENDERER)).toBe(false);
    const destroyed = { ...window, isDestroyed: () => true };
    expect(isAppFrame(destroyed, mainFrame, RENDERER)).toBe(false);
  });

  it('loads app://renderer, or the dev server under electron-vite dev; a packaged app ignores the dev URL', () => {
    expect(rendererUrlFor(false, undefined)).toBe('app://renderer/index.html');
    expect(rendererUrlFor(true, 'http://localhost:5173')).toBe('http://localhost:5173');
    expect(isDevelopmentRun(false, 'http://localhost:5173')).toBe(true);
    expect(isDevelopmentRun(true, 'http://localhost:5173')).toBe(false);
    expect(isDevelopmentRun(false, undefined)).toBe(false);
    expect(rendererUrlFor(isDevelopmentRun(true, 'http://evil.example'), 'http://evil.example')).toBe(
      'app://renderer/index.html',
    );
  });

  it('opens a new window at a clicked notification’s route, in the fragment, still the app’s page', () => {
    expect(rendererUrlAt('app://renderer/index.html', '/ports/mp_1')).toBe(
      'app://renderer/index.html#/ports/mp_1',
    );
    expect(rendererUrlAt('http://localhost:5173/', '/topups/tu%201')).toBe(
      'http://localhost:5173/#/topups/tu%201',
    );
    expect(rendererUrlAt('app://renderer/index.html', null)).toBe('app://renderer/index.html');
    expect(
      isRendererPage(rendererUrlAt('app://renderer/index.html', '/ports/mp_1'), 'app://renderer/index.html'),
    ).toBe(true);
  });
});
