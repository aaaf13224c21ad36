import { AsyncLocalStorage } from 'node:async_hooks';
import type { SlowCallInfo } from './call-budget';

/**
 * What the UI call being answered asks of every request made on its behalf: a Cancel (`signal`) and a
 * "still waiting…" hook (`onSlow`). The IPC dispatcher sets it around a handler, so services need not
 * thread these through every call; options passed to a client method explicitly win.
 */
export interface AmbientCallOptions {
  signal?: AbortSignal | undefined;
  onSlow?: ((info: SlowCallInfo) => void) | undefined;
}

const storage = new AsyncLocalStorage<AmbientCallOptions>();

export function runWithCallOptions<T>(options: AmbientCallOptions, run: () => T): T {
  return storage.run(options, run);
}

export function ambientCallOptions(): AmbientCallOptions | undefined {
  return storage.getStore();
}
