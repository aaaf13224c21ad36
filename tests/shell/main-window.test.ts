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

const created: { options: any; contents: FakeContents; loaded: string[] }[] = [];

vi.mock('electron', () => {
  class BrowserWindow {
    readonly webContents: FakeContents;
    readonly loaded: string[] = [];
    constructor(readonly options: any) {
      const handlers: FakeContents['handlers'] = {};
      this.webContents = {
        handlers,
        on: (event, handler) => {
          handlers[event] = handler;
        },
        setWindowOpenHandler: vi.fn(),
        session: { setPermissionRequestHandler: vi.fn(), setPermissionCheckHandler: vi.fn() },
        mainFrame: { url: 'file:///app/out/renderer/index.html' },
      };
      created.push({ options, contents: this.webContents, loaded: this.loaded });
    }
    once() {}
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

const { createMainWindow, isAppFrame, rendererUrlFor } = await import('../../src-main/shell/main-window');

const RENDERER = 'file:///app/out/renderer/index.html';

describe('main window', () => {
  it('locks the renderer down: isolation, sandbox, no Node', () => {
    createMainWindow({ preloadPath: '/app/out/preload/index.js', rendererUrl: RENDERER });
    const { options, loaded } = created.at(-1)!;
    expect(options.webPreferences).toMatchObject({
      preload: '/app/out/preload/index.js',
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
    });
    expect(loaded).toEqual([RENDERER]);
  });

  it('denies navigation away from the app, redirects, new windows and permissions', () => {
    createMainWindow({ preloadPath: '/p.js', rendererUrl: RENDERER });
    const { contents } = created.at(-1)!;
    const navigation = { preventDefault: vi.fn() };
    contents.handlers['will-navigate']?.(navigation, 'https://evil.example/');
    expect(navigation.preventDefault).toHaveBeenCalled();
    const reload = { preventDefault: vi.fn() };
    contents.handlers['will-navigate']?.(reload, RENDERER);
    expect(reload.preventDefault).not.toHaveBeenCalled();
    const redirect = { preventDefault: vi.fn() };
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

  it('trusts only the main frame of the app window showing the app page', () => {
    const window = { isDestroyed: () => false, webContents: { mainFrame: { url: RENDERER } } } as any;
    const mainFrame = window.webContents.mainFrame;
    expect(isAppFrame(window, mainFrame, RENDERER)).toBe(true);
    expect(isAppFrame(window, { url: RENDERER } as any, RENDERER)).toBe(false);
    const navigated = {
      isDestroyed: () => false,
      webContents: { mainFrame: { url: 'https://evil.example/' } },
    } as any;
    expect(isAppFrame(navigated, navigated.webContents.mainFrame, RENDERER)).toBe(false);
    expect(isAppFrame(null, mainFrame, RENDERER)).toBe(false);
    expect(isAppFrame(window, null, RENDERER)).toBe(false);
    const destroyed = { ...window, isDestroyed: () => true };
    expect(isAppFrame(destroyed, mainFrame, RENDERER)).toBe(false);
  });

  it('loads the built page, or the dev server under electron-vite dev', () => {
    expect(rendererUrlFor('/app', undefined)).toBe('file:///app/out/renderer/index.html');
    expect(rendererUrlFor('/app', 'http://localhost:5173')).toBe('http://localhost:5173');
  });
});
