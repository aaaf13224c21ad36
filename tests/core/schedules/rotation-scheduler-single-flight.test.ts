import { afterEach, beforeEach, expect, it } from 'vitest';
import { RotationScheduler } from '../../../src-main/core/schedules/rotation-scheduler';
import {
  EMPTY_ROTATION_SCHEDULES,
  MemoryStateSection,
} from '../../../src-main/core/schedules/rotation-scheduler-state';
import { TestSandbox } from '@proxy-manager/sandbox/testing';
import { PROFILE, portsKit, rotationRequests } from '../ports/ports-test-kit';

let sandbox: TestSandbox;

beforeEach(async () => {
  sandbox = await TestSandbox.start();
});

afterEach(async () => {
  await sandbox.close();
});

it('sends one rotation when a schedule, a tray click and a button meet (ports-main rotate, single-flight)', async () => {
  const kit = portsKit(sandbox);
  const state = new MemoryStateSection(EMPTY_ROTATION_SCHEDULES);
  const scheduler = new RotationScheduler({
    clock: kit.clock,
    state,
    rotate: kit.rotation,
    events: kit.events,
    activeProfileId: () => PROFILE,
    random: () => 0,
  });
  const ports = await sandbox.request<{ data: { id: string; rotation: { mode: string } }[] }>(
    'GET',
    '/v1/mobile',
  );
  const portId = ports.json.data.find((p) => p.rotation.mode === 'manual')?.id ?? '';
  await scheduler.start();
  await scheduler.set(PROFILE, {
    portIds: [portId],
    cadence: { kind: 'every', seconds: 60 },
    jitterSeconds: 0,
    staggerSeconds: 0,
  });
  // The modem takes a while: the tray click and the button land while the scheduled rotation is out.
  await sandbox.fault({ match: `/v1/mobile/${portId}/rotate`, delayMs: 300 });
  await sandbox.advance(60);
  await kit.clock.runUntil(kit.clock.now() + 60_000);
  expect(scheduler.rotationsUnderWay).toBe(1);
  const [tray, button] = await Promise.all([
    kit.rotation.rotate(PROFILE, portId, 'tray'),
    kit.rotation.rotate(PROFILE, portId, 'button'),
  ]);
  await scheduler.settled();
  expect(await rotationRequests(sandbox, portId)).toHaveLength(1);
  expect(button.id).toBe(tray.id);
  expect(tray.confirmedBy).toBe('answer');
  const [run] = scheduler.runs(PROFILE, portId);
  expect(run).toMatchObject({ trigger: 'schedule', newIp: tray.ip, previousIp: tray.previousIp });
  await scheduler.stop();
});
