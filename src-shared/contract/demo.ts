import type { AppState } from './app';
import { call, type DomainCalls } from './define';
import { noInput } from './shared-inputs';

export const demoCalls = {
  /** Starts the in-process sandbox (once) and makes its profile active. */
  'demo:start': call<AppState>('admin')(noInput),
  /** Stops the sandbox and forgets its profile; the saved active profile (if any) takes over. */
  'demo:stop': call<AppState>('admin')(noInput),
} as const satisfies DomainCalls<'demo'>;
