import { describe, expect, it, vi } from 'vitest';

const created: {
  image: any;
  handlers: Record<string, () => void>;
  menu: unknown;
  tooltip: string;
  title: string;
  images: any[];
  destroyed: boolean;
}[] = [];

vi.mock('electron', () => {
  class Tray {
    readonly record = {
      image: null as any,
      handlers: {} as Record<string, () => void>,
      menu: null as unknown,
      tooltip: '',
      title: '',
      images: [] as any[],
      destroyed: false,
    };
    constructor(image: any) {
      this.record.image = image;
      created.push(this.record);
    }
    setTitle(text: string) {
      this.record.title = text;
    }
    setImage(image: any) {
      this.record.image = image;
      this.record.images.push(image);
    }
    setToolTip(text: string) {
      this.record.tooltip = text;
    }
    setContextMenu(menu: unknown) {
      this.record.menu = menu;
    }
    on(event: string, listener: () => void) {
      this.record.handlers[event] = listener;
    }
    destroy() {
      this.record.destroyed = true;
    }
  }
  return {
    Tray,
    Menu: { buildFromTemplate: (template: unknown) => ({ template }) },
    nativeImage: {
      createFromPath: (path: string) => ({
        path,
        template: false,
        isEmpty: () => path.includes('missing'),
        setTemplateImage(this: { template: boolean }, value: boolean) {
          this.template = value;
        },
      }),
    },
  };
});

const { createElectronTray, toElectronMenuTemplate } = await import('../../src-main/shell/electron-tray');
const { trayIconFiles } = await import('../../src-main/shell/app-resources');

describe('Electron tray adapter', () => {
  it('turns the plain menu model into a template whose clicks report the actions', () => {
    const onAction = vi.fn();
    const template = toElectronMenuTemplate(
      [
        { kind: 'action', label: 'Open Proxy Manager', action: { type: 'open-window' } },
        { kind: 'separator' },
        {
          kind: 'submenu',
          label: 'More',
          items: [{ kind: 'action', label: 'Quit', action: { type: 'quit' }, enabled: false }],
        },
      ],
      onAction,
    );
    expect(template.map((item) => item.label ?? item.type)).toEqual([
      'Open Proxy Manager',
      'separator',
      'More',
    ]);
    (template[0]!.click as () => void)();
    expect(onAction).toHaveBeenCalledWith({ type: 'open-window' });
    const nested = template[2]!.submenu as any[];
    expect(nested[0]).toMatchObject({ label: 'Quit', enabled: false });
    nested[0].click();
    expect(onAction).toHaveBeenLastCalledWith({ type: 'quit' });
  });

  it('shows the resources/ tray files (a template image on macOS) and forwards menu, tooltip, click and destroy', () => {
    const handle = createElectronTray('darwin', trayIconFiles('darwin', '/res'));
    const tray = created.at(-1)!;
    expect(tray.image.path).toBe('/res/tray/trayTemplate.png');
    expect(tray.image.template).toBe(true);
    handle.setToolTip('Proxy Manager');
    expect(tray.tooltip).toBe('Proxy Manager');
    handle.setMenu([{ kind: 'action', label: 'Quit', action: { type: 'quit' } }], () => {});
    expect((tray.menu as any).template[0].label).toBe('Quit');
    const click = vi.fn();
    handle.onClick(click);
    tray.handlers.click?.();
    expect(click).toHaveBeenCalled();
    handle.destroy();
    expect(tray.destroyed).toBe(true);

    createElectronTray('linux', trayIconFiles('linux', '/res'));
    expect(created.at(-1)!.image).toMatchObject({ path: '/res/tray/tray-22.png', template: false });
    createElectronTray('win32', trayIconFiles('win32', '/res'));
    expect(created.at(-1)!.image).toMatchObject({ path: '/res/tray/tray.ico', template: false });
  });

  it('badges pending payments with the badged file; on macOS the count beside it as well', () => {
    const mac = createElectronTray('darwin', trayIconFiles('darwin', '/res'));
    const macTray = created.at(-1)!;
    mac.setBadge?.('2');
    expect(macTray.title).toBe(' 2');
    expect(macTray.image).toMatchObject({ path: '/res/tray/trayBadgeTemplate.png', template: true });
    mac.setBadge?.('');
    expect(macTray.title).toBe('');
    expect(macTray.image.path).toBe('/res/tray/trayTemplate.png');

    const linux = createElectronTray('linux', trayIconFiles('linux', '/res', 2));
    const tray = created.at(-1)!;
    expect(tray.image.path).toBe('/res/tray/tray-32.png');
    linux.setBadge?.('1');
    linux.setBadge?.('2'); // still badged: the icon is not replaced again
    expect(tray.images.map((image) => image.path)).toEqual(['/res/tray/tray-badge-32.png']);
    linux.setBadge?.('');
    expect(tray.images.map((image) => image.path)).toEqual([
      '/res/tray/tray-badge-32.png',
      '/res/tray/tray-32.png',
    ]);
  });

  it('says which tray file is missing (an empty image would be an invisible tray)', () => {
    const log = vi.fn();
    createElectronTray('linux', { plain: '/res/missing.png', badged: '/res/b.png', template: false }, log);
    expect(log).toHaveBeenCalledWith('the tray icon /res/missing.png is missing or unreadable');
  });
});
