/**
 * How long a call may take in all. Every call has a budget chosen by its endpoint and priority; the
 * wait for a request slot, every attempt (headers and body) and the pauses between retries all count
 * against it, so a call settles, with a value or a typed error, by the end of its budget.
 */
import type { Lane } from './concurrency-limiter';

/**
 * `interactive`: someone is waiting for the answer (the default for reads and most writes).
 * `rotation`: a mobile rotation, which holds the request while the modem reconnects (5-15 s by the spec).
 * `background`: refreshes and jobs nobody is looking at; patient, but still bounded.
 */
export type BudgetClass = 'interactive' | 'rotation' | 'background';

/** Who is waiting: decides the limiter lane, and the budget of every call that is not a rotation. */
export type CallPriority = Lane;

export interface CallBudget {
  /** The whole call: slot waits, attempts and pauses between them. */
  totalMs: number;
  /** One attempt, from taking a slot to the last byte of the body. */
  attemptMs: number;
  /** Requests per call when the endpoint may be retried (first one included). */
  maxAttempts: number;
  /** When `onSlow` is called, so that the UI can say "still waiting…" and offer Cancel. */
  slowAfterMs: number;
}

export const DEFAULT_BUDGETS: Readonly<Record<BudgetClass, Readonly<CallBudget>>> = {
  // Two full attempts and a short third fit in 20 s: 8 s + backoff + 8 s + backoff + what is left.
  interactive: { totalMs: 20_000, attemptMs: 8_000, maxAttempts: 3, slowAfterMs: 3_000 },
  // Never retried (a rotation is not repeated blindly); 45 s covers a 15 s modem reconnect with room
  // for a slow network and a wait for a slot. "Still waiting" only once it is slower than the spec says.
  rotation: { totalMs: 45_000, attemptMs: 40_000, maxAttempts: 1, slowAfterMs: 16_000 },
  background: { totalMs: 120_000, attemptMs: 30_000, maxAttempts: 4, slowAfterMs: 30_000 },
};

export type BudgetOverrides = Partial<Record<BudgetClass, Partial<CallBudget>>>;

/** The defaults with `overrides` applied, checked: positive durations, whole attempts >= 1. */
export function resolveBudgets(overrides: BudgetOverrides = {}): Record<BudgetClass, Readonly<CallBudget>> {
  const resolved = {} as Record<BudgetClass, Readonly<CallBudget>>;
  for (const name of Object.keys(DEFAULT_BUDGETS) as BudgetClass[]) {
    const budget = { ...DEFAULT_BUDGETS[name], ...overrides[name] };
    for (const field of ['totalMs', 'attemptMs', 'slowAfterMs'] as const) {
      if (!(Number.isFinite(budget[field]) && budget[field] > 0)) {
        throw new RangeError(`budgets.${name}.${field} must be a positive number of milliseconds`);
      }
    }
    if (!Number.isInteger(budget.maxAttempts) || budget.maxAttempts < 1) {
      throw new RangeError(`budgets.${name}.maxAttempts must be an integer >= 1`);
    }
    resolved[name] = budget;
  }
  return resolved;
}

/** What `onSlow` receives: enough for "still waiting… (12 s)" and a Cancel button. */
export interface SlowCallInfo {
  /** Method and spec path template, e.g. `GET /v1/catalog/countries`. */
  endpoint: string;
  budget: BudgetClass;
  /** Time since the call started. */
  elapsedMs: number;
  /** The call settles by then at the latest (ms after it started). */
  budgetMs: number;
  /** The attempt in progress (1 for the first). */
  attempt: number;
}

/**
 * The client's timers: a monotonic `now` for budgets and deadlines, and `after` to schedule. Injected so
 * that tests move time by hand while the sockets stay real.
 */
export interface TransportClock {
  /** Milliseconds on a clock that never jumps. */
  now(): number;
  /** Calls `fn` after `ms`; the returned function cancels it. */
  after(ms: number, fn: () => void): () => void;
}

export const systemClock: TransportClock = {
  now: () => performance.now(),
  after: (ms, fn) => {
    const timer = setTimeout(fn, Math.max(0, ms));
    return () => clearTimeout(timer);
  },
};
