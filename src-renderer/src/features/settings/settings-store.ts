import { create } from 'zustand';
import type { CallInput, IpcError, SettingsView } from '../../../../src-main/ipc/contract';
import { callApi } from '../../api/window-api';
import { idle, loading, needsLoad, settled, type Loadable } from '../../shared/loadable';

export type SettingsUpdate = CallInput<'settings:update'>;
/** Each part of the Settings screen saves on its own and shows its own errors. */
export type SettingsSection = 'theme' | 'polling' | 'alerts';

interface SettingsStore {
  settings: Loadable<SettingsView>;
  saving: Partial<Record<SettingsSection, boolean>>;
  errors: Partial<Record<SettingsSection, IpcError | null>>;
  /** Sections saved since the form was last edited: "Saved" feedback. */
  saved: Partial<Record<SettingsSection, boolean>>;
  load: (force?: boolean) => Promise<void>;
  /** Resolves true when main accepted the change. */
  update: (section: SettingsSection, patch: SettingsUpdate) => Promise<boolean>;
  clearFeedback: (section: SettingsSection) => void;
}

export const useSettingsStore = create<SettingsStore>()((set, get) => ({
  settings: idle(),
  saving: {},
  errors: {},
  saved: {},

  load: async (force = false) => {
    const current = get().settings;
    if (!needsLoad(current, force)) return;
    set({ settings: loading(current) });
    const result = await callApi((api) => api.settings.get());
    set((store) => ({ settings: settled(store.settings, result) }));
  },

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
        ? {
            settings: { status: 'ready' as const, data: result.value, error: null },
            saved: { ...store.saved, [section]: true },
          }
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
