import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SessionSecretStore } from '../../../src-main/core/secrets/session-secret-store';
import { JobStateStore } from '../../../src-main/core/storage/job-state-store';
import { DEMO_KEY, TEST_START_TIME, TestSandbox } from '@proxy-manager/sandbox/testing';
import { FakeClock } from '../../../src-main/core/runtime/fake-clock';
import { createHarness, type Harness } from '../support/core-harness';

// A top-up whose answer was lost when the app died (the service made it; the app never heard) is
// resumed by the next start with the same Idempotency-Key, whichever way that start gets its key.

const ATTEMPT = '6f1c1f0e-8a4b-4f5e-9d3c-2b7a1e0c9d11';
const ORDER = { amountUsd: '31.91', coin: 'USDT', network: 'tron', attemptId: ATTEMPT } as const;

type StartMode = 'keychain' | 'environment' | 'profile with an environment key';

let sandbox: TestSandbox;
let cores: Harness[];

beforeEach(async () => {
  sandbox = await TestSandbox.start();
  cores = [];
});

afterEach(async () => {
  for (const harness of cores) await harness.core.dispose();
  await sandbox.close();
});

async function startCore(mode: StartMode, dataDir: string, keychain: SessionSecretStore): Promise<Harness> {
  const harness = await createHarness(sandbox, {
    dataDir,
    keychain,
    jobState: await JobStateStore.open({ dataDir }),
    // The app's clock and the sandbox's agree, as they would within minutes in real life.
    clock: new FakeClock(Date.parse(TEST_START_TIME)),
  });
  cores.push(harness);
  const environment = { apiKey: DEMO_KEY, baseUrl: sandbox.baseUrl };
  if (mode === 'environment') await harness.core.start({ environment });
  else if (mode === 'profile with an environment key')
    await harness.core.start({ profileName: 'Main', environment: { apiKey: DEMO_KEY } });
  else await harness.core.start({});
  return harness;
}

async function topUpsOfThisOrder(): Promise<{ id: string }[]> {
  const answer = await sandbox.request<{ data: { id: string; amountUsd: string }[] }>(
    'GET',
    '/v1/topups?perPage=100',
  );
  return answer.json.data.filter((topUp) => topUp.amountUsd === ORDER.amountUsd);
}

describe.each<StartMode>(['keychain', 'environment', 'profile with an environment key'])(
  'a top-up lost in a crash, restarted with %s',
  (mode) => {
    it('is resumed by itself with the same Idempotency-Key and shows as pending', async () => {
      const dataDir = mkdtempSync(join(tmpdir(), 'pm-resume-'));
      // The OS keychain survives the restart; a session key (the `--profile` case) does not.
      const keychain = new SessionSecretStore();
      const first = await startCore(mode === 'environment' ? 'environment' : 'keychain', dataDir, keychain);
      if (mode !== 'environment') {
        await first.call('profiles:create', {
          name: 'Main',
          baseUrl: sandbox.baseUrl,
          apiKey: DEMO_KEY,
          storage: mode === 'keychain' ? 'keychain' : 'session',
        });
      }
      // The service makes the top-up; every answer to the create is lost.
      await sandbox.fault({ match: '/v1/topups', status: 503, phase: 'after', times: 10 });
      await expect(first.call('topups:create', ORDER)).rejects.toMatchObject({ outcomeUnknown: true });
      await first.core.dispose();
      cores = [];
      await sandbox.control('DELETE', '/faults');
      expect(await topUpsOfThisOrder()).toHaveLength(1);

      const second = await startCore(mode, dataDir, keychain);
      await vi.waitFor(
        async () => {
          const pending = await second.call('topups:pending');
          const [made] = await topUpsOfThisOrder();
          expect(pending.map((topUp) => topUp.topUpId)).toContain(made?.id);
        },
        { timeout: 10_000, interval: 20 },
      );
      const creates = (await sandbox.requests()).filter(
        (request) => request.method === 'POST' && request.path.endsWith('/v1/topups'),
      );
      expect(new Set(creates.map((request) => request.idempotencyKey)).size).toBe(1);
      expect(await topUpsOfThisOrder()).toHaveLength(1);

      // The page's retry of the same attempt answers that top-up, never a second one.
      const retried = await second.call('topups:create', ORDER);
      expect(retried.id).toBe((await topUpsOfThisOrder())[0]?.id);
      expect(await topUpsOfThisOrder()).toHaveLength(1);
    });
  },
);

describe('an attempt begun under another profile', () => {
  it('answers the top-up the account already holds for it, and never makes a second one', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'pm-resume-'));
    const harness = await startCore('keychain', dataDir, new SessionSecretStore());
    const profileOf = async (name: string) => {
      const state = await harness.call('profiles:create', {
        name,
        baseUrl: sandbox.baseUrl,
        apiKey: DEMO_KEY,
        storage: 'session',
      });
      return state.profiles.find((profile) => profile.name === name)?.id as string;
    };
    const home = await profileOf('Home');
    await harness.call('profiles:switch', { profileId: home });
    const made = await harness.call('topups:create', ORDER);
    const work = await profileOf('Work');
    await harness.call('profiles:switch', { profileId: work });

    expect((await harness.call('topups:create', ORDER)).id).toBe(made.id);
    expect(await topUpsOfThisOrder()).toHaveLength(1);
  });

  it('finds the top-up whose answer was lost by its amount, coin, network and time', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'pm-resume-'));
    const harness = await startCore('keychain', dataDir, new SessionSecretStore());
    await harness.call('profiles:create', {
      name: 'Home',
      baseUrl: sandbox.baseUrl,
      apiKey: DEMO_KEY,
      storage: 'session',
    });
    await sandbox.fault({ match: '/v1/topups', status: 503, phase: 'after', times: 10 });
    await expect(harness.call('topups:create', ORDER)).rejects.toMatchObject({ outcomeUnknown: true });
    await sandbox.control('DELETE', '/faults');
    const state = await harness.call('profiles:create', {
      name: 'Work',
      baseUrl: sandbox.baseUrl,
      apiKey: DEMO_KEY,
      storage: 'session',
    });
    await harness.call('profiles:switch', {
      profileId: state.profiles.find((p) => p.name === 'Work')?.id as string,
    });

    const [made] = await topUpsOfThisOrder();
    expect((await harness.call('topups:create', ORDER)).id).toBe(made?.id);
    expect(await topUpsOfThisOrder()).toHaveLength(1);
  });

  it('finds none for another order and says to go back, without advising to pay again', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'pm-resume-'));
    const harness = await startCore('keychain', dataDir, new SessionSecretStore());
    await harness.call('profiles:create', {
      name: 'Home',
      baseUrl: sandbox.baseUrl,
      apiKey: DEMO_KEY,
      storage: 'session',
    });
    // A 503 before the service acts: nothing is made, and the attempt's intent is kept (unknown outcome).
    await sandbox.fault({ match: '/v1/topups', status: 503, times: 10 });
    await expect(harness.call('topups:create', ORDER)).rejects.toMatchObject({ outcomeUnknown: true });
    await sandbox.control('DELETE', '/faults');
    const state = await harness.call('profiles:create', {
      name: 'Work',
      baseUrl: sandbox.baseUrl,
      apiKey: DEMO_KEY,
      storage: 'session',
    });
    const work = state.profiles.find((profile) => profile.name === 'Work')?.id as string;
    await harness.call('profiles:switch', { profileId: work });

    const refusal = harness.call('topups:create', ORDER);
    await expect(refusal).rejects.toMatchObject({ code: 'attempt_elsewhere' });
    await expect(refusal).rejects.not.toMatchObject({ message: expect.stringMatching(/start a new/i) });
    expect(await topUpsOfThisOrder()).toHaveLength(0);
  });
});
