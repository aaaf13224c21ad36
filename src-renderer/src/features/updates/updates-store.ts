import { create } from 'zustand';
import type { IpcError, IpcResult, UpdatePreferences, UpdateStatus } from '../../../../src-shared/contract';
import { callApi } from '../../api/window-api';

type UpdateAction = 'check' | 'download' | 'open' | 'restart' | 'preferences';

/**
 * The updates status from main (`updates:status`, then `updates:changed` through the event bridge),
 * and the calls the banner and Settings → Updates make.
 */
interface UpdatesStore {
  status: UpdateStatus | null;
  busy: UpdateAction | null;
  /** The last call's error (a refused download, a proxy URL the contract refused). */
  error: IpcError | null;
  /** "Later" hides the banner for this version until the next start. */
  dismissedVersion: string | null;
  load: () => Promise<void>;
  apply: (status: UpdateStatus) => void;
  check: () => Promise<void>;
  download: () => Promise<void>;
  openInstaller: () => Promise<void>;
  restart: () => Promise<void>;
  setPreferences: (patch: Partial<UpdatePreferences>) => Promise<boolean>;
  dismiss: (version: string) => void;
}

export const useUpdatesStore = create<UpdatesStore>()((set, get) => {
  const run = async (
    action: UpdateAction,
    call: () => Promise<IpcResult<UpdateStatus>>,
  ): Promise<boolean> => {
    if (get().busy) return false;
    set({ busy: action, error: null });
    const result = await call();
    if (result.ok) set({ status: result.value, busy: null });
    else set({ error: result.error, busy: null });
    return result.ok;
  };
  return {
    status: null,
    busy: null,
    error: null,
    dismissedVersion: null,
    load: async () => {
      const result = await callApi((api) => api.updates.status());
      if (result.ok) set({ status: result.value });
    },
    apply: (status) => set({ status }),
    check: async () => void (await run('check', () => callApi((api) => api.updates.check()))),
    download: async () => void (await run('download', () => callApi((api) => api.updates.download()))),
    openInstaller: async () => void (await run('open', () => callApi((api) => api.updates.openInstaller()))),
    restart: async () => void (await run('restart', () => callApi((api) => api.updates.restart()))),
    setPreferences: (patch) => run('preferences', () => callApi((api) => api.updates.setPreferences(patch))),
    dismiss: (version) => set({ dismissedVersion: version }),
  };
});
