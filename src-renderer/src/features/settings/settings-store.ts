import { create } from 'zustand';
import type { CallInput, IpcError, SettingsView } from '../../../../src-main/ipc/contract';
import { callApi } from '../../api/window-api';
import { idle, type Loadable } from '../../shared/loadable';
import { createLoadableSlice, inField, type LoadableSlice } from '../../shared/loadable-slice';

export type SettingsUpdate = CallInput<'settings:update'>;
/** Each part of the Settings screen saves on its own and shows its own errors. */
export type SettingsSection = 'theme' | 'polling' | 'alerts' | 'desktop';

interface SettingsStore {
  settings: Loadable<SettingsView>;
  saving: Partial<Record<SettingsSection, boolean>>;
  errors: Partial<Record<SettingsSection, IpcError | null>>;
  /** Sections saved since the form was last edited: "Saved" feedback. */
  saved: Partial<Record<SettingsSection, boolean>>;
  load: (force?: boolean) => Promise<void>;
  /** Loads the settings again if they were loaded (after a reconnect: a change may have been missed). */
  reloadLoaded: () => Promise<void>;
  /** Settings from main (`settings:changed`, e.g. changed in another window): they replace ours. */
  applyView: (view: SettingsView) => void;
  /** Resolves true when main accepted the change. */
  update: (section: SettingsSection, patch: SettingsUpdate) => Promise<boolean>;
  clearFeedback: (section: SettingsSection) => void;
}

const ready = (view: SettingsView): Loadable<SettingsView> => ({ status: 'ready', data: view, error: null });

export const useSettingsStore = create<SettingsStore>()((set) => ({
  settings: idle(),
  saving: {},
  errors: {},
  saved: {},

  load: (force = false) => settingsValue.load([], force),
  reloadLoaded: () => settingsValue.reloadLoaded(),
  applyView: (view) => set({ settings: ready(view) }),

  update: async (section, patch) => {
    set((store) => ({
      saving: { ...store.saving, [section]: true },
      errors: { ...store.errors, [section]: null },
      saved: { ...store.saved, [section]: false },
    }));
    const result = await callApi((api) => api.settings.update(patch));
    set((store) => ({
      saving: { ...store.saving, [section]: false },
      ...(result.ok
        ? { settings: ready(result.value), saved: { ...store.saved, [section]: true } }
        : { errors: { ...store.errors, [section]: result.error } }),
    }));
    return result.ok;
  },

  clearFeedback: (section) =>
    set((store) => ({
      errors: { ...store.errors, [section]: null },
      saved: { ...store.saved, [section]: false },
    })),
}));

export const settingsValue: LoadableSlice<SettingsStore, SettingsView, []> = createLoadableSlice(
  useSettingsStore,
  {
    place: inField<SettingsStore, SettingsView>('settings'),
    fetch: () => callApi((api) => api.settings.get()),
  },
);
