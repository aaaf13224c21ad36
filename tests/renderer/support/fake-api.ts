import { vi } from 'vitest';
import type {
  AppState,
  CallChannel,
  CallInput,
  CallOutput,
  IpcError,
  IpcResult,
  RendererApi,
} from '../../../src-shared/contract';

type Handler<C extends CallChannel> = (
  input: CallInput<C>,
) => IpcResult<CallOutput<C>> | Promise<IpcResult<CallOutput<C>>>;
export type FakeHandlers = { [C in CallChannel]?: Handler<C> };

export const ok = <T>(value: T): IpcResult<T> => ({ ok: true, value });
export const fail = (code: string, message: string, extra: Partial<IpcError> = {}): IpcResult<never> => ({
  ok: false,
  error: { code, message, ...extra },
});

export interface FakeApi {
  api: RendererApi;
  /** Every call in order, with its input. */
  calls: { channel: CallChannel; input: unknown }[];
  callsTo: (channel: CallChannel) => unknown[];
  /** Replaces (or adds) the answer of one channel. */
  handle: <C extends CallChannel>(channel: C, handler: Handler<C>) => void;
  /** Pushes `app:stateChanged` to the renderer's listeners. */
  emitState: (state: AppState) => void;
  /** Pushes any event (`ports:changed`, …) to the listeners subscribed through `api.<domain>.on<Name>`. */
  emit: (channel: string, payload: unknown) => void;
  /** Listeners of one event (default `app:stateChanged`), or of every event with `'*'`. */
  listenerCount: (channel?: string) => number;
}

/**
 * A `window.api` with the contract's shape. Channels without a handler answer a `not_faked` error,
 * so a test sees at once when a screen calls something it did not expect.
 */
export function createFakeApi(handlers: FakeHandlers = {}): FakeApi {
  const table = new Map<string, (input: unknown) => unknown>(
    Object.entries(handlers) as [string, (input: unknown) => unknown][],
  );
  const calls: { channel: CallChannel; input: unknown }[] = [];
  const listeners = new Map<string, Set<(payload: unknown) => void>>();
  const emit = (channel: string, payload: unknown) => {
    for (const listener of [...(listeners.get(channel) ?? [])]) listener(payload);
  };
  const api = new Proxy(
    {},
    {
      get(_target, domain) {
        if (typeof domain !== 'string' || domain === 'then') return undefined;
        return new Proxy(
          {},
          {
            get(_inner, member) {
              if (typeof member !== 'string' || member === 'then') return undefined;
              const event = /^on([A-Z])(.*)$/.exec(member);
              if (event) {
                const channel = `${domain}:${(event[1] ?? '').toLowerCase()}${event[2] ?? ''}`;
                return (listener: (payload: unknown) => void) => {
                  let set = listeners.get(channel);
                  if (!set) listeners.set(channel, (set = new Set()));
                  set.add(listener);
                  return () => set.delete(listener);
                };
              }
              const channel = `${domain}:${member}` as CallChannel;
              return vi.fn(async (input?: unknown) => {
                calls.push({ channel, input });
                const handler = table.get(channel);
                if (!handler) return fail('not_faked', `no fake answer for ${channel}`);
                return await handler(input);
              });
            },
          },
        );
      },
    },
  ) as RendererApi;
  return {
    api,
    calls,
    callsTo: (channel) => calls.filter((call) => call.channel === channel).map((call) => call.input),
    handle: (channel, handler) => table.set(channel, handler as (input: unknown) => unknown),
    emitState: (state) => emit('app:stateChanged', state),
    emit,
    listenerCount: (channel = 'app:stateChanged') =>
      channel === '*'
        ? [...listeners.values()].reduce((sum, set) => sum + set.size, 0)
        : (listeners.get(channel)?.size ?? 0),
  };
}

/** A promise the test resolves when it wants: to hold a call in flight. */
export function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}
