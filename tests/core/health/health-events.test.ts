import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { manualPort, TestSandbox } from '@proxy-manager/sandbox/testing';
import type { HealthCheckJob } from '../../../src-main/core/health/health-check-job';
import { HealthStore } from '../../../src-main/core/health/health-store';
import { healthChecksJob } from '../../../src-main/core/health/health-wiring';
import { probeProxy } from '../../../src-main/core/proxy-test/proxy-probe';
import { SANDBOX_ECHO_URL } from '../../../src-main/core/proxy-test/proxy-test-service';
import type { SettingsView } from '../../../src-shared/contract';
import { advanceBoth, PROFILE, portsKit, type PortsKit } from '../ports/ports-test-kit';

/*
 * `ports:healthChanged` from the health checks' own status changes, against the sandbox gateway on
 * a fake clock kept in step with the sandbox's: the event carries the port, the old and new status,
 * when it changed and the check that changed it, at the clock's times.
 */

let sandbox: TestSandbox;
let kit: PortsKit;
let dir: string;
let store: HealthStore;
let job: HealthCheckJob | null = null;

beforeEach(async () => {
  sandbox = await TestSandbox.start();
  kit = portsKit(sandbox);
  dir = mkdtempSync(join(tmpdir(), 'health-events-'));
  store = HealthStore.open(join(dir, 'health.sqlite'));
});

afterEach(async () => {
  await job?.stop();
  job = null;
  store.close();
  rmSync(dir, { recursive: true, force: true });
  await sandbox.close();
});

const settings = (): Pick<SettingsView, 'healthChecks' | 'proxyTest'> => ({
  healthChecks: {
    portsEverySeconds: 300,
    subscriptionsEverySeconds: 0,
    localProxiesEverySeconds: 0,
    downAfter: 3,
    upAfter: 2,
    checkUrl: null,
    repeatWindowHours: 24,
    repeatWindowRotations: 50,
    selfHealAfter: 0,
  },
  proxyTest: { ipEchoUrl: 'https://ip.example.invalid/' },
});

/** Moves both clocks by `seconds` (never past a check's deadline) and waits for the checks due. */
async function step(seconds: number): Promise<void> {
  await advanceBoth(sandbox, kit.clock, seconds);
  await job?.whenIdle();
}

describe('ports:healthChanged', () => {
  it('is sent when the checks move a port up, down and up again, with the check that did it', async () => {
    const port = await manualPort(sandbox);
    job = healthChecksJob({
      clock: kit.clock,
      store: () => store,
      profileIds: () => [PROFILE],
      settings,
      heldPorts: {
        held: () => null,
        read: async (profileId) => (await kit.ports.refresh(profileId)).filter((p) => p.id === port.id),
      },
      heldSubscriptions: { held: () => null, read: () => Promise.resolve([]) },
      demoEchoUrl: () => SANDBOX_ECHO_URL,
      probe: (request) => probeProxy(request, { clock: kit.clock }),
      random: () => 0.5,
      rotate: () => Promise.reject(new Error('self-heal is off')),
      notice: () => undefined,
      events: kit.events,
      log: () => undefined,
    });
    job.start();
    const t0 = kit.clock.now();
    // The job's first checks wait a minute after it starts.
    await step(60);
    const first = t0 + 60_000;
    expect(kit.events.of('ports:healthChanged')).toEqual([
      {
        profileId: PROFILE,
        kind: 'port',
        id: port.id,
        previous: 'unknown',
        status: 'up',
        statusSince: new Date(first).toISOString(),
        failuresInARow: 0,
        lastCheck: expect.objectContaining({
          at: new Date(first).toISOString(),
          ok: true,
          status: 200,
          exitIp: port.currentIp,
        }),
      },
    ]);
    await sandbox.control('POST', '/mobile/offline', { portId: port.id, seconds: 16 * 60 });
    await step(300);
    await step(300);
    expect(kit.events.of('ports:healthChanged')).toHaveLength(1);
    await step(300);
    const down = kit.events.of('ports:healthChanged')[1];
    expect(down).toMatchObject({
      id: port.id,
      previous: 'up',
      status: 'down',
      statusSince: new Date(first + 900_000).toISOString(),
      failuresInARow: 3,
      lastCheck: { ok: false, status: 503, errorKind: 'unavailable', exitIp: null },
    });
    expect(down?.lastCheck.error).toContain('Modem offline');
    await step(300); // back since 16 minutes: one good check is not enough
    await step(300);
    expect(
      kit.events.of('ports:healthChanged').map((event) => [event.previous, event.status, event.statusSince]),
    ).toEqual([
      ['unknown', 'up', new Date(first).toISOString()],
      ['up', 'down', new Date(first + 900_000).toISOString()],
      ['down', 'up', new Date(first + 1_500_000).toISOString()],
    ]);
  });
});
