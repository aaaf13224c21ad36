import { z } from 'zod';
import { call, type DomainCalls, type DomainEvents, event } from './define';
import { portId } from './ports';
import { noInput } from './shared-inputs';

/** Ports the tray menu lists at most (a menu is not a list screen). */
const TRAY_PINNED_MAX = 20;
/** With nothing pinned, the tray lists every port of the profile when there are at most this many. */
export const TRAY_ALL_PORTS_MAX = 5;

export interface TrayView {
  /** The profile the pins belong to (the active one). */
  profileId: string | null;
  /** In menu order; the first one is what the global shortcut rotates. */
  pinnedPortIds: string[];
}

export const trayCalls = {
  'tray:get': call<TrayView>('read')(noInput),
  'tray:setPinned': call<TrayView>('manage')(
    z.strictObject({
      portIds: z
        .array(portId)
        .max(TRAY_PINNED_MAX, `At most ${TRAY_PINNED_MAX} ports in the tray`)
        .refine((ids) => new Set(ids).size === ids.length, 'A port is listed twice'),
    }),
  ),
} as const satisfies DomainCalls<'tray'>;

export const trayEvents = {
  'tray:changed': event<TrayView>(),
} as const satisfies DomainEvents<'tray'>;
