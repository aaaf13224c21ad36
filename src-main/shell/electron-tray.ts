import { Menu, type MenuItemConstructorOptions, nativeImage, Tray } from 'electron';
import type { TrayIconFiles } from './app-resources';
import type { TrayAction, TrayHandle, TrayMenuItem } from './tray';

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

/**
 * The real tray; the only place a `Tray` is constructed. Its images are files from resources/
 * (`trayIconFiles`): a template image on macOS, the badged file while payments are pending.
 */
export function createElectronTray(
  platform: NodeJS.Platform,
  files: TrayIconFiles,
  log: (line: string) => void = () => {},
): TrayHandle {
  const icon = (badge: boolean) => {
    const file = badge ? files.badged : files.plain;
    const image = nativeImage.createFromPath(file);
    // An empty image is an invisible tray: say which file is missing rather than fail to start.
    if (image.isEmpty()) log(`the tray icon ${file} is missing or unreadable`);
    // The name ends in Template already; said again so that it holds whatever the file is called.
    if (files.template) image.setTemplateImage(true);
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
      // The menu bar has room for the count beside the icon.
      if (platform === 'darwin') tray.setTitle(text ? ` ${text}` : '');
      if (badged === (text !== '')) return;
      badged = text !== '';
      tray.setImage(icon(badged));
    },
    destroy: () => tray.destroy(),
  };
}
