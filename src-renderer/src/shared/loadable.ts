import type { IpcError, IpcResult } from '../../../src-shared/contract';

/**
 * One piece of data read from main. `data` survives a reload or a failed refresh, so a screen keeps
 * showing what it had while it says that it is refreshing or that the refresh failed.
 */
export interface Loadable<T> {
  status: 'idle' | 'loading' | 'ready' | 'error';
  data: T | null;
  error: IpcError | null;
}

export const idle = <T>(): Loadable<T> => ({ status: 'idle', data: null, error: null });

export const loading = <T>(previous: Loadable<T> | undefined): Loadable<T> => ({
  status: 'loading',
  data: previous?.data ?? null,
  error: null,
});

export function settled<T>(previous: Loadable<T> | undefined, result: IpcResult<T>): Loadable<T> {
  return result.ok
    ? { status: 'ready', data: result.value, error: null }
    : { status: 'error', data: previous?.data ?? null, error: result.error };
}

/** True when a load should start: nothing yet, or a failure (a retry), or the caller insists. */
export const needsLoad = (current: Loadable<unknown> | undefined, force = false): boolean =>
  !current ||
  current.status === 'idle' ||
  (force && current.status !== 'loading') ||
  current.status === 'error';
