import type { EventChannel, EventPayload } from '../../../src-shared/contract';
import type { RaisedAlert } from '../alerts/alert-center';
import type { RelocationNotice } from '../ports/relocation-tracker';
import type { Clock } from '../runtime/clock';
import type { Settings } from '../settings/settings-schema';
import type { TopUpNotice } from '../topups/topup-watcher';
import { alertNotices, topUpNotices } from './app-notices';
import { portHealthNotices } from './health-notices';
import { NotificationController, type OsNotifier } from './notification-controller';
import { notificationKindEnabled } from './notification-kinds';
import { relocationNotices, rotationNotices, rotationOutcomeOf } from './rotation-notices';

/** What the desktop shell gives the core so that it can show OS notifications. */
export interface DesktopNotifications {
  notifier: OsNotifier;
  /** True while an app window has focus. */
  isWindowFocused: () => boolean;
}

export interface AttachNotificationsOptions extends DesktopNotifications {
  clock: Pick<Clock, 'now'>;
  settings: {
    get(): Pick<Settings, 'notifications'> & { alerts: Pick<Settings['alerts'], 'disabledKinds'> };
  };
  events: {
    on<E extends EventChannel>(channel: E, listener: (payload: EventPayload<E>) => void): () => void;
  };
  /** The port's label for the notice (null: its id is shown). */
  labelOf: (profileId: string, portId: string) => string | null;
}

/**
 * Builds the controller and feeds it: rotations from `ports:rotation` (whoever started them; the
 * provider keeps tray, shortcut and schedule ones), a port down or back up from `ports:healthChanged`, and through the returned functions relocations
 * (the relocation tracker's `notify`), usage alerts (the alert center's `publish`) and top-up
 * outcomes (the top-up watcher's `notify`). All of them pass the same rules: the user's switch,
 * nothing while a window has focus (the window shows it already), dedupe and throttle.
 */
export function attachNotifications(options: AttachNotificationsOptions): {
  controller: NotificationController;
  relocation: (notice: RelocationNotice) => void;
  alert: (alert: RaisedAlert) => void;
  topUp: (notice: TopUpNotice) => void;
  detach: () => void;
} {
  const controller = new NotificationController({
    clock: options.clock,
    notifier: options.notifier,
    isEnabled: (kind) => notificationKindEnabled(options.settings.get().notifications, kind),
    isWindowFocused: options.isWindowFocused,
  });
  const detachRotations = options.events.on('ports:rotation', (event) => {
    const outcome = rotationOutcomeOf(event, options.labelOf(event.profileId, event.portId));
    if (outcome) controller.notify(rotationNotices, outcome);
  });
  // Sent only by the process running the checks: one notice, whichever windows are open.
  const detachHealth = options.events.on('ports:healthChanged', (change) => {
    const label = change.kind === 'port' ? options.labelOf(change.profileId, change.id) : null;
    controller.notify(portHealthNotices, { change, label });
  });
  const detach = () => {
    detachRotations();
    detachHealth();
  };
  const alerts = alertNotices(() => options.settings.get().alerts.disabledKinds);
  return {
    controller,
    relocation: (notice) => controller.notify(relocationNotices, notice),
    alert: (alert) => controller.notify(alerts, alert),
    topUp: (notice) => controller.notify(topUpNotices, notice),
    detach,
  };
}
