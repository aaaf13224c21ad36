import type { RaisedAlert } from '../alerts/alert-center';
import type { AlertKind } from '../alerts/alert-rules';
import type { TopUpNotice } from '../topups/topup-watcher';
import type { NotificationProvider, OsNotice } from './notification-kinds';
import { alertRoute, topUpRoute } from './notice-routes';

/**
 * Usage alerts (traffic low, runs out, caps, expiry) as OS notifications. An alert kind the user
 * turned off (`alerts.disabledKinds`) is not raised by the poller; the provider checks it again so
 * that an alert raised just before the switch is not shown after it.
 */
export function alertNotices(disabledKinds: () => readonly AlertKind[]): NotificationProvider<RaisedAlert> {
  return {
    mayDisplay: (alert) => !disabledKinds().includes(alert.kind),
    build: (alert): OsNotice => ({
      kind: 'usage-alert',
      title: alert.title,
      body: alert.message,
      // The crossing's key: one crossing is one notice, even if two paths report it.
      dedupeKey: `alert:${alert.key}`,
      route: alertRoute(alert),
    }),
  };
}

/** A watched top-up credited, rejected or expired, or its purchase done or failed. */
export const topUpNotices: NotificationProvider<TopUpNotice> = {
  mayDisplay: () => true,
  build: (notice): OsNotice => ({
    kind: 'topup',
    title: notice.title,
    body: notice.body,
    dedupeKey: `topup:${notice.profileId}:${notice.topUpId}:${notice.kind}`,
    route: topUpRoute(notice.topUpId),
  }),
};
