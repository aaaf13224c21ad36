import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AppCore } from '../../src-main/core/app-core';
import { FakeClock } from '../../src-main/core/runtime/fake-clock';
import { DEMO_KEY, TestSandbox } from '@proxy-manager/sandbox/testing';
import { createHarness } from './support/core-harness';

/** The composition root's wiring between services that do not know each other. */
describe('buildAppCore wiring', () => {
  let sandbox: TestSandbox;
  let core: AppCore;

  beforeEach(async () => {
    sandbox = await TestSandbox.start();
    ({ core } = await createHarness(sandbox, {
      clock: new FakeClock(Date.parse('2026-03-10T12:00:00.000Z')),
    }));
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
