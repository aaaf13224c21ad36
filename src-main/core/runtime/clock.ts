/**
 * Time for background work, injected everywhere so that tests drive it (see `FakeClock`).
 *
 * Times are epoch milliseconds (numbers), as in the API client and the sandbox clock: deadlines
 * are compared and subtracted far more often than they are shown, and a number survives JSON.
 */
export interface Clock {
  /** Wall-clock time in epoch milliseconds. */
  now(): number;
  /**
   * Resolves after `ms` milliseconds. Rejects (see `abortReason`) as soon as `signal` aborts, or at once when it already has; the timer is
   * cleared, so an aborted sleep keeps nothing alive. `ms` <= 0 resolves on a later turn.
   */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

/** The longest delay `setTimeout` honours (2^31-1 ms, 24.8 days); longer ones fire at once. */
export const MAX_TIMER_DELAY_MS = 2 ** 31 - 1;

/**
 * How often a long system sleep looks at the wall clock. Node's timers run on a monotonic clock
 * that stops while the machine is suspended, so a 2-hour timer set before a 1-hour suspend would
 * fire an hour late; waking once a minute to compare against the wall clock bounds that to a
 * minute, at the cost of one idle wake-up per minute per sleeping job.
 */
const DEFAULT_WALL_CHECK_MS = 60_000;

export interface SystemClockOptions {
  /** Longest single timer; see `DEFAULT_WALL_CHECK_MS`. Capped at `MAX_TIMER_DELAY_MS`. */
  wallCheckMs?: number;
  /** Injected by tests of this file only; default `Date.now`. */
  wallClock?: () => number;
}

/**
 * The real clock. A sleep ends when the wall clock reaches `now() + ms`, checked in chunks of at
 * most `wallCheckMs` (so timeouts beyond 24.8 days and machine suspends both come out right).
 * A wall clock set backwards lengthens a sleep: deadlines here are wall times ("rotate at 14:00").
 */
export function createSystemClock(options: SystemClockOptions = {}): Clock {
  const wallClock = options.wallClock ?? Date.now;
  const chunkMs = Math.min(Math.max(1, options.wallCheckMs ?? DEFAULT_WALL_CHECK_MS), MAX_TIMER_DELAY_MS);
  return {
    now: () => wallClock(),
    sleep: (ms, signal) => {
      checkDelay(ms);
      if (signal?.aborted) return Promise.reject(abortReason(signal));
      const until = wallClock() + Math.max(0, ms);
      return new Promise<void>((resolve, reject) => {
        let timer: ReturnType<typeof setTimeout> | undefined;
        const onAbort = (): void => {
          clearTimeout(timer);
          reject(abortReason(signal));
        };
        const step = (): void => {
          const remaining = until - wallClock();
          if (remaining <= 0 && timer !== undefined) {
            signal?.removeEventListener('abort', onAbort);
            resolve();
            return;
          }
          // The first step always sets a timer, so even a zero sleep yields to the event loop.
          timer = setTimeout(step, Math.min(Math.max(0, remaining), chunkMs));
        };
        signal?.addEventListener('abort', onAbort, { once: true });
        step();
      });
    },
  };
}

export const systemClock: Clock = createSystemClock();

/** Throws on a delay no timer can mean (NaN, infinite): a bug in the caller, not a long wait. */
export function checkDelay(ms: number): void {
  if (!Number.isFinite(ms)) throw new RangeError(`A sleep needs a finite number of milliseconds, got ${ms}`);
}

/**
 * What an aborted sleep rejects with: the signal's reason when it is an Error, else an
 * `AbortError` whose message is the reason (so callers always get an Error with a name).
 */
export function abortReason(signal: AbortSignal | undefined): Error {
  const reason: unknown = signal?.reason;
  if (reason instanceof Error) return reason;
  const message = typeof reason === 'string' ? reason : 'The sleep was aborted';
  return new DOMException(message, 'AbortError');
}

/** True for the rejection of a sleep (or fetch) cut short by its signal. */
export function isAbortError(error: unknown): boolean {
  return error instanceof Error && error.name === 'AbortError';
}
