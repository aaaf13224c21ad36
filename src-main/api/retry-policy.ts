/** When and how long the client waits before trying a call again. Pure functions: time and chance injected. */

export interface RetryOptions {
  /** Requests per call, first one included. Default 3. `1` disables retries. */
  maxAttempts: number;
  /** Backoff before the first retry; doubles each time. Default 300 ms. */
  baseDelayMs: number;
  /** Ceiling of one backoff delay. Default 5 s. */
  maxDelayMs: number;
  /**
   * The longest `Retry-After` the client waits by itself. A longer one ends the call with an `ApiError`
   * carrying `retryAfterMs`, so that the UI can say when to try again instead of hanging. Default 30 s.
   */
  maxRetryAfterMs: number;
}

export const DEFAULT_RETRY_OPTIONS: Readonly<RetryOptions> = {
  maxAttempts: 3,
  baseDelayMs: 300,
  maxDelayMs: 5_000,
  maxRetryAfterMs: 30_000,
};

/**
 * Delay before retry number `retry` (1 for the first retry): "equal jitter", half of the exponential step
 * fixed and half random, so that clients that failed together spread out but never hammer at once.
 */
export function backoffDelayMs(retry: number, options: RetryOptions, random: () => number): number {
  const step = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** Math.max(0, retry - 1));
  const chance = Math.min(1, Math.max(0, random()));
  return Math.round(step / 2 + (step / 2) * chance);
}

/**
 * `Retry-After` in milliseconds from now: delta seconds (`"120"`, tolerantly `"1.5"`) or an HTTP date
 * (`"Wed, 21 Oct 2026 07:28:00 GMT"`) read against `nowMs`. A date in the past is 0; junk is null.
 */
export function parseRetryAfter(
  value: string | readonly string[] | undefined | null,
  nowMs: number,
): number | null {
  const first: string | undefined | null = typeof value === 'string' || value == null ? value : value[0];
  const text = first?.trim();
  if (!text) return null;
  if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
  // Only a real HTTP date (it names a weekday or a month), not any number Date.parse happens to accept.
  if (!/[a-z]{3}/i.test(text)) return null;
  const at = Date.parse(text);
  if (!Number.isFinite(at)) return null;
  return Math.max(0, at - nowMs);
}

/** Statuses worth another try on a request that is safe to repeat. */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 429 || (status >= 500 && status !== 501 && status !== 505);
}
