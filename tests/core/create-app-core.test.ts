import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { probeBaseUrl, ProxyServiceClient } from '../../src-main/api';
import type { AppCore } from '../../src-main/core/app-core';
import { buildAppCore } from '../../src-main/core/create-app-core';
import { FakeClock } from '../../src-main/core/runtime/fake-clock';
import { SessionSecretStore } from '../../src-main/core/secrets/session-secret-store';
import { SettingsStore } from '../../src-main/core/settings/settings-store';
import { DEMO_KEY, TestSandbox } from '@proxy-manager/sandbox/testing';

/** The composition root's wiring between services that do not know each other. */
describe('buildAppCore wiring', () => {
  let sandbox: TestSandbox;
  let core: AppCore;

  beforeEach(async () => {
    sandbox = await TestSandbox.start();
    core = buildAppCore({
      mode: 'web',
      settings: await SettingsStore.open({ dataDir: mkdtempSync(join(tmpdir(), 'pm-wiring-')) }),
      keychain: new SessionSecretStore(),
      keychainStatus: () => ({ available: true }),
      createClient: (config) => new ProxyServiceClient(config),
      probeBaseUrl: (baseUrl) => probeBaseUrl(baseUrl),
      startDemoSandbox: () => Promise.reject(new Error('no demo here')),
      clock: new FakeClock(Date.parse('2026-03-10T12:00:00.000Z')),
    });
  });

  afterEach(async () => {
    await core.dispose();
    await sandbox.close();
  });

  const subscriptionReads = async (): Promise<number> =>
    (await sandbox.requests()).filter((r) => r.path.endsWith('/v1/residential/subscriptions')).length;

  it('a profile that lives only in memory (a key from the environment) is polled at once, with no clock moving', async () => {
    // The jobs start before the environment profile exists, so the poller first waits with nothing to do;
    // the profile changes no setting, and the clock never moves here: only the profile change can wake it.
    await core.start({ environment: { apiKey: DEMO_KEY, baseUrl: sandbox.baseUrl } });
    for (let i = 0; i < 1000 && (await subscriptionReads()) === 0; i += 1)
      await new Promise((resolve) => setTimeout(resolve, 2));
    expect(await subscriptionReads()).toBe(1);
  });
});
