/**
 * The errors of the API client. Every failure of a call is one of these (never a raw undici or zod
 * error), every message is a readable sentence for the UI, and none carries the key, a password or a
 * rotation link. `toJSON()` gives a plain object that can cross IPC.
 */

export type ProxyServiceErrorKind = 'api' | 'auth' | 'network' | 'timeout' | 'protocol' | 'cancelled';

/** One invalid field, from `error.fields` of a 422 body. */
export interface FieldError {
  field: string;
  code: string;
  message: string;
}

/**
 * What to re-read after a write whose outcome is unknown (`ProxyServiceClient.reread`): the write may or
 * may not have happened, so the current state must come from the service, not from a guess.
 */
export type ResourceRef =
  | { kind: 'mobilePort'; portId: string }
  | { kind: 'subscription'; subscriptionId: string }
  | { kind: 'subUsers'; subscriptionId: string }
  | { kind: 'topUp'; topUpId: string }
  | { kind: 'topUps' };

export interface ErrorContext {
  /** Method and spec path template, e.g. `POST /v1/mobile/{portId}/rotate`. */
  endpoint: string;
  /** HTTP requests made for this call (0 when the call failed before sending anything). */
  attempts: number;
  /**
   * True when the call may have changed state on the service and was not retried (a network error, a
   * timeout or a 5xx on rotate, relocate, reset-password, sub-user writes, …). Re-read `affects`.
   */
  outcomeUnknown: boolean;
  /** The resource a write targeted, for `reread`; null for reads. */
  affects: ResourceRef | null;
  /** The `Idempotency-Key` sent (top-up creation): repeating the call with it is safe. */
  idempotencyKey: string | null;
}

/** The plain form of every client error, for IPC and logs. */
export interface SerializedProxyServiceError extends ErrorContext {
  name: string;
  kind: ProxyServiceErrorKind;
  message: string;
  status: number | null;
  code: string | null;
  fields: FieldError[];
  retryAfterMs: number | null;
  /** `TimeoutError` only. */
  phase: TimeoutPhase | NetworkPhase | null;
}

const UNKNOWN_OUTCOME_HINT =
  ' The request may or may not have taken effect; reload the current state before trying again.';

function withOutcomeHint(message: string, context: ErrorContext): string {
  return context.outcomeUnknown ? `${message}${UNKNOWN_OUTCOME_HINT}` : message;
}

export abstract class ProxyServiceError extends Error {
  abstract readonly kind: ProxyServiceErrorKind;
  readonly endpoint: string;
  readonly attempts: number;
  readonly outcomeUnknown: boolean;
  readonly affects: ResourceRef | null;
  readonly idempotencyKey: string | null;

  protected constructor(message: string, context: ErrorContext) {
    super(withOutcomeHint(message, context));
    this.name = new.target.name;
    this.endpoint = context.endpoint;
    this.attempts = context.attempts;
    this.outcomeUnknown = context.outcomeUnknown;
    this.affects = context.affects;
    this.idempotencyKey = context.idempotencyKey;
  }

  protected get context(): ErrorContext {
    return {
      endpoint: this.endpoint,
      attempts: this.attempts,
      outcomeUnknown: this.outcomeUnknown,
      affects: this.affects,
      idempotencyKey: this.idempotencyKey,
    };
  }

  toJSON(): SerializedProxyServiceError {
    return {
      name: this.name,
      kind: this.kind,
      message: this.message,
      status: null,
      code: null,
      fields: [],
      retryAfterMs: null,
      phase: null,
      ...this.context,
    };
  }
}

export interface ApiErrorDetails {
  status: number;
  /** `error.code` of the body, or null when the service sent none. */
  code: string | null;
  message: string;
  fields?: FieldError[];
  retryAfterMs?: number | null;
}

/** The service answered with an error status (4xx/5xx). */
export class ApiError extends ProxyServiceError {
  readonly kind: ProxyServiceErrorKind = 'api';
  readonly status: number;
  readonly code: string | null;
  readonly fields: FieldError[];
  /** From `Retry-After` (seconds or HTTP date), when the service sent one. */
  readonly retryAfterMs: number | null;

  constructor(details: ApiErrorDetails, context: ErrorContext) {
    super(details.message, context);
    this.status = details.status;
    this.code = details.code;
    this.fields = details.fields ?? [];
    this.retryAfterMs = details.retryAfterMs ?? null;
  }

  /** The message of one field, e.g. `fieldMessage('amountUsd')`, for form errors. */
  fieldMessage(field: string): string | null {
    return this.fields.find((f) => f.field === field)?.message ?? null;
  }

  override toJSON(): SerializedProxyServiceError {
    return {
      ...super.toJSON(),
      status: this.status,
      code: this.code,
      fields: this.fields,
      retryAfterMs: this.retryAfterMs,
    };
  }
}

/**
 * 401 (no key, wrong key) or 403 (the key lacks a scope). A subclass of `ApiError`, so
 * `instanceof ApiError` still holds. A call made without any key configured is a local 401 with the
 * code `missing_key` and `attempts: 0`.
 */
export class AuthError extends ApiError {
  override readonly kind: ProxyServiceErrorKind = 'auth';

  /** `unauthorized`: the key is missing or rejected; `forbidden`: the key lacks a scope. */
  get reason(): 'unauthorized' | 'forbidden' {
    return this.status === 403 ? 'forbidden' : 'unauthorized';
  }
}

/** `connect`: nothing was sent (refused, unknown host, TLS); `exchange`: the connection broke mid-call. */
export type NetworkPhase = 'connect' | 'exchange';

/** The service could not be reached, or the connection broke. */
export class NetworkError extends ProxyServiceError {
  readonly kind: ProxyServiceErrorKind = 'network';
  /** The system or undici error code, e.g. `ECONNREFUSED`, `UND_ERR_SOCKET`. */
  readonly code: string | null;
  readonly phase: NetworkPhase;

  constructor(message: string, code: string | null, phase: NetworkPhase, context: ErrorContext) {
    super(message, context);
    this.code = code;
    this.phase = phase;
  }

  override toJSON(): SerializedProxyServiceError {
    return { ...super.toJSON(), code: this.code, phase: this.phase };
  }
}

/**
 * `connect`: opening the connection; `headers`: waiting for the answer; `body`: reading it (silence, or
 * the attempt's deadline); `queue`: the call's budget ran out while it waited for a request slot, so
 * nothing was sent.
 */
export type TimeoutPhase = 'connect' | 'headers' | 'body' | 'queue';

export class TimeoutError extends ProxyServiceError {
  readonly kind: ProxyServiceErrorKind = 'timeout';
  readonly phase: TimeoutPhase;
  readonly timeoutMs: number;

  constructor(message: string, phase: TimeoutPhase, timeoutMs: number, context: ErrorContext) {
    super(message, context);
    this.phase = phase;
    this.timeoutMs = timeoutMs;
  }

  override toJSON(): SerializedProxyServiceError {
    return { ...super.toJSON(), phase: this.phase };
  }
}

export interface ProtocolIssue {
  /** Path into the body, e.g. `data[2].currentIp`; `(body)` for the body as a whole. */
  path: string;
  message: string;
}

/** A success answer that breaks the spec: not JSON, a missing member, a wrong type, an unexpected redirect. */
export class ProtocolError extends ProxyServiceError {
  readonly kind: ProxyServiceErrorKind = 'protocol';
  readonly status: number;
  readonly issues: ProtocolIssue[];

  constructor(message: string, status: number, issues: ProtocolIssue[], context: ErrorContext) {
    super(message, context);
    this.status = status;
    this.issues = issues;
  }

  /** The first offending field path, e.g. `data[2].currentIp`. */
  get field(): string {
    return this.issues[0]?.path ?? '(body)';
  }

  override toJSON(): SerializedProxyServiceError {
    return {
      ...super.toJSON(),
      status: this.status,
      code: 'protocol_error',
      fields: this.issues.map((issue) => ({ field: issue.path, code: 'invalid', message: issue.message })),
    };
  }
}

/**
 * A success status whose body did not come from the API: a web page (`text/html`, `<!doctype …`) or
 * nothing at all. Usually a captive portal, a proxy's page or a base URL pointing at a website.
 */
export class NotApiAnswerError extends ProtocolError {
  override toJSON(): SerializedProxyServiceError {
    return { ...super.toJSON(), code: 'not_api_answer' };
  }
}

/** The caller aborted the call through its `AbortSignal`; never retried. */
export class CancelledError extends ProxyServiceError {
  readonly kind: ProxyServiceErrorKind = 'cancelled';

  constructor(message: string, context: ErrorContext) {
    super(message, context);
  }
}

export function isProxyServiceError(error: unknown): error is ProxyServiceError {
  return error instanceof ProxyServiceError;
}

/** True when a failed write must be followed by a re-read of `error.affects` (see `reread`). */
export function isOutcomeUnknown(error: unknown): error is ProxyServiceError & { affects: ResourceRef } {
  return error instanceof ProxyServiceError && error.outcomeUnknown && error.affects !== null;
}
