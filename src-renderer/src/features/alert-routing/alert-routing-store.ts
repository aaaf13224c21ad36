import { create } from 'zustand';
import type {
  AddedAlertChannel,
  AlertChannelView,
  CallInput,
  ChannelTestResult,
  DeliveryLogView,
  IpcError,
  LocalReceiverView,
} from '../../../../src-shared/contract';
import { callApi } from '../../api/window-api';
import { idle, type Loadable, loading, settled } from '../../shared/loadable';

/** How many delivery log lines Settings shows (`proxy-manager alerts deliveries --limit 500` shows more). */
const LOG_SHOWN = 100;

export type NewAlertChannel = CallInput<'alertRouting:addChannel'>;

/**
 * Settings → Alerts → Channels: the channels alerts are delivered to away from this desktop, their
 * Test button and the delivery log with its dead letters. A new webhook's signing secret is kept
 * here only until the user dismisses it: it is shown once.
 */
interface AlertRoutingStore {
  channels: Loadable<AlertChannelView[]>;
  log: Loadable<DeliveryLogView>;
  added: AddedAlertChannel | null;
  adding: boolean;
  addError: IpcError | null;
  /** The last Test per channel id. */
  tests: Record<string, ChannelTestResult | 'sending'>;
  actionError: IpcError | null;
  /** The local test receiver (try delivery offline, e.g. in the demo). */
  receiver: Loadable<LocalReceiverView>;
  loadReceiver: (start?: boolean) => Promise<void>;
  load: () => Promise<void>;
  refreshLog: () => Promise<void>;
  addChannel: (input: NewAlertChannel) => Promise<boolean>;
  dismissAdded: () => void;
  testChannel: (channelId: string) => Promise<void>;
  removeChannel: (channelId: string) => Promise<void>;
  ruleError: IpcError | null;
  setRule: (input: CallInput<'alertRouting:setRule'>) => Promise<boolean>;
  retryDead: (channelId?: string) => Promise<void>;
}

export const useAlertRoutingStore = create<AlertRoutingStore>()((set, get) => ({
  channels: idle(),
  log: idle(),
  added: null,
  adding: false,
  addError: null,
  tests: {},
  actionError: null,
  ruleError: null,
  receiver: idle(),

  setRule: async (input) => {
    set({ ruleError: null });
    const result = await callApi((api) => api.alertRouting.setRule(input));
    if (!result.ok) {
      set({ ruleError: result.error });
      return false;
    }
    const changed = result.value;
    set((store) => ({
      channels: {
        status: 'ready',
        error: null,
        data: (store.channels.data ?? []).map((channel) => (channel.id === changed.id ? changed : channel)),
      },
    }));
    return true;
  },

  loadReceiver: async (start = false) => {
    set((store) => ({ receiver: loading(store.receiver) }));
    const receiver = await callApi((api) => api.alertRouting.localReceiver(start ? { start } : {}));
    set((store) => ({ receiver: settled(store.receiver, receiver) }));
  },

  load: async () => {
    set((store) => ({ channels: loading(store.channels) }));
    const channels = await callApi((api) => api.alertRouting.channels());
    set((store) => ({ channels: settled(store.channels, channels) }));
    await get().refreshLog();
  },

  refreshLog: async () => {
    set((store) => ({ log: loading(store.log) }));
    const log = await callApi((api) => api.alertRouting.deliveries({ limit: LOG_SHOWN }));
    set((store) => ({ log: settled(store.log, log) }));
  },

  addChannel: async (input) => {
    set({ adding: true, addError: null, added: null });
    const result = await callApi((api) => api.alertRouting.addChannel(input));
    if (!result.ok) {
      set({ adding: false, addError: result.error });
      return false;
    }
    const added = result.value;
    set((store) => ({
      adding: false,
      added,
      channels: { status: 'ready', error: null, data: [...(store.channels.data ?? []), added.channel] },
    }));
    return true;
  },

  dismissAdded: () => set({ added: null }),

  testChannel: async (channelId) => {
    set((store) => ({ tests: { ...store.tests, [channelId]: 'sending' } }));
    const result = await callApi((api) => api.alertRouting.testChannel({ channelId }));
    set((store) => {
      const tests = { ...store.tests };
      if (result.ok) tests[channelId] = result.value;
      else delete tests[channelId];
      return { tests, actionError: result.ok ? null : result.error };
    });
    await get().load();
  },

  removeChannel: async (channelId) => {
    const result = await callApi((api) => api.alertRouting.removeChannel({ channelId }));
    if (!result.ok) {
      set({ actionError: result.error });
      return;
    }
    set((store) => ({
      actionError: null,
      channels: {
        status: 'ready',
        error: null,
        data: (store.channels.data ?? []).filter((channel) => channel.id !== channelId),
      },
    }));
  },

  retryDead: async (channelId) => {
    const result = await callApi((api) => api.alertRouting.retryDead(channelId ? { channelId } : {}));
    set({ actionError: result.ok ? null : result.error });
    await get().load();
  },
}));
