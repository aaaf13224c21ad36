import { create } from 'zustand';
import type {
  AuditEntry,
  AutomationTokenView,
  CreatedAutomationToken,
  IpcError,
  RestApiStatus,
  Scope,
} from '../../../../src-shared/contract';
import { callApi } from '../../api/window-api';
import { idle, type Loadable, loading, settled } from '../../shared/loadable';

/** How many audit entries Settings shows (the log keeps 1,000; `proxy-manager audit` shows them all). */
const AUDIT_SHOWN = 100;

/**
 * Settings → Automation: the REST API's switch and port, the tokens (a new token's value is kept
 * here only until the user dismisses it: it is shown once) and the audit log.
 */
interface AutomationStore {
  tokens: Loadable<AutomationTokenView[]>;
  audit: Loadable<AuditEntry[]>;
  rest: Loadable<RestApiStatus>;
  /** The token just created, with its value: shown once. */
  created: CreatedAutomationToken | null;
  creating: boolean;
  createError: IpcError | null;
  restSaving: boolean;
  restError: IpcError | null;
  revokeError: IpcError | null;
  load: () => Promise<void>;
  refreshAudit: () => Promise<void>;
  createToken: (name: string, scopes: Scope[]) => Promise<boolean>;
  dismissCreated: () => void;
  revokeToken: (tokenId: string) => Promise<void>;
  setRest: (patch: { enabled?: boolean; port?: number }) => Promise<boolean>;
}

export const useAutomationStore = create<AutomationStore>()((set, get) => ({
  tokens: idle(),
  audit: idle(),
  rest: idle(),
  created: null,
  creating: false,
  createError: null,
  restSaving: false,
  restError: null,
  revokeError: null,

  load: async () => {
    set((store) => ({ tokens: loading(store.tokens), rest: loading(store.rest) }));
    const [tokens, rest] = await Promise.all([
      callApi((api) => api.automation.tokens()),
      callApi((api) => api.automation.restStatus()),
    ]);
    set((store) => ({ tokens: settled(store.tokens, tokens), rest: settled(store.rest, rest) }));
    await get().refreshAudit();
  },

  refreshAudit: async () => {
    set((store) => ({ audit: loading(store.audit) }));
    const audit = await callApi((api) => api.automation.audit({ limit: AUDIT_SHOWN }));
    set((store) => ({ audit: settled(store.audit, audit) }));
  },

  createToken: async (name, scopes) => {
    set({ creating: true, createError: null, created: null });
    const result = await callApi((api) => api.automation.createToken({ name, scopes }));
    if (!result.ok) {
      set({ creating: false, createError: result.error });
      return false;
    }
    const created = result.value;
    set((store) => ({
      creating: false,
      created,
      tokens: { status: 'ready', error: null, data: [...(store.tokens.data ?? []), created.token] },
    }));
    return true;
  },

  dismissCreated: () => set({ created: null }),

  revokeToken: async (tokenId) => {
    set({ revokeError: null });
    const result = await callApi((api) => api.automation.revokeToken({ tokenId }));
    if (!result.ok) {
      set({ revokeError: result.error });
      return;
    }
    set((store) => ({
      created: store.created?.token.id === tokenId ? null : store.created,
      tokens: {
        status: 'ready',
        error: null,
        data: (store.tokens.data ?? []).filter((token) => token.id !== tokenId),
      },
    }));
  },

  setRest: async (patch) => {
    set({ restSaving: true, restError: null });
    const result = await callApi((api) => api.automation.setRest(patch));
    set((store) => ({
      restSaving: false,
      ...(result.ok ? { rest: settled(store.rest, result) } : { restError: result.error }),
    }));
    return result.ok;
  },
}));
