import { create } from 'zustand';
import type { ConnectionTestResult, IpcError, KeyStorage } from '../../../../src-shared/contract';
import { callApi } from '../../api/window-api';
import { fieldErrorsOf, type FieldErrors } from '../../shared/field-errors';
import { idle, loading, settled, type Loadable } from '../../shared/loadable';
import { useAppStore } from '../app/app-store';

export interface ConnectionDraft {
  name: string;
  baseUrl: string;
  apiKey: string;
}

type DraftField = keyof ConnectionDraft | 'storage';

/** Main names the key `key` in some errors, and the storage choice `storage`. */
const FIELD_ALIASES: Record<string, DraftField> = { key: 'apiKey', storage: 'storage' };

const emptyDraft: ConnectionDraft = { name: '', baseUrl: '', apiKey: '' };

const signature = (draft: ConnectionDraft) => `${draft.baseUrl.trim()}\n${draft.apiKey.trim()}`;

/** The profile name when the user left it empty: the service's host name. */
export function defaultProfileName(baseUrl: string): string {
  try {
    return new URL(baseUrl.trim()).hostname || 'My account';
  } catch {
    return 'My account';
  }
}

interface SaveOptions {
  storage?: KeyStorage;
  /** Save although the connection test failed. */
  anyway?: boolean;
  /** Save although a saved profile has the same base URL and key. */
  duplicate?: boolean;
}

/** Where a new key goes by default: the keychain, or this session when main reports none. */
function defaultStorage(): KeyStorage {
  return useAppStore.getState().state?.keychain.available === false ? 'session' : 'keychain';
}

const testPassed = (result: ConnectionTestResult | null) =>
  result !== null && result.ok && result.pathStyle !== null && result.authenticated.ok;

/**
 * Adding an account (onboarding, and "Add a profile" in Settings): test the base URL and key, then
 * save a profile with the URL reading the test adopted. The key typed here is dropped from memory as
 * soon as the profile is saved.
 */
interface OnboardingStore {
  draft: ConnectionDraft;
  fieldErrors: FieldErrors;
  test: Loadable<ConnectionTestResult>;
  /** The draft (URL and key) that `test` is about; a stale result is not used for saving. */
  testedSignature: string | null;
  saving: boolean;
  saveError: IpcError | null;
  /** Save stopped because the test failed; the form offers "Save anyway". */
  confirmUntested: boolean;
  /** The keychain refused the key; the form offers "Keep for this session only". */
  keychainUnavailable: boolean;
  /** A saved profile has this base URL and key (main compared them); the form offers to switch to it. */
  duplicateOf: { profileId: string; name: string } | null;
  demoStarting: boolean;
  demoError: IpcError | null;

  setField: (field: keyof ConnectionDraft, value: string) => void;
  testConnection: () => Promise<ConnectionTestResult | null>;
  save: (options?: SaveOptions) => Promise<boolean>;
  /** Instead of adding a duplicate: make the existing profile active and drop the draft. */
  switchToDuplicate: () => Promise<boolean>;
  startDemo: () => Promise<boolean>;
  reset: () => void;
}

export const useOnboardingStore = create<OnboardingStore>()((set, get) => ({
  draft: emptyDraft,
  fieldErrors: {},
  test: idle(),
  testedSignature: null,
  saving: false,
  saveError: null,
  confirmUntested: false,
  keychainUnavailable: false,
  duplicateOf: null,
  demoStarting: false,
  demoError: null,

  setField: (field, value) =>
    set((store) => {
      const { [field]: _cleared, ...fieldErrors } = store.fieldErrors;
      return {
        draft: { ...store.draft, [field]: value },
        fieldErrors,
        confirmUntested: false,
        duplicateOf: null,
        ...(field === 'apiKey' ? { keychainUnavailable: false } : {}),
      };
    }),

  testConnection: async () => {
    const { draft, test } = get();
    if (test.status === 'loading') return null;
    const tested = signature(draft);
    set({
      test: loading(test),
      fieldErrors: {},
      saveError: null,
      confirmUntested: false,
      duplicateOf: null,
    });
    const result = await callApi((api) =>
      api.connection.test({ baseUrl: draft.baseUrl.trim(), apiKey: draft.apiKey.trim() }),
    );
    set((store) => ({
      test: settled({ ...store.test, data: null }, result),
      testedSignature: result.ok ? tested : null,
      fieldErrors: result.ok ? {} : fieldErrorsOf(result.error, FIELD_ALIASES),
    }));
    return result.ok ? result.value : null;
  },

  save: async (options = {}) => {
    if (get().saving) return false;
    set({ saving: true, saveError: null, duplicateOf: null });
    try {
      const { draft, test, testedSignature } = get();
      let result = testedSignature === signature(draft) ? test.data : null;
      if (!result) {
        result = await get().testConnection();
        if (!result) return false;
      }
      if (!testPassed(result) && !options.anyway) {
        set({ confirmUntested: true });
        return false;
      }
      if (result.duplicateOf && !options.duplicate) {
        set({ duplicateOf: result.duplicateOf });
        return false;
      }
      const storage = options.storage ?? defaultStorage();
      // The address the test adopted: the one typed, or it with /api/v1 when only that answered.
      const baseUrl = result.pathStyle !== null ? result.baseUrl : draft.baseUrl.trim();
      const created = await callApi((api) =>
        api.profiles.create({
          name: draft.name.trim() || defaultProfileName(baseUrl),
          baseUrl,
          pathStyle: result.pathStyle ?? 'literal',
          apiKey: draft.apiKey.trim(),
          storage,
          // Main checks again: a profile saved meanwhile (another window) is not duplicated silently.
          duplicate: options.duplicate ? 'allow' : 'refuse',
        }),
      );
      if (!created.ok) {
        set({
          saveError: created.error,
          fieldErrors: fieldErrorsOf(created.error, FIELD_ALIASES),
          keychainUnavailable: created.error.code === 'keychain_unavailable',
        });
        return false;
      }
      useAppStore.getState().applyState(created.value);
      get().reset();
      return true;
    } finally {
      set({ saving: false });
    }
  },

  switchToDuplicate: async () => {
    const duplicate = get().duplicateOf;
    if (!duplicate || get().saving) return false;
    set({ saving: true, saveError: null });
    try {
      const switched = await callApi((api) => api.profiles.switch({ profileId: duplicate.profileId }));
      if (!switched.ok) {
        set({ saveError: switched.error });
        return false;
      }
      useAppStore.getState().applyState(switched.value);
      get().reset();
      return true;
    } finally {
      set({ saving: false });
    }
  },

  startDemo: async () => {
    if (get().demoStarting) return false;
    set({ demoStarting: true, demoError: null });
    const result = await callApi((api) => api.demo.start());
    set({ demoStarting: false, demoError: result.ok ? null : result.error });
    if (result.ok) useAppStore.getState().applyState(result.value);
    return result.ok;
  },

  reset: () =>
    set({
      draft: emptyDraft,
      fieldErrors: {},
      test: idle(),
      testedSignature: null,
      saveError: null,
      confirmUntested: false,
      keychainUnavailable: false,
      duplicateOf: null,
    }),
}));
