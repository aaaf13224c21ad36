import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ApiError } from '../../../src-main/api';
import { AppError } from '../../../src-main/core/errors';
import { MemoryJobSection } from '../../../src-main/core/storage/job-section';
import type { ReceiptsState } from '../../../src-main/core/ports/rotation-service';
import { toIpcError } from '../../../src-main/core/wire-error';
import { manualPort, TestSandbox } from '@proxy-manager/sandbox/testing';
import { advanceBoth, PROFILE, portsKit, rotationRequests } from './ports-test-kit';

describe('RotationService against the sandbox', () => {
  let sandbox: TestSandbox;
  let portId: string;

  beforeEach(async () => {
    sandbox = await TestSandbox.start();
    portId = (await manualPort(sandbox)).id as string;
    // The seeded port may have rotated moments before the start: begin outside any cooldown.
    await sandbox.advance(60);
    await sandbox.control('DELETE', '/requests');
  });

  afterEach(async () => {
    await sandbox.close();
  });

  const start = async () => {
    const kit = portsKit(sandbox);
    await kit.clock.advance(60_000);
    return kit;
  };

  it('sends one request for a tray click, a schedule and a button at the same moment, and all get its receipt', async () => {
    const { rotation, events } = await start();
    const [tray, schedule, button] = await Promise.all([
      rotation.rotate(PROFILE, portId, 'tray'),
      rotation.rotate(PROFILE, portId, 'schedule'),
      rotation.rotate(PROFILE, portId, 'button'),
    ]);
    expect(await rotationRequests(sandbox, portId)).toHaveLength(1);
    expect(schedule).toBe(tray);
    expect(button).toBe(tray);
    expect(tray.trigger).toBe('tray');
    expect(tray.confirmedBy).toBe('answer');
    expect(tray.attempts).toBe(1);
    expect(tray.verification).toBeNull();
    const phases = events.of('ports:rotation').map((e) => e.phase);
    expect(phases).toEqual(['started', 'finished']);
    // Every window learns the port's new IP.
    const changed = events.of('ports:changed').flatMap((e) => e.changed);
    expect(changed.map((p) => [p.id, p.currentIp])).toEqual([[portId, tray.ip]]);
    expect(changed[0]).not.toHaveProperty('rotationLink');
  });

  it('rotates again once the first rotation is over (single-flight, not a lock)', async () => {
    const { rotation, clock } = await start();
    await rotation.rotate(PROFILE, portId, 'button');
    await advanceBoth(sandbox, clock, 31);
    await rotation.rotate(PROFILE, portId, 'button');
    expect(await rotationRequests(sandbox, portId)).toHaveLength(2);
    expect(await rotation.receipts(PROFILE, portId)).toHaveLength(2);
  });

  it('turns a 429 into an error with retryAfterMs, from seconds', async () => {
    const { rotation, events, clock } = await start();
    const first = await rotation.rotate(PROFILE, portId, 'button');
    await advanceBoth(sandbox, clock, 10);
    const error = await rotation.rotate(PROFILE, portId, 'schedule').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(429);
    expect((error as ApiError).retryAfterMs).toBe(20_000);
    expect(Date.parse(first.nextRotationAvailableAt) - clock.now()).toBe(20_000);
    const failed = events.of('ports:rotation').find((e) => e.phase === 'failed');
    expect(failed?.error).toMatchObject({ code: 'rotation_too_soon', retryAfterMs: 20_000 });
    expect(failed?.trigger).toBe('schedule');
  });

  it('turns a 429 into an error with retryAfterMs, from an HTTP date', async () => {
    const { rotation, clock } = await start();
    const at = new Date(clock.now() + 45_000).toUTCString();
    await sandbox.fault({ match: `/mobile/${portId}/rotate`, status: 429, headers: { 'Retry-After': at } });
    const error = await rotation.rotate(PROFILE, portId, 'button').catch((e: unknown) => e);
    expect((error as ApiError).retryAfterMs).toBe(45_000);
    expect(toIpcError(error, () => undefined).retryAfterMs).toBe(45_000);
  });

  it('says plainly when the carrier handed back the same IP', async () => {
    const { rotation } = await start();
    const before = (await manualPort(sandbox)).currentIp as string;
    const armed = await sandbox.control('POST', '/mobile/same-ip', { portId, times: 1 });
    expect(armed.status).toBe(200);
    const receipt = await rotation.rotate(PROFILE, portId, 'button');
    expect(receipt).toMatchObject({ previousIp: before, ip: before, sameIp: true });
  });

  it('reports a rotation whose answer was lost from a re-read, and never sends it twice', async () => {
    const { rotation } = await start();
    const before = await manualPort(sandbox);
    await sandbox.fault({ match: `/mobile/${portId}/rotate`, dropConnection: true, phase: 'after' });
    const receipt = await rotation.rotate(PROFILE, portId, 'button');
    const after = await manualPort(sandbox);
    expect(await rotationRequests(sandbox, portId)).toHaveLength(1);
    expect(receipt.confirmedBy).toBe('reread');
    expect(receipt.previousIp).toBe(before.currentIp);
    expect(receipt.ip).toBe(after.currentIp);
    expect(after.ipChangedAt).not.toBe(before.ipChangedAt);
    expect(Date.parse(receipt.nextRotationAvailableAt)).toBe(Date.parse(after.ipChangedAt) + 30_000);
  });

  it('says the rotation did not happen when the re-read shows the old IP, without a second request', async () => {
    const { rotation } = await start();
    const before = await manualPort(sandbox);
    await sandbox.fault({ match: `/mobile/${portId}/rotate`, dropConnection: true, phase: 'before' });
    const error = await rotation.rotate(PROFILE, portId, 'button').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe('rotation_not_confirmed');
    expect((error as AppError).message).toContain(before.currentIp);
    expect(await rotationRequests(sandbox, portId)).toHaveLength(1);
    expect((await manualPort(sandbox)).ipChangedAt).toBe(before.ipChangedAt);
    expect(await rotation.receipts(PROFILE, portId)).toEqual([]);
  });

  it('rotates until new: stops at maxTries, waiting out each cooldown on the clock', async () => {
    const { rotation, clock } = await start();
    await sandbox.control('POST', '/mobile/same-ip', { portId, times: 10 });
    const sleepsBefore = clock.sleeps.length;
    const pending = rotation.rotate(PROFILE, portId, 'button', { untilNew: { lastN: 5, maxTries: 3 } });
    for (let wait = 1; wait <= 2; wait += 1) {
      await clock.whenSleepCalls(sleepsBefore + wait);
      // Not yet: the next try waits for the cooldown.
      expect(await rotationRequests(sandbox, portId)).toHaveLength(wait);
      await advanceBoth(sandbox, clock, 30);
    }
    const receipt = await pending;
    expect(await rotationRequests(sandbox, portId)).toHaveLength(3);
    expect(clock.sleeps.slice(sleepsBefore).map((s) => s.ms)).toEqual([30_000, 30_000]);
    expect(receipt.attempts).toBe(3);
    expect(receipt.untilNew).toEqual({ lastN: 5, maxTries: 3, reachedNewIp: false });
    expect(receipt.sameIp).toBe(true);
    expect(receipt.tookMs).toBe(60_000);
    expect(await rotation.receipts(PROFILE, portId)).toHaveLength(3);
  });

  it('rotates until new: stops as soon as the IP is not among the last N', async () => {
    const { rotation, clock } = await start();
    const before = await manualPort(sandbox);
    await sandbox.control('POST', '/mobile/same-ip', { portId, times: 1 });
    const sleepsBefore = clock.sleeps.length;
    const pending = rotation.rotate(PROFILE, portId, 'button', { untilNew: { lastN: 3, maxTries: 5 } });
    await clock.whenSleepCalls(sleepsBefore + 1);
    await advanceBoth(sandbox, clock, 30);
    const receipt = await pending;
    expect(await rotationRequests(sandbox, portId)).toHaveLength(2);
    expect(receipt.attempts).toBe(2);
    expect(receipt.untilNew?.reachedNewIp).toBe(true);
    expect(receipt.previousIp).toBe(before.currentIp);
    expect(receipt.ip).not.toBe(before.currentIp);
  });

  it('keeps receipts in the job store, bounded per port, so that a new service finds them', async () => {
    const store = new MemoryJobSection<ReceiptsState>();
    const first = portsKit(sandbox, { receipts: store });
    await first.clock.advance(60_000);
    for (let i = 0; i < 3; i += 1) {
      await first.rotation.rotate(PROFILE, portId, 'button');
      await advanceBoth(sandbox, first.clock, 30);
    }
    const restarted = portsKit(sandbox, { receipts: store });
    const receipts = await restarted.rotation.receipts(PROFILE, portId);
    expect(receipts).toHaveLength(3);
    expect(receipts.map((r) => r.id)).toEqual(['r3', 'r2', 'r1']);
    // Bounded: an old store of 60 receipts keeps its newest 50 after one more.
    const many = new MemoryJobSection<ReceiptsState>({
      [PROFILE]: { [portId]: Array.from({ length: 60 }, (_, i) => ({ ...receipts[0]!, id: `old${i}` })) },
    });
    const bounded = portsKit(sandbox, { receipts: many });
    await bounded.clock.advance(60_000 + 90_000);
    await bounded.rotation.rotate(PROFILE, portId, 'button');
    const kept = await bounded.rotation.receipts(PROFILE, portId);
    expect(kept).toHaveLength(50);
    expect(kept[0]?.id).toBe('r1');
    expect(kept.at(-1)?.id).toBe('old11');
  });

  it('fills verification from the injected exit-IP check', async () => {
    const kit = portsKit(sandbox, { verifyExitIp: (_profile, port) => Promise.resolve(port.currentIp) });
    await kit.clock.advance(60_000);
    const receipt = await kit.rotation.rotate(PROFILE, portId, 'button');
    expect(receipt.verification).toEqual({ exitIp: receipt.ip, matches: true });
    await advanceBoth(sandbox, kit.clock, 30);
    const lying = portsKit(sandbox, { verifyExitIp: () => Promise.resolve('203.0.113.9') });
    await lying.clock.advance(90_000 + 30_000);
    const second = await lying.rotation.rotate(PROFILE, portId, 'button');
    expect(second.verification).toEqual({ exitIp: '203.0.113.9', matches: false });
  });

  it('rotates many ports staggered, each outside its cooldown, with one outcome per port', async () => {
    const { rotation, clock } = await start();
    const all = (await sandbox.request('GET', '/v1/mobile')).json.data as { id: string; status: string }[];
    const active = all.filter((p) => p.status === 'active').map((p) => p.id);
    const other = active.find((id) => id !== portId) as string;
    const first = await rotation.rotate(PROFILE, portId, 'button');
    await sandbox.control('DELETE', '/requests');
    const sleepsBefore = clock.sleeps.length;
    const pending = rotation.rotateMany(PROFILE, [portId, other, portId, 'mp_missing'], 'bulk');
    // The port rotated just now waits for its cooldown; the others start 250 ms apart.
    await clock.whenSleepCalls(sleepsBefore + 3);
    const waits = clock.sleeps.slice(sleepsBefore).map((s) => s.ms);
    expect(waits).toEqual([30_000, 250, 500]);
    await advanceBoth(sandbox, clock, 30);
    const outcomes = await pending;
    expect(outcomes.map((o) => [o.portId, o.ok])).toEqual([
      [portId, true],
      [other, true],
      ['mp_missing', false],
    ]);
    const missing = outcomes[2];
    expect(missing && !missing.ok ? missing.error.code : null).toBe('not_found');
    expect(await rotationRequests(sandbox, portId)).toHaveLength(1);
    expect(Date.parse(first.nextRotationAvailableAt)).toBeLessThanOrEqual(clock.now());
  });
});
