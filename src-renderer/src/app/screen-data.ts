import type { InitialState, SnapshotScreen } from '../../../src-shared/contract';
import { useCatalogStore } from '../features/catalog/catalog-store';
import { usePortsStore } from '../features/ports/ports-store';
import { subscriptionIdFromHash } from '../features/subscriptions/subscription-route';
import { useSubscriptionsStore } from '../features/subscriptions/subscriptions-store';
import { useTopUpsStore } from '../features/topups/topups-store';
import { screenFromHash, type ScreenId } from '../shared/routes';

/**
 * A screen's data is asked for when the navigation starts (the click on its link, or the URL
 * changing), not once the screen has rendered a loading state and its effects run: the request is on
 * its way while React renders. Main answers lists from its snapshot, so the data is often there
 * before the first render of the screen. Loads are the stores' own (a list loaded or loading is not
 * asked again).
 */
export function prefetchScreen(hash: string): void {
  const screen: ScreenId = screenFromHash(hash);
  switch (screen) {
    case 'ports': {
      const ports = usePortsStore.getState();
      // Schedules and place names first: main answers them from memory, and the rows' first render
      // has them.
      void ports.loadSchedules();
      void useCatalogStore.getState().loadNames();
      void ports.load();
      return;
    }
    case 'subscriptions': {
      const subscriptions = useSubscriptionsStore.getState();
      const selected = selectedSubscription(hash);
      if (selected === null) void subscriptions.load(subscriptions.filter);
      else void subscriptions.loadDetail(selected);
      return;
    }
    case 'topups':
      void useTopUpsStore.getState().load();
      return;
    case 'catalog':
    case 'settings':
      // The catalog's lists are cached per query in its store; settings are read at start.
      return;
  }
}

/** The subscription a URL opens, or null (also for a broken %-escape: the screen says so itself). */
function selectedSubscription(hash: string): string | null {
  try {
    return subscriptionIdFromHash(hash);
  } catch {
    return null;
  }
}

/** Follows navigations: clicks on the page's own links (capture, before anything renders) and URL changes. */
export function watchNavigation(): () => void {
  const onClick = (event: MouseEvent) => {
    const target = event.target instanceof Element ? event.target : null;
    const href = target?.closest('a[href^="#/"]')?.getAttribute('href');
    if (href) prefetchScreen(href);
  };
  const onHashChange = () => prefetchScreen(window.location.hash);
  document.addEventListener('click', onClick, true);
  window.addEventListener('hashchange', onHashChange);
  return () => {
    document.removeEventListener('click', onClick, true);
    window.removeEventListener('hashchange', onHashChange);
  };
}

/** The screen a window opens on, when main can send its list with the first state. */
export function snapshotScreenOf(hash: string): SnapshotScreen | undefined {
  const screen = screenFromHash(hash);
  if (screen === 'subscriptions' && selectedSubscription(hash) !== null) return undefined;
  return screen === 'ports' || screen === 'subscriptions' || screen === 'topups' ? screen : undefined;
}

/** Puts the list main sent with the first state where its screen reads it. */
export function seedSnapshots(initial: InitialState | null): void {
  const snapshots = initial?.snapshots;
  if (!snapshots) return;
  if (snapshots.ports) usePortsStore.getState().seed(snapshots.ports);
  if (snapshots.subscriptions) useSubscriptionsStore.getState().seed(snapshots.subscriptions);
  if (snapshots.topups) useTopUpsStore.getState().seed(snapshots.topups);
}
