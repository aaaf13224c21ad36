import type { TopUpCreate } from '../../../src-shared/api-types';

/**
 * One wizard attempt's create request, stored BEFORE it is sent: the Idempotency-Key is made once
 * and every retry (a double click, a resubmit, a restart after a crash) sends the same body with the
 * same key, so the service answers with the same top-up instead of making a second one.
 */
export interface TopUpIntent {
  attemptId: string;
  profileId: string;
  idempotencyKey: string;
  /** The exact body sent: the service compares it with the first one sent under the key. */
  request: TopUpCreate;
  /** ISO time the intent was written (the service keeps keys 24 h). */
  createdAt: string;
  /** Set once the service answered with the top-up. */
  topUpId: string | null;
}

/** Intents by attempt id. */
export type TopUpIntentsState = Record<string, TopUpIntent>;

/** The service keeps an Idempotency-Key 24 h; past that a resend could make a second top-up. */
export const IDEMPOTENCY_KEY_TTL_MS = 24 * 3_600_000;
/** Resolved intents are kept a little while (a late double click), then dropped. */
export const RESOLVED_INTENT_KEEP_MS = 24 * 3_600_000;

/** Same body: compared by content, members in any order. */
export function sameRequest(a: TopUpCreate, b: TopUpCreate): boolean {
  return canonical(a) === canonical(b);
}

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, member]) => member !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, member]) => `${JSON.stringify(key)}:${canonical(member)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}
