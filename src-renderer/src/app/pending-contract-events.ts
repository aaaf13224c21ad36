/**
 * PENDING CONTRACT (issue 7): the events and fields the core engineer is adding to
 * `src-main/ipc/contract.ts`, typed here with exactly their names and payloads until that lands.
 * After the merge the integrator deletes this file and uses the contract's own types
 * (`window.api.ports.onChanged(listener)`, `AppState['jobs']`, `SettingsView['desktop']`, …).
 */
import type { Subscription, TopUp } from '../../../src-main/api/api-types';
import type {
  AppState,
  CallInput,
  MobilePortView,
  RendererApi,
  SettingsView,
} from '../../../src-main/ipc/contract';

/** Whether this process runs the background jobs (one process per data folder does). */
export interface JobsOwnership {
  owner: boolean;
  /** Why not, for the banner, e.g. "Background jobs run in another Proxy Manager process …". */
  message: string | null;
}

/** `jobs` is read defensively: a main process from before the change does not send it. */
export type AppStateWithJobs = AppState & { jobs?: JobsOwnership };

export interface DesktopPreferences {
  closeToTray: boolean;
  startAtLogin: boolean;
  startMinimized: boolean;
}

export type SettingsViewWithDesktop = SettingsView & { desktop?: DesktopPreferences };

export type SettingsUpdateWithDesktop = CallInput<'settings:update'> & {
  desktop?: Partial<DesktopPreferences>;
};

export interface ListChanged<T> {
  profileId: string;
  changed: T[];
}

export interface PendingEvents {
  'ports:changed': ListChanged<MobilePortView>;
  'subscriptions:changed': ListChanged<Subscription>;
  'topups:changed': ListChanged<TopUp>;
  'settings:changed': SettingsView;
}

export type PendingEventChannel = keyof PendingEvents;

/**
 * Subscribes through `window.api.<domain>.on<Name>` as the contract will expose it. Answers null when
 * this `window.api` has no such member yet (a preload built before the contract gained the event).
 */
export function subscribePending<E extends PendingEventChannel>(
  api: RendererApi,
  channel: E,
  listener: (payload: PendingEvents[E]) => void,
): (() => void) | null {
  const [domain = '', name = ''] = channel.split(':');
  const member = `on${name.charAt(0).toUpperCase()}${name.slice(1)}`;
  const group = (api as unknown as Record<string, Record<string, unknown> | undefined>)[domain];
  const subscribe = group?.[member];
  if (typeof subscribe !== 'function') return null;
  const unsubscribe: unknown = (subscribe as (listener: (payload: unknown) => void) => unknown).call(
    group,
    listener as (payload: unknown) => void,
  );
  return typeof unsubscribe === 'function' ? (unsubscribe as () => void) : () => undefined;
}
