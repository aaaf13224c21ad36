import { useAppStore } from '../features/app/app-store';
import { useCatalogStore } from '../features/catalog/catalog-store';
import { portIdFromHash } from '../features/ports/port-route';
import { usePortsStore } from '../features/ports/ports-store';
import { useSubscriptionsStore } from '../features/subscriptions/subscriptions-store';
import { useTopUpsStore } from '../features/topups/topups-store';
import { screenFromHash } from '../shared/routes';

/**
 * A screen's data is asked for when the navigation starts (the click on its link, or the URL
 * changing), not once the screen has rendered a loading state and its effects have run: the requests
 * are on their way while React renders, and main answers lists from its snapshot, so the data is
 * often there before the screen's first render. Loads are the stores' own: a list loaded or loading
 * is not asked again, so the screen's own effects then ask nothing.
 */
function prefetchScreen(hash: string): void {
  // Onboarding (no profile yet) has no account data to read.
  if (!useAppStore.getState().state?.activeProfile) return;
  switch (screenFromHash(hash)) {
    case 'ports': {
      const ports = usePortsStore.getState();
      // Schedules and country names first: main answers both from memory, and the rows' first
      // render has them (the list's cities are asked for once its countries are known).
      void ports.loadSchedules();
      void useCatalogStore.getState().loadCountries('all');
      void ports.load();
      const portId = portIdFromHash(hash);
      if (portId !== null) void ports.loadDetail(portId);
      return;
    }
    case 'subscriptions': {
      const subscriptions = useSubscriptionsStore.getState();
      void subscriptions.load(subscriptions.filter);
      return;
    }
    case 'topups':
      void useTopUpsStore.getState().load();
      return;
    case 'overview':
    case 'catalog':
    case 'local-proxies':
    case 'settings':
      // Read from main's memory (the overview, local proxies) or cached per query (the catalog).
      return;
  }
}

/** Puts the list main sent with the first state where its screen reads it (the active profile's only). */
function seedSnapshots(profileId: string): void {
  const { snapshots } = useAppStore.getState();
  if (!snapshots) return;
  useAppStore.setState({ snapshots: null });
  if (snapshots.ports?.profileId === profileId) usePortsStore.getState().seed(snapshots.ports);
  if (snapshots.subscriptions?.profileId === profileId)
    useSubscriptionsStore.getState().seed(snapshots.subscriptions.items);
}

/**
 * Follows navigations: clicks on the page's own links (in the capture phase, before the URL changes
 * and anything renders) and URL changes (Back, Forward, a typed address, a notification's route).
 */
export function watchNavigation(): () => void {
  const onClick = (event: MouseEvent) => {
    const target = event.target instanceof Element ? event.target : null;
    const href = target?.closest('a[href^="#/"]')?.getAttribute('href');
    if (href) prefetchScreen(href);
  };
  const onHashChange = () => prefetchScreen(window.location.hash);
  document.addEventListener('click', onClick, true);
  window.addEventListener('hashchange', onHashChange);
  // The first state (a window opened or reloaded on a screen), and a switch to another account (its
  // stores were just reset): the screen in the URL is asked for before it renders.
  const stopWatchingProfile = useAppStore.subscribe((store, previous) => {
    const profileId = store.state?.activeProfile?.id;
    if (!profileId || profileId === previous.state?.activeProfile?.id) return;
    seedSnapshots(profileId);
    prefetchScreen(window.location.hash);
  });
  return () => {
    stopWatchingProfile();
    document.removeEventListener('click', onClick, true);
    window.removeEventListener('hashchange', onHashChange);
  };
}
