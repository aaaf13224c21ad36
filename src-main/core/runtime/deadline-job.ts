import { redactText } from '../../api/redact';
import { isAbortError, type Clock } from './clock';

/** What a run is told about why it runs. */
export interface DeadlineRunContext {
  /** `deadline` when the stored deadline came due, else the `trigger` reason that woke the job. */
  reason: string;
  /** The deadline that was due (epoch ms): `nextDeadline`'s answer just before the run. */
  deadline: number;
  /** `clock.now()` at the start of the run. */
  now: number;
  /**
   * Aborts when `stop` is called. Work may use it to give up between steps; it must not drop a
   * write whose outcome it then cannot know (stop waits for the run to return either way).
   */
  signal: AbortSignal;
}

export interface DeadlineJobOptions {
  /** Short and stable (`rotation-scheduler`): it prefixes log lines. */
  name: string;
  clock: Clock;
  /**
   * When work is next due (epoch ms), or `null` when nothing is scheduled. Read from storage on
   * every turn, so a restart resumes by construction and the job itself holds no schedule.
   */
  nextDeadline: () => number | null | Promise<number | null>;
  /**
   * Does everything due now and stores the outcome, including when to try again after a
   * failure (the job asks `nextDeadline` afresh after every run). A throw is logged and the job
   * goes on; see `retryAfterErrorMs`.
   */
  run: (context: DeadlineRunContext) => Promise<void>;
  /** Default: stderr. Lines carry the job name, the reason and the error's redacted message. */
  log?: (line: string) => void;
  /**
   * After a failed run (or a failed `nextDeadline`) whose deadline is still due, wait this long
   * before trying again, so that a failure the work did not record cannot spin. Default 60 s.
   */
  retryAfterErrorMs?: number;
  /**
   * Back-to-back runs allowed while the deadline stays due after successful runs (the work did
   * not move it: a bug) before the job waits `retryAfterErrorMs`. Default 10.
   */
  maxImmediateRuns?: number;
}

export type DeadlineJobState = 'stopped' | 'reading' | 'waiting' | 'idle' | 'running' | 'stopping';

/**
 * One background job over a deadline kept in storage (after Signal's
 * `createExpiringEntityCleanupService`): ask the store when work is next due, sleep until then
 * with the cancellable clock, run the work, ask again. `trigger` makes it ask again now (a
 * schedule was edited; the machine resumed); `stop` cancels the wait and waits for a running
 * work item. Runs never overlap: a trigger during a run only makes the job ask again after it,
 * once however many triggers came.
 */
export class DeadlineJob {
  readonly name: string;
  private readonly clock: Clock;
  private readonly options: DeadlineJobOptions;
  private readonly log: (line: string) => void;
  private readonly retryAfterErrorMs: number;
  private readonly maxImmediateRuns: number;
  private currentState: DeadlineJobState = 'stopped';
  private loop: Promise<void> | null = null;
  /** Aborted by `stop`; passed to the run. */
  private stopController: AbortController | null = null;
  /** Aborted by `trigger` or `stop` to end the current wait. */
  private wakeController: AbortController | null = null;
  /** Triggers not yet acted on: the first reason is what the next run is told. */
  private pendingTrigger: string | null = null;
  private triggerCount = 0;

  constructor(options: DeadlineJobOptions) {
    this.name = options.name;
    this.clock = options.clock;
    this.options = options;
    this.log = options.log ?? ((line) => process.stderr.write(`${line}\n`));
    this.retryAfterErrorMs = options.retryAfterErrorMs ?? 60_000;
    this.maxImmediateRuns = options.maxImmediateRuns ?? 10;
  }

  get state(): DeadlineJobState {
    return this.currentState;
  }

  /** Starts the loop; does nothing while it runs. The reason only goes to the log. */
  start(reason = 'start'): void {
    if (this.loop) return;
    this.log(`[${this.name}] start (${reason})`);
    const stopController = new AbortController();
    this.stopController = stopController;
    this.pendingTrigger = null;
    this.loop = this.runLoop(stopController.signal).catch((error: unknown) => {
      // The loop catches everything it expects; this is a bug, logged rather than left unhandled.
      this.log(`[${this.name}] loop ended unexpectedly: ${describeError(error)}`);
    });
  }

  /**
   * Makes the job read its deadline again now: ends a wait at once, or, during a run or a read,
   * makes it read again after it. Ignored while stopped.
   */
  trigger(reason: string): void {
    if (!this.loop || this.stopController?.signal.aborted) return;
    this.triggerCount += 1;
    this.pendingTrigger ??= reason;
    this.wakeController?.abort();
  }

  /** Cancels the wait, lets a running work item finish, and resolves when the loop has ended. */
  async stop(reason = 'stop'): Promise<void> {
    const loop = this.loop;
    if (!loop) return;
    if (!this.stopController?.signal.aborted) {
      this.log(`[${this.name}] stop (${reason})`);
      this.currentState = 'stopping';
      this.stopController?.abort();
      this.wakeController?.abort();
    }
    await loop;
    if (this.loop === loop) {
      this.loop = null;
      this.currentState = 'stopped';
    }
  }

  private async runLoop(stopSignal: AbortSignal): Promise<void> {
    let immediateRuns = 0;
    /** After a failed run (or too many back-to-back runs): no untriggered run before this. */
    let pauseUntil: number | null = null;
    while (!stopSignal.aborted) {
      const triggersBefore = this.triggerCount;
      const wokenBy = this.pendingTrigger;
      this.pendingTrigger = null;
      this.currentState = 'reading';
      let deadline: number | null;
      try {
        deadline = await this.options.nextDeadline();
        if (deadline !== null && !Number.isFinite(deadline)) {
          throw new RangeError(`nextDeadline gave ${String(deadline)}, not epoch milliseconds or null`);
        }
      } catch (error) {
        this.log(`[${this.name}] cannot read the next deadline: ${describeError(error)}`);
        this.currentState = 'waiting';
        await this.wait(this.retryAfterErrorMs, triggersBefore, stopSignal);
        continue;
      }
      if (stopSignal.aborted) break;
      // A trigger during the read may mean the answer is already stale: read again.
      if (this.triggerCount !== triggersBefore) continue;

      if (deadline === null) {
        pauseUntil = null;
        immediateRuns = 0;
        this.currentState = 'idle';
        await this.wait(null, triggersBefore, stopSignal);
        continue;
      }
      const now = this.clock.now();
      if (deadline > now) {
        pauseUntil = null;
        immediateRuns = 0;
        this.currentState = 'waiting';
        await this.wait(deadline - now, triggersBefore, stopSignal);
        continue;
      }
      if (wokenBy === null && pauseUntil === null && immediateRuns >= this.maxImmediateRuns) {
        this.log(
          `[${this.name}] still due after ${immediateRuns} runs in a row; pausing ${this.retryAfterErrorMs} ms`,
        );
        pauseUntil = now + this.retryAfterErrorMs;
      }
      // A trigger runs at once even during a pause: somebody asked for it.
      if (wokenBy === null && pauseUntil !== null && pauseUntil > now) {
        this.currentState = 'waiting';
        await this.wait(pauseUntil - now, triggersBefore, stopSignal);
        if (this.triggerCount === triggersBefore) immediateRuns = 0;
        continue;
      }

      const reason = wokenBy ?? 'deadline';
      this.currentState = 'running';
      immediateRuns += 1;
      pauseUntil = null;
      try {
        await this.options.run({ reason, deadline, now: this.clock.now(), signal: stopSignal });
      } catch (error) {
        pauseUntil = this.clock.now() + this.retryAfterErrorMs;
        if (!(stopSignal.aborted && isAbortError(error))) {
          this.log(`[${this.name}] run failed (${reason}): ${describeError(error)}`);
        }
      }
    }
  }

  /**
   * Sleeps `ms` (or until woken, when null). Returns early, never throwing, on stop or on any
   * trigger after `triggersBefore` (including one that came before the wait began).
   */
  private async wait(ms: number | null, triggersBefore: number, stopSignal: AbortSignal): Promise<void> {
    if (stopSignal.aborted || this.triggerCount !== triggersBefore) return;
    const wake = new AbortController();
    this.wakeController = wake;
    try {
      if (ms === null) {
        await new Promise<void>((resolve) => wake.signal.addEventListener('abort', () => resolve()));
      } else {
        await this.clock.sleep(ms, wake.signal);
      }
    } catch (error) {
      if (!wake.signal.aborted) throw error;
    } finally {
      if (this.wakeController === wake) this.wakeController = null;
    }
  }
}

/** An error for a log line: its name, code and message, with anything secret-shaped removed. */
export function describeError(error: unknown): string {
  if (!(error instanceof Error)) return redactText(String(error));
  const code = (error as { code?: unknown }).code;
  const codePart = typeof code === 'string' || typeof code === 'number' ? ` [${code}]` : '';
  return redactText(`${error.name}${codePart}: ${error.message}`);
}
