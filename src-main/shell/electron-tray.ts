import { Menu, type MenuItemConstructorOptions, nativeImage, Tray } from 'electron';
import { type TrayAction, type TrayHandle, trayIconBitmap, type TrayMenuItem } from './tray';

/** The plain menu model as Electron's template; clicks report the item's action. */
export function toElectronMenuTemplate(
  items: TrayMenuItem[],
  onAction: (action: TrayAction) => void,
): MenuItemConstructorOptions[] {
  return items.map((item): MenuItemConstructorOptions => {
    switch (item.kind) {
      case 'separator':
        return { type: 'separator' };
      case 'submenu':
        return { label: item.label, submenu: toElectronMenuTemplate(item.items, onAction) };
      case 'action':
        return { label: item.label, enabled: item.enabled ?? true, click: () => onAction(item.action) };
    }
  });
}

/** The real tray; the only place a `Tray` is constructed. */
export function createElectronTray(platform: NodeJS.Platform): TrayHandle {
  const size = platform === 'darwin' ? 16 : 32;
  const colour: [number, number, number] = platform === 'darwin' ? [0, 0, 0] : [37, 99, 235];
  const icon = (badge: boolean) => {
    // The badge is orange; macOS shows the count as the tray's title instead (template images are monochrome).
    const bitmap = trayIconBitmap(size, colour, badge ? [234, 88, 12] : undefined);
    const image = nativeImage.createFromBitmap(bitmap, { width: size, height: size });
    if (platform === 'darwin') image.setTemplateImage(true);
    return image;
  };
  const tray = new Tray(icon(false));
  let badged = false;
  return {
    setToolTip: (text) => tray.setToolTip(text),
    setMenu: (items, onAction) =>
      tray.setContextMenu(Menu.buildFromTemplate(toElectronMenuTemplate(items, onAction))),
    onClick: (listener) => {
      tray.on('click', listener);
    },
    setBadge: (text) => {
      if (platform === 'darwin') {
        tray.setTitle(text ? ` ${text}` : '');
        return;
      }
      if (badged === (text !== '')) return;
      badged = text !== '';
      tray.setImage(icon(badged));
    },
    destroy: () => tray.destroy(),
  };
}
