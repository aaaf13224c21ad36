import { useLoadable } from '../../shared/loadable-slice';
import { alertsList, useAlertsStore } from './alerts-store';

/** The number of alerts not dismissed, for the navigation; nothing when there are none. */
export function AlertsBadge() {
  const { loadable } = useLoadable(useAlertsStore, alertsList);
  const count = loadable?.data?.length ?? 0;
  if (count === 0) return null;
  // The space keeps the link's name two words ("Subscriptions 2 alerts", not "Subscriptions2 alerts").
  return (
    <>
      {' '}
      <span className="nav-badge" aria-label={`${count} alert${count === 1 ? '' : 's'}`}>
        {count}
      </span>
    </>
  );
}
