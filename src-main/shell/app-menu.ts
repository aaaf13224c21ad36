import type { MenuItemConstructorOptions } from 'electron';

/**
 * What the application menu is: Electron's default menu (View → Toggle Developer Tools, Reload) only
 * under development; a packaged or `npm start` build gets no way into DevTools or a reload that
 * would drop the page's state. macOS keeps an app menu (Quit, Hide) and the Edit menu, without which
 * Cmd+C/V/X/A do nothing in text fields; Windows and Linux need no menu bar at all.
 */
export type AppMenuPlan =
  | { kind: 'electron-default' }
  | { kind: 'none' }
  | { kind: 'template'; template: MenuItemConstructorOptions[] };

export interface AppMenuContext {
  development: boolean;
  platform: NodeJS.Platform;
  appName: string;
}

export function planAppMenu(context: AppMenuContext): AppMenuPlan {
  if (context.development) return { kind: 'electron-default' };
  if (context.platform !== 'darwin') return { kind: 'none' };
  return {
    kind: 'template',
    template: [
      {
        label: context.appName,
        submenu: [
          { role: 'about' },
          { type: 'separator' },
          { role: 'hide' },
          { role: 'hideOthers' },
          { role: 'unhide' },
          { type: 'separator' },
          { role: 'quit' },
        ],
      },
      { role: 'editMenu' },
      { role: 'windowMenu' },
    ],
  };
}

export interface MenuApi {
  setApplicationMenu(menu: unknown): void;
  buildFromTemplate(template: MenuItemConstructorOptions[]): unknown;
}

/** Applies a plan (after `ready` too: it replaces the menu Electron built). */
export function applyAppMenu(menu: MenuApi, plan: AppMenuPlan): void {
  switch (plan.kind) {
    case 'electron-default':
      return;
    case 'none':
      menu.setApplicationMenu(null);
      return;
    case 'template':
      menu.setApplicationMenu(menu.buildFromTemplate(plan.template));
      return;
  }
}
