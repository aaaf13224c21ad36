import type { RaisedAlert } from '../alerts/alert-center';
import type { Lifecycle } from '../domain-service';
import type { EventBus } from '../events';
import type { RelocationNotice } from '../ports/relocation-tracker';
import type { TopUpNotice } from '../topups/topup-watcher';
import {
  attachNotifications,
  type AttachNotificationsOptions,
  type DesktopNotifications,
} from './notifications-wiring';

/** Besides OS notifications, who else is told of each outcome (tests, tools). */
export interface OutcomeListeners {
  alert?: (alert: RaisedAlert) => void;
  relocation?: (notice: RelocationNotice) => void;
  topUp?: (notice: TopUpNotice) => void;
}

export interface AppNotificationsOptions extends Pick<AttachNotificationsOptions, 'clock' | 'settings'> {
  events: Pick<EventBus, 'on'>;
  /** Desktop only: where OS notifications go and whether a window has focus. */
  desktop?: DesktopNotifications;
  listeners?: OutcomeListeners;
  /** A port's label from main's snapshot of the ports, when no `ports:changed` named it (they carry only changes). */
  knownLabel?: (profileId: string, portId: string) => string | null;
}

/**
 * Where the core's outcomes go: relocations (the tracker's `notify`), usage alerts (the alert
 * center's `publish`) and top-ups (the watcher's `notify`) reach the listeners given and, on the
 * desktop, the notification controller (`attachNotifications`), which also hears of rotations
 * itself. Rotation notices name the port by its label, kept here from `ports:changed`.
 */
export class AppNotifications implements Lifecycle {
  readonly name = 'notifications';
  private readonly labels = new Map<string, string>();
  private readonly desktop: ReturnType<typeof attachNotifications> | null;
  private readonly listeners: OutcomeListeners;
  private readonly knownLabel: (profileId: string, portId: string) => string | null;

  constructor(options: AppNotificationsOptions) {
    this.listeners = options.listeners ?? {};
    this.knownLabel = options.knownLabel ?? (() => null);
    options.events.on('ports:changed', ({ profileId, changed }) => {
      for (const port of changed) this.labels.set(`${profileId}:${port.id}`, port.label);
    });
    this.desktop = options.desktop
      ? attachNotifications({
          ...options.desktop,
          clock: options.clock,
          settings: options.settings,
          events: options.events,
          labelOf: (profileId, portId) => this.labelOf(profileId, portId),
        })
      : null;
  }

  /** The port's label as last announced; null when none was (the notice shows its id). */
  labelOf(profileId: string, portId: string): string | null {
    return this.labels.get(`${profileId}:${portId}`) ?? this.knownLabel(profileId, portId);
  }

  readonly relocation = (notice: RelocationNotice): void => {
    this.listeners.relocation?.(notice);
    this.desktop?.relocation(notice);
  };

  readonly alert = (alert: RaisedAlert): void => {
    this.listeners.alert?.(alert);
    this.desktop?.alert(alert);
  };

  readonly topUp = (notice: TopUpNotice): void => {
    this.listeners.topUp?.(notice);
    this.desktop?.topUp(notice);
  };

  stop(): void {
    this.desktop?.detach();
  }
}
