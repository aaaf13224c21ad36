import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { probeBaseUrl, ProxyServiceClient } from '../../../src-main/api';
import type { AppCore } from '../../../src-main/core/app-core';
import { buildAppCore } from '../../../src-main/core/create-app-core';
import { SessionSecretStore } from '../../../src-main/core/secrets/session-secret-store';
import { SettingsStore } from '../../../src-main/core/settings/settings-store';
import type { CallChannel, CallInput, CallOutput, EventChannel } from '../../../src-shared/contract';
import { createGuardedDispatcher } from '../../../src-main/dispatch/guarded-dispatcher';
import { createIpcHandlers } from '../../../src-main/dispatch/handler-table';
import { DEMO_KEY, manualPort, TestSandbox } from '@proxy-manager/sandbox/testing';

interface Harness {
  core: AppCore;
  allEvents: { channel: EventChannel; payload: unknown }[];
  call<C extends CallChannel>(channel: C, input: CallInput<C>): Promise<CallOutput<C>>;
}

/** The app core as the shell builds it (memory keychain), called through the guarded dispatcher. */
async function createHarness(): Promise<Harness> {
  const settings = await SettingsStore.open({ dataDir: mkdtempSync(join(tmpdir(), 'pm-ports-')) });
  const core = buildAppCore({
    mode: 'web',
    settings,
    keychain: new SessionSecretStore(),
    keychainStatus: () => ({ available: true }),
    createClient: (config) => new ProxyServiceClient(config),
    probeBaseUrl: (baseUrl) => probeBaseUrl(baseUrl),
    startDemoSandbox: () => Promise.reject(new Error('no demo here')),
  });
  const allEvents: Harness['allEvents'] = [];
  core.subscribe((channel, payload) => allEvents.push({ channel, payload }));
  const dispatch = createGuardedDispatcher({
    handlers: createIpcHandlers(core),
    isTrustedSender: () => true,
    log: () => undefined,
  });
  const call = (async (channel: CallChannel, input?: unknown) => {
    const result = await dispatch('ui', channel, input);
    if (!result.ok) throw Object.assign(new Error(result.error.message), result.error);
    return result.value;
  }) as Harness['call'];
  return { core, allEvents, call };
}

describe('ports calls through the composition root and the guarded dispatcher', () => {
  let sandbox: TestSandbox;
  let h: Harness;

  beforeEach(async () => {
    sandbox = await TestSandbox.start();
    await sandbox.advance(60);
    h = await createHarness();
    await h.call('profiles:create', {
      name: 'Work',
      baseUrl: sandbox.baseUrl,
      pathStyle: 'literal',
      apiKey: DEMO_KEY,
      storage: 'session',
    });
  });

  afterEach(async () => {
    await h.core.dispose();
    await sandbox.close();
  });

  it('rotates from a button, announces progress and keeps the receipt', async () => {
    const port = await manualPort(sandbox);
    const receipt = await h.call('ports:rotate', { portId: port.id });
    expect(receipt).toMatchObject({ portId: port.id, previousIp: port.currentIp, trigger: 'button' });
    const rotation = h.allEvents.filter((e) => e.channel === 'ports:rotation').map((e) => e.payload);
    expect(rotation).toEqual([
      expect.objectContaining({ portId: port.id, phase: 'started', trigger: 'button' }),
      expect.objectContaining({ portId: port.id, phase: 'finished', receipt }),
    ]);
    expect(await h.call('ports:receipts', { portId: port.id })).toEqual([receipt]);
    // A second rotation inside the cooldown: the countdown's retryAfterMs reaches the renderer.
    const refused = await h.call('ports:rotate', { portId: port.id }).catch((e: unknown) => e);
    expect(refused).toMatchObject({ code: 'rotation_too_soon', retryAfterMs: expect.any(Number) });
  });

  it('refuses bad input with field errors before anything is sent', async () => {
    const before = (await sandbox.requests()).length;
    const error = await h
      .call('ports:usage', { portId: 'mp_1', from: '2026-03-10', to: '2026-03-01' })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'invalid_input', fields: [{ field: 'to' }] });
    expect((await sandbox.requests()).length).toBe(before);
  });
});
