import type { JobsStatus } from '../../../src-shared/contract';
import type { Lifecycle } from '../domain-service';

/** A job that runs only in the process owning the data folder's background jobs. */
export interface BackgroundJob {
  readonly name: string;
  start(reason: string): void | Promise<void>;
  stop(reason: string): void | Promise<void>;
}

/** Who runs the background jobs: the instance lock in the app, a constant in tests. */
export interface JobsOwnership {
  status(): JobsStatus;
  onChange(listener: (status: JobsStatus) => void): () => void;
  /**
   * A one-shot command's process (the command line): it runs no jobs, and no other process runs
   * them either (the command line sends its calls to that process when there is one), so saved
   * configuration that only the jobs' owner uses (local proxies) may be changed here.
   */
  readonly oneShot?: boolean;
}

/** Tests and single-process tools: this process always owns the jobs. */
export const alwaysOwner: JobsOwnership = {
  status: () => ({ owner: true, message: null }),
  onChange: () => () => undefined,
};

/**
 * Starts the registered jobs while this process owns the background jobs and stops them when it
 * loses them (another process took the lock after a long suspend), so two processes never rotate or
 * poll twice. Registered in the lifecycle after everything the jobs use.
 */
export class BackgroundJobs implements Lifecycle {
  readonly name = 'background jobs';
  private readonly jobs: BackgroundJob[] = [];
  private running = false;
  private active = false;
  private unsubscribe: (() => void) | null = null;
  private queue: Promise<void> = Promise.resolve();

  constructor(
    private readonly ownership: JobsOwnership,
    private readonly log: (line: string) => void = () => undefined,
    /** Told after each change of ownership (the app state carries it to the windows). */
    private readonly onOwnershipChange: () => void = () => undefined,
  ) {}

  add(job: BackgroundJob): void {
    this.jobs.push(job);
    if (this.running && this.active) this.enqueue(() => job.start('owner'));
  }

  get owner(): boolean {
    return this.ownership.status().owner;
  }

  start(): Promise<void> {
    this.active = true;
    this.unsubscribe = this.ownership.onChange((status) => {
      this.enqueue(() => this.apply(status.owner));
      this.onOwnershipChange();
    });
    this.enqueue(() => this.apply(this.ownership.status().owner));
    return this.queue;
  }

  async stop(): Promise<void> {
    this.active = false;
    this.unsubscribe?.();
    this.unsubscribe = null;
    this.enqueue(() => this.apply(false, 'quit'));
    await this.queue;
  }

  private enqueue(step: () => void | Promise<void>): void {
    this.queue = this.queue.then(step).catch((error: unknown) => {
      this.log(`[background jobs] ${error instanceof Error ? error.message : String(error)}`);
    });
  }

  private async apply(owner: boolean, reason = owner ? 'owner' : 'not owner'): Promise<void> {
    const run = owner && this.active;
    if (run === this.running) return;
    this.running = run;
    if (run) {
      for (const job of this.jobs) await job.start(reason);
    } else {
      for (const job of [...this.jobs].reverse()) await job.stop(reason);
    }
  }
}
