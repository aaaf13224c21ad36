import { describe, expect, it } from 'vitest';
import type { UpdateStatus } from '../../src-shared/contract';
import { trayUpdateOf } from '../../src-main/core/tray/tray-menu';
import {
  buildTrayMenu,
  INITIAL_TRAY_STATE,
  SystemTrayService,
  type TrayMenuItem,
} from '../../src-main/shell/tray';

const labels = (items: TrayMenuItem[]) =>
  items.map((item) => (item.kind === 'separator' ? '---' : item.label));

const idle: UpdateStatus = {
  currentVersion: '0.1.0',
  installKind: 'appimage',
  preferences: { checkAutomatically: true, checkInDemo: false, proxyUrl: null },
  phase: 'idle',
  lastCheckedAt: null,
  available: null,
  heldBack: null,
  progress: null,
  ready: null,
  problem: null,
};

describe('the tray’s update item', () => {
  it('says "Update available" under Open, and opens the window where the notes are', () => {
    const update = trayUpdateOf({
      ...idle,
      available: { version: '0.2.0', notes: 'n', releasedAt: '2026-05-30T12:00:00Z', size: 1 },
    });
    const menu = buildTrayMenu({ ...INITIAL_TRAY_STATE, update });
    expect(labels(menu)).toEqual([
      'Open Proxy Manager',
      '---',
      'Update available: 0.2.0',
      '---',
      'Quit Proxy Manager',
    ]);
    expect(menu[2]).toMatchObject({ action: { type: 'open-route', route: '/overview' } });
  });

  it('says when the verified update waits for a restart, and nothing when up to date', () => {
    const ready = trayUpdateOf({ ...idle, phase: 'ready', ready: { kind: 'restart', version: '0.2.0' } });
    expect(labels(buildTrayMenu({ ...INITIAL_TRAY_STATE, update: ready }))).toContain(
      'Update 0.2.0 ready: open to finish',
    );
    expect(labels(buildTrayMenu({ ...INITIAL_TRAY_STATE, update: trayUpdateOf(idle) }))).toEqual([
      'Open Proxy Manager',
      '---',
      'Quit Proxy Manager',
    ]);
  });

  it('rebuilds the menu only when the item changes, not on every progress step', () => {
    const menus: TrayMenuItem[][] = [];
    const service = new SystemTrayService({
      createTray: () => ({
        setToolTip: () => undefined,
        setMenu: (items) => menus.push(items),
        onClick: () => undefined,
        destroy: () => undefined,
      }),
      onAction: () => undefined,
    });
    service.setEnabled(true);
    service.setUpdate({ version: '0.2.0', ready: false });
    service.setUpdate({ version: '0.2.0', ready: false });
    service.setUpdate({ version: '0.2.0', ready: true });
    expect(menus).toHaveLength(3);
  });
});
