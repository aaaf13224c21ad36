import type { IpcError, IpcResult, RendererApi } from '../../../src-main/ipc/contract';

declare global {
  interface Window {
    /** Exposed by the preload in the desktop app; installed by the web transport in web mode. */
    api?: RendererApi;
  }
}

/** The contract as `window.api`. Only store actions call it (see DEVELOPERS.md). */
export function api(): RendererApi {
  const current = window.api;
  if (!current) throw new Error('window.api is not installed');
  return current;
}

/**
 * Runs one contract call and always resolves to an `IpcResult`: the contract never rejects for
 * application errors, but a transport can (a missing handler, a torn-down window), and a store must
 * never leave a screen spinning because of it.
 */
export async function callApi<T>(run: (client: RendererApi) => Promise<IpcResult<T>>): Promise<IpcResult<T>> {
  try {
    return await run(api());
  } catch (error) {
    const message = error instanceof Error && error.message ? error.message : String(error);
    const failure: IpcError = {
      code: 'transport_error',
      message: `The app did not answer: ${message}`,
    };
    return { ok: false, error: failure };
  }
}
