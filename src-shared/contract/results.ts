import type { Scope } from './scopes';

/** What every call answers: a value, or an error written for the user. */

export interface IpcFieldError {
  field: string;
  message: string;
}

export interface IpcError {
  /** Machine code: `invalid_input`, `not_configured`, `unauthorized`, `network_error`, an API code, … */
  code: string;
  message: string;
  fields?: IpcFieldError[];
  retryAfterMs?: number;
  /** A write may or may not have happened; the UI re-reads before offering a retry. */
  outcomeUnknown?: boolean;
  /** `scope_denied`: the scope the call needs and the session does not hold. */
  scope?: Scope;
  /**
   * The proxy service's HTTP status when it failed (its 5xx): the REST API answers 502 (503 with
   * Retry-After when the service said when to come back), never a 4xx that would blame the request.
   */
  upstreamStatus?: number;
}

export type IpcResult<T> = { ok: true; value: T } | { ok: false; error: IpcError };
