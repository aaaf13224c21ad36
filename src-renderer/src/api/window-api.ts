import type { CallMeta, IpcError, IpcResult, RendererApi } from '../../../src-shared/contract';

declare global {
  interface Window {
    /** Exposed by the preload in the desktop app; installed by the web transport in web mode. */
    api?: RendererApi;
  }
}

/** The contract as `window.api`. Only store actions call it (see DEVELOPERS.md). */
function api(): RendererApi {
  const current = window.api;
  if (!current) throw new Error('window.api is not installed');
  return current;
}

let callCounter = 0;
const callEndListeners = new Set<(callId: string) => void>();

/** Told when a call made through `callApi` settles (the "still waiting…" notice drops it). */
export function onCallEnded(listener: (callId: string) => void): () => void {
  callEndListeners.add(listener);
  return () => callEndListeners.delete(listener);
}

/** `window.api` with `meta` passed beside every call's input. */
function withMeta(client: RendererApi, meta: CallMeta): RendererApi {
  return new Proxy(client, {
    get(target, domain) {
      const group = (target as unknown as Record<string | symbol, unknown>)[domain];
      if (typeof group !== 'object' || group === null) return group;
      return new Proxy(group, {
        get(members, member) {
          const value = (members as Record<string | symbol, unknown>)[member];
          if (typeof value !== 'function' || (typeof member === 'string' && /^on[A-Z]/.test(member))) {
            return value;
          }
          return (input?: unknown) =>
            (value as (input: unknown, meta: CallMeta) => unknown).call(members, input, meta);
        },
      });
    },
  });
}

/**
 * Runs one contract call and always resolves to an `IpcResult`: the contract never rejects for
 * application errors, but a transport can (a missing handler, a torn-down window), and a store must
 * never leave a screen spinning because of it. Each call carries an id, so that main can say it is
 * slow (`app:callSlow`) and the user can cancel it (`app:cancelCall`).
 */
export async function callApi<T>(run: (client: RendererApi) => Promise<IpcResult<T>>): Promise<IpcResult<T>> {
  callCounter += 1;
  const callId = `c${callCounter.toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
  try {
    return await run(withMeta(api(), { callId }));
  } catch (error) {
    const message = error instanceof Error && error.message ? error.message : String(error);
    const failure: IpcError = {
      code: 'transport_error',
      message: `The app did not answer: ${message}`,
    };
    return { ok: false, error: failure };
  } finally {
    for (const listener of callEndListeners) listener(callId);
  }
}
