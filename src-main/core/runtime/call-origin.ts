import { AsyncLocalStorage } from 'node:async_hooks';

/** The automation surfaces a contract call can come from (the window's own calls have none). */
export const AUTOMATION_ORIGINS = ['cli', 'mcp', 'rest'] as const;
export type AutomationOrigin = (typeof AUTOMATION_ORIGINS)[number];

const storage = new AsyncLocalStorage<AutomationOrigin>();

/**
 * Runs a call as coming from an automation surface, so that what it records (a rotation receipt's
 * trigger) says where it came from, without every handler taking the surface as an argument.
 */
export function runWithOrigin<T>(origin: AutomationOrigin | undefined, run: () => Promise<T>): Promise<T> {
  return origin === undefined ? run() : storage.run(origin, run);
}

/** The surface the current call came from, or undefined for the window, the tray and the jobs. */
export function currentOrigin(): AutomationOrigin | undefined {
  return storage.getStore();
}
