import { useAppStore } from '../features/app/app-store';
import { useCatalogStore } from '../features/catalog/catalog-store';
import { portIdFromHash } from '../features/ports/port-route';
import { usePortsStore } from '../features/ports/ports-store';
import { subscriptionIdFromHash } from '../features/subscriptions/subscription-route';
import { subUserLists, useSubscriptionsStore } from '../features/subscriptions/subscriptions-store';
import { useTopUpsStore } from '../features/topups/topups-store';
import { hrefOf, screenFromHash, type ScreenId } from '../shared/routes';

/**
 * A screen's data is asked for when the navigation starts (the click on its link, or the URL
 * changing), not once the screen has rendered a loading state and its effects have run: the requests
 * are on their way while React renders, and main answers lists from its snapshot, so the data is
 * often there before the screen's first render. Loads are the stores' own: a list loaded or loading
 * is not asked again, so the screen's own effects then ask nothing.
 */
function prefetchScreen(hash: string): Promise<unknown> {
  // Onboarding (no profile yet) has no account data to read.
  if (!useAppStore.getState().state?.activeProfile) return Promise.resolve();
  switch (screenFromHash(hash)) {
    case 'ports': {
      const ports = usePortsStore.getState();
      const portId = portIdFromHash(hash);
      // Schedules and country names first: main answers both from memory, and the rows' first
      // render has them. The cities of the list's countries are asked for as soon as the list is
      // there, before the rows render (not by their first render's effect).
      return Promise.all([
        ports.loadSchedules(),
        useCatalogStore.getState().loadCountries('all'),
        ports.load().then(loadPortCities),
        portId === null ? null : ports.loadDetail(portId),
      ]);
    }
    case 'subscriptions': {
      const subscriptions = useSubscriptionsStore.getState();
      const subscriptionId = subscriptionIdFromHash(hash);
      // A subscription's detail: its sub-users too (its Sub-users and Usage tabs read them).
      return Promise.all([
        subscriptions.load(subscriptions.filter),
        subscriptionId === null ? null : subUserLists.load([subscriptionId]),
      ]);
    }
    case 'topups':
      // The coins name each top-up's network: with them asked for here, the rows' first render has
      // the names (not the ids, then a second render).
      return Promise.all([useTopUpsStore.getState().load(), useCatalogStore.getState().loadCoins()]);
    case 'overview':
    case 'catalog':
    case 'local-proxies':
    case 'settings':
      // Read from main's memory (the overview, local proxies) or cached per query (the catalog).
      return Promise.resolve();
  }
}

function loadPortCities(): Promise<void> {
  const countries = new Set((usePortsStore.getState().ports.data ?? []).map((port) => port.country));
  return countries.size === 0
    ? Promise.resolve()
    : useCatalogStore.getState().loadCitiesOf([...countries].sort(), 'all');
}

/** The screens with lists behind the main navigation: read ahead once the window has settled. */
export const LIST_SCREENS: readonly ScreenId[] = ['ports', 'subscriptions', 'topups'];

/**
 * Once the window has settled (the browser is idle after the first screen), the lists behind the
 * main navigation are read from main's memory, so that the first click on one after a start finds
 * its data in the renderer and renders at once, as a later visit does. Main answers from its
 * snapshots (the background jobs keep them), so this costs the service nothing when they are fresh.
 * `then` runs once they are all in. Answers a cancel function.
 */
function prefetchListsWhenIdle(then: () => void): () => void {
  if (typeof window.requestIdleCallback !== 'function') return () => undefined;
  let cancelled = false;
  const handle = window.requestIdleCallback(
    () => {
      void Promise.all(LIST_SCREENS.map((screen) => prefetchScreen(hrefOf(screen)))).then(() => {
        if (!cancelled) then();
      });
    },
    { timeout: IDLE_PREFETCH_TIMEOUT_MS },
  );
  return () => {
    cancelled = true;
    window.cancelIdleCallback(handle);
  };
}

/** A window that never goes idle (a busy machine) still reads ahead after this long. */
const IDLE_PREFETCH_TIMEOUT_MS = 3000;

/** Puts the list main sent with the first state where its screen reads it (the active profile's only). */
function seedSnapshots(profileId: string): void {
  const { snapshots } = useAppStore.getState();
  if (!snapshots) return;
  useAppStore.setState({ snapshots: null });
  if (snapshots.ports?.profileId === profileId) usePortsStore.getState().seed(snapshots.ports);
  if (snapshots.subscriptions?.profileId === profileId)
    useSubscriptionsStore.getState().seed(snapshots.subscriptions.items);
}

export interface WatchNavigationOptions {
  /** Runs once the lists behind the navigation have been read ahead (after each account's first state). */
  afterReadAhead?: () => void;
}

/**
 * Follows navigations: clicks on the page's own links (in the capture phase, before the URL changes
 * and anything renders) and URL changes (Back, Forward, a typed address, a notification's route).
 */
export function watchNavigation(options: WatchNavigationOptions = {}): () => void {
  const onClick = (event: MouseEvent) => {
    const target = event.target instanceof Element ? event.target : null;
    const href = target?.closest('a[href^="#/"]')?.getAttribute('href');
    if (href) void prefetchScreen(href);
  };
  const onHashChange = () => void prefetchScreen(window.location.hash);
  document.addEventListener('click', onClick, true);
  window.addEventListener('hashchange', onHashChange);
  // The first state (a window opened or reloaded on a screen), and a switch to another account (its
  // stores were just reset): the screen in the URL is asked for before it renders.
  let cancelReadAhead = () => undefined as void;
  const stopWatchingProfile = useAppStore.subscribe((store, previous) => {
    const profileId = store.state?.activeProfile?.id;
    if (!profileId || profileId === previous.state?.activeProfile?.id) return;
    seedSnapshots(profileId);
    void prefetchScreen(window.location.hash);
    cancelReadAhead();
    cancelReadAhead = prefetchListsWhenIdle(options.afterReadAhead ?? (() => undefined));
  });
  return () => {
    cancelReadAhead();
    stopWatchingProfile();
    document.removeEventListener('click', onClick, true);
    window.removeEventListener('hashchange', onHashChange);
  };
}
