import { create } from 'zustand';
import type { AppState, InitialState, IpcError } from '../../../../src-shared/contract';
import { callApi } from '../../api/window-api';
import { downloadInBrowser } from '../../shared/browser-download';
import { safeFileName } from '../../shared/file-name';
import { screenFromHash } from '../../shared/routes';
import type { SaveTextFile } from '../../shared/save-outcome';

interface AppStore {
  /** Null until the first `app:getState` answers. */
  state: AppState | null;
  /**
   * Main's snapshot of the list of the screen the window opened on (`app:getState` with `screen`),
   * until the screen's store takes it (`app/screen-data.ts`).
   */
  snapshots: InitialState['snapshots'] | null;
  /** Why the first load failed (no token, server gone, …); null while it is pending or once it succeeded. */
  loadError: IpcError | null;
  /** Ids of notices whose dismissal is in flight (their button is disabled meanwhile). */
  dismissing: string[];
  /** Last failure of a shell action (dismiss, check, leave demo), shown in the status area. */
  actionError: IpcError | null;
  checking: boolean;
  load: () => Promise<void>;
  /**
   * The event bridge could not subscribe to main's events. The app still reads, but it cannot follow
   * changes made elsewhere: said in the status bar.
   */
  listenFailed: (error: unknown) => void;
  /** Every `AppState` from main goes through here: pushed events and the answers of writes. */
  applyState: (state: AppState) => void;
  dismissNotice: (noticeId: string) => Promise<void>;
  checkConnection: () => Promise<void>;
  stopDemo: () => Promise<void>;
  clearActionError: () => void;
  /**
   * The one way the page saves a file it made (CSV, credentials, proxy lines): on the desktop
   * through main's save dialog (`app:saveFile`; the window cannot download), in web mode through
   * the browser's download. The name is made safe for the save rule first.
   */
  saveTextFile: SaveTextFile;
}

export const useAppStore = create<AppStore>()((set, get) => ({
  state: null,
  snapshots: null,
  loadError: null,
  dismissing: [],
  actionError: null,
  checking: false,

  load: async () => {
    set({ loadError: null });
    // The screen in the URL, when main can send its list with the state (rendered without another call).
    const screen = screenFromHash(window.location.hash);
    const result = await callApi((api) =>
      api.app.getState(screen === 'ports' || screen === 'subscriptions' ? { screen } : undefined),
    );
    if (!result.ok) {
      set({ loadError: result.error });
      return;
    }
    const { snapshots, ...state } = result.value;
    if (snapshots) set({ snapshots });
    get().applyState(state);
  },

  listenFailed: (error) =>
    set({
      actionError: {
        code: 'transport_error',
        message:
          `Cannot listen to the app (${error instanceof Error ? error.message : String(error)}): ` +
          'changes made elsewhere show only after a reload.',
      },
    }),

  applyState: (state) => set({ state, loadError: null }),

  dismissNotice: async (noticeId) => {
    set((store) => ({ dismissing: [...store.dismissing, noticeId], actionError: null }));
    const result = await callApi((api) => api.app.dismissNotice({ noticeId }));
    set((store) => ({ dismissing: store.dismissing.filter((id) => id !== noticeId) }));
    if (result.ok) get().applyState(result.value);
    else set({ actionError: result.error });
  },

  checkConnection: async () => {
    set({ checking: true, actionError: null });
    const result = await callApi((api) => api.connection.check());
    set({ checking: false });
    if (result.ok) get().applyState(result.value);
    else set({ actionError: result.error });
  },

  stopDemo: async () => {
    set({ actionError: null });
    const result = await callApi((api) => api.demo.stop());
    if (result.ok) get().applyState(result.value);
    else set({ actionError: result.error });
  },

  clearActionError: () => set({ actionError: null }),

  saveTextFile: async (file) => {
    const fileName = safeFileName(file.fileName);
    if (get().state?.mode !== 'desktop') {
      try {
        downloadInBrowser({ ...file, fileName });
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        return { status: 'failed', error: { code: 'download_failed', message } };
      }
      return { status: 'downloaded', fileName };
    }
    const result = await callApi((api) => api.app.saveFile({ fileName, content: file.content }));
    if (!result.ok) return { status: 'failed', error: result.error };
    return result.value.saved && result.value.path !== null
      ? { status: 'saved', path: result.value.path }
      : { status: 'cancelled' };
  },
}));

/** Identifies the account whose data the screens show; account data is dropped when it changes. */
export function accountKey(state: AppState | null): string | null {
  const profile = state?.activeProfile;
  return profile ? `${profile.id}|${profile.baseUrl}|${profile.pathStyle}` : null;
}
