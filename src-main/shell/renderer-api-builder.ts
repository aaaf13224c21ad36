import type { CallMeta, IpcResult, RendererApi } from '../../src-shared/contract';
import {
  apiMemberOf,
  CALL_CHANNELS,
  EVENT_CHANNELS,
  eventMemberOf,
} from '../../src-shared/contract/channel-names';

/** What a transport must provide for `window.api` to be built on it. */
export interface RendererTransport {
  invoke(channel: string, input: unknown, meta?: CallMeta): Promise<IpcResult<unknown>>;
  subscribe(channel: string, listener: (payload: unknown) => void): () => void;
}

/**
 * Builds `window.api` from the contract's channel names: one function per call, one `on*` per event.
 * Used by the preload (over Electron IPC); its plain object of functions is what contextBridge can
 * expose. Inputs are not checked here: main parses every one, and the preload stays free of schemas.
 */
export function buildRendererApi(transport: RendererTransport): RendererApi {
  const api: Record<string, Record<string, unknown>> = {};
  for (const channel of CALL_CHANNELS) {
    const { domain, member } = apiMemberOf(channel);
    (api[domain] ??= {})[member] = (input?: unknown, meta?: CallMeta) =>
      transport.invoke(
        channel,
        input,
        meta && typeof meta.callId === 'string' ? { callId: meta.callId } : undefined,
      );
  }
  for (const channel of EVENT_CHANNELS) {
    const { domain, member } = eventMemberOf(channel);
    (api[domain] ??= {})[member] = (listener: (payload: unknown) => void) => {
      if (typeof listener !== 'function') throw new TypeError('listener must be a function');
      return transport.subscribe(channel, listener);
    };
  }
  return api as unknown as RendererApi;
}
