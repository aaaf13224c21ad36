import type {
  DomainHandlers,
  JobsStatus,
  ParsedCallInput,
  ScheduleRun,
  SchedulesView,
} from '../../../src-shared/contract';
import type { DomainService, Lifecycle } from '../domain-service';
import { AppError } from '../errors';
import type { EventBus } from '../events';
import type { BackgroundJob } from '../runtime/background-jobs';
import type { RotationScheduler } from './rotation-scheduler';

export interface SchedulesServiceOptions {
  scheduler: RotationScheduler;
  /** Reads the stored schedules into the scheduler's state (`CachedStateSection.load`). */
  load: () => Promise<void>;
  /** Reads `state.json` from disk again (another process writes it); absent when job state is in memory only. */
  reloadJobState?: () => Promise<void>;
  /** Whether this process owns the background jobs, and if not, who does. */
  jobs: () => JobsStatus;
  /** The profile the `schedules:*` calls are about. */
  activeProfileId: () => string | null;
  events: Pick<EventBus, 'on'>;
}

/**
 * The `schedules:*` calls over the rotation scheduler. Schedules live in one process's memory (the
 * owner of background jobs writes them through to `state.json`). Another process re-reads the file
 * before it lists them, so it shows the owner's changes and runs; it may not change them (its
 * whole-state write would undo the owner's newer runs, and the owner would not see it), so those
 * calls say where to make the change.
 */
export class SchedulesService implements DomainService<'schedules'>, Lifecycle {
  readonly name = 'rotation schedules';
  /**
   * The scheduler as a background job (only the owner runs it). A process that becomes the owner
   * later (the other one quit) starts from the file, not from what it read at its own start.
   */
  readonly job: BackgroundJob = {
    name: 'rotation scheduler',
    start: async () => {
      await this.reloadFromDisk();
      await this.options.scheduler.start();
    },
    stop: () => this.options.scheduler.stop(),
  };
  private readonly unsubscribe: () => void;

  constructor(private readonly options: SchedulesServiceOptions) {
    // A rotation from the tray, a shortcut or a button starts a cooldown no scheduled run may enter.
    this.unsubscribe = options.events.on('ports:rotation', ({ profileId, portId, phase, receipt }) => {
      if (phase === 'finished' && receipt && receipt.trigger !== 'schedule') {
        void options.scheduler.noteCooldown(profileId, portId, receipt.nextRotationAvailableAt);
      }
    });
  }

  handlers(): DomainHandlers<'schedules'> {
    return {
      'schedules:list': () => this.list(),
      'schedules:runs': ({ portId }) => this.runs(portId),
      'schedules:set': (input) => this.set(input),
      'schedules:remove': ({ portIds }) => this.remove(portIds),
      'schedules:pause': ({ paused }) => this.pause(paused),
    };
  }

  /** Every process lists schedules: they are read at start; only the owner runs them (`job`). */
  start(): Promise<void> {
    return this.options.load();
  }

  stop(): void {
    this.unsubscribe();
  }

  async list(): Promise<SchedulesView> {
    await this.fresh();
    return this.options.scheduler.view(this.requireProfile());
  }

  async runs(portId: string): Promise<ScheduleRun[]> {
    await this.fresh();
    return this.options.scheduler.runs(this.requireProfile(), portId);
  }

  async set(input: ParsedCallInput<'schedules:set'>): Promise<SchedulesView> {
    this.ownerOnly();
    return this.options.scheduler.set(this.requireProfile(), input);
  }

  async remove(portIds: string[]): Promise<SchedulesView> {
    this.ownerOnly();
    return this.options.scheduler.remove(this.requireProfile(), portIds);
  }

  /** Pauses or resumes every schedule of every profile (the tray's item too). */
  async pause(paused: boolean): Promise<SchedulesView> {
    this.ownerOnly();
    return this.options.scheduler.pause(paused);
  }

  get paused(): boolean {
    return this.options.scheduler.paused;
  }

  /** One profile's schedules as they are in memory (the tray reads it on every change). */
  view(profileId: string): SchedulesView {
    return this.options.scheduler.view(profileId);
  }

  /** A process that does not own the jobs shows what the owner last saved. */
  private async fresh(): Promise<void> {
    if (!this.options.jobs().owner) await this.reloadFromDisk();
  }

  private async reloadFromDisk(): Promise<void> {
    if (!this.options.reloadJobState) return;
    await this.options.reloadJobState();
    await this.options.load();
  }

  private ownerOnly(): void {
    const status = this.options.jobs();
    if (status.owner) return;
    throw new AppError(
      'not_job_owner',
      `Schedules are changed in the Proxy Manager process that runs them. ${status.message ?? ''}`.trim(),
    );
  }

  private requireProfile(): string {
    const profileId = this.options.activeProfileId();
    if (profileId === null) throw new AppError('not_configured', 'Add a profile first.');
    return profileId;
  }
}
