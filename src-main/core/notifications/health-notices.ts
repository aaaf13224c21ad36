import type { PortHealthChanged } from '../../../src-shared/contract';
import type { NotificationProvider, OsNotice } from './notification-kinds';
import { portRoute } from './notice-routes';

/** A port's status change from its health checks, with the port's label when known. */
export interface PortHealthNotice {
  change: PortHealthChanged;
  label: string | null;
}

/**
 * A port's health checks made it down, or brought it back up after it was down. The first good
 * check of a port never checked (unknown to up) says nothing new, and subscriptions and local
 * proxies are shown in the window only (their changes follow a port's, or the user's own tools).
 */
export const portHealthNotices: NotificationProvider<PortHealthNotice> = {
  mayDisplay: ({ change }) =>
    change.kind === 'port' &&
    (change.status === 'down' || (change.status === 'up' && change.previous === 'down')),
  build: ({ change, label }): OsNotice => {
    const name = label || change.id;
    const down = change.status === 'down';
    return {
      kind: 'port-health',
      title: down ? `Port down: ${name}` : `Port back up: ${name}`,
      body: down
        ? `${change.failuresInARow} health checks in a row failed: ${change.lastCheck.error ?? 'no answer'}`
        : `Its health checks pass again${change.lastCheck.exitIp ? ` (exit IP ${change.lastCheck.exitIp})` : ''}.`,
      dedupeKey: `port-health:${change.profileId}:${change.id}:${change.status}:${change.statusSince ?? ''}`,
      route: portRoute(change.id),
    };
  },
};
