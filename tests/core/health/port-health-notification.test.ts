import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { manualPort, TestSandbox } from '@proxy-manager/sandbox/testing';
import type { OsNotice } from '../../../src-main/core/notifications/notification-kinds';
import { probeProxy, type ProbeOutcome } from '../../../src-main/core/proxy-test/proxy-probe';
import { FakeClock } from '../../../src-main/core/runtime/fake-clock';
import type { PortHealthChanged } from '../../../src-shared/contract';
import { createHarness, type Harness } from '../support/core-harness';

/*
 * A port going down and coming back, through the whole composition root on the desktop: the health
 * checks through the demo's ports (sandbox gateway, real sockets) on a fake clock, the port's modem
 * taken offline, `ports:healthChanged` to the windows and an OS notification through the app's
 * notifications path (the user's switch, the focus rule), a click opening the port.
 */

const EVERY_S = 60;

let sandbox: TestSandbox;
let clock: FakeClock;
let h: Harness;
let shown: OsNotice[];
let focused: boolean;
const inFlight = new Set<Promise<ProbeOutcome>>();

beforeEach(async () => {
  sandbox = await TestSandbox.start();
  await sandbox.advance(60);
  clock = new FakeClock(Date.parse('2026-03-10T12:00:00.000Z'));
  shown = [];
  focused = false;
  h = await createHarness(sandbox, {
    mode: 'desktop',
    clock,
    random: () => 0.5,
    notifications: { notifier: { show: (notice) => shown.push(notice) }, isWindowFocused: () => focused },
    probe: (request) => {
      const outcome = probeProxy(request, { clock });
      inFlight.add(outcome);
      void outcome.finally(() => inFlight.delete(outcome));
      return outcome;
    },
  });
  await h.core.start();
  await h.call('demo:start');
  await h.call('settings:update', { healthChecks: { portsEverySeconds: EVERY_S } });
});

afterEach(async () => {
  await h.core.dispose();
  await sandbox.close();
});

/**
 * One second of the core's clock (well under a check's 10 s deadline), then the checks it started
 * answered and stored (real time, bounded by the sandbox answering on loopback).
 */
async function tick(): Promise<void> {
  await clock.advance(1_000);
  while (inFlight.size > 0) {
    await Promise.allSettled([...inFlight]);
    // The job stores the check right after its probe's answer.
    await new Promise((resolve) => setImmediate(resolve));
  }
}

const changesOf = (portId: string): PortHealthChanged[] =>
  h.allEvents
    .filter((event) => event.channel === 'ports:healthChanged')
    .map((event) => event.payload as PortHealthChanged)
    .filter((change) => change.id === portId);

async function tickUntil(done: () => boolean, maxSeconds: number): Promise<void> {
  for (let s = 0; s < maxSeconds && !done(); s += 1) await tick();
  if (!done()) throw new Error(`not within ${maxSeconds} s of the core's clock`);
}

describe('a port down or back up, through the composition root', () => {
  it('is sent to the windows and shown as an OS notification, once each way', async () => {
    const port = await manualPort(sandbox);
    // The first round of checks (a minute after the start): every port up, nothing to notify.
    await tickUntil(() => changesOf(port.id).length === 1, 2 * EVERY_S);
    expect(changesOf(port.id)[0]).toMatchObject({ kind: 'port', previous: 'unknown', status: 'up' });
    expect(shown.filter((notice) => notice.kind === 'port-health')).toEqual([]);

    await sandbox.control('POST', '/mobile/offline', { portId: port.id, seconds: 3600 });
    await tickUntil(() => changesOf(port.id).length === 2, 4 * EVERY_S);
    const down = changesOf(port.id)[1];
    expect(down).toMatchObject({ previous: 'up', status: 'down', failuresInARow: 3 });
    expect(shown.filter((notice) => notice.kind === 'port-health')).toEqual([
      {
        kind: 'port-health',
        title: `Port down: ${port.label}`,
        body: expect.stringMatching(/^3 health checks in a row failed: .*Modem offline/),
        dedupeKey: `port-health:${down?.profileId}:${port.id}:down:${down?.statusSince}`,
        route: `/ports/${port.id}`,
      },
    ]);

    // While a window has focus the window shows it: no OS notification for the way back.
    focused = true;
    await sandbox.control('POST', '/mobile/offline', { portId: port.id, seconds: 0 });
    await tickUntil(() => changesOf(port.id).length === 3, 3 * EVERY_S);
    expect(changesOf(port.id)[2]).toMatchObject({ previous: 'down', status: 'up' });
    expect(shown.filter((notice) => notice.kind === 'port-health')).toHaveLength(1);

    // Unfocused again, with the user's switch off: down again, still nothing shown.
    focused = false;
    await h.call('settings:update', { notifications: { 'port-health': false } });
    await sandbox.control('POST', '/mobile/offline', { portId: port.id, seconds: 3600 });
    await tickUntil(() => changesOf(port.id).length === 4, 4 * EVERY_S);
    expect(changesOf(port.id)[3]).toMatchObject({ status: 'down' });
    expect(shown.filter((notice) => notice.kind === 'port-health')).toHaveLength(1);
  });
});
