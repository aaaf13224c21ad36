/**
 * The ports part of the tray menu, as a pure function of one state object: tested from given
 * states (items, enabled, labels, countdown) without Electron. Items have the shape of the shell's
 * `TrayMenuItem` (`src-main/shell/tray.ts`), so its `SystemTrayService` can render them as a section.
 */
import type { AppRoute, UpdateStatus } from '../../../src-shared/contract';
import { topUpRoute } from '../notifications/notice-routes';

export interface TrayPort {
  portId: string;
  label: string;
  currentIp: string;
  /** Epoch ms when the port may rotate again (its receipt's `nextRotationAvailableAt`); null when it may now. */
  cooldownUntil: number | null;
  /** A rotation of this port is under way (whoever started it). */
  rotating: boolean;
}

interface TrayLastReceipt {
  label: string;
  previousIp: string;
  ip: string;
  sameIp: boolean;
  /** ISO 8601, when the rotation finished. */
  at: string;
}

/** A top-up waiting for its payment or its confirmations (the top-up watcher's `pending`). */
export interface TrayPayment {
  topUpId: string;
  /** E.g. "Top-up of 50.00 USD: 1 of 2 confirmations". */
  text: string;
}

/** Everything the ports part of the tray shows. */
export interface PortsTrayState {
  profileId: string | null;
  /** The pinned ports, or every port when none are pinned and there are few; in menu order. */
  ports: TrayPort[];
  /** True when these are pinned ports ("Rotate all pinned" is offered only for them). */
  pinned: boolean;
  hasSchedules: boolean;
  schedulesPaused: boolean;
  /**
   * False in a process that does not own the background jobs (another window or the web server
   * runs the schedules): its pause would be refused (`not_job_owner`), so the item is disabled.
   */
  ownsSchedules: boolean;
  lastReceipt: TrayLastReceipt | null;
  /** Open top-ups of every profile (money in flight matters whichever profile is active). */
  payments: TrayPayment[];
  /**
   * The time the countdowns are computed at, in whole seconds. It only moves (once a second)
   * while a listed port is in cooldown, so the menu is rebuilt only when what it shows changes.
   */
  nowMs: number;
}

export type PortsTrayAction =
  | { type: 'rotate-port'; portId: string }
  /** Rotates until the verdict is clean (at most `UNTIL_NEW_TRAY_TRIES`), waiting out cooldowns. */
  | { type: 'rotate-until-new'; portId: string }
  | { type: 'rotate-all-pinned' }
  | { type: 'pause-schedules'; paused: boolean };

/** Shows the window at a route (what a notification click does: `app:navigate`, or the new window's URL). */
export interface OpenRouteAction {
  type: 'open-route';
  route: AppRoute;
}

export type PortsTrayMenuItem =
  | { kind: 'action'; label: string; action: PortsTrayAction | OpenRouteAction; enabled?: boolean }
  | { kind: 'separator' };

export const EMPTY_PORTS_TRAY_STATE: PortsTrayState = {
  profileId: null,
  ports: [],
  pinned: false,
  hasSchedules: false,
  schedulesPaused: false,
  ownsSchedules: true,
  lastReceipt: null,
  payments: [],
  nowMs: 0,
};

/** Seconds left of a cooldown at `nowMs` (rounded up, so "0 s" is never shown while disabled). */
function cooldownSecondsLeft(port: TrayPort, nowMs: number): number {
  if (port.cooldownUntil === null) return 0;
  return Math.max(0, Math.ceil((port.cooldownUntil - nowMs) / 1000));
}

export function inCooldown(port: TrayPort, nowMs: number): boolean {
  return cooldownSecondsLeft(port, nowMs) > 0;
}

function portItem(port: TrayPort, nowMs: number): PortsTrayMenuItem {
  const base = `${port.label} — ${port.currentIp}`;
  const left = cooldownSecondsLeft(port, nowMs);
  const suffix = port.rotating ? ' (rotating…)' : left > 0 ? ` (${left} s)` : '';
  return {
    kind: 'action',
    label: `${base}${suffix}`,
    action: { type: 'rotate-port', portId: port.portId },
    enabled: !port.rotating && left === 0,
  };
}

/** The tray's "Rotate until new": rotations at most before it gives up on a clean IP. */
export const UNTIL_NEW_TRAY_TRIES = 3;

/**
 * The items between "Open" and "Quit": ports, "Rotate … until new" (the first port, the one the
 * shortcut rotates), "Rotate all pinned", "Pause schedules".
 */
export function buildPortsTrayItems(state: PortsTrayState): PortsTrayMenuItem[] {
  const items: PortsTrayMenuItem[] = state.ports.map((port) => portItem(port, state.nowMs));
  const first = state.ports[0];
  if (first) {
    items.push({
      kind: 'action',
      label: `Rotate ${first.label} until new`,
      action: { type: 'rotate-until-new', portId: first.portId },
      // A cooldown is waited out; only a rotation under way blocks it.
      enabled: !first.rotating,
    });
  }
  if (state.pinned && state.ports.length > 1) {
    items.push({
      kind: 'action',
      label: 'Rotate all pinned',
      action: { type: 'rotate-all-pinned' },
      // Each port waits for its own limit (staggered); offered while any of them can go now.
      enabled: state.ports.some((port) => !port.rotating && !inCooldown(port, state.nowMs)),
    });
  }
  if (state.hasSchedules) {
    if (items.length > 0) items.push({ kind: 'separator' });
    const label = state.schedulesPaused ? 'Resume schedules' : 'Pause schedules';
    items.push(
      state.ownsSchedules
        ? { kind: 'action', label, action: { type: 'pause-schedules', paused: !state.schedulesPaused } }
        : {
            kind: 'action',
            label: `${label} (another Proxy Manager process runs them)`,
            action: { type: 'pause-schedules', paused: !state.schedulesPaused },
            enabled: false,
          },
    );
  }
  return items;
}

/** Pending payments, one line each; a click opens that top-up in the wizard's live view. */
export function buildPaymentsTrayItems(state: PortsTrayState): PortsTrayMenuItem[] {
  return state.payments.map((payment) => ({
    kind: 'action',
    label: payment.text,
    action: { type: 'open-route', route: topUpRoute(payment.topUpId) },
  }));
}

/** The badge on the tray icon: the number of pending payments, empty when there are none. */
export function trayBadge(state: PortsTrayState): string {
  return state.payments.length > 0 ? String(state.payments.length) : '';
}

/** The tray's tooltip: the last receipt, said plainly, and pending payments. */
export function portsTrayTooltip(state: PortsTrayState): string {
  const receipt = state.lastReceipt;
  const head = !receipt
    ? 'Proxy Manager'
    : receipt.sameIp
      ? `Proxy Manager — ${receipt.label}: same IP ${receipt.ip}`
      : `Proxy Manager — ${receipt.label}: ${receipt.previousIp} → ${receipt.ip}`;
  const count = state.payments.length;
  if (count === 0) return head;
  return `${head}\n${count === 1 ? '1 top-up payment pending' : `${count} top-up payments pending`}`;
}

/** A newer release the update feed offers (`updates:changed`); null: nothing to say. */
export interface TrayUpdate {
  version: string;
  /** Downloaded and verified: waiting for a restart or the installer. */
  ready: boolean;
}

/** The update item reduced from the updates status: only what the tray shows, so equal values are equal. */
export function trayUpdateOf(status: UpdateStatus): TrayUpdate | null {
  if (status.ready) return { version: status.ready.version, ready: true };
  if (status.available) return { version: status.available.version, ready: false };
  return null;
}

/** "Update available: 0.2.0"; a click opens the window, where the notes and the buttons are. */
export function buildUpdateTrayItems(update: TrayUpdate | null): PortsTrayMenuItem[] {
  if (!update) return [];
  const label = update.ready
    ? `Update ${update.version} ready: open to finish`
    : `Update available: ${update.version}`;
  return [{ kind: 'action', label, action: { type: 'open-route', route: '/overview' } }];
}
