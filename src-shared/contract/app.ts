import { z } from 'zod';
import type { ConnectionState } from './connection';
import { call, type DomainCalls, type DomainEvents, event } from './define';
import type { Subscription } from '../api-types';
import { SNAPSHOT_SCREENS } from './list-views';
import type { PortsListView } from './ports';
import type { ProfileSummary } from './profiles';
import { noticeId } from './shared-inputs';

/** Longest link `app:openExternal` takes. */
export const EXTERNAL_URL_MAX = 2048;
/** `app:saveFile`: the longest file name and the largest content (characters). */
const FILE_NAME_MAX = 200;
const SAVED_FILE_MAX = 50_000_000;

export interface Notice {
  id: string;
  level: 'info' | 'warning' | 'error';
  message: string;
}

/** What this process does about background jobs (schedules, pollers, watchers). */
export interface JobsStatus {
  /** True when this process runs the background jobs for its data folder. */
  owner: boolean;
  /** Why not, when it does not (another window or web server owns them); null otherwise. */
  message: string | null;
}

/** Everything the shell of the UI needs, pushed again on every change (`app:stateChanged`). */
export interface AppState {
  mode: 'desktop' | 'web';
  profiles: ProfileSummary[];
  activeProfile: ProfileSummary | null;
  connection: ConnectionState;
  keychain: { available: boolean; reason: string | null };
  demo: { running: boolean };
  jobs: JobsStatus;
  notices: Notice[];
}

/**
 * `app:getState`'s answer: the state, and with `screen` (the screen the window opens on) main's
 * snapshot of that screen's list when it holds one, so that the list renders without another call.
 */
export interface InitialState extends AppState {
  snapshots?: {
    ports?: PortsListView;
    subscriptions?: { profileId: string; items: Subscription[] };
  };
}

/**
 * Where a click on an OS notification (or the tray's "Open") takes the window: `/overview` (what
 * needs attention), `/ports/<id>` (the port's detail), `/subscriptions/<id>` (the subscription's
 * detail) or `/topups/<id>` (the top-up in the wizard's live view); the id URI-encoded. The
 * renderer's router checks the shape again before it follows it.
 */
export type AppRoute =
  | '/overview'
  | '/local-proxies'
  | '/settings/alert-channels'
  | `/${'ports' | 'subscriptions' | 'topups'}/${string}`;
const APP_ROUTE_PATTERN =
  /^\/(?:overview|local-proxies|settings\/alert-channels|(ports|subscriptions|topups)\/[A-Za-z0-9%._~-]{1,300})$/;

export function isAppRoute(value: unknown): value is AppRoute {
  return typeof value === 'string' && APP_ROUTE_PATTERN.test(value);
}

/** `app:navigate`: main asks the window to show a route (a notification was clicked). */
export interface AppNavigate {
  route: AppRoute;
}

/** A UI call that passed its budget's "still waiting" point: the window offers Cancel. */
export interface CallSlow {
  callId: string;
  channel: string;
  elapsedMs: number;
  budgetMs: number;
}

/** The id a window gives each of its calls (`callApi` makes them), to cancel it by. */
export const CALL_ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

export const appCalls = {
  'app:getState': call<InitialState>('read')(
    z.strictObject({ screen: z.enum(SNAPSHOT_SCREENS).optional() }).optional(),
  ),
  'app:dismissNotice': call<AppState>('read')(z.strictObject({ noticeId })),
  'app:cancelCall': call<{ cancelled: boolean }>('read')(
    z.strictObject({ callId: z.string().regex(CALL_ID_PATTERN, 'Not a call id') }),
  ),
  /**
   * Desktop: hands a top-up's explorer link (https) or payment URI (a wallet scheme) to the OS. Main
   * opens only links it read from the service for the user's own top-ups (`core/topups/topup-links.ts`).
   */
  'app:openExternal': call<{ opened: true }>('read')(
    z.strictObject({ url: z.string().min(1, 'No link').max(EXTERNAL_URL_MAX, 'The link is too long') }),
  ),
  /**
   * Desktop: saves a file the page made (a CSV export) where the user chooses in a save dialog. The
   * window cannot download (`<a download>` is a navigation its guards refuse); web mode downloads.
   * `saved: false` when the user cancelled.
   */
  'app:saveFile': call<{ saved: boolean; path: string | null }>('read')(
    z.strictObject({
      fileName: z
        .string()
        .min(1, 'No file name')
        .max(FILE_NAME_MAX, 'The file name is too long')
        // A name, not a path: the user picks the folder in the dialog.
        .regex(/^(?!\.)[\p{L}\p{N} _.,()+-]+$/u, 'A file name of letters, digits, spaces and . _ - , ( ) +'),
      content: z.string().max(SAVED_FILE_MAX, 'The file is too large to save'),
    }),
  ),
} as const satisfies DomainCalls<'app'>;

export const appEvents = {
  'app:stateChanged': event<AppState>(),
  'app:callSlow': event<CallSlow>(),
  'app:navigate': event<AppNavigate>(),
} as const satisfies DomainEvents<'app'>;
