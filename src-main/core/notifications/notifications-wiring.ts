import type { EventChannel, EventPayload } from '../../ipc/contract';
import type { RelocationNotice } from '../ports/relocation-tracker';
import type { Clock } from '../runtime/clock';
import type { Settings } from '../settings/settings-schema';
import { NotificationController, type OsNotifier } from './notification-controller';
import { relocationNotices, rotationNotices, rotationOutcomeOf } from './rotation-notices';

/** What the desktop shell gives the core so that it can show OS notifications. */
export interface DesktopNotifications {
  notifier: OsNotifier;
  /** True while an app window has focus. */
  isWindowFocused: () => boolean;
}

export interface AttachNotificationsOptions extends DesktopNotifications {
  clock: Pick<Clock, 'now'>;
  settings: { get(): Pick<Settings, 'notifications'> };
  events: {
    on<E extends EventChannel>(channel: E, listener: (payload: EventPayload<E>) => void): () => void;
  };
  /** The port's label for the notice (null: its id is shown). */
  labelOf: (profileId: string, portId: string) => string | null;
}

/**
 * Builds the controller and feeds it: rotations from `ports:rotation` (whoever started them; the
 * provider keeps tray, shortcut and schedule ones) and relocations through the returned `relocation`
 * function (the relocation tracker's `notify`).
 */
export function attachNotifications(options: AttachNotificationsOptions): {
  controller: NotificationController;
  relocation: (notice: RelocationNotice) => void;
  detach: () => void;
} {
  const controller = new NotificationController({
    clock: options.clock,
    notifier: options.notifier,
    isEnabled: (kind) => options.settings.get().notifications[kind],
    isWindowFocused: options.isWindowFocused,
  });
  const detach = options.events.on('ports:rotation', (event) => {
    const outcome = rotationOutcomeOf(event, options.labelOf(event.profileId, event.portId));
    if (outcome) controller.notify(rotationNotices, outcome);
  });
  return { controller, relocation: (notice) => controller.notify(relocationNotices, notice), detach };
}
