import { create } from 'zustand';
import type { AppState, IpcError } from '../../../../src-main/ipc/contract';
import { callApi } from '../../api/window-api';

interface AppStore {
  /** Null until the first `app:getState` answers. */
  state: AppState | null;
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
}

export const useAppStore = create<AppStore>()((set, get) => ({
  state: null,
  loadError: null,
  dismissing: [],
  actionError: null,
  checking: false,

  load: async () => {
    set({ loadError: null });
    const result = await callApi((api) => api.app.getState());
    if (result.ok) get().applyState(result.value);
    else set({ loadError: result.error });
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
}));

/** Identifies the account whose data the screens show; account data is dropped when it changes. */
export function accountKey(state: AppState | null): string | null {
  const profile = state?.activeProfile;
  return profile ? `${profile.id}|${profile.baseUrl}|${profile.pathStyle}` : null;
}
