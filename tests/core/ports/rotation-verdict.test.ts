import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { listPorts, manualPort, TEST_START_TIME, TestSandbox } from '@proxy-manager/sandbox/testing';
import { type ReceiptsState, RotationService } from '../../../src-main/core/ports/rotation-service';
import { judgeRotation } from '../../../src-main/core/ports/rotation-verdict';
import { ProxyTestService, SANDBOX_ECHO_URL } from '../../../src-main/core/proxy-test/proxy-test-service';
import { FakeClock } from '../../../src-main/core/runtime/fake-clock';
import { MemoryJobSection } from '../../../src-main/core/storage/job-section';
import { advanceBoth, PROFILE, RecordingEvents, rotationRequests, sandboxApi } from './ports-test-kit';

/*
 * Every rotation's verdict, checked through the port over the sandbox's gateway (real sockets): the
 * control API makes the carrier keep the IP, hand back an earlier one, or move the modem to another
 * ASN and country.
 */

let sandbox: TestSandbox;
let clock: FakeClock;
let rotation: RotationService;
let receipts: MemoryJobSection<ReceiptsState>;
let portId: string;

beforeEach(async () => {
  sandbox = await TestSandbox.start();
  clock = new FakeClock(Date.parse(TEST_START_TIME));
  await advanceBoth(sandbox, clock, 60);
  const api = sandboxApi(sandbox, clock);
  const proxyTests = new ProxyTestService({ api, clock, echoUrlFor: () => SANDBOX_ECHO_URL });
  receipts = new MemoryJobSection<ReceiptsState>();
  rotation = new RotationService({
    api,
    clock,
    events: new RecordingEvents(),
    receipts,
    verifyExitIp: proxyTests.verifyExitIp,
  });
  portId = (await manualPort(sandbox)).id;
});

afterEach(async () => {
  await sandbox.close();
});

const rotateNow = async () => {
  const receipt = await rotation.rotate(PROFILE, portId, 'button');
  await advanceBoth(sandbox, clock, 30);
  return receipt;
};

/** Resolves once the rotation waits out a cooldown (a sleep longer than the 10 s check deadline). */
async function whenCooldownWait(): Promise<void> {
  for (let i = 0; i < 1000; i += 1) {
    if (clock.pending.some((sleep) => sleep.ms > 10_000)) return;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  throw new Error('the rotation never waited for a cooldown');
}

describe('rotation verdicts through the port', () => {
  it('clean: a new IP on the port’s network, with the exit’s ASN and country', async () => {
    const port = await manualPort(sandbox);
    const receipt = await rotateNow();
    expect(receipt.verdict).toMatchObject({
      kind: 'clean',
      exitIp: receipt.ip,
      country: port.country,
      expectedCountry: port.country,
      checks: 1,
      seenBefore: null,
    });
    expect(receipt.verdict?.asn).toBeGreaterThanOrEqual(64512);
    expect(receipt.verification).toEqual({ exitIp: receipt.ip, matches: true });
  });

  it('unchanged: the carrier kept the IP', async () => {
    const port = await manualPort(sandbox);
    await sandbox.control('POST', '/mobile/same-ip', { portId });
    const receipt = await rotateNow();
    expect(receipt.sameIp).toBe(true);
    expect(receipt.verdict).toMatchObject({ kind: 'unchanged', exitIp: port.currentIp });
    expect(receipt.verdict?.message).toContain('kept the IP');
  });

  it('unchanged: the service answered a new IP, but traffic still leaves from the old one (checked again 3 times)', async () => {
    const old = await manualPort(sandbox);
    const stuck = new RotationService({
      api: sandboxApi(sandbox, clock),
      clock,
      events: new RecordingEvents(),
      receipts,
      verifyExitIp: () =>
        Promise.resolve({ ip: old.currentIp, asn: 64600, country: old.country, city: null, carrier: null }),
      verifyBackoffMs: [1_000, 2_000, 4_000],
    });
    const pending = stuck.rotate(PROFILE, portId, 'button');
    for (const wait of [1_000, 2_000, 4_000]) {
      for (let i = 0; i < 200 && !clock.pending.some((s) => s.ms === wait); i += 1) {
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      await clock.advance(wait);
    }
    const receipt = await pending;
    expect(receipt.ip).not.toBe(old.currentIp);
    expect(receipt.verdict).toMatchObject({ kind: 'unchanged', exitIp: old.currentIp, checks: 4 });
    expect(receipt.verification).toEqual({ exitIp: old.currentIp, matches: false });
  });

  it('repeat: the carrier handed back an IP this port had before', async () => {
    const first = await manualPort(sandbox);
    await rotateNow();
    await sandbox.control('POST', '/mobile/repeat-ip', { portId });
    const receipt = await rotateNow();
    expect(receipt.ip).toBe(first.currentIp);
    expect(receipt.verdict).toMatchObject({ kind: 'repeat', exitIp: first.currentIp });
    expect(receipt.verdict?.seenBefore?.portId).toBe(portId);
  });

  it('repeat: an IP another port of the profile had within the window (its receipts)', async () => {
    const other = (await listPorts(sandbox)).find((p) => p.id !== portId && p.status === 'active');
    if (!other) throw new Error('the seeded sandbox has a second active port');
    const first = await manualPort(sandbox);
    // Only this port's last IP and the last hour count: its first IP is older than that.
    expect(clock.now() - Date.parse(first.ipChangedAt)).toBeGreaterThan(3_600_000);
    const narrow = new RotationService({
      api: sandboxApi(sandbox, clock),
      clock,
      events: new RecordingEvents(),
      receipts,
      verifyExitIp: new ProxyTestService({
        api: sandboxApi(sandbox, clock),
        clock,
        echoUrlFor: () => SANDBOX_ECHO_URL,
      }).verifyExitIp,
      repeatWindow: () => ({ hours: 1, rotations: 1 }),
    });
    const second = await narrow.rotate(PROFILE, portId, 'button');
    await advanceBoth(sandbox, clock, 30);
    // The other port's receipt of a minute ago says it left that IP.
    await receipts.update((state) => {
      const all = state ?? {};
      (all[PROFILE] ??= {})[other.id] = [
        {
          ...second,
          id: 'o1',
          portId: other.id,
          ip: '100.64.0.9',
          previousIp: first.currentIp,
          verdict: null,
        },
      ];
      return all;
    });
    await sandbox.control('POST', '/mobile/repeat-ip', { portId });
    const receipt = await narrow.rotate(PROFILE, portId, 'button');
    expect(receipt.ip).toBe(first.currentIp);
    expect(receipt.verdict).toMatchObject({ kind: 'repeat', seenBefore: { portId: other.id } });
    // Without the other port's receipt, the same IP is outside this port's narrow window.
    expect(
      judgeRotation({
        portId,
        previousIp: second.ip,
        serviceIp: receipt.ip,
        exit: { ip: receipt.ip, asn: null, country: null },
        checks: 1,
        expectedAsn: null,
        expectedCountry: null,
        seen: [{ ip: second.ip, portId, at: clock.now() }],
      }).kind,
    ).toBe('clean');
  });

  it('drift: the modem moved to another ASN and country', async () => {
    const clean = await rotateNow();
    expect(clean.verdict?.kind).toBe('clean');
    await sandbox.control('POST', '/mobile/network', { portId, asn: 65001, asnName: 'Other', country: 'FR' });
    const receipt = await rotateNow();
    expect(receipt.verdict).toMatchObject({
      kind: 'drift',
      asn: 65001,
      expectedAsn: clean.verdict?.asn,
      country: 'FR',
    });
    expect(receipt.verdict?.message).toContain('AS65001');
  });

  it('until unique: rotates past unchanged and repeat, stops at the first clean IP', async () => {
    await rotateNow();
    await sandbox.control('POST', '/mobile/same-ip', { portId, times: 1 });
    await sandbox.control('POST', '/mobile/repeat-ip', { portId, times: 1 });
    const before = (await rotationRequests(sandbox, portId)).length;
    const pending = rotation.rotate(PROFILE, portId, 'button', { untilUnique: { maxTries: 5 } });
    for (let wait = 0; wait < 2; wait += 1) {
      await whenCooldownWait();
      await advanceBoth(sandbox, clock, 30);
    }
    const receipt = await pending;
    expect((await rotationRequests(sandbox, portId)).length - before).toBe(3);
    expect(receipt.attempts).toBe(3);
    expect(receipt.untilUnique).toEqual({ maxTries: 5, reachedClean: true });
    expect(receipt.verdict?.kind).toBe('clean');
    const kinds = (await rotation.receipts(PROFILE, portId)).slice(0, 3).map((r) => r.verdict?.kind);
    expect(kinds).toEqual(['clean', 'repeat', 'unchanged']);
  });

  it('until unique: gives up after N tries without a clean IP', async () => {
    await sandbox.control('POST', '/mobile/same-ip', { portId, times: 5 });
    const pending = rotation.rotate(PROFILE, portId, 'button', { untilUnique: { maxTries: 2 } });
    await whenCooldownWait();
    await advanceBoth(sandbox, clock, 30);
    const receipt = await pending;
    expect(receipt.attempts).toBe(2);
    expect(receipt.untilUnique).toEqual({ maxTries: 2, reachedClean: false });
    expect(receipt.verdict?.kind).toBe('unchanged');
  });
});
