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
      createFromBitmap: (buffer: Buffer, size: { width: number; height: number }) => ({
        buffer,
        size,
        template: false,
        setTemplateImage(this: { template: boolean }, value: boolean) {
          this.template = value;
        },
      }),
    },
  };
});

const { createElectronTray, toElectronMenuTemplate } = await import('../../src-main/shell/electron-tray');

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

  it('draws its own icon (a template image on macOS) and forwards menu, tooltip, click and destroy', () => {
    const handle = createElectronTray('darwin');
    const tray = created.at(-1)!;
    expect(tray.image.size).toEqual({ width: 16, height: 16 });
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

    createElectronTray('linux');
    expect(created.at(-1)!.image.template).toBe(false);
    expect(created.at(-1)!.image.size).toEqual({ width: 32, height: 32 });
  });

  it('badges pending payments: the count as the title on macOS, an orange dot on the icon elsewhere', () => {
    const mac = createElectronTray('darwin');
    mac.setBadge?.('2');
    expect(created.at(-1)!.title).toBe(' 2');
    mac.setBadge?.('');
    expect(created.at(-1)!.title).toBe('');

    const linux = createElectronTray('linux');
    const tray = created.at(-1)!;
    const plain = tray.image.buffer as Buffer;
    linux.setBadge?.('1');
    linux.setBadge?.('2'); // still badged: the icon is not replaced again
    expect(tray.images).toHaveLength(1);
    const badged = tray.images[0].buffer as Buffer;
    // Top-right pixel of the dot (BGRA): orange and opaque, where the plain icon has the blue disc's edge or nothing.
    const at = (buffer: Buffer, x: number, y: number) => [
      ...buffer.subarray((y * 32 + x) * 4, (y * 32 + x) * 4 + 4),
    ];
    expect(at(badged, 25, 7)).toEqual([12, 88, 234, 255]);
    expect(at(plain, 25, 7)).not.toEqual([12, 88, 234, 255]);
    linux.setBadge?.('');
    expect(tray.images).toHaveLength(2);
    expect(tray.images[1].buffer).toEqual(plain);
  });
});
