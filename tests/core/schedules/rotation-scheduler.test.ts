import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RotationScheduler } from '../../../src-main/core/schedules/rotation-scheduler';
import type { SchedulesView } from '../../../src-shared/contract';
import {
  DAY,
  HOUR,
  MINUTE,
  PROFILE,
  SchedulerRig,
  SECOND,
  START,
  seededRandom,
} from './rotation-scheduler-support';

let rig: SchedulerRig;
let portA: string;
let portB: string;
let portC: string;

beforeEach(async () => {
  rig = await SchedulerRig.start();
  [portA = '', portB = '', portC = ''] = await rig.manualPortIds();
  expect(portC).not.toBe('');
});

afterEach(async () => {
  await rig.close();
});

const handlers = () => rig.schedules.handlers();
const sentFor = (portId: string) => rig.sent.filter((s) => s.portId === portId).map((s) => s.at - START);
const statusesFor = async () => (await rig.sandbox.requests()).filter((r) => r.path.includes('/rotate'));

describe('RotationScheduler against the sandbox', () => {
  it('rotates every N seconds for two days, each run recorded with the old and new IP', async () => {
    await rig.scheduler.start();
    await handlers()['schedules:set']({
      portIds: [portA],
      cadence: { kind: 'every', seconds: 30 * 60 },
      jitterSeconds: 0,
      staggerSeconds: 0,
    });
    await rig.runUntil(START + 2 * DAY);
    expect(sentFor(portA)).toEqual(Array.from({ length: 96 }, (_, i) => (i + 1) * 30 * MINUTE));
    expect((await statusesFor()).every((r) => r.status === 200)).toBe(true);
    const runs = await handlers()['schedules:runs']({ portId: portA });
    expect(runs).toHaveLength(50); // bounded: the newest 50 of 96
    expect(runs[0]).toMatchObject({
      at: new Date(START + 2 * DAY).toISOString(),
      trigger: 'schedule',
      result: expect.stringMatching(/^(new-ip|same-ip)$/),
      error: null,
    });
    expect(runs[0]?.previousIp).toBe(runs[1]?.newIp);
  });

  it('staggers a group: port i runs i × stagger after the slot, and the list shows each next run', async () => {
    await rig.scheduler.start();
    const view: SchedulesView = await handlers()['schedules:set']({
      portIds: [portA, portB, portC],
      cadence: { kind: 'every', seconds: HOUR / SECOND },
      jitterSeconds: 0,
      staggerSeconds: 90,
    });
    expect(view.schedules.map((s) => [s.offsetSeconds, s.nextRunAt])).toEqual([
      [0, new Date(START + HOUR).toISOString()],
      [90, new Date(START + HOUR + 90 * SECOND).toISOString()],
      [180, new Date(START + HOUR + 180 * SECOND).toISOString()],
    ]);
    await rig.runUntil(START + 2 * HOUR + 5 * MINUTE);
    expect(rig.sent.map((s) => [s.portId, s.at - START])).toEqual([
      [portA, HOUR],
      [portB, HOUR + 90 * SECOND],
      [portC, HOUR + 180 * SECOND],
      [portA, 2 * HOUR],
      [portB, 2 * HOUR + 90 * SECOND],
      [portC, 2 * HOUR + 180 * SECOND],
    ]);
  });

  it('keeps jitter within its bounds and only ever delays a run', async () => {
    await rig.scheduler.start();
    await handlers()['schedules:set']({
      portIds: [portA],
      cadence: { kind: 'every', seconds: HOUR / SECOND },
      jitterSeconds: 600,
      staggerSeconds: 0,
    });
    await rig.runUntil(START + 2 * DAY);
    const delays = sentFor(portA).map((at) => at % HOUR);
    expect(delays.length).toBeGreaterThanOrEqual(47);
    for (const delay of delays) {
      expect(delay).toBeGreaterThanOrEqual(0);
      expect(delay).toBeLessThanOrEqual(600 * SECOND);
    }
    expect(new Set(delays).size).toBeGreaterThan(10); // it does vary
  });

  it('never sends inside a cooldown it knows of, and waits out a Retry-After it did not', async () => {
    await rig.scheduler.start();
    await handlers()['schedules:set']({
      portIds: [portA, portB],
      cadence: { kind: 'every', seconds: 60 },
      jitterSeconds: 0,
      staggerSeconds: 0,
    });
    // Port A was rotated from the tray 50 s in: its cooldown runs to 80 s.
    await rig.runUntil(START + 50 * SECOND);
    await rig.scheduler.noteCooldown(PROFILE, portA, new Date(START + 80 * SECOND).toISOString());
    // Port B got a 429 with a Retry-After of 5 minutes that the app had not heard of.
    await rig.sandbox.fault({
      match: `/v1/mobile/${portB}/rotate`,
      status: 429,
      headers: { 'Retry-After': '300' },
    });
    await rig.runUntil(START + 10 * MINUTE);
    // The run of the 60 s slot waited for the cooldown; the 120 s slot is after it and keeps its time.
    expect(sentFor(portA).slice(0, 2)).toEqual([80 * SECOND, 120 * SECOND]);
    expect(sentFor(portB).slice(0, 2)).toEqual([60 * SECOND, 360 * SECOND]);
    const [, firstRunOfB] = [...(await handlers()['schedules:runs']({ portId: portB }))].reverse();
    expect((await handlers()['schedules:runs']({ portId: portB })).at(-1)?.result).toBe('rate-limited');
    expect(firstRunOfB?.trigger).toBe('retry');
  });

  it('keeps firing after 10 consecutive failures, backing off 2^n but never past the next slot', async () => {
    await rig.scheduler.start();
    await handlers()['schedules:set']({
      portIds: [portA],
      cadence: { kind: 'every', seconds: HOUR / SECOND },
      jitterSeconds: 0,
      staggerSeconds: 0,
    });
    await rig.sandbox.fault({ match: `/v1/mobile/${portA}/rotate`, status: 503, times: 10 });
    await rig.runUntil(START + 6 * HOUR);
    const sent = sentFor(portA);
    const gaps = sent.slice(1, 11).map((at, i) => (at - (sent[i] ?? 0)) / SECOND);
    // 30 s, 60 s, ... capped at 15 min; a retry that would pass the next slot waits for the slot instead.
    expect(gaps.slice(0, 5)).toEqual([30, 60, 120, 240, 480]);
    expect(gaps.slice(5)).toEqual(expect.arrayContaining([900]));
    const runs = await handlers()['schedules:runs']({ portId: portA });
    const oldestFirst = [...runs].reverse();
    expect(oldestFirst.slice(0, 10).every((r) => r.result === 'failed' && r.error !== null)).toBe(true);
    expect(oldestFirst[10]).toMatchObject({ result: expect.stringMatching(/ip$/), error: null });
    // Back on its hourly rhythm after the success, still firing.
    expect(sent.at(-1)).toBe(6 * HOUR);
    const view = await handlers()['schedules:list'](undefined);
    expect(view.schedules[0]).toMatchObject({
      consecutiveFailures: 0,
      nextRunAt: new Date(START + 7 * HOUR).toISOString(),
    });
  });

  it('records runs skipped while offline and rotates again once the service answers', async () => {
    await rig.scheduler.start();
    await handlers()['schedules:set']({
      portIds: [portA],
      cadence: { kind: 'every', seconds: 10 * 60 },
      jitterSeconds: 0,
      staggerSeconds: 0,
    });
    await rig.sandbox.fault({ match: `/v1/mobile/${portA}/rotate`, dropConnection: true, times: 2 });
    await rig.runUntil(START + 30 * MINUTE);
    const runs = [...(await handlers()['schedules:runs']({ portId: portA }))].reverse();
    expect(runs.map((r) => r.result).slice(0, 3)).toEqual([
      'skipped-offline',
      'skipped-offline',
      expect.stringMatching(/ip$/),
    ]);
  });

  it('after a long pause runs once, not a burst, then keeps its rhythm', async () => {
    await rig.scheduler.start();
    await handlers()['schedules:set']({
      portIds: [portA],
      cadence: { kind: 'every', seconds: 60 },
      jitterSeconds: 0,
      staggerSeconds: 0,
    });
    await rig.runUntil(START + 3 * MINUTE);
    expect(sentFor(portA)).toEqual([MINUTE, 2 * MINUTE, 3 * MINUTE]);
    const paused = await handlers()['schedules:pause']({ paused: true });
    expect(paused).toMatchObject({ paused: true, schedules: [{ nextRunAt: null }] });
    await rig.runUntil(START + DAY);
    expect(sentFor(portA)).toHaveLength(3);
    await handlers()['schedules:pause']({ paused: false });
    await rig.runUntil(START + DAY + 150 * SECOND);
    expect(sentFor(portA).slice(3)).toEqual([DAY, DAY + MINUTE, DAY + 2 * MINUTE]);
    const [latest, , catchUp] = await handlers()['schedules:runs']({ portId: portA });
    expect(catchUp?.trigger).toBe('catch-up');
    expect(latest?.trigger).toBe('schedule');
  });

  it('resumes after a restart: the same planned run, one catch-up for the time it was closed', async () => {
    await rig.scheduler.start();
    await handlers()['schedules:set']({
      portIds: [portA],
      cadence: { kind: 'every', seconds: HOUR / SECOND },
      jitterSeconds: 900,
      staggerSeconds: 0,
    });
    await rig.runUntil(START + 90 * MINUTE);
    const planned = rig.scheduler.nextRunAt(PROFILE, portA);
    await rig.scheduler.stop();
    // The next start (a new scheduler over the same stored state) plans the same run.
    rig.scheduler = rig.newScheduler();
    expect(rig.scheduler.nextRunAt(PROFILE, portA)).toBe(planned);
    await rig.scheduler.start();
    await rig.runUntil(START + 3 * HOUR + 16 * MINUTE);
    expect(sentFor(portA)).toHaveLength(3);
    expect(sentFor(portA)[1]).toBe(Date.parse(planned ?? '') - START);
    // Closed for a day: one run at the next start, not 24.
    await rig.scheduler.stop();
    await rig.clock.advance(DAY);
    const reopened = rig.clock.now();
    rig.scheduler = rig.newScheduler();
    await rig.scheduler.start();
    await rig.runUntil(reopened + 10 * MINUTE);
    expect(sentFor(portA).slice(3)).toEqual([reopened - START]);
    expect((await handlers()['schedules:runs']({ portId: portA }))[0]?.trigger).toBe('catch-up');
  });

  it('counts a rotation cut off by a crash as done for its slot, never sending it again', async () => {
    await handlers()['schedules:set']({
      portIds: [portA],
      cadence: { kind: 'every', seconds: HOUR / SECOND },
      jitterSeconds: 0,
      staggerSeconds: 0,
    });
    // What the scheduler wrote just before sending, as a crash left it.
    await rig.state.update((draft) => {
      const [schedule] = draft.schedules;
      if (schedule) {
        schedule.inFlight = {
          slot: new Date(START + HOUR).toISOString(),
          at: new Date(START + HOUR).toISOString(),
          trigger: 'schedule',
        };
      }
    });
    await rig.clock.advance(HOUR + 5 * SECOND);
    await rig.scheduler.start();
    await rig.runUntil(START + 90 * MINUTE);
    expect(rig.sent).toEqual([]);
    const [run] = await handlers()['schedules:runs']({ portId: portA });
    expect(run).toMatchObject({
      result: 'failed',
      error: expect.stringMatching(/stopped during this rotation/),
    });
    await rig.runUntil(START + 2 * HOUR);
    expect(sentFor(portA)).toEqual([2 * HOUR]);
  });

  it('removes schedules and announces every change', async () => {
    await rig.scheduler.start();
    await handlers()['schedules:set']({
      portIds: [portA, portB],
      cadence: { kind: 'cron', expression: '*/5 * * * *' },
      jitterSeconds: 0,
      staggerSeconds: 0,
    });
    const view = await handlers()['schedules:remove']({ portIds: [portA] });
    expect(view.schedules.map((s) => s.portId)).toEqual([portB]);
    await rig.runUntil(START + 11 * MINUTE);
    expect(rig.sent.map((s) => [s.portId, s.at - START])).toEqual([
      [portB, 5 * MINUTE],
      [portB, 10 * MINUTE],
    ]);
    const changes = rig.emitted.filter((e) => e.channel === 'schedules:changed');
    expect(changes.length).toBeGreaterThanOrEqual(4);
  });
  it('announces the next run once a run has settled, not a view with none while it ran', async () => {
    await rig.scheduler.start();
    await handlers()['schedules:set']({
      portIds: [portA],
      cadence: { kind: 'every', seconds: 10 * 60 },
      jitterSeconds: 0,
      staggerSeconds: 0,
    });
    await rig.runUntil(START + 11 * MINUTE);
    expect(sentFor(portA)).toEqual([10 * MINUTE]);
    const views = rig.emitted
      .filter((e) => e.channel === 'schedules:changed')
      .map((e) => e.payload as SchedulesView);
    const last = views.at(-1)?.schedules.find((s) => s.portId === portA);
    // The window shows the last view it was sent: after a run it must carry the next slot.
    expect(last?.lastRuns).toHaveLength(1);
    expect(last?.nextRunAt).toBe(new Date(START + 20 * MINUTE).toISOString());
    expect(last?.nextRunAt).toBe(rig.scheduler.nextRunAt(PROFILE, portA));
  });
});

describe('RotationScheduler for every profile', () => {
  it('rotates other profiles with their own client while the list shows the active one', async () => {
    await rig.scheduler.start();
    await rig.scheduler.set('profile-b', {
      portIds: [portB],
      cadence: { kind: 'every', seconds: 600 },
      jitterSeconds: 0,
      staggerSeconds: 0,
    });
    await rig.runUntil(START + 10 * MINUTE);
    expect(rig.sent).toEqual([{ profileId: 'profile-b', portId: portB, at: START + 10 * MINUTE }]);
    expect((await handlers()['schedules:list'](undefined)).schedules).toEqual([]);
    expect(rig.scheduler.view('profile-b').schedules).toHaveLength(1);
  });

  it('drops the schedules of a deleted profile instead of failing forever', async () => {
    await rig.scheduler.stop();
    const deleted = Object.assign(new Error('No profile with id profile-b'), { code: 'profile_not_found' });
    const scheduler = new RotationScheduler({
      clock: rig.clock,
      state: rig.state,
      rotate: {
        rotate: (profileId, portId) =>
          profileId === 'profile-b'
            ? Promise.reject(deleted)
            : rig.rotatePort.rotate(profileId, portId, 'schedule'),
      },
      events: rig.events,
      activeProfileId: () => PROFILE,
    });
    rig.scheduler = scheduler;
    await scheduler.start();
    const every = { cadence: { kind: 'every', seconds: 600 }, jitterSeconds: 0, staggerSeconds: 0 } as const;
    await scheduler.set('profile-b', { portIds: [portB], ...every });
    await scheduler.set(PROFILE, { portIds: [portA], ...every });
    await rig.runUntil(START + 25 * MINUTE);
    expect(scheduler.view('profile-b').schedules).toEqual([]);
    expect(sentFor(portA)).toEqual([10 * MINUTE, 20 * MINUTE]);
  });

  it('draws jitter from the injected random source', () => {
    const random = seededRandom(5);
    const draws = Array.from({ length: 1000 }, random);
    expect(Math.min(...draws)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...draws)).toBeLessThan(1);
  });
});
