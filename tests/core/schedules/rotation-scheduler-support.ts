import { ProxyServiceClient } from '../../../src-main/api';
import type { EventChannel } from '../../../src-shared/contract';
import { EventBus } from '../../../src-main/core/events';
import { type RotatePort, RotationScheduler } from '../../../src-main/core/schedules/rotation-scheduler';
import {
  EMPTY_ROTATION_SCHEDULES,
  MemoryStateSection,
  type RotationSchedulesState,
} from '../../../src-main/core/schedules/rotation-scheduler-state';
import { FakeClock } from '../../../src-main/core/runtime/fake-clock';
import { SchedulesService } from '../../../src-main/core/schedules/schedules-service';
import { DEMO_KEY, TEST_START_TIME, TestSandbox } from '@proxy-manager/sandbox/testing';

export const PROFILE = 'profile-a';
export const SECOND = 1000;
export const MINUTE = 60 * SECOND;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;
export const START = Date.parse(TEST_START_TIME);

/** A rotation the sandbox received, seen from the scheduler's side. */
export interface SentRotation {
  profileId: string;
  portId: string;
  at: number;
}

/** Deterministic draws in [0, 1) (a small LCG), so jitter is reproducible. */
export function seededRandom(seed = 1): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

/**
 * The scheduler against the real sandbox (manual clock kept in step with the FakeClock before
 * every request), rotating with the API client as ports-main's `rotate` does.
 */
export class SchedulerRig {
  readonly sent: SentRotation[] = [];
  readonly emitted: { channel: EventChannel; payload: unknown }[] = [];
  readonly events = new EventBus();
  /** The `schedules:*` calls over the current scheduler, in a process that owns the jobs. */
  schedules!: SchedulesService;
  private current!: RotationScheduler;
  private readonly client: ProxyServiceClient;

  private constructor(
    readonly sandbox: TestSandbox,
    readonly clock: FakeClock,
    readonly state: MemoryStateSection<RotationSchedulesState>,
    readonly random: () => number,
  ) {
    this.client = new ProxyServiceClient({ baseUrl: sandbox.baseUrl, apiKey: DEMO_KEY });
    this.events.subscribe((channel, payload) => this.emitted.push({ channel, payload }));
  }

  static async start(random = seededRandom()): Promise<SchedulerRig> {
    const sandbox = await TestSandbox.start();
    const rig = new SchedulerRig(
      sandbox,
      new FakeClock(START),
      new MemoryStateSection(EMPTY_ROTATION_SCHEDULES),
      random,
    );
    rig.scheduler = rig.newScheduler();
    return rig;
  }

  get scheduler(): RotationScheduler {
    return this.current;
  }

  set scheduler(scheduler: RotationScheduler) {
    this.schedules?.stop();
    this.current = scheduler;
    this.schedules = new SchedulesService({
      scheduler,
      load: () => Promise.resolve(),
      jobs: () => ({ owner: true, message: null }),
      activeProfileId: () => PROFILE,
      events: this.events,
    });
  }

  /** A scheduler over the same stored state: what the next app start builds. */
  newScheduler(): RotationScheduler {
    return new RotationScheduler({
      clock: this.clock,
      state: this.state,
      rotate: this.rotatePort,
      events: this.events,
      activeProfileId: () => PROFILE,
      random: this.random,
    });
  }

  readonly rotatePort: RotatePort = {
    rotate: async (profileId, portId) => {
      this.syncSandbox();
      this.sent.push({ profileId, portId, at: this.clock.now() });
      const result = await this.client.rotateMobilePort(portId, { priority: 'background' });
      return { ...result, sameIp: result.ip === result.previousIp };
    },
  };

  /** The sandbox's manual clock, moved to the FakeClock's time (it never goes back). */
  syncSandbox(): void {
    const world = this.sandbox.sandbox.world;
    const behind = this.clock.now() - world.clock.now();
    if (behind > 0) {
      world.clock.advance(behind / 1000);
      world.settle();
    }
  }

  /** Ports in manual rotation mode (no server-side timer interferes), by id. */
  async manualPortIds(): Promise<string[]> {
    const answer = await this.sandbox.request<{ data: { id: string; rotation: { mode: string } }[] }>(
      'GET',
      '/v1/mobile',
    );
    return answer.json.data.filter((p) => p.rotation.mode === 'manual').map((p) => p.id);
  }

  /**
   * Runs the scheduler until `until` (epoch ms): wakes its sleep in due order and lets every
   * rotation it starts reach the sandbox and be recorded before time moves on.
   */
  async runUntil(until: number): Promise<void> {
    for (;;) {
      await this.quiet();
      const next = this.clock.pending[0];
      if (!next || next.until > until) break;
      await this.clock.runUntil(next.until);
      await this.scheduler.settled();
    }
    await this.clock.runUntil(until);
    await this.quiet();
  }

  /** Until no rotation is under way and the job is waiting for its next deadline (or idle). */
  async quiet(): Promise<void> {
    for (let turn = 0; turn < 1000; turn += 1) {
      await this.scheduler.settled();
      await this.clock.settle();
      const state = this.scheduler.jobState;
      if (this.scheduler.rotationsUnderWay > 0) continue;
      if (state === 'waiting' || state === 'idle' || state === 'stopped') return;
    }
    throw new Error(`the scheduler never settled (${this.scheduler.jobState})`);
  }

  async close(): Promise<void> {
    await this.scheduler.stop();
    await this.sandbox.close();
  }
}
