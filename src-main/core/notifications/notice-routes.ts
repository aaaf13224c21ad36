import type { AppRoute } from '../../../src-shared/contract';
import type { RaisedAlert } from '../alerts/alert-center';

import { portRoute, subscriptionRoute } from '../alerts/attention-words';

export { portRoute, topUpRoute } from '../alerts/attention-words';

/**
 * What an alert is about: the port for `port_expiring`, otherwise the subscription (a sub-user's
 * cap alert has the subject `subscriptionId/subUserId`: the sub-users are listed in its detail).
 */
export function alertRoute(alert: Pick<RaisedAlert, 'kind' | 'subjectId'>): AppRoute {
  if (alert.kind === 'port_expiring') return portRoute(alert.subjectId);
  const [subscriptionId = alert.subjectId] = alert.subjectId.split('/');
  return subscriptionRoute(subscriptionId);
}
