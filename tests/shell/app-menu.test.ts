import type { MenuItemConstructorOptions } from 'electron';
import { describe, expect, it, vi } from 'vitest';
import { applyAppMenu, planAppMenu } from '../../src-main/shell/app-menu';

function roles(items: MenuItemConstructorOptions[]): string[] {
  return items.flatMap((item) => [
    ...(item.role ? [item.role] : []),
    ...(Array.isArray(item.submenu) ? roles(item.submenu) : []),
  ]);
}

const DEVTOOLS_ROLES = ['toggleDevTools', 'reload', 'forceReload', 'viewMenu'];

describe('application menu', () => {
  it("keeps Electron's default menu (DevTools, reload) only under development", () => {
    for (const platform of ['linux', 'darwin', 'win32'] as const) {
      expect(planAppMenu({ development: true, platform, appName: 'Proxy Manager' })).toEqual({
        kind: 'electron-default',
      });
    }
  });

  it('removes the menu on Windows and Linux outside development', () => {
    for (const platform of ['linux', 'win32'] as const) {
      expect(planAppMenu({ development: false, platform, appName: 'Proxy Manager' })).toEqual({
        kind: 'none',
      });
    }
  });

  it('on macOS keeps Quit, Hide and Edit (copy and paste) but nothing that reaches DevTools or reloads', () => {
    const plan = planAppMenu({ development: false, platform: 'darwin', appName: 'Proxy Manager' });
    expect(plan.kind).toBe('template');
    const template = plan.kind === 'template' ? plan.template : [];
    expect(roles(template)).toEqual(expect.arrayContaining(['quit', 'hide', 'editMenu']));
    for (const role of DEVTOOLS_ROLES) expect(roles(template)).not.toContain(role);
    expect(template[0]?.label).toBe('Proxy Manager');
  });

  it('applies a plan: null menu, a built template, or leaves the default alone', () => {
    const menu = { setApplicationMenu: vi.fn(), buildFromTemplate: vi.fn(() => 'built') };
    applyAppMenu(menu, { kind: 'none' });
    expect(menu.setApplicationMenu).toHaveBeenLastCalledWith(null);
    applyAppMenu(menu, { kind: 'template', template: [{ role: 'editMenu' }] });
    expect(menu.buildFromTemplate).toHaveBeenCalledWith([{ role: 'editMenu' }]);
    expect(menu.setApplicationMenu).toHaveBeenLastCalledWith('built');
    menu.setApplicationMenu.mockClear();
    applyAppMenu(menu, { kind: 'electron-default' });
    expect(menu.setApplicationMenu).not.toHaveBeenCalled();
  });
});
