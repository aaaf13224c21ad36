import { Notification } from 'electron';
import type { OsNotifier } from '../core/notifications/notification-controller';
import type { OsNotice } from '../core/notifications/notification-kinds';

/** The part of Electron's `Notification` the app uses. */
interface NotificationHandle {
  on(event: 'click', listener: () => void): void;
  show(): void;
}

type NotificationFactory = (options: { title: string; body: string; silent: boolean }) => NotificationHandle;

export interface OsNotificationsOptions {
  /** Default: Electron's `Notification` (tests inject a fake). */
  createNotification?: NotificationFactory;
  /** Default: `Notification.isSupported()`. */
  isSupported?: () => boolean;
  /** A click opens the window at what the notice is about (its route, built by the core). */
  onClick: (route: OsNotice['route']) => void;
}

/**
 * OS notifications through Electron: thin on purpose, every decision (whether, dedupe,
 * throttle, focus) is the core's `NotificationController`.
 */
export function createOsNotifier(options: OsNotificationsOptions): OsNotifier {
  const create: NotificationFactory = options.createNotification ?? ((init) => new Notification(init));
  const supported = options.isSupported ?? (() => Notification.isSupported());
  // Electron drops a notification it no longer references before it is clicked: keep the recent ones.
  const alive = new Set<NotificationHandle>();
  return {
    show: (notice) => {
      if (!supported()) return;
      const notification = create({ title: notice.title, body: notice.body, silent: false });
      alive.add(notification);
      if (alive.size > 20) alive.delete(alive.values().next().value as NotificationHandle);
      notification.on('click', () => {
        alive.delete(notification);
        options.onClick(notice.route);
      });
      notification.show();
    },
  };
}
