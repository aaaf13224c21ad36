import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  manualPort,
  SEEDED_SUBSCRIPTION_LABELS,
  subscriptionByLabel,
  TestSandbox,
} from '@proxy-manager/sandbox/testing';
import type { Subscription } from '../../../src-shared/api-types';
import {
  HealthCheckJob,
  type HealthCheckPolicy,
  type HealthStatusChange,
  portTargetKey,
  subscriptionTargetKey,
} from '../../../src-main/core/health/health-check-job';
import { PortHealthReader } from '../../../src-main/core/health/port-health-reader';
import { HealthStore } from '../../../src-main/core/health/health-store';
import { probeProxy, type ProbeRequest } from '../../../src-main/core/proxy-test/proxy-probe';
import { SANDBOX_ECHO_URL } from '../../../src-main/core/proxy-test/proxy-test-service';
import { advanceBoth, PROFILE, portsKit, type PortsKit } from '../ports/ports-test-kit';

/*
 * The health-check job against the sandbox's gateway over real sockets, on a fake clock kept in step
 * with the sandbox's: an outage (the control API's offline modem) makes the port down after three
 * failed checks and up again after two good ones, at the clock's times.
 */

let sandbox: TestSandbox;
let kit: PortsKit;
let dir: string;
let store: HealthStore;
let job: HealthCheckJob | null = null;

beforeEach(async () => {
  sandbox = await TestSandbox.start();
  kit = portsKit(sandbox);
  dir = mkdtempSync(join(tmpdir(), 'health-job-'));
  store = HealthStore.open(join(dir, 'health.sqlite'));
});

afterEach(async () => {
  await job?.stop();
  job = null;
  store.close();
  rmSync(dir, { recursive: true, force: true });
  await sandbox.close();
});

const POLICY: HealthCheckPolicy = { portsEverySeconds: 300, downAfter: 3, upAfter: 2 };

function startJob(
  portIds: string[] | null,
  policy: () => HealthCheckPolicy = () => POLICY,
  subscriptions?: () => Promise<readonly Subscription[]>,
) {
  const changes: HealthStatusChange[] = [];
  const requests: { at: number; request: ProbeRequest }[] = [];
  job = new HealthCheckJob({
    clock: kit.clock,
    store: () => store,
    profileIds: () => [PROFILE],
    ports: async (profileId) =>
      (await kit.ports.refresh(profileId)).filter((port) => portIds === null || portIds.includes(port.id)),
    ...(subscriptions ? { subscriptions } : {}),
    policy,
    checkUrlFor: () => SANDBOX_ECHO_URL,
    probe: (request) => {
      requests.push({ at: kit.clock.now(), request });
      return probeProxy(request, { clock: kit.clock });
    },
    onStatusChange: (change) => changes.push(change),
    random: () => 0.5,
    startDelayMs: 0,
  });
  job.start();
  return { changes, requests };
}

/** Moves both clocks by `seconds` and waits for the checks that came due. */
async function step(seconds: number): Promise<void> {
  await advanceBoth(sandbox, kit.clock, seconds);
  await job?.whenIdle();
}

describe('HealthCheckJob', () => {
  it('marks a port down after 3 failed checks and up after 2 good ones, at the clock’s times', async () => {
    const port = await manualPort(sandbox);
    const t0 = kit.clock.now();
    const { changes, requests } = startJob([port.id]);
    await job?.whenIdle();
    expect(changes.map((c) => [c.status.status, c.status.since])).toEqual([['up', t0]]);
    // The modem goes away for 16 minutes (sandbox clock): the checks at 5, 10 and 15 minutes fail.
    await sandbox.control('POST', '/mobile/offline', { portId: port.id, seconds: 16 * 60 });
    await step(300);
    await step(300);
    expect(job?.status(portTargetKey(PROFILE, port.id))).toMatchObject({ status: 'up', failuresInARow: 2 });
    await step(300);
    expect(changes.at(-1)?.status).toMatchObject({ status: 'down', since: t0 + 900_000, failuresInARow: 3 });
    expect(changes.at(-1)?.check).toMatchObject({ ok: false, status: 503, errorKind: 'unavailable' });
    expect(changes.at(-1)?.check.error).toContain('Modem offline');
    await step(300); // t0 + 20 min: back since t0 + 16 min
    expect(job?.status(portTargetKey(PROFILE, port.id))).toMatchObject({
      status: 'down',
      successesInARow: 1,
    });
    await step(300);
    expect(changes.map((c) => [c.previous, c.status.status, c.status.since])).toEqual([
      ['unknown', 'up', t0],
      ['up', 'down', t0 + 900_000],
      ['down', 'up', t0 + 1_500_000],
    ]);
    // One request per 5 minutes, with the port's own credentials, to the sandbox's echo.
    expect(requests.map((r) => (r.at - t0) / 1000)).toEqual([0, 300, 600, 900, 1200, 1500]);
    expect(requests[0]?.request).toMatchObject({ username: port.username, echoUrl: SANDBOX_ECHO_URL });
    const stored = store.recentChecks(portTargetKey(PROFILE, port.id));
    expect(stored.map((c) => c.ok)).toEqual([true, true, false, false, false, true]);
    expect(stored[0]).toMatchObject({ exitIp: port.currentIp, country: port.country, status: 200 });
    expect(stored[0]?.asn).toBeGreaterThanOrEqual(64512);
    const minutes = store.totals(portTargetKey(PROFILE, port.id), 'minute', t0, t0 + 3_600_000);
    expect([minutes.checks, minutes.failures]).toEqual([6, 3]);
  });

  it('paces the starts evenly over the interval: 4 ports at 300 s start 75 s apart', async () => {
    const { requests } = startJob(null);
    const t0 = kit.clock.now();
    await job?.whenIdle();
    for (let i = 0; i < 8; i += 1) await step(75);
    const offsets = requests.map((r) => (r.at - t0) / 1000);
    const active = (await kit.ports.refresh(PROFILE)).filter((p) => p.status === 'active').length;
    expect(active).toBeGreaterThan(1);
    const gap = 300 / active;
    // Each start at least one gap after the one before; every port checked once per interval.
    offsets
      .slice(1)
      .forEach((offset, i) => expect(offset - (offsets[i] as number)).toBeGreaterThanOrEqual(gap));
    const perPort = new Map<string, number>();
    for (const r of requests) perPort.set(r.request.username, (perPort.get(r.request.username) ?? 0) + 1);
    expect([...perPort.values()].every((n) => n === 3 || n === 2)).toBe(true);
    expect(perPort.size).toBe(active);
  });

  it('replays the stored checks after a restart: a port down stays down until 2 good checks', async () => {
    const port = await manualPort(sandbox);
    startJob([port.id]);
    await job?.whenIdle();
    await sandbox.control('POST', '/mobile/offline', { portId: port.id, seconds: 3600 });
    for (let i = 0; i < 3; i += 1) await step(300);
    expect(job?.status(portTargetKey(PROFILE, port.id))?.status).toBe('down');
    await job?.stop();
    await sandbox.control('POST', '/mobile/offline', { portId: port.id, seconds: 0 });
    const { changes } = startJob([port.id]);
    await job?.whenIdle();
    expect(job?.status(portTargetKey(PROFILE, port.id))).toMatchObject({
      status: 'down',
      successesInARow: 1,
    });
    await step(300);
    expect(changes.map((c) => [c.previous, c.status.status])).toEqual([['down', 'up']]);
  });

  it('checks nothing when turned off (0), and starts when turned on', async () => {
    let policy = { ...POLICY, portsEverySeconds: 0 };
    const { requests } = startJob(null, () => policy);
    await step(600);
    expect(requests).toHaveLength(0);
    policy = POLICY;
    await step(60);
    expect(requests.length).toBeGreaterThan(0);
  });

  it('checks a subscription through its main user when turned on: a password changed elsewhere makes it down', async () => {
    const sub = await subscriptionByLabel(sandbox, SEEDED_SUBSCRIPTION_LABELS.neverExpires);
    // The job's list as read before the reset: it still has the old password.
    const held = (
      await kit.api.forProfile(PROFILE, 'authenticated', (client) => client.listSubscriptions())
    ).filter((s) => s.id === sub.id);
    const t0 = kit.clock.now();
    const { changes, requests } = startJob(
      [],
      () => ({ ...POLICY, portsEverySeconds: 0, subscriptionsEverySeconds: 300 }),
      () => Promise.resolve(held),
    );
    await job?.whenIdle();
    expect(requests.map((r) => r.request.username)).toEqual([sub.username]);
    await kit.api.forProfile(PROFILE, 'authenticated', (client) => client.resetSubscriptionPassword(sub.id));
    for (let i = 0; i < 3; i += 1) await step(300);
    const key = subscriptionTargetKey(PROFILE, sub.id);
    expect(changes.map((c) => [c.kind, c.id, c.status.status, (c.status.since ?? 0) - t0])).toEqual([
      ['subscription', sub.id, 'up', 0],
      ['subscription', sub.id, 'down', 900_000],
    ]);
    expect(store.recentChecks(key)[0]).toMatchObject({ ok: false, status: 407, errorKind: 'credentials' });
    const reader = new PortHealthReader({
      store: () => store,
      now: () => kit.clock.now(),
      thresholds: () => POLICY,
      receipts: () => Promise.resolve({}),
    });
    expect(reader.subscriptions(PROFILE, [sub.id])).toEqual([
      expect.objectContaining({
        subscriptionId: sub.id,
        status: 'down',
        failuresInARow: 3,
        uptime24h: 0.25,
        checks24h: 4,
      }),
    ]);
  });
});
