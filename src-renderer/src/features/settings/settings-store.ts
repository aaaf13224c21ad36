import { create } from 'zustand';
import type { CallInput, IpcError, SettingsView } from '../../../../src-shared/contract';
import { callApi } from '../../api/window-api';
import { idle, type Loadable } from '../../shared/loadable';
import { createLoadableSlice, inField, type LoadableSlice } from '../../shared/loadable-slice';

export type SettingsUpdate = CallInput<'settings:update'>;
/**
 * The Settings screen's one model: every preference applies as soon as it is changed (a choice at
 * once, a number when its field is left or Enter is pressed), and the last change can be undone from
 * a toast. There is no Save button for preferences. Each part shows its own errors.
 */
export type SettingsSection =
  | 'theme'
  | 'density'
  | 'polling'
  | 'alerts'
  | 'alertKinds'
  | 'subUserAlerts'
  | 'trafficOverrides'
  | 'proxyTest'
  | 'healthChecks'
  | 'desktop'
  | 'notifications';

interface SettingsStore {
  settings: Loadable<SettingsView>;
  saving: Partial<Record<SettingsSection, boolean>>;
  errors: Partial<Record<SettingsSection, IpcError | null>>;
  /** Sections saved since the form was last edited: "Saved" feedback. */
  saved: Partial<Record<SettingsSection, boolean>>;
  /** The last change applied, for the undo toast: what it did and the patch that reverses it. */
  lastChange: { section: SettingsSection; description: string; undo: SettingsUpdate } | null;
  load: (force?: boolean) => Promise<void>;
  /** Loads the settings again if they were loaded (after a reconnect: a change may have been missed). */
  reloadLoaded: () => Promise<void>;
  /** Settings from main (`settings:changed`, e.g. changed in another window): they replace ours. */
  applyView: (view: SettingsView) => void;
  /** Resolves true when main accepted the change; `description` goes in the undo toast. */
  update: (section: SettingsSection, patch: SettingsUpdate, description?: string) => Promise<boolean>;
  /** Puts back what the last change replaced. */
  undoLast: () => Promise<boolean>;
  dismissLastChange: () => void;
  clearFeedback: (section: SettingsSection) => void;
}

const ready = (view: SettingsView): Loadable<SettingsView> => ({ status: 'ready', data: view, error: null });

/**
 * The values `patch` replaces in `view`: sending it back undoes the patch, and only the patch (a
 * field changed meanwhile in another window is left alone).
 */
function undoPatchOf(view: SettingsView, patch: SettingsUpdate): SettingsUpdate {
  const undo: Record<string, unknown> = {};
  for (const [key, change] of Object.entries(patch)) {
    const previous: unknown = view[key as keyof SettingsView];
    if (typeof previous === 'object' && previous !== null && typeof change === 'object' && change !== null) {
      const before = previous as Record<string, unknown>;
      undo[key] = Object.fromEntries(Object.keys(change).map((field) => [field, before[field]]));
    } else {
      undo[key] = previous;
    }
  }
  return undo;
}

export const useSettingsStore = create<SettingsStore>()((set, get) => ({
  settings: idle(),
  saving: {},
  errors: {},
  saved: {},
  lastChange: null,

  load: (force = false) => settingsValue.load([], force),
  reloadLoaded: () => settingsValue.reloadLoaded(),
  applyView: (view) => set({ settings: ready(view) }),

  update: async (section, patch, description) => {
    const before = get().settings.data;
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
            settings: ready(result.value),
            saved: { ...store.saved, [section]: true },
            lastChange:
              before && description !== undefined
                ? { section, description, undo: undoPatchOf(before, patch) }
                : store.lastChange,
          }
        : { errors: { ...store.errors, [section]: result.error } }),
    }));
    return result.ok;
  },

  undoLast: async () => {
    const change = get().lastChange;
    if (!change) return false;
    set({ lastChange: null });
    return get().update(change.section, change.undo);
  },

  dismissLastChange: () => set({ lastChange: null }),

  clearFeedback: (section) =>
    set((store) => ({
      errors: { ...store.errors, [section]: null },
      saved: { ...store.saved, [section]: false },
    })),
}));

const settingsValue: LoadableSlice<SettingsStore, SettingsView, []> = createLoadableSlice(useSettingsStore, {
  place: inField<SettingsStore, SettingsView>('settings'),
  fetch: () => callApi((api) => api.settings.get()),
});
