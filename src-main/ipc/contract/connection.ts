import { z } from 'zod';
import type { AppState } from './app';
import { call, type DomainCalls } from './define';
import { apiKey, baseUrl, noInput, type PathStyle } from './shared-inputs';

export type ConnectionStatus =
  'not_configured' | 'checking' | 'online' | 'offline' | 'key_rejected' | 'service_error';

export interface ConnectionState {
  status: ConnectionStatus;
  /** A sentence for the status bar; never holds a key. */
  message: string;
  /** ISO time of the last answer (or failure) from the service. */
  checkedAt: string | null;
}

export interface ProbeAttempt {
  pathStyle: PathStyle;
  /** The URL probed (the public catalog: it never carries a key). */
  url: string;
  ok: boolean;
  detail: string;
}

export interface ConnectionTestResult {
  ok: boolean;
  /** The reading of the base URL that answered, if any. */
  pathStyle: PathStyle | null;
  /** One sentence for the user: what was adopted and why, or what failed. */
  message: string;
  probes: ProbeAttempt[];
  /** Result of an authenticated call with the key. */
  authenticated: { ok: boolean; message: string };
}

export const connectionCalls = {
  /** Probes a base URL and tries the key given with it; saves nothing. */
  'connection:test': call<ConnectionTestResult>()(z.strictObject({ baseUrl, apiKey })),
  /** Re-checks the active profile; the answer is the new state (the status bar). */
  'connection:check': call<AppState>()(noInput),
} as const satisfies DomainCalls<'connection'>;
