import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MemoryJobSection } from '../../../src-main/core/storage/job-section';
import { PortsService, toPortView } from '../../../src-main/core/ports/ports-service';
import {
  type RelocationNotice,
  RelocationTracker,
  type RelocationsState,
} from '../../../src-main/core/ports/relocation-tracker';
import type { FakeClock } from '../../../src-main/core/runtime/fake-clock';
import { manualPort, TestSandbox } from '@proxy-manager/sandbox/testing';
import { PROFILE, portsKit, type PortsKit } from './ports-test-kit';

describe('RelocationTracker against the sandbox', () => {
  let sandbox: TestSandbox;
  let kit: PortsKit;
  let store: MemoryJobSection<RelocationsState>;
  let notices: RelocationNotice[];
  let trackers: RelocationTracker[];

  beforeEach(async () => {
    sandbox = await TestSandbox.start();
    kit = portsKit(sandbox);
    store = new MemoryJobSection<RelocationsState>();
    notices = [];
    trackers = [];
  });

  afterEach(async () => {
    for (const tracker of trackers) await tracker.stop();
    await sandbox.close();
  });

  const newTracker = (clock: FakeClock = kit.clock): RelocationTracker => {
    const tracker = new RelocationTracker({
      api: kit.api,
      clock,
      store,
      publish: (profileId, changed, progress) => kit.ports.publish(profileId, changed, progress),
      toView: toPortView,
      notify: (notice) => notices.push(notice),
    });
    trackers.push(tracker);
    // The ports service as the app builds it: with the tracker it hands relocations to.
    kit.ports = new PortsService({
      api: kit.api,
      events: kit.events,
      now: () => kit.clock.now(),
      rotation: kit.rotation,
      relocations: tracker,
    });
    return tracker;
  };

  /** Advances the sandbox, then the FakeClock, to the tracker's next read, and waits for that read. */
  const nextRead = async (clock: FakeClock): Promise<number> => {
    const pending = clock.pending.at(-1);
    if (!pending) throw new Error('the tracker is not waiting');
    const seconds = (pending.until - clock.now()) / 1000;
    await sandbox.advance(seconds);
    const sleeps = clock.sleeps.length;
    await clock.advance(seconds * 1000);
    await clock.whenSleepCalls(sleeps + 1);
    return seconds;
  };

  it('follows a relocated port with backoff until active, across a restart, then notifies', async () => {
    const port = await manualPort(sandbox);
    const tracker = newTracker();
    tracker.start();
    const sleepsBefore = kit.clock.sleeps.length;
    const moved = await kit.ports.handlers()['ports:relocate']({
      portId: port.id,
      country: 'US',
      carrier: 'verizon',
    });
    expect(moved.status).toBe('provisioning');
    expect(moved).not.toHaveProperty('rotationLink');
    const [tracked] = await tracker.list(PROFILE);
    expect(tracked).toMatchObject({ portId: port.id, state: 'provisioning', checks: 0 });
    expect((await store.read())?.[PROFILE]?.[port.id]?.state).toBe('provisioning');

    await kit.clock.whenSleepCalls(sleepsBefore + 1);
    expect(await nextRead(kit.clock)).toBe(15);
    expect(await nextRead(kit.clock)).toBe(30);
    expect((await tracker.list(PROFILE))[0]?.checks).toBe(2);

    // Restart: a new tracker on the same job store resumes the wait it finds there.
    await tracker.stop();
    const restarted = newTracker();
    restarted.start();
    await kit.clock.whenSleepCalls(kit.clock.sleeps.length + 1);
    // 45 s of provisioning so far; the sandbox needs 80-100 s: the 60 s wait brings it online.
    expect(await nextRead(kit.clock)).toBe(60);
    const [done] = await restarted.list(PROFILE);
    expect(done).toMatchObject({ state: 'active', nextCheckAt: null, checks: 3 });
    expect(done?.message).toContain('active on its new modem');
    expect(notices).toEqual([
      expect.objectContaining({ profileId: PROFILE, portId: port.id, state: 'active' }),
    ]);
    // Every read reached the windows, the last with the active port and its new endpoint.
    const changes = kit.events.of('ports:changed');
    const reads = changes.filter((c) => c.relocations?.some((r) => r.portId === port.id));
    expect(reads.map((c) => c.relocations?.[0]?.state)).toEqual([
      'provisioning',
      'provisioning',
      'provisioning',
      'active',
    ]);
    expect(reads.at(-1)?.changed[0]?.status).toBe('active');
    expect(reads.at(-1)?.changed[0]?.country).toBe('US');
    // Nothing more to read for it: the entry is only kept (a day) for the UI.
    expect(kit.clock.pending.at(-1)?.until).toBe(Date.parse(done?.startedAt ?? '') + 86_400_000);
  });

  it('explains location_unavailable with a suggestion, and tracks nothing', async () => {
    const port = await manualPort(sandbox);
    newTracker();
    const error = await kit.ports
      .handlers()
      ['ports:relocate']({ portId: port.id, country: 'US', carrier: 'verizon', city: 'los_angeles' })
      .catch((e: unknown) => e);
    expect((error as { code: string }).code).toBe('location_unavailable');
    expect((error as Error).message).toMatch(/another carrier or city/);
    expect(await store.read()).toBeUndefined();
  });
});
