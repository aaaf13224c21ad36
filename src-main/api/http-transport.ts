/**
 * The HTTP engine under the typed client: one keep-alive undici agent, a budget per call and a deadline
 * per attempt, a concurrency limit with an interactive lane, retries where they are safe and fit the
 * budget, error classification and one redacted log line per request. It knows nothing of endpoints;
 * `ProxyServiceClient` describes each call to it.
 */
import { STATUS_CODES } from 'node:http';
import { Agent, type Dispatcher, request as undiciRequest } from 'undici';
import {
  ApiError,
  AuthError,
  CancelledError,
  type ErrorContext,
  type FieldError,
  NetworkError,
  type NetworkPhase,
  NotApiAnswerError,
  ProtocolError,
  type ProtocolIssue,
  type ProxyServiceError,
  type ResourceRef,
  TimeoutError,
  type TimeoutPhase,
} from './api-errors';
import {
  type BudgetClass,
  type BudgetOverrides,
  type CallBudget,
  resolveBudgets,
  type SlowCallInfo,
  systemClock,
  type TransportClock,
} from './call-budget';
import { ambientCallOptions } from './call-context';
import { ConcurrencyLimiter, type Lane } from './concurrency-limiter';
import { Redactor } from './redact';
import {
  backoffDelayMs,
  DEFAULT_RETRY_OPTIONS,
  isRetryableStatus,
  parseRetryAfter,
  type RetryOptions,
} from './retry-policy';

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'DELETE';

/**
 * Per-phase limits inside an attempt. The attempt's overall deadline (its budget's `attemptMs`, cut to
 * what is left of the call's budget) always applies as well; these only end an attempt earlier.
 */
export interface TransportTimeouts {
  /** Opening the TCP/TLS connection. Default 10 s. */
  connectMs: number;
  /**
   * From taking a slot (connection included) to the answer's headers. Default 60 s: longer than every
   * default attempt (a rotation's is 40 s), so that the attempt's deadline is what normally applies.
   */
  headersMs: number;
  /** Longest silence while the body streams in. Default 60 s, like `headersMs`. */
  bodyMs: number;
}

export const DEFAULT_TIMEOUTS: Readonly<TransportTimeouts> = {
  connectMs: 10_000,
  headersMs: 60_000,
  bodyMs: 60_000,
};

const DEFAULT_MAX_CONCURRENT = 6;
const DEFAULT_MAX_RESPONSE_BYTES = 16 * 1024 * 1024;

/**
 * `safe`: retried on network errors, timeouts, 408/429/5xx (reads).
 * `idempotency-key`: the same, with one `Idempotency-Key` on every attempt (top-up creation).
 * `never`: one attempt; an ambiguous failure is flagged `outcomeUnknown` (rotate, relocate, writes).
 */
export type RetryMode = 'safe' | 'idempotency-key' | 'never';

type LogOutcome = 'ok' | 'http_error' | 'network_error' | 'timeout' | 'protocol_error' | 'cancelled';

/** One HTTP request as logged; every member is already redacted. */
export interface ApiLogEntry {
  method: HttpMethod;
  /** Path and query, e.g. `/api/v1/v1/mobile/port_1/rotate?key=[REDACTED]`. */
  path: string;
  status: number | null;
  durationMs: number;
  attempt: number;
  outcome: LogOutcome;
  /** Error code (`rotation_too_soon`, `ECONNREFUSED`, …) when the request failed. */
  errorCode: string | null;
  /** Set when the client will try again after this many ms. */
  retryInMs: number | null;
}

/** Receives one redacted line per HTTP request, plus the same facts as a structured entry. */
export type ApiLogger = (line: string, entry: ApiLogEntry) => void;

export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

export interface HttpTransportOptions {
  /**
   * Injected for tests (e.g. an undici `MockAgent`) or sharing; default a keep-alive `Agent` owned by the
   * transport. An injected dispatcher keeps its own connect timeout; headers and body timeouts still apply.
   */
  dispatcher?: Dispatcher;
  timeouts?: Partial<TransportTimeouts>;
  /**
   * Backoff and `Retry-After` limits. `maxAttempts`, when given here, replaces every budget's own
   * `maxAttempts` (e.g. 1 to disable retries).
   */
  retry?: Partial<RetryOptions>;
  /** Requests in flight at once across every call of this client. Default 6. */
  maxConcurrent?: number;
  /** Of those, at most this many for `background` calls. Default 4 of 6 (a third kept for the user). */
  maxConcurrentBackground?: number;
  /** Of those, at most this many for one endpoint template. Default 4 of 6. */
  maxConcurrentPerEndpoint?: number;
  /** Per budget class: total, per attempt, attempts, "still waiting" point. Defaults `DEFAULT_BUDGETS`. */
  budgets?: BudgetOverrides;
  /** Monotonic time and timers for budgets, deadlines and the default sleep. Default the system's. */
  clock?: TransportClock;
  /** A bigger answer is a `ProtocolError`. Default 16 MiB. */
  maxResponseBytes?: number;
  logger?: ApiLogger;
  /** Wall clock in epoch ms: `Retry-After` dates and durations. Default `Date.now`. */
  now?: () => number;
  /** Waits before retries. Default a timer on `clock` that an abort signal cancels. */
  sleep?: Sleep;
  /** [0, 1): the jitter of backoff delays. Default `Math.random`. */
  random?: () => number;
  userAgent?: string;
  /** Shared with the owner so that error text and log lines lose the same secrets. */
  redactor?: Redactor;
}

export interface TransportLoad {
  active: number;
  queued: number;
  limit: number;
  reading: number;
}

export interface RawAnswer {
  status: number;
  headers: Readonly<Record<string, string | string[] | undefined>>;
  text: string;
}

export interface TransportRequest<T> {
  method: HttpMethod;
  /** Method and spec path template, e.g. `GET /v1/mobile/{portId}`. */
  endpoint: string;
  url: string;
  /** The bearer key, or null to send no `Authorization` header. */
  bearer: string | null;
  /** Serialised as JSON; `undefined` sends no body. */
  body?: unknown;
  accept?: string;
  retry: RetryMode;
  idempotencyKey?: string | null;
  affects?: ResourceRef | null;
  /** Turns a 2xx answer into the result; throws `AnswerProblem` when it breaks the spec. */
  parse: (answer: RawAnswer) => T;
  signal?: AbortSignal | undefined;
  /** Default `interactive`. */
  budget?: BudgetClass;
  /** The limiter lane. Default `interactive`. */
  lane?: Lane;
  /** Called once when the call is still unsettled after its budget's `slowAfterMs`. */
  onSlow?: ((info: SlowCallInfo) => void) | undefined;
}

/** One call in progress: its budget and where it stands. */
interface CallState {
  budgetClass: BudgetClass;
  budget: Readonly<CallBudget>;
  startedAt: number;
  /** On `clock`: the call settles by then. */
  endsAt: number;
  attempt: number;
}

/** Which limit ended an attempt: a phase's silence limit, the attempt's deadline, or the slot wait. */
interface Expiry {
  phase: TimeoutPhase;
  timeoutMs: number;
  cause: 'silence' | 'deadline';
}

/**
 * Thrown by parsers: the answer breaks the spec at these paths. `notApi` marks an answer that did not
 * come from the API at all (a web page, an empty body); `sentence` then replaces the generic message.
 */
export class AnswerProblem extends Error {
  constructor(
    readonly issues: ProtocolIssue[],
    readonly notApi = false,
    readonly sentence: string | null = null,
  ) {
    super(issues.map((issue) => `${issue.path}: ${issue.message}`).join('; '));
    this.name = 'AnswerProblem';
  }
}

type Failure =
  | {
      type: 'http';
      status: number;
      code: string | null;
      message: string;
      fields: FieldError[];
      retryAfterMs: number | null;
    }
  | { type: 'network'; code: string | null; phase: NetworkPhase; message: string }
  | { type: 'timeout'; phase: TimeoutPhase; timeoutMs: number; message: string }
  | { type: 'protocol'; status: number; issues: ProtocolIssue[]; message: string; notApi?: boolean }
  | { type: 'cancelled'; sent: boolean };

const CONNECT_ERROR_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EAI_FAIL',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EHOSTDOWN',
  'EADDRNOTAVAIL',
  'UND_ERR_INVALID_ARG',
]);

const TIMEOUT_PHASES: Readonly<Record<string, 'connect' | 'headers' | 'body'>> = {
  UND_ERR_CONNECT_TIMEOUT: 'connect',
  ETIMEDOUT: 'connect',
  UND_ERR_HEADERS_TIMEOUT: 'headers',
  UND_ERR_BODY_TIMEOUT: 'body',
};

const TLS_ERROR = /^(ERR_TLS_|ERR_SSL_|CERT_|DEPTH_ZERO|SELF_SIGNED|UNABLE_TO_|HOSTNAME_MISMATCH)/;

class ResponseTooLarge extends Error {}

function formatDuration(ms: number): string {
  if (ms < 1000) return `${ms} ms`;
  const seconds = ms / 1000;
  return `${Number.isInteger(seconds) ? seconds : seconds.toFixed(1)} s`;
}

function errorCode(error: unknown): string | null {
  if (error && typeof error === 'object' && 'code' in error && typeof error.code === 'string')
    return error.code;
  return null;
}

export class HttpTransport {
  readonly redactor: Redactor;
  readonly timeouts: Readonly<TransportTimeouts>;
  readonly retry: Readonly<RetryOptions>;
  private readonly dispatcher: Dispatcher;
  private readonly ownsDispatcher: boolean;
  private readonly limiter: ConcurrencyLimiter;
  private readonly maxResponseBytes: number;
  private readonly logger: ApiLogger | null;
  private readonly now: () => number;
  private readonly sleep: Sleep;
  private readonly random: () => number;
  private readonly userAgent: string;
  private readonly clock: TransportClock;
  private readonly budgets: Readonly<Record<BudgetClass, Readonly<CallBudget>>>;
  private readonly maxAttemptsOverride: number | null;
  private reading = 0;

  constructor(options: HttpTransportOptions = {}) {
    this.timeouts = { ...DEFAULT_TIMEOUTS, ...options.timeouts };
    this.retry = { ...DEFAULT_RETRY_OPTIONS, ...options.retry };
    if (!Number.isInteger(this.retry.maxAttempts) || this.retry.maxAttempts < 1) {
      throw new RangeError('retry.maxAttempts must be an integer >= 1');
    }
    this.redactor = options.redactor ?? new Redactor();
    this.ownsDispatcher = options.dispatcher === undefined;
    this.dispatcher =
      options.dispatcher ??
      new Agent({
        connect: { timeout: this.timeouts.connectMs },
        headersTimeout: this.timeouts.headersMs,
        bodyTimeout: this.timeouts.bodyMs,
      });
    this.maxAttemptsOverride = options.retry?.maxAttempts ?? null;
    this.budgets = resolveBudgets(options.budgets);
    this.clock = options.clock ?? systemClock;
    this.limiter = new ConcurrencyLimiter(options.maxConcurrent ?? DEFAULT_MAX_CONCURRENT, {
      ...(options.maxConcurrentBackground !== undefined
        ? { backgroundLimit: options.maxConcurrentBackground }
        : {}),
      ...(options.maxConcurrentPerEndpoint !== undefined
        ? { perKeyLimit: options.maxConcurrentPerEndpoint }
        : {}),
    });
    this.maxResponseBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
    this.logger = options.logger ?? null;
    this.now = options.now ?? Date.now;
    this.sleep = options.sleep ?? ((ms, signal) => this.clockSleep(ms, signal));
    this.random = options.random ?? Math.random;
    this.userAgent = options.userAgent ?? 'ProxyManager';
  }

  /**
   * Requests in flight (`reading`: of those, the ones whose headers have come and whose body is
   * streaming in) and waiting for a slot; for diagnostics and tests.
   */
  get load(): TransportLoad {
    return {
      active: this.limiter.active,
      queued: this.limiter.queued,
      limit: this.limiter.limit,
      reading: this.reading,
    };
  }

  /** Closes the owned agent (an injected dispatcher is left to its owner). */
  async close(): Promise<void> {
    if (this.ownsDispatcher) await this.dispatcher.close();
  }

  /** The budget a call of this class gets (after the client's overrides). */
  budgetFor(budgetClass: BudgetClass): Readonly<CallBudget> {
    return this.budgets[budgetClass];
  }

  async send<T>(explicit: TransportRequest<T>): Promise<T> {
    const request = withAmbientOptions(explicit);
    const retries = request.retry !== 'never';
    const budgetClass = request.budget ?? 'interactive';
    const budget = this.budgets[budgetClass];
    const maxAttempts = retries ? (this.maxAttemptsOverride ?? budget.maxAttempts) : 1;
    const startedAt = this.clock.now();
    const call: CallState = {
      budgetClass,
      budget,
      startedAt,
      endsAt: startedAt + budget.totalMs,
      attempt: 1,
    };
    const onSlow = request.onSlow;
    const cancelSlow = onSlow
      ? this.clock.after(budget.slowAfterMs, () => {
          try {
            onSlow({
              endpoint: request.endpoint,
              budget: budgetClass,
              elapsedMs: Math.round(this.clock.now() - startedAt),
              budgetMs: budget.totalMs,
              attempt: call.attempt,
            });
          } catch {
            // A broken listener must not break the call it watches.
          }
        })
      : () => undefined;
    try {
      return await this.sendWithin(request, call, maxAttempts, retries);
    } finally {
      cancelSlow();
    }
  }

  private async sendWithin<T>(
    request: TransportRequest<T>,
    call: CallState,
    maxAttempts: number,
    retries: boolean,
  ): Promise<T> {
    // Below this, another attempt could not even connect and read a small answer: give up instead.
    const minAttemptMs = Math.min(1_000, call.budget.attemptMs / 2);
    for (let attempt = 1; ; attempt += 1) {
      call.attempt = attempt;
      const started = this.now();
      const result = await this.attempt(request, call);
      const durationMs = Math.max(0, this.now() - started);
      if (result.ok) {
        this.log(request, {
          attempt,
          durationMs,
          status: result.status,
          outcome: 'ok',
          errorCode: null,
          retryInMs: null,
        });
        return result.value;
      }
      const { failure } = result;
      let retryInMs = attempt < maxAttempts && retries ? this.retryDelay(failure, attempt) : null;
      if (retryInMs !== null && this.clock.now() + retryInMs + minAttemptMs > call.endsAt) retryInMs = null;
      this.log(request, {
        attempt,
        durationMs,
        status: failure.type === 'http' || failure.type === 'protocol' ? failure.status : null,
        outcome: logOutcome(failure),
        errorCode: failureCode(failure),
        retryInMs,
      });
      if (retryInMs === null) throw this.toError(request, this.summed(failure, call), attempt);
      try {
        await this.sleep(retryInMs, request.signal);
      } catch {
        throw this.toError(request, { type: 'cancelled', sent: false }, attempt);
      }
      if (request.signal?.aborted) throw this.toError(request, { type: 'cancelled', sent: false }, attempt);
    }
  }

  /** A timeout after retries says how long the whole call took, not only its last (shorter) attempt. */
  private summed(failure: Failure, call: CallState): Failure {
    if (failure.type !== 'timeout' || call.attempt < 2) return failure;
    const total = formatDuration(Math.round(this.clock.now() - call.startedAt));
    const message = `${failure.message.replace(/\.$/, '')} (attempt ${call.attempt}; ${total} in all).`;
    return { ...failure, message };
  }

  private clockSleep(ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      if (signal?.aborted) {
        reject(signal.reason as Error);
        return;
      }
      const onAbort = () => {
        cancel();
        reject(signal?.reason as Error);
      };
      const cancel = this.clock.after(ms, () => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      });
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  /** Milliseconds to wait before the next attempt, or null when this failure must not be retried. */
  private retryDelay(failure: Failure, attempt: number): number | null {
    switch (failure.type) {
      case 'network':
      case 'timeout':
        return backoffDelayMs(attempt, this.retry, this.random);
      case 'http':
        if (!isRetryableStatus(failure.status)) return null;
        if (failure.retryAfterMs !== null) {
          return failure.retryAfterMs <= this.retry.maxRetryAfterMs ? failure.retryAfterMs : null;
        }
        return backoffDelayMs(attempt, this.retry, this.random);
      case 'protocol':
      case 'cancelled':
        return null;
    }
  }

  private async attempt<T>(
    request: TransportRequest<T>,
    call: CallState,
  ): Promise<{ ok: true; value: T; status: number } | { ok: false; failure: Failure }> {
    let sent = false;
    // Timed here on the injected clock: undici's own headers/body timers are coarse (about a second),
    // know no overall deadline, and stay armed with the phase limits only as a backstop.
    let expired: Expiry | null = null;
    let queueExpired = false;
    let cancelTimer: () => void = () => undefined;
    const attemptAbort = new AbortController();
    const signal = request.signal
      ? AbortSignal.any([request.signal, attemptAbort.signal])
      : attemptAbort.signal;
    // The wait for a slot counts against the call's budget.
    cancelTimer = this.clock.after(call.endsAt - this.clock.now(), () => {
      queueExpired = true;
      attemptAbort.abort();
    });
    try {
      return await this.limiter.run(
        async () => {
          sent = true;
          cancelTimer();
          const slotAt = this.clock.now();
          const deadline = Math.min(slotAt + call.budget.attemptMs, call.endsAt);
          const arm = (phase: 'headers' | 'body') => {
            cancelTimer();
            const silenceMs = this.timeouts[`${phase}Ms`];
            const leftMs = deadline - this.clock.now();
            const expiry: Expiry =
              silenceMs < leftMs
                ? { phase, timeoutMs: silenceMs, cause: 'silence' }
                : { phase, timeoutMs: Math.round(deadline - slotAt), cause: 'deadline' };
            cancelTimer = this.clock.after(Math.min(silenceMs, leftMs), () => {
              expired = expiry;
              attemptAbort.abort();
            });
          };
          arm('headers');
          const response = await undiciRequest(request.url, {
            dispatcher: this.dispatcher,
            method: request.method,
            headers: this.headersFor(request),
            body: request.body === undefined ? null : JSON.stringify(request.body),
            headersTimeout: this.timeouts.headersMs,
            bodyTimeout: this.timeouts.bodyMs,
            signal,
          });
          arm('body');
          this.reading += 1;
          let text: string;
          try {
            text = await this.readBody(response.body, () => arm('body'));
          } finally {
            this.reading -= 1;
          }
          cancelTimer();
          const answer: RawAnswer = { status: response.statusCode, headers: response.headers, text };
          if (answer.status >= 400) return { ok: false as const, failure: this.httpFailure(answer) };
          if (answer.status >= 300) return { ok: false as const, failure: this.redirectFailure(answer) };
          try {
            return { ok: true as const, value: request.parse(answer), status: answer.status };
          } catch (error) {
            if (!(error instanceof AnswerProblem)) throw error;
            return {
              ok: false as const,
              failure: {
                type: 'protocol' as const,
                status: answer.status,
                issues: error.issues,
                message: error.sentence
                  ? this.redactor.text(error.sentence)
                  : `Unexpected answer from ${request.endpoint}: ${this.redactor.text(error.message)}`,
                notApi: error.notApi,
              },
            };
          }
        },
        { signal, lane: request.lane ?? 'interactive', key: request.endpoint },
      );
    } catch (error) {
      if (queueExpired && !sent && !request.signal?.aborted)
        return { ok: false, failure: this.queueFailure(call) };
      return { ok: false, failure: this.classify(error, request, sent, expired) };
    } finally {
      cancelTimer();
    }
  }

  private queueFailure(call: CallState): Failure {
    const waitedMs = Math.round(this.clock.now() - call.startedAt);
    return {
      type: 'timeout',
      phase: 'queue',
      timeoutMs: call.budget.totalMs,
      message:
        `No request slot became free within ${formatDuration(waitedMs)}: ` +
        `${this.limiter.active} other requests to the service are still running.`,
    };
  }

  private headersFor(request: TransportRequest<unknown>): Record<string, string> {
    const headers: Record<string, string> = {
      accept: request.accept ?? 'application/json',
      'user-agent': this.userAgent,
    };
    if (request.bearer !== null) headers.authorization = `Bearer ${request.bearer}`;
    if (request.body !== undefined) headers['content-type'] = 'application/json';
    if (request.idempotencyKey) headers['idempotency-key'] = request.idempotencyKey;
    return headers;
  }

  private async readBody(body: Dispatcher.ResponseData['body'], onChunk: () => void): Promise<string> {
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of body as AsyncIterable<Buffer>) {
      onChunk();
      size += chunk.length;
      if (size > this.maxResponseBytes) {
        body.destroy();
        throw new ResponseTooLarge();
      }
      chunks.push(chunk);
    }
    return Buffer.concat(chunks).toString('utf8');
  }

  private httpFailure(answer: RawAnswer): Failure {
    const body = readErrorBody(answer.text);
    const statusText = STATUS_CODES[answer.status] ?? 'Error';
    const fallback = defaultMessage(answer.status, statusText);
    return {
      type: 'http',
      status: answer.status,
      code: body.code,
      message: this.redactor.text(body.message ?? fallback),
      fields: body.fields.map((field) => ({ ...field, message: this.redactor.text(field.message) })),
      retryAfterMs: parseRetryAfter(answer.headers['retry-after'], this.now()),
    };
  }

  private redirectFailure(answer: RawAnswer): Failure {
    const location = answer.headers.location;
    let where = '';
    if (typeof location === 'string') {
      try {
        // The origin only: enough to fix the base URL, nothing that could carry a key.
        where = ` to ${new URL(location).origin}`;
      } catch {
        where = '';
      }
    }
    return {
      type: 'protocol',
      status: answer.status,
      issues: [{ path: '(status)', message: `redirect ${answer.status}${where}` }],
      message: `The service redirected the request${where} (${answer.status}); check the base URL.`,
    };
  }

  private classify(
    error: unknown,
    request: TransportRequest<unknown>,
    sent: boolean,
    expired: Expiry | null,
  ): Failure {
    if (request.signal?.aborted) return { type: 'cancelled', sent };
    if (error instanceof ResponseTooLarge) {
      return {
        type: 'protocol',
        status: 200,
        issues: [{ path: '(body)', message: `larger than ${this.maxResponseBytes} bytes` }],
        message: `The answer from ${request.endpoint} is larger than ${this.maxResponseBytes} bytes.`,
      };
    }
    const code = errorCode(error);
    let host = 'the service';
    try {
      host = new URL(request.url).host;
    } catch {
      // The URL was built by the client; keep the generic name if it is somehow unreadable.
    }
    const undiciPhase = code !== null ? TIMEOUT_PHASES[code] : undefined;
    const timeout: Expiry | null =
      expired ??
      (undiciPhase !== undefined
        ? {
            phase: undiciPhase,
            timeoutMs: this.timeouts[`${undiciPhase}Ms`],
            cause: 'silence',
          }
        : null);
    if (timeout !== null) {
      const { phase, timeoutMs } = timeout;
      const within = formatDuration(timeoutMs);
      const messages: Record<TimeoutPhase, string> = {
        connect:
          code === 'ETIMEDOUT'
            ? `Could not connect to ${host}: the connection attempt timed out.`
            : `Could not connect to ${host} within ${within}.`,
        headers: `The service at ${host} did not answer within ${within}.`,
        body:
          timeout.cause === 'deadline'
            ? `The service at ${host} did not finish its answer within ${within}.`
            : `The service at ${host} stopped sending its answer for ${within}.`,
        queue: `No request slot became free within ${within}.`,
      };
      return { type: 'timeout', phase, timeoutMs, message: messages[phase] };
    }
    if (code === 'ECONNREFUSED') {
      return {
        type: 'network',
        code,
        phase: 'connect',
        message: `Could not connect to ${host}: the connection was refused. Is the service running?`,
      };
    }
    if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'EAI_FAIL') {
      return {
        type: 'network',
        code,
        phase: 'connect',
        message: `Could not find the host ${host}; check the base URL and the network.`,
      };
    }
    if (code !== null && TLS_ERROR.test(code)) {
      return {
        type: 'network',
        code,
        phase: 'connect',
        message: `The secure connection to ${host} failed (${code}).`,
      };
    }
    if (code !== null && CONNECT_ERROR_CODES.has(code)) {
      return { type: 'network', code, phase: 'connect', message: `Could not connect to ${host} (${code}).` };
    }
    return {
      type: 'network',
      code,
      phase: sent ? 'exchange' : 'connect',
      message: `The connection to ${host} broke before the answer was complete${code ? ` (${code})` : ''}.`,
    };
  }

  private toError(request: TransportRequest<unknown>, failure: Failure, attempts: number): ProxyServiceError {
    const context: ErrorContext = {
      endpoint: request.endpoint,
      attempts,
      outcomeUnknown: request.retry !== 'safe' && isAmbiguous(failure),
      affects: request.affects ?? null,
      idempotencyKey: request.idempotencyKey ?? null,
    };
    switch (failure.type) {
      case 'http': {
        const details = {
          status: failure.status,
          code: failure.code,
          message: failure.message,
          fields: failure.fields,
          retryAfterMs: failure.retryAfterMs,
        };
        return failure.status === 401 || failure.status === 403
          ? new AuthError(details, context)
          : new ApiError(details, context);
      }
      case 'network':
        return new NetworkError(failure.message, failure.code, failure.phase, context);
      case 'timeout':
        return new TimeoutError(failure.message, failure.phase, failure.timeoutMs, context);
      case 'protocol':
        return failure.notApi
          ? new NotApiAnswerError(failure.message, failure.status, failure.issues, context)
          : new ProtocolError(failure.message, failure.status, failure.issues, context);
      case 'cancelled':
        return new CancelledError(`The request to ${request.endpoint} was cancelled.`, context);
    }
  }

  private log(request: TransportRequest<unknown>, facts: Omit<ApiLogEntry, 'method' | 'path'>): void {
    if (!this.logger) return;
    let path = request.url;
    try {
      const url = new URL(request.url);
      path = `${url.pathname}${url.search}`;
    } catch {
      // Keep the whole URL; it is redacted below like everything else.
    }
    const entry: ApiLogEntry = { method: request.method, path: this.redactor.url(path), ...facts };
    const result = entry.status !== null ? String(entry.status) : entry.outcome;
    const code = entry.errorCode ? ` ${this.redactor.text(entry.errorCode)}` : '';
    const retry = entry.retryInMs !== null ? `; retrying in ${entry.retryInMs} ms` : '';
    try {
      this.logger(
        `${entry.method} ${entry.path} -> ${result}${code} in ${entry.durationMs} ms (attempt ${entry.attempt})${retry}`,
        entry,
      );
    } catch {
      // A broken logger must not break the call it describes.
    }
  }
}

/** Whether the service may have acted on a request that failed this way. */
function isAmbiguous(failure: Failure): boolean {
  switch (failure.type) {
    case 'network':
      return failure.phase === 'exchange';
    case 'timeout':
      // Nothing was sent before a connect timeout or while waiting for a slot.
      return failure.phase !== 'connect' && failure.phase !== 'queue';
    case 'http':
      return failure.status >= 500;
    case 'protocol':
      // A 2xx with an unreadable body: the write most likely happened.
      return failure.status < 300;
    case 'cancelled':
      return failure.sent;
  }
}

function logOutcome(failure: Failure): LogOutcome {
  switch (failure.type) {
    case 'http':
      return 'http_error';
    case 'network':
      return 'network_error';
    case 'timeout':
      return 'timeout';
    case 'protocol':
      return 'protocol_error';
    case 'cancelled':
      return 'cancelled';
  }
}

function failureCode(failure: Failure): string | null {
  switch (failure.type) {
    case 'http':
      return failure.code;
    case 'network':
      return failure.code;
    case 'timeout':
      return `timeout_${failure.phase}`;
    case 'protocol':
      return 'protocol_error';
    case 'cancelled':
      return 'cancelled';
  }
}

function defaultMessage(status: number, statusText: string): string {
  if (status === 401) return 'The service rejected the API key (401).';
  if (status === 403) return 'The API key is not allowed to do this (403).';
  if (status === 404) return 'The service does not know this resource (404).';
  if (status === 429) return 'Too many requests; try again later (429).';
  if (status >= 500) return `The service had a problem (${status} ${statusText}).`;
  return `The service refused the request (${status} ${statusText}).`;
}

/**
 * Reads the documented error body `{ error: { message, code?, fields? } }` tolerantly: other members
 * are ignored, a string `error` or a top-level `message` is used, and anything else falls back to a
 * message made from the status.
 */
function readErrorBody(text: string): {
  code: string | null;
  message: string | null;
  fields: FieldError[];
} {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return { code: null, message: null, fields: [] };
  }
  if (!body || typeof body !== 'object') return { code: null, message: null, fields: [] };
  const record = body as Record<string, unknown>;
  const error = record.error;
  if (typeof error === 'string') {
    return { code: null, message: error, fields: [] };
  }
  const source: Record<string, unknown> =
    error && typeof error === 'object' ? (error as Record<string, unknown>) : record;
  const text_ = (value: unknown): string | null =>
    typeof value === 'string' && value.length > 0 ? value : null;
  const fields: FieldError[] = [];
  if (Array.isArray(source.fields)) {
    for (const item of source.fields as unknown[]) {
      if (!item || typeof item !== 'object') continue;
      const entry = item as Record<string, unknown>;
      const field = text_(entry.field) ?? text_(entry.name) ?? text_(entry.path);
      if (field === null) continue;
      fields.push({
        field,
        code: text_(entry.code) ?? 'invalid',
        message: text_(entry.message) ?? 'is invalid',
      });
    }
  }
  return { code: text_(source.code), message: text_(source.message), fields };
}

/** The UI call's Cancel and "still waiting" hook, where the caller gave none of its own. */
function withAmbientOptions<T>(request: TransportRequest<T>): TransportRequest<T> {
  const ambient = ambientCallOptions();
  if (!ambient) return request;
  const signal = request.signal ?? ambient.signal;
  const onSlow = request.onSlow ?? ambient.onSlow;
  return { ...request, ...(signal ? { signal } : {}), ...(onSlow ? { onSlow } : {}) };
}
