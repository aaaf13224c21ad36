import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { manualPort, TestSandbox } from '@proxy-manager/sandbox/testing';
import { probeProxy, type ProbeRequest } from '../../../src-main/core/proxy-test/proxy-probe';
import { FakeClock } from '../../../src-main/core/runtime/fake-clock';
import type { LocalProxiesChanged, LocalProxyHealth, PortHealthChanged } from '../../../src-shared/contract';
import { freePort } from '../local-proxies/support/proxy-clients';
import { createHarness, type Harness } from '../support/core-harness';

/*
 * Health checks of a local proxy, through the composition root: a real local proxy (with a local
 * login) chained to a demo port of the sandbox, checked through its own listening address on the
 * core's fake clock. The port's modem going offline makes the local proxy down after three failed
 * checks and up after two good ones; the Local proxies list and its live push say so, and
 * `ports:healthChanged` tells the windows at once.
 */

const START = Date.parse('2026-03-10T12:00:00.000Z');
const EVERY_S = 60;
/** The job's first checks wait this long after the core starts. */
const START_DELAY_MS = 60_000;

let sandbox: TestSandbox;
let clock: FakeClock;
let h: Harness;
let probes: ProbeRequest[];

beforeEach(async () => {
  sandbox = await TestSandbox.start();
  await sandbox.advance(60);
  clock = new FakeClock(START);
  probes = [];
  h = await createHarness(sandbox, {
    clock,
    // No jitter: each check comes exactly one interval after the one before.
    random: () => 0.5,
    probe: (request) => {
      probes.push(request);
      return probeProxy(request, { clock });
    },
  });
  await h.core.start();
  await h.call('demo:start');
});

afterEach(async () => {
  await h.core.dispose();
  await sandbox.close();
});

const healthOf = async (id: string): Promise<LocalProxyHealth | null> =>
  (await h.call('localProxies:list')).proxies.find((proxy) => proxy.id === id)?.health ?? null;

const changes = (): PortHealthChanged[] =>
  h.allEvents
    .filter((event) => event.channel === 'ports:healthChanged')
    .map((event) => event.payload as PortHealthChanged);

/**
 * Moves the core's clock to the next check (never past it: the check's deadline sleeps on the same
 * clock) and waits, in real time and bounded, until that check is stored.
 */
async function nextCheck(id: string, count: number, ms = EVERY_S * 1000): Promise<LocalProxyHealth> {
  await clock.advance(ms);
  const at = new Date(clock.now()).toISOString();
  await vi.waitFor(
    async () => {
      expect((await healthOf(id))?.lastCheck?.at).toBe(at);
      expect(probes).toHaveLength(count);
    },
    { timeout: 30_000, interval: 20 },
  );
  return (await healthOf(id)) as LocalProxyHealth;
}

describe('health checks of a local proxy', () => {
  it('go through its own address with its local login; down after 3 failures, up after 2 successes', async () => {
    await h.call('settings:update', {
      healthChecks: { portsEverySeconds: 0, localProxiesEverySeconds: EVERY_S },
    });
    const port = await manualPort(sandbox);
    const listenPort = await freePort();
    const local = await h.call('localProxies:add', {
      upstream: { kind: 'port', portId: port.id },
      listenPort,
      auth: { username: 'tool', password: 'local-secret-1' },
    });
    expect(local.health).toBeNull();
    const t0 = clock.now();

    const first = await nextCheck(local.id, 1, START_DELAY_MS);
    expect(probes[0]).toMatchObject({
      host: '127.0.0.1',
      port: listenPort,
      username: 'tool',
      password: 'local-secret-1',
    });
    expect(first).toMatchObject({
      status: 'up',
      statusSince: new Date(t0 + START_DELAY_MS).toISOString(),
      failuresInARow: 0,
      lastCheck: { ok: true, status: 200, exitIp: port.currentIp },
    });

    await sandbox.control('POST', '/mobile/offline', { portId: port.id, seconds: 3600 });
    expect(await nextCheck(local.id, 2)).toMatchObject({ status: 'up', failuresInARow: 1 });
    expect(await nextCheck(local.id, 3)).toMatchObject({ status: 'up', failuresInARow: 2 });
    const pushesBefore = h.allEvents.filter((event) => event.channel === 'localProxies:changed').length;
    const down = await nextCheck(local.id, 4);
    const downAt = new Date(t0 + START_DELAY_MS + 3 * EVERY_S * 1000).toISOString();
    expect(down).toMatchObject({
      status: 'down',
      statusSince: downAt,
      failuresInARow: 3,
      lastCheck: { ok: false, status: 503 },
    });
    expect(down.lastCheck?.error).toContain('Modem offline');
    // The list's live push carries the new status at once (not at the next traffic push).
    const pushed = h.allEvents
      .filter((event) => event.channel === 'localProxies:changed')
      .slice(pushesBefore)
      .map((event) => event.payload as LocalProxiesChanged);
    expect(pushed.some((payload) => payload.proxies[0]?.health?.status === 'down')).toBe(true);

    await sandbox.control('POST', '/mobile/offline', { portId: port.id, seconds: 0 });
    expect(await nextCheck(local.id, 5)).toMatchObject({ status: 'down', failuresInARow: 0 });
    const upAt = new Date(t0 + START_DELAY_MS + 5 * EVERY_S * 1000).toISOString();
    expect(await nextCheck(local.id, 6)).toMatchObject({ status: 'up', statusSince: upAt });

    expect(
      changes().map((change) => [change.kind, change.id, change.previous, change.status, change.statusSince]),
    ).toEqual([
      ['localProxy', local.id, 'unknown', 'up', new Date(t0 + START_DELAY_MS).toISOString()],
      ['localProxy', local.id, 'up', 'down', downAt],
      ['localProxy', local.id, 'down', 'up', upAt],
    ]);
    // Ports' checks are off here: every check went through the local proxy.
    expect(probes.every((probe) => probe.port === listenPort)).toBe(true);
  });

  it('stop when the local proxy stops (a stopped one is not down) and are off with their interval at 0', async () => {
    await h.call('settings:update', {
      healthChecks: { portsEverySeconds: 0, localProxiesEverySeconds: EVERY_S },
    });
    const port = await manualPort(sandbox);
    const local = await h.call('localProxies:add', {
      upstream: { kind: 'port', portId: port.id },
      listenPort: await freePort(),
    });
    await nextCheck(local.id, 1, START_DELAY_MS);
    await h.call('localProxies:stop', { id: local.id });
    await clock.advance(EVERY_S * 1000);
    await clock.advance(EVERY_S * 1000);
    expect(probes).toHaveLength(1);
    expect(await healthOf(local.id)).toMatchObject({ status: 'up', failuresInARow: 0 });

    // Started again: it joins the checks at the job's next wake (at most a minute with nothing else).
    await h.call('localProxies:start', { id: local.id });
    expect((await nextCheck(local.id, 2)).lastCheck?.ok).toBe(true);
    await h.call('settings:update', { healthChecks: { localProxiesEverySeconds: 0 } });
    for (let i = 0; i < 6; i += 1) await clock.advance(EVERY_S * 1000);
    expect(probes).toHaveLength(2);
  });
});
