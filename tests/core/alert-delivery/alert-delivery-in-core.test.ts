import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { AppCore } from '../../../src-main/core/app-core';
import type { JobsOwnership } from '../../../src-main/core/runtime/background-jobs';
import { FakeClock } from '../../../src-main/core/runtime/fake-clock';
import { DEMO_KEY, manualPort, TestSandbox } from '@proxy-manager/sandbox/testing';
import { createHarness } from '../support/core-harness';
import { HttpReceiver } from './support/receivers';
import { probeProxy, type ProbeRequest } from '../../../src-main/core/proxy-test/proxy-probe';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** Polls in real time for work the fake clock set off; the bound only turns a hang into a failure. */
async function until(done: () => boolean, boundMs = 30_000): Promise<void> {
  const start = Date.now();
  while (!done() && Date.now() - start < boundMs) await new Promise((resolve) => setTimeout(resolve, 2));
}

const notOwner: JobsOwnership = {
  status: () => ({ owner: false, message: 'Background jobs run in the desktop app (pid 1).' }),
  onChange: () => () => undefined,
};

describe('alert delivery in the composed core', () => {
  it('sends a published event from the job of the process that owns the jobs, with no clock moving', async () => {
    const clock = new FakeClock(Date.parse('2026-03-10T12:00:00.000Z'));
    const receiver = new HttpReceiver(() => clock.now());
    await receiver.start();
    cleanups.push(() => receiver.stop());
    const harness = await createHarness(null, { clock });
    const core: AppCore = harness.core;
    cleanups.push(() => core.dispose());
    await core.start();
    const { channel } = await harness.call('alertRouting:addChannel', {
      kind: 'webhook',
      name: 'Ops',
      url: receiver.url,
    });
    expect(
      core.services.alertRouting.publish({
        type: 'topup.credited',
        id: 'evt_core_1',
        data: { profileId: 'p', topUpId: 'tu_1', summary: '$50.00 credited.' },
      }),
    ).toBe(true);
    await until(() => receiver.requests.length > 0);
    expect(receiver.requests.map((r) => r.headers['webhook-id'])).toEqual(['evt_core_1']);
    await until(() => (core.services.alertRouting.nextDue() ?? 0) === 0 && receiver.requests.length === 1);
    const log = await harness.call('alertRouting:deliveries', { limit: 5 });
    expect(log.sendsHere).toBe(true);
    expect(log.entries).toMatchObject([{ eventId: 'evt_core_1', channelId: channel.id }]);
  });

  it('queues but does not send in a process that does not own the jobs', async () => {
    const clock = new FakeClock(Date.parse('2026-03-10T12:00:00.000Z'));
    const receiver = new HttpReceiver(() => clock.now());
    await receiver.start();
    cleanups.push(() => receiver.stop());
    const harness = await createHarness(null, { clock, jobsOwnership: notOwner });
    cleanups.push(() => harness.core.dispose());
    await harness.core.start();
    await harness.call('alertRouting:addChannel', { kind: 'webhook', name: 'Ops', url: receiver.url });
    harness.core.services.alertRouting.publish({
      type: 'topup.credited',
      id: 'evt_core_2',
      data: { profileId: 'p', topUpId: 'tu_1', summary: 'ok' },
    });
    await clock.advance(60_000);
    const log = await harness.call('alertRouting:deliveries', undefined);
    expect(log.sendsHere).toBe(false);
    expect(log.entries).toMatchObject([{ eventId: 'evt_core_2', status: 'pending', attempts: 0 }]);
    expect(receiver.requests).toHaveLength(0);
  });
});

describe('a damaged queue file', () => {
  it('is moved aside and a new queue started, so the core still starts and delivers', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pm-alert-bad-'));
    const file = join(dir, 'alert-delivery.sqlite');
    writeFileSync(file, 'this is not a database, just enough bytes to look like a damaged file '.repeat(20));
    const harness = await createHarness(null, { alertDeliveryDatabase: file });
    cleanups.push(() => harness.core.dispose());
    await harness.core.start();
    expect(await harness.call('alertRouting:channels', undefined)).toEqual([]);
    expect(readdirSync(dir).some((name) => name.startsWith('alert-delivery.sqlite.unreadable-'))).toBe(true);
  });
});

describe('sending through a mobile port', () => {
  it('goes out through the port’s gateway with its credentials (the sandbox’s gateway answers for any host)', async () => {
    const sandbox = await TestSandbox.start();
    cleanups.push(() => sandbox.close());
    const harness = await createHarness(sandbox, {
      clock: new FakeClock(Date.parse('2026-03-10T12:00:00.000Z')),
    });
    cleanups.push(() => harness.core.dispose());
    await harness.core.start({ environment: { apiKey: DEMO_KEY, baseUrl: sandbox.baseUrl } });
    const portId = (await harness.call('ports:list')).rows[0]?.[0];
    if (typeof portId !== 'string') throw new Error('the sandbox has no port');
    // An address this offline machine cannot reach: only the gateway can answer it.
    const { channel } = await harness.call('alertRouting:addChannel', {
      kind: 'webhook',
      name: 'Via port',
      url: 'http://alerts.example.invalid/hook',
      portId,
    });
    expect(channel.viaPort).toEqual({ profileId: expect.any(String), portId });
    harness.core.services.alertRouting.publish({
      type: 'port.up',
      id: 'evt_via_port',
      data: { profileId: 'p', portId, label: null, downSince: null },
    });
    // The demo account's own alerts (its usage poller runs) may be queued too; every one goes the same way.
    let entries: { eventId: string; status: string; lastError: string | null }[] = [];
    const allSent = () => entries.length > 0 && entries.every((entry) => entry.status === 'sent');
    for (let i = 0; i < 1000 && !allSent(); i += 1) {
      entries = (await harness.call('alertRouting:deliveries', undefined)).entries;
      await new Promise((resolve) => setTimeout(resolve, 4));
    }
    expect(entries.find((entry) => entry.eventId === 'evt_via_port')).toMatchObject({
      status: 'sent',
      lastError: null,
    });
    expect(allSent()).toBe(true);
  });
});

describe('a channel that keeps failing', () => {
  it('is on the overview (Now once alerts were given up on), counted on Settings, and leaves it once it works', async () => {
    const sandbox = await TestSandbox.start();
    cleanups.push(() => sandbox.close());
    const clock = new FakeClock(Date.parse('2026-03-10T12:00:00.000Z'));
    const receiver = new HttpReceiver(() => clock.now());
    await receiver.start();
    cleanups.push(() => receiver.stop());
    receiver.failWith = 404;
    const harness = await createHarness(sandbox, { clock });
    cleanups.push(() => harness.core.dispose());
    await harness.core.start({ environment: { apiKey: DEMO_KEY, baseUrl: sandbox.baseUrl } });
    const { channel } = await harness.call('alertRouting:addChannel', {
      kind: 'webhook',
      name: 'Ops hook',
      url: receiver.url,
    });
    const before = await harness.call('overview:get', undefined);
    expect(before.items.filter((item) => item.kind === 'alert_channel_failing')).toEqual([]);

    // A 404 is not retried: the alert is a dead letter at once.
    harness.core.services.alertRouting.publish({
      type: 'topup.credited',
      id: 'evt_lost_1',
      data: { profileId: 'p', topUpId: 'tu_1', summary: '$50.00 credited.' },
    });
    await until(() => core(harness).alertRouting.failingChannels().length > 0);
    const failing = await harness.call('overview:get', undefined);
    const item = failing.items.find((entry) => entry.kind === 'alert_channel_failing');
    expect(item).toMatchObject({
      id: `alert_channel_failing:${channel.id}`,
      level: 'error',
      levelWord: 'Now',
      title: 'Alert channel “Ops hook” keeps failing',
      screen: 'settings',
      route: '/settings/alert-channels',
      action: { kind: 'open', label: 'Open alert channels' },
    });
    // The sandbox account's own alerts (its usage poller runs) may be given up on beside this one.
    expect(item?.detail).toMatch(
      /^Last error: The webhook answered HTTP 404\. \d+ alerts? (was|were) given up on/,
    );
    expect(failing.badges.settings).toBe(1);
    expect(failing.allGood).toBe(false);

    // The receiver is back and the dead letter is sent again: the item goes.
    receiver.failWith = null;
    await harness.call('alertRouting:retryDead', { channelId: channel.id });
    await until(() => core(harness).alertRouting.failingChannels().length === 0);
    const after = await harness.call('overview:get', undefined);
    expect(after.items.filter((entry) => entry.kind === 'alert_channel_failing')).toEqual([]);
    expect(after.badges.settings).toBe(0);
  });
});

const core = (harness: { core: AppCore }) => harness.core.services;

describe('a port’s health checks, end to end', () => {
  it(
    'send port.down after the checks fail 3 times in a row, and port.up once it answers again',
    { timeout: 120_000 },
    async () => {
      const sandbox = await TestSandbox.start();
      cleanups.push(() => sandbox.close());
      const clock = new FakeClock(Date.parse(await sandbox.now()));
      const receiver = new HttpReceiver(() => clock.now());
      await receiver.start();
      cleanups.push(() => receiver.stop());
      // The real probe, counted: a minute is over once the checks it started have ended.
      let checksUnderWay = 0;
      const probe = async (request: ProbeRequest) => {
        checksUnderWay += 1;
        try {
          return await probeProxy(request, { clock });
        } finally {
          checksUnderWay -= 1;
        }
      };
      // No jitter: each port is checked exactly once a minute.
      const harness = await createHarness(sandbox, { clock, random: () => 0.5, probe });
      cleanups.push(() => harness.core.dispose());
      await harness.core.start({ environment: { apiKey: DEMO_KEY, baseUrl: sandbox.baseUrl } });
      // The gateway answers a plain-http echo itself; one check a minute.
      await harness.call('settings:update', {
        healthChecks: { portsEverySeconds: 60, checkUrl: 'http://127.0.0.1:9/ip' },
      });
      await harness.call('alertRouting:addChannel', { kind: 'webhook', name: 'Ops', url: receiver.url });
      const port = await manualPort(sandbox);
      const typesFor = () =>
        receiver.requests
          .map((request) => JSON.parse(request.body) as { type: string; data: { portId?: string } })
          .filter((event) => event.data.portId === port.id && event.type.startsWith('port.'))
          .map((event) => event.type);
      // The seeded ports' checks are spread over each minute (15 s apart). The fake clock moves in
      // steps shorter than a check's 10 s deadline and waits for the checks a step started, so no
      // check times out only because fake time outran the real proxy. The sandbox is a step ahead:
      // every check in minute m sees the sandbox at minute m.
      const minute = async () => {
        await sandbox.advance(60);
        for (let step = 0; step < 12; step += 1) {
          await clock.advance(5_000);
          await until(() => checksUnderWay === 0);
        }
        await clock.settle();
      };
      await sandbox.control('POST', '/mobile/offline', { portId: port.id, seconds: 5 * 60 });
      // The first check comes a minute after the start; three failed ones make it down.
      for (let i = 0; i < 4; i += 1) await minute();
      await until(() => typesFor().length > 0);
      expect(typesFor()).toEqual(['port.down']);
      // Back after 5 minutes: two good checks make it up.
      for (let i = 0; i < 4; i += 1) await minute();
      await until(() => typesFor().length > 1);
      expect(typesFor()).toEqual(['port.down', 'port.up']);
    },
  );
});
