import type { Subscription } from '../../../src-shared/api-types';
import type {
  AppState,
  LocalProxiesChanged,
  PortHealthChanged,
  PortsChanged,
  PortsRotation,
  RendererApi,
  SchedulesChanged,
  SubUserRow,
  TrayView,
} from '../../../src-shared/contract';

import { transportConnected, type OnConnected } from '../api/transport-events';
import { followDeepLink, parseDeepLink } from './deep-links';
import { useAlertsStore } from '../features/alerts/alerts-store';
import { useAppStore } from '../features/app/app-store';
import { useLocalProxiesStore } from '../features/local-proxies/local-proxies-store';
import { useSlowCallsStore } from '../features/app/slow-calls-store';
import { useOverviewStore } from '../features/overview/overview-store';
import { usePortsStore } from '../features/ports/ports-store';
import { useSettingsStore } from '../features/settings/settings-store';
import { useSubscriptionsStore } from '../features/subscriptions/subscriptions-store';
import { useTopUpWizardStore } from '../features/topups/topup-wizard-store';
import { useTopUpsStore } from '../features/topups/topups-store';
import { useUpdatesStore } from '../features/updates/updates-store';

/**
 * The one place that listens to main's events: each event goes to the store that owns its data
 * (Mullvad's `renderer/app.tsx`). Components never subscribe themselves.
 *
 * - `app:stateChanged` replaces the app state (the account-scope watcher resets account data on a switch);
 * - `ports:changed`, `subscriptions:changed`, `topups:changed` merge their items into the lists
 *   already read, when they are about the active profile (background jobs run for every profile);
 *   `topups:changed` also updates the top-up the wizard follows;
 * - `ports:rotation` gives the ports store each rotation's progress and receipt (any trigger), and
 *   `ports:changed` also carries the relocation tracker's progress;
 * - `ports:healthChanged` (a port's health checks made it down or up) patches the port's status in
 *   the ports store: the list's Health cell and the open Health tab change at once; of kind
 *   `subscription`, the subscriptions store's (the list's Health cell, the page's health summary);
 *   a local proxy's status arrives with `localProxies:changed` instead;
 * - `schedules:changed` replaces the active profile's schedules ("next run", pause, recent runs);
 * - `tray:changed` replaces the active profile's ports pinned to the tray;
 * - `settings:changed` replaces the settings; `updates:changed` the updates status (banner, Settings);
 * - `alerts:raised` adds the alert to the in-app list, whichever profile it is about;
 * - `localProxies:changed` replaces the local proxies (every profile's) with their live stats;
 * - the overview is read again (once per burst) after any of those changes for the active profile, a
 *   finished rotation, or an alert: main builds it from what it holds, so this asks the service nothing;
 * - `app:navigate` (a clicked OS notification or the tray's "Open") opens its route once its shape is checked; a window
 *   created by that click has the route in its URL instead, followed once the app state is read;
 * - after the web socket reconnects, events sent meanwhile are lost: the app state is read again,
 *   and so is every list that was loaded.
 */
export interface EventBridgeOptions {
  /** Default: `window.api`. */
  api?: RendererApi;
  /** Default: what the transport registered (web mode); the desktop preload has none. */
  onConnected?: OnConnected | null;
}

/** Stores that hold data main may have changed while the socket was down. */
const RELOADABLE = [
  useOverviewStore,
  usePortsStore,
  useSubscriptionsStore,
  useTopUpsStore,
  useSettingsStore,
  useAlertsStore,
  useTopUpWizardStore,
  useLocalProxiesStore,
] as const;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null;

function isListChanged(payload: unknown): boolean {
  return (
    isObject(payload) &&
    typeof payload.profileId === 'string' &&
    Array.isArray(payload.changed) &&
    payload.changed.every((item) => isObject(item) && typeof item.id === 'string')
  );
}

/** The ids a list's `changed` event says are gone, when they have the expected shape. */
function removedOf(payload: unknown): string[] | undefined {
  if (!isObject(payload) || !Array.isArray(payload.removed)) return undefined;
  return payload.removed.every((id) => typeof id === 'string') ? payload.removed : undefined;
}

/** The sub-user lists a `subscriptions:changed` carries, when they have the expected shape. */
function subUsersOf(payload: unknown): Record<string, SubUserRow[]> | undefined {
  if (!isObject(payload) || !isObject(payload.subUsers)) return undefined;
  const lists = Object.entries(payload.subUsers).filter(
    (entry): entry is [string, SubUserRow[]] =>
      Array.isArray(entry[1]) && entry[1].every((item) => isObject(item) && typeof item.id === 'string'),
  );
  return Object.fromEntries(lists);
}

/** Only changes for the active profile reach the screens: they show that profile's data only. */
function forActiveProfile<T>(
  apply: (changed: T[]) => void,
): (payload: { profileId: string; changed: T[] }) => void {
  return (payload) => {
    // Checked, not trusted: a main process from another version may send another shape.
    if (!isListChanged(payload)) return;
    if (!isActiveProfile(payload.profileId)) return;
    apply(payload.changed);
  };
}

const isActiveProfile = (profileId: string) => profileId === useAppStore.getState().state?.activeProfile?.id;

const refreshOverview = () => useOverviewStore.getState().refreshSoon();

/** `ports:rotation`: progress and receipts of rotations started anywhere (tray, schedules, other windows). */
function isRotationEvent(payload: unknown): payload is PortsRotation {
  return (
    isObject(payload) &&
    typeof payload.profileId === 'string' &&
    typeof payload.portId === 'string' &&
    (payload.phase === 'started' || payload.phase === 'finished' || payload.phase === 'failed')
  );
}

/** `ports:healthChanged` about a port or a subscription, with the fields their stores patch. */
function isHealthChanged(payload: unknown): payload is PortHealthChanged {
  return (
    isObject(payload) &&
    (payload.kind === 'port' || payload.kind === 'subscription') &&
    typeof payload.profileId === 'string' &&
    typeof payload.id === 'string' &&
    (payload.status === 'up' || payload.status === 'down' || payload.status === 'unknown') &&
    typeof payload.failuresInARow === 'number' &&
    isObject(payload.lastCheck) &&
    typeof payload.lastCheck.at === 'string'
  );
}

/** `schedules:changed`: the whole schedules view of one profile. */
function isSchedulesView(payload: unknown): payload is SchedulesChanged {
  return (
    isObject(payload) &&
    typeof payload.profileId === 'string' &&
    typeof payload.paused === 'boolean' &&
    Array.isArray(payload.schedules) &&
    payload.schedules.every(
      (item) => isObject(item) && typeof item.portId === 'string' && Array.isArray(item.lastRuns),
    )
  );
}

/** `tray:changed`: the pinned ports of one profile. */
function isTrayView(payload: unknown): payload is TrayView & { profileId: string } {
  return (
    isObject(payload) &&
    typeof payload.profileId === 'string' &&
    Array.isArray(payload.pinnedPortIds) &&
    payload.pinnedPortIds.every((id) => typeof id === 'string')
  );
}

/** `localProxies:changed`: every local proxy, each with its id, address and stats. */
/** What the overview says of the local proxies: each one's state and last error, without its traffic. */
const localProxiesHealth = (payload: LocalProxiesChanged): string =>
  JSON.stringify(payload.proxies.map((proxy) => [proxy.id, proxy.state, proxy.lastError?.at ?? null]));

function isLocalProxiesChanged(payload: unknown): payload is LocalProxiesChanged {
  return (
    isObject(payload) &&
    Array.isArray(payload.proxies) &&
    payload.proxies.every(
      (item) =>
        isObject(item) && typeof item.id === 'string' && typeof item.url === 'string' && isObject(item.stats),
    )
  );
}

/** Reads the app state again and, after a reconnect, every list that was loaded. */
async function resync(reconnect: boolean): Promise<void> {
  await useAppStore.getState().load();
  if (!reconnect) return;
  // Lists of an account that is no longer active were reset by the account scope: they reload nothing.
  await Promise.all(RELOADABLE.map((store) => store.getState().reloadLoaded()));
}

/** Subscribes to every event and reads the app state once; answers the function that disconnects. */
export function connectEventBridge(options: EventBridgeOptions = {}): () => void {
  const unsubscribes: (() => void)[] = [];
  const api = options.api ?? window.api;
  // Read before anything moves the fragment: a window opened by a notification click starts there.
  const initialLink = parseDeepLink(window.location.hash);
  let lastLocalProxiesHealth = '';
  try {
    if (!api) throw new Error('window.api is not installed');
    unsubscribes.push(api.app.onStateChanged((state: AppState) => useAppStore.getState().applyState(state)));
    unsubscribes.push(
      api.ports.onChanged((payload: PortsChanged) => {
        if (!isListChanged(payload) || !isActiveProfile(payload.profileId)) return;
        const relocations = Array.isArray(payload.relocations) ? payload.relocations : undefined;
        const removed = removedOf(payload);
        const asOf = typeof payload.asOf === 'string' ? payload.asOf : undefined;
        usePortsStore.getState().applyChanges(payload.changed, relocations, removed, asOf);
        // A read of the whole list where nothing moved only says how old the list is now.
        if (payload.changed.length || removed?.length || relocations?.length) refreshOverview();
      }),
      api.ports.onRotation((payload) => {
        if (!isRotationEvent(payload) || !isActiveProfile(payload.profileId)) return;
        usePortsStore.getState().applyRotation(payload);
        if (payload.phase !== 'started') refreshOverview();
      }),
      api.ports.onHealthChanged((payload) => {
        if (!isHealthChanged(payload) || !isActiveProfile(payload.profileId)) return;
        if (payload.kind === 'subscription') {
          // The overview says nothing of a subscription's checks: only its screens change.
          useSubscriptionsStore.getState().applyHealthChange(payload);
          return;
        }
        usePortsStore.getState().applyHealthChange(payload);
        refreshOverview();
      }),
      api.schedules.onChanged((payload) => {
        if (!isSchedulesView(payload) || !isActiveProfile(payload.profileId)) return;
        usePortsStore.getState().applySchedules(payload);
        refreshOverview();
      }),
      api.tray.onChanged((payload) => {
        if (isTrayView(payload) && isActiveProfile(payload.profileId))
          usePortsStore.getState().applyTray(payload);
      }),
      api.subscriptions.onChanged((payload) => {
        forActiveProfile((changed: Subscription[]) => {
          const subUsers = subUsersOf(payload);
          const removed = removedOf(payload);
          useSubscriptionsStore.getState().applyChanges(changed, subUsers, removed);
          // A read of the whole list where nothing moved changes nothing the overview shows.
          if (changed.length || subUsers || removed?.length) refreshOverview();
        })(payload);
      }),
      api.localProxies.onChanged((payload) => {
        if (!isLocalProxiesChanged(payload)) return;
        useLocalProxiesStore.getState().applyChanged(payload);
        // Stats arrive each second while tools work; the overview only cares when a state or error changes.
        const health = localProxiesHealth(payload);
        if (health !== lastLocalProxiesHealth) {
          lastLocalProxiesHealth = health;
          refreshOverview();
        }
      }),
      api.alerts.onRaised((payload) => {
        if (isObject(payload) && isObject(payload.alert) && typeof payload.alert.id === 'string') {
          useAlertsStore.getState().applyRaised(payload.alert);
          refreshOverview();
        }
      }),
      api.topups.onChanged(
        forActiveProfile((changed) => {
          // The history and the wizard's live view show the same top-ups.
          useTopUpsStore.getState().applyChanges(changed);
          useTopUpWizardStore.getState().applyChanges(changed);
          refreshOverview();
        }),
      ),
      api.app.onNavigate((payload) => {
        const link = isObject(payload) ? parseDeepLink(payload.route) : null;
        if (link) void followDeepLink(link);
      }),
      api.app.onCallSlow((call) => {
        if (isObject(call) && typeof call.callId === 'string') useSlowCallsStore.getState().markSlow(call);
      }),
      api.updates.onChanged((status) => {
        if (isObject(status) && typeof status.phase === 'string') useUpdatesStore.getState().apply(status);
      }),
      api.settings.onChanged((view) => {
        // Checked, not trusted, like the lists above.
        if (isObject(view) && isObject(view.polling)) useSettingsStore.getState().applyView(view);
      }),
    );
  } catch (error) {
    useAppStore.getState().listenFailed(error);
  }
  const onConnected = options.onConnected === undefined ? transportConnected() : options.onConnected;
  if (onConnected) unsubscribes.push(onConnected(({ reconnect }) => void resync(reconnect)));
  void useAppStore
    .getState()
    .load()
    .then(() => {
      // After the first state: the account scope has reset the account's stores by then.
      if (initialLink && useAppStore.getState().state) void followDeepLink(initialLink);
    });
  return () => {
    for (const unsubscribe of unsubscribes.splice(0)) unsubscribe();
  };
}
