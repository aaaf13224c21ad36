import type { AppRoute } from '../../../src-shared/contract';
import type { RaisedAlert } from '../alerts/alert-center';

const route = (screen: 'ports' | 'subscriptions' | 'topups', id: string): AppRoute =>
  `/${screen}/${encodeURIComponent(id)}`;

/** A port's detail. */
export const portRoute = (portId: string): AppRoute => route('ports', portId);
/** A subscription's detail. */
export const subscriptionRoute = (subscriptionId: string): AppRoute => route('subscriptions', subscriptionId);
/** A top-up in the wizard's live view. */
export const topUpRoute = (topUpId: string): AppRoute => route('topups', topUpId);

/**
 * What an alert is about: the port for `port_expiring`, otherwise the subscription (a sub-user's
 * cap alert has the subject `subscriptionId/subUserId`: the sub-users are listed in its detail).
 */
export function alertRoute(alert: Pick<RaisedAlert, 'kind' | 'subjectId'>): AppRoute {
  if (alert.kind === 'port_expiring') return portRoute(alert.subjectId);
  const [subscriptionId = alert.subjectId] = alert.subjectId.split('/');
  return subscriptionRoute(subscriptionId);
}
