/**
 * At most `limit` tasks at once. The client takes a slot per HTTP request, not per call, so a call that
 * is backing off before a retry does not hold a slot.
 *
 * Two rules keep a slow endpoint or a busy background job from freezing what the user waits for:
 * - `background` tasks hold at most `backgroundLimit` slots (default: all but a third of them, 4 of 6),
 *   so some slots are always left for `interactive` tasks;
 * - one `key` (the client uses the endpoint template) holds at most `perKeyLimit` slots (same default),
 *   so six trickling answers from one endpoint cannot block an unrelated one.
 * Waiting `interactive` tasks start before waiting `background` ones; each lane is served in arrival
 * order among the tasks that the rules allow to start.
 */
export type Lane = 'interactive' | 'background';

export interface LimiterOptions {
  /** Slots `background` tasks may hold at once. Default `limit - floor(limit / 3)`. */
  backgroundLimit?: number;
  /** Slots one key may hold at once. Default `limit - floor(limit / 3)`. */
  perKeyLimit?: number;
}

export interface RunOptions {
  /** An abort while waiting drops the task and rejects with the signal's reason. */
  signal?: AbortSignal | undefined;
  /** Default `interactive`. */
  lane?: Lane;
  /** Tasks sharing a key share `perKeyLimit`. Default: no per-key cap. */
  key?: string | undefined;
}

interface Waiter {
  lane: Lane;
  key: string | undefined;
  start: () => void;
}

function checkLimit(name: string, value: number): number {
  if (!Number.isInteger(value) || value < 1) throw new RangeError(`${name} must be an integer >= 1`);
  return value;
}

export class ConcurrencyLimiter {
  readonly backgroundLimit: number;
  readonly perKeyLimit: number;
  private running = 0;
  private runningBackground = 0;
  private readonly runningByKey = new Map<string, number>();
  private readonly waiting: Waiter[] = [];

  constructor(
    readonly limit: number,
    options: LimiterOptions = {},
  ) {
    if (!Number.isInteger(limit) || limit < 1)
      throw new RangeError('The concurrency limit must be an integer >= 1');
    const shared = limit - Math.floor(limit / 3);
    this.backgroundLimit = Math.min(limit, checkLimit('backgroundLimit', options.backgroundLimit ?? shared));
    this.perKeyLimit = Math.min(limit, checkLimit('perKeyLimit', options.perKeyLimit ?? shared));
  }

  get active(): number {
    return this.running;
  }

  get queued(): number {
    return this.waiting.length;
  }

  /** Runs `task` when a slot is free for its lane and key. */
  async run<T>(task: () => Promise<T>, options: RunOptions | AbortSignal = {}): Promise<T> {
    const {
      signal,
      lane = 'interactive',
      key,
    } = options instanceof AbortSignal ? { signal: options } : options;
    await this.acquire(lane, key, signal);
    try {
      return await task();
    } finally {
      this.release(lane, key);
    }
  }

  private canStart(lane: Lane, key: string | undefined): boolean {
    if (this.running >= this.limit) return false;
    if (lane === 'background' && this.runningBackground >= this.backgroundLimit) return false;
    if (key !== undefined && (this.runningByKey.get(key) ?? 0) >= this.perKeyLimit) return false;
    return true;
  }

  private take(lane: Lane, key: string | undefined): void {
    this.running += 1;
    if (lane === 'background') this.runningBackground += 1;
    if (key !== undefined) this.runningByKey.set(key, (this.runningByKey.get(key) ?? 0) + 1);
  }

  private acquire(lane: Lane, key: string | undefined, signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return Promise.reject(signal.reason as Error);
    // Whoever waits could not start under the same rules, so a newcomer that can start jumps no one.
    if (this.canStart(lane, key)) {
      this.take(lane, key);
      return Promise.resolve();
    }
    return new Promise<void>((resolve, reject) => {
      const entry: Waiter = {
        lane,
        key,
        start: () => {
          signal?.removeEventListener('abort', onAbort);
          this.take(lane, key);
          resolve();
        },
      };
      const onAbort = () => {
        const index = this.waiting.indexOf(entry);
        if (index >= 0) this.waiting.splice(index, 1);
        reject(signal?.reason as Error);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiting.push(entry);
    });
  }

  private release(lane: Lane, key: string | undefined): void {
    this.running -= 1;
    if (lane === 'background') this.runningBackground -= 1;
    if (key !== undefined) {
      const left = (this.runningByKey.get(key) ?? 1) - 1;
      if (left > 0) this.runningByKey.set(key, left);
      else this.runningByKey.delete(key);
    }
    this.startWaiters();
  }

  private startWaiters(): void {
    for (const lane of ['interactive', 'background'] as const) {
      for (let i = 0; i < this.waiting.length && this.running < this.limit;) {
        const waiter = this.waiting[i]!;
        if (waiter.lane === lane && this.canStart(waiter.lane, waiter.key)) {
          this.waiting.splice(i, 1);
          waiter.start();
        } else {
          i += 1;
        }
      }
    }
  }
}
