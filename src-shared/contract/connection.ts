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

interface ProbeAttempt {
  /** The first reading that leads to `url`. */
  pathStyle: PathStyle;
  /** Every reading that leads to `url`: one line per URL, never the same URL twice. */
  pathStyles: PathStyle[];
  /** The URL probed (the public catalog: it never carries a key). */
  url: string;
  ok: boolean;
  detail: string;
}

export interface ConnectionTestResult {
  ok: boolean;
  /** The reading of the base URL that answered, if any. */
  pathStyle: PathStyle | null;
  /**
   * The base URL to save, normalised: the one typed, or it with `suffixAdded` when the service
   * answered only there.
   */
  baseUrl: string;
  /** `/api/v1` when the test adopted the base URL with it added, else null. */
  suffixAdded: string | null;
  /**
   * A saved profile with the same base URL and the same key (compared in main; the key never
   * leaves it), or null. Saving another profile for it is refused unless the user confirms.
   */
  duplicateOf: { profileId: string; name: string } | null;
  /** One sentence for the user: what was adopted and why, or what failed. */
  message: string;
  probes: ProbeAttempt[];
  /** Result of an authenticated call with the key. */
  authenticated: { ok: boolean; message: string };
}

export const connectionCalls = {
  /** Probes a base URL and tries the key given with it; saves nothing. */
  'connection:test': call<ConnectionTestResult>('admin')(z.strictObject({ baseUrl, apiKey })),
  /** Re-checks the active profile; the answer is the new state (the status bar). */
  'connection:check': call<AppState>('read')(noInput),
} as const satisfies DomainCalls<'connection'>;
