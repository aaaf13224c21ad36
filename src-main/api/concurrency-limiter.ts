/**
 * At most `limit` tasks at once; the rest wait in arrival order. The client takes a slot per HTTP
 * request, not per call, so a call that is backing off before a retry does not hold a slot.
 */
export class ConcurrencyLimiter {
  private running = 0;
  private readonly waiting: Array<{ start: () => void }> = [];

  constructor(readonly limit: number) {
    if (!Number.isInteger(limit) || limit < 1)
      throw new RangeError('The concurrency limit must be an integer >= 1');
  }

  get active(): number {
    return this.running;
  }

  get queued(): number {
    return this.waiting.length;
  }

  /** Runs `task` when a slot is free. An abort while waiting rejects with the signal's reason. */
  async run<T>(task: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    await this.acquire(signal);
    try {
      return await task();
    } finally {
      this.release();
    }
  }

  private acquire(signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return Promise.reject(signal.reason as Error);
    if (this.running < this.limit) {
      this.running += 1;
      return Promise.resolve();
    }
    return new Promise<void>((resolve, reject) => {
      const entry = {
        start: () => {
          signal?.removeEventListener('abort', onAbort);
          this.running += 1;
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

  private release(): void {
    this.running -= 1;
    this.waiting.shift()?.start();
  }
}
