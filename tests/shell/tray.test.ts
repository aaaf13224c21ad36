import { describe, expect, it, vi } from 'vitest';
import {
  INITIAL_TRAY_STATE,
  buildTrayMenu,
  SystemTrayService,
  type TrayAction,
  type TrayHandle,
  type TrayMenuItem,
  type TrayMenuSection,
} from '../../src-main/shell/tray';

function fakeTrayFactory() {
  const trays: (TrayHandle & {
    menus: TrayMenuItem[][];
    tooltips: string[];
    badges: string[];
    click?: () => void;
    destroyed: boolean;
  })[] = [];
  const createTray = vi.fn(() => {
    const tray = {
      menus: [] as TrayMenuItem[][],
      tooltips: [] as string[],
      badges: [] as string[],
      destroyed: false,
      click: undefined as (() => void) | undefined,
      setToolTip(text: string) {
        tray.tooltips.push(text);
      },
      setMenu(items: TrayMenuItem[]) {
        tray.menus.push(items);
      },
      setBadge(text: string) {
        tray.badges.push(text);
      },
      onClick(listener: () => void) {
        tray.click = listener;
      },
      destroy() {
        tray.destroyed = true;
      },
    };
    trays.push(tray);
    return tray;
  });
  return { createTray, trays };
}

const labels = (items: TrayMenuItem[]) =>
  items.map((item) => (item.kind === 'separator' ? '---' : item.label));

describe('tray menu model', () => {
  it('is Open, a separator, then Quit', () => {
    const menu = buildTrayMenu({ ...INITIAL_TRAY_STATE, windowVisible: false });
    expect(labels(menu)).toEqual(['Open Proxy Manager', '---', 'Quit Proxy Manager']);
    expect(menu[0]).toMatchObject({ kind: 'action', action: { type: 'open-window' } });
    expect(menu[2]).toMatchObject({ kind: 'action', action: { type: 'quit' } });
  });

  it('says Show when the window is already open', () => {
    expect(labels(buildTrayMenu({ ...INITIAL_TRAY_STATE, windowVisible: true }))[0]).toBe(
      'Show Proxy Manager',
    );
  });

  it('takes new sections in order, separated, and leaves empty ones out', () => {
    const pinned: TrayMenuSection = () => [
      {
        kind: 'submenu',
        label: 'Pinned ports',
        items: [{ kind: 'action', label: 'Rotate all', action: { type: 'quit' } }],
      },
    ];
    const empty: TrayMenuSection = () => [];
    const open: TrayMenuSection = () => [{ kind: 'action', label: 'Open', action: { type: 'open-window' } }];
    expect(
      labels(buildTrayMenu({ ...INITIAL_TRAY_STATE, windowVisible: false }, [open, empty, pinned])),
    ).toEqual(['Open', '---', 'Pinned ports']);
  });
});

describe('SystemTrayService', () => {
  it('creates the tray only when enabled and destroys it when disabled', () => {
    const { createTray, trays } = fakeTrayFactory();
    const service = new SystemTrayService({ createTray, onAction: () => {} });
    service.setWindowVisible(true);
    expect(createTray).not.toHaveBeenCalled();
    service.setEnabled(true);
    expect(createTray).toHaveBeenCalledTimes(1);
    expect(service.isShown).toBe(true);
    expect(trays[0]!.tooltips).toEqual(['Proxy Manager']);
    expect(labels(trays[0]!.menus.at(-1)!)[0]).toBe('Show Proxy Manager');
    service.setEnabled(false);
    expect(trays[0]!.destroyed).toBe(true);
    expect(service.isShown).toBe(false);
  });

  it('ignores setters that change nothing and renders once per change', () => {
    const { createTray, trays } = fakeTrayFactory();
    const service = new SystemTrayService({ createTray, onAction: () => {} });
    service.setEnabled(true);
    service.setEnabled(true);
    service.setWindowVisible(false);
    expect(trays[0]!.menus).toHaveLength(1);
    service.setWindowVisible(true);
    service.setWindowVisible(true);
    expect(trays[0]!.menus).toHaveLength(2);
    expect(createTray).toHaveBeenCalledTimes(1);
  });

  it('shows pending payments above the ports, badges the icon with their count, and opens the top-up on a click', () => {
    const { createTray, trays } = fakeTrayFactory();
    const actions: TrayAction[] = [];
    const service = new SystemTrayService({ createTray, onAction: (action) => actions.push(action) });
    service.setEnabled(true);
    expect(trays[0]!.badges).toEqual(['']);
    service.setPorts({
      ...INITIAL_TRAY_STATE.ports,
      payments: [{ topUpId: 't1', text: 'Top-up of 50.00 USD: 1 of 2 confirmations' }],
    });
    const menu = trays[0]!.menus.at(-1)!;
    expect(labels(menu)).toEqual([
      'Open Proxy Manager',
      '---',
      'Top-up of 50.00 USD: 1 of 2 confirmations',
      '---',
      'Quit Proxy Manager',
    ]);
    expect(menu[2]).toMatchObject({ kind: 'action', action: { type: 'open-route', route: '/topups/t1' } });
    expect(trays[0]!.badges.at(-1)).toBe('1');
    expect(trays[0]!.tooltips.at(-1)).toBe('Proxy Manager\n1 top-up payment pending');
  });

  it('reports menu clicks and a click on the icon as actions', () => {
    const { createTray, trays } = fakeTrayFactory();
    const actions: TrayAction[] = [];
    const service = new SystemTrayService({ createTray, onAction: (action) => actions.push(action) });
    service.setEnabled(true);
    trays[0]!.click?.();
    expect(actions).toEqual([{ type: 'open-window' }]);
  });
});
