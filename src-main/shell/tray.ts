/**
 * The tray as a view of state (after Signal's `SystemTrayService`): setters that ignore equal values,
 * one render that rebuilds the tray from the state, and the OS tray created through an injected
 * factory so that none of this needs Electron. The menu is a pure function of the state.
 */
import {
  buildPaymentsTrayItems,
  buildPortsTrayItems,
  buildUpdateTrayItems,
  EMPTY_PORTS_TRAY_STATE,
  type OpenRouteAction,
  portsTrayTooltip,
  type PortsTrayAction,
  type PortsTrayState,
  trayBadge,
  type TrayUpdate,
} from '../core/tray/tray-menu';

/** Everything the tray shows. New sections add their fields here. */
export interface TrayState {
  /** Whether the main window is on screen (decides the wording of the first item). */
  windowVisible: boolean;
  /** Pinned ports, cooldowns, schedules and the last receipt (the core's `TrayStateService`). */
  ports: PortsTrayState;
  /** A newer release from the signed update feed (`updates:changed`). */
  update: TrayUpdate | null;
}

export const INITIAL_TRAY_STATE: Readonly<TrayState> = Object.freeze({
  windowVisible: false,
  ports: EMPTY_PORTS_TRAY_STATE,
  update: null,
});

/** What a menu item does when clicked. */
export type TrayAction = { type: 'open-window' } | { type: 'quit' } | OpenRouteAction | PortsTrayAction;

export type TrayMenuItem =
  | { kind: 'action'; label: string; action: TrayAction; enabled?: boolean }
  | { kind: 'separator' }
  | { kind: 'submenu'; label: string; items: TrayMenuItem[] };

/** One part of the menu; sections are joined with separators and empty ones are left out. */
export type TrayMenuSection = (state: TrayState) => TrayMenuItem[];

const windowSection: TrayMenuSection = (state) => [
  {
    kind: 'action',
    label: state.windowVisible ? 'Show Proxy Manager' : 'Open Proxy Manager',
    action: { type: 'open-window' },
  },
];

/** Top-ups waiting for payment or confirmations; a click opens the top-up in the wizard. */
const paymentsSection: TrayMenuSection = (state) => buildPaymentsTrayItems(state.ports);

const portsSection: TrayMenuSection = (state) => buildPortsTrayItems(state.ports);

const updateSection: TrayMenuSection = (state) => buildUpdateTrayItems(state.update);

const quitSection: TrayMenuSection = () => [
  { kind: 'action', label: 'Quit Proxy Manager', action: { type: 'quit' } },
];

/** Top to bottom. Quit stays last. */
const TRAY_MENU_SECTIONS: readonly TrayMenuSection[] = [
  windowSection,
  updateSection,
  paymentsSection,
  portsSection,
  quitSection,
];

export function buildTrayMenu(
  state: TrayState,
  sections: readonly TrayMenuSection[] = TRAY_MENU_SECTIONS,
): TrayMenuItem[] {
  const menu: TrayMenuItem[] = [];
  for (const section of sections) {
    const items = section(state);
    if (items.length === 0) continue;
    if (menu.length > 0) menu.push({ kind: 'separator' });
    menu.push(...items);
  }
  return menu;
}

/** The OS tray, as the service needs it. */
export interface TrayHandle {
  setToolTip(text: string): void;
  setMenu(items: TrayMenuItem[], onAction: (action: TrayAction) => void): void;
  /** The badge on the icon (pending payments); empty: none. */
  setBadge?(text: string): void;
  /** A click on the icon itself (Windows and most Linux trays). */
  onClick(listener: () => void): void;
  destroy(): void;
}

type TrayFactory = () => TrayHandle;

export interface SystemTrayServiceOptions {
  createTray: TrayFactory;
  onAction: (action: TrayAction) => void;
  tooltip?: string;
  sections?: readonly TrayMenuSection[];
}

export class SystemTrayService {
  #state: TrayState = { ...INITIAL_TRAY_STATE };
  #enabled = false;
  #tray: TrayHandle | null = null;
  readonly #options: SystemTrayServiceOptions;

  constructor(options: SystemTrayServiceOptions) {
    this.#options = options;
  }

  get state(): Readonly<TrayState> {
    return this.#state;
  }

  get isShown(): boolean {
    return this.#tray !== null;
  }

  setEnabled(enabled: boolean): void {
    if (this.#enabled === enabled) return;
    this.#enabled = enabled;
    this.#render();
  }

  setWindowVisible(windowVisible: boolean): void {
    this.#update({ windowVisible });
  }

  /** The core's tray state sends a new object only when what it shows changed. */
  setPorts(ports: PortsTrayState): void {
    this.#update({ ports });
  }

  /** Compared by value: the updates status is sent on every progress step. */
  setUpdate(update: TrayUpdate | null): void {
    const same =
      update === this.#state.update ||
      (update !== null &&
        this.#state.update !== null &&
        update.version === this.#state.update.version &&
        update.ready === this.#state.update.ready);
    if (!same) this.#update({ update });
  }

  #update(patch: Partial<TrayState>): void {
    const keys = Object.keys(patch) as (keyof TrayState)[];
    if (keys.every((key) => Object.is(this.#state[key], patch[key]))) return;
    this.#state = { ...this.#state, ...patch };
    this.#render();
  }

  #render(): void {
    if (!this.#enabled) {
      this.#tray?.destroy();
      this.#tray = null;
      return;
    }
    if (!this.#tray) {
      this.#tray = this.#options.createTray();
      this.#tray.onClick(() => this.#options.onAction({ type: 'open-window' }));
    }
    this.#tray.setToolTip(this.#options.tooltip ?? portsTrayTooltip(this.#state.ports));
    this.#tray.setBadge?.(trayBadge(this.#state.ports));
    this.#tray.setMenu(buildTrayMenu(this.#state, this.#options.sections), this.#options.onAction);
  }
}
