import { create } from 'zustand';
import type { AppState, IpcError, IpcResult, KeyStorage } from '../../../../src-shared/contract';
import { callApi } from '../../api/window-api';
import { useAppStore } from '../app/app-store';

/** One operation on one profile, e.g. `rename:prof_1`: its progress and last error are tracked apart. */
export type ProfileOperation = 'switch' | 'update' | 'delete' | 'setKey' | 'removeKey';
export const operationKey = (operation: ProfileOperation, profileId: string) => `${operation}:${profileId}`;

interface ProfileEdit {
  name?: string;
  baseUrl?: string;
  /** Required by main when `baseUrl` moves to another origin while the profile has a key. */
  apiKey?: string;
}

interface ProfilesStore {
  pending: Record<string, boolean>;
  errors: Record<string, IpcError | null>;
  switchTo: (profileId: string) => Promise<boolean>;
  update: (profileId: string, edit: ProfileEdit) => Promise<boolean>;
  remove: (profileId: string) => Promise<boolean>;
  setKey: (profileId: string, apiKey: string, storage: KeyStorage) => Promise<boolean>;
  removeKey: (profileId: string) => Promise<boolean>;
  clearError: (operation: ProfileOperation, profileId: string) => void;
}

/**
 * Profile writes from the Settings screen. Every write answers the new `AppState`, which goes to the
 * app store (the shell, the status bar and the profile list all read it from there).
 */
export const useProfilesStore = create<ProfilesStore>()((set) => {
  async function run(
    operation: ProfileOperation,
    profileId: string,
    call: () => Promise<IpcResult<AppState>>,
  ): Promise<boolean> {
    const key = operationKey(operation, profileId);
    set((store) => ({
      pending: { ...store.pending, [key]: true },
      errors: { ...store.errors, [key]: null },
    }));
    const result = await call();
    set((store) => ({
      pending: { ...store.pending, [key]: false },
      errors: { ...store.errors, [key]: result.ok ? null : result.error },
    }));
    if (result.ok) useAppStore.getState().applyState(result.value);
    return result.ok;
  }

  return {
    pending: {},
    errors: {},
    switchTo: (profileId) =>
      run('switch', profileId, () => callApi((api) => api.profiles.switch({ profileId }))),
    update: (profileId, edit) =>
      run('update', profileId, () => callApi((api) => api.profiles.update({ profileId, ...edit }))),
    remove: (profileId) =>
      run('delete', profileId, () => callApi((api) => api.profiles.delete({ profileId }))),
    setKey: (profileId, apiKey, storage) =>
      run('setKey', profileId, () => callApi((api) => api.profiles.setKey({ profileId, apiKey, storage }))),
    removeKey: (profileId) =>
      run('removeKey', profileId, () => callApi((api) => api.profiles.removeKey({ profileId }))),
    clearError: (operation, profileId) =>
      set((store) => ({ errors: { ...store.errors, [operationKey(operation, profileId)]: null } })),
  };
});
