import { create } from 'zustand';
import type { CallSlow } from '../../../../src-shared/contract';
import { callApi, onCallEnded } from '../../api/window-api';

interface SlowCallsStore {
  /** Calls main said are slow and that have not settled yet, oldest first. */
  slow: CallSlow[];
  /** Ids whose Cancel is in flight. */
  cancelling: string[];
  markSlow: (call: CallSlow) => void;
  ended: (callId: string) => void;
  cancel: (callId: string) => Promise<void>;
}

/** "Still waiting…" with a Cancel that aborts the call's requests in main. */
export const useSlowCallsStore = create<SlowCallsStore>()((set) => ({
  slow: [],
  cancelling: [],
  markSlow: (call) =>
    set((store) =>
      store.slow.some((c) => c.callId === call.callId) ? store : { slow: [...store.slow, call] },
    ),
  ended: (callId) =>
    set((store) =>
      store.slow.some((c) => c.callId === callId)
        ? {
            slow: store.slow.filter((c) => c.callId !== callId),
            cancelling: store.cancelling.filter((id) => id !== callId),
          }
        : store,
    ),
  cancel: async (callId) => {
    set((store) => ({ cancelling: [...store.cancelling, callId] }));
    const result = await callApi((api) => api.app.cancelCall({ callId }));
    // Cancelled or already over: either way the waiting is over for this call.
    if (!result.ok || !result.value.cancelled) {
      set((store) => ({
        slow: store.slow.filter((c) => c.callId !== callId),
        cancelling: store.cancelling.filter((id) => id !== callId),
      }));
    }
  },
}));

onCallEnded((callId) => useSlowCallsStore.getState().ended(callId));
