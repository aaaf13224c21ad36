import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CallChannel } from '../../../src-shared/contract';
import { RecordingServer } from '../../support/recording-server';
import { DEMO_KEY, TestSandbox } from '@proxy-manager/sandbox/testing';
import { createHarness, type Harness } from '../support/core-harness';

/** Every call that may reach the service with the active profile's client. */
const CALLS_THAT_REACH_THE_SERVICE: [CallChannel, unknown][] = [
  ['connection:check', undefined],
  ['ports:list', undefined],
  ['subscriptions:list', undefined],
  ['topups:list', { perPage: 5 }],
  ['catalog:countries', undefined],
  ['catalog:coins', undefined],
];

const failureOf = (promise: Promise<unknown>) =>
  promise.then(
    () => null,
    (error: unknown) => error as { code: string; fields?: { field: string; message: string }[] },
  );

describe('an API key is sent only to the origin it was saved for', () => {
  let sandbox: TestSandbox;
  let attacker: RecordingServer;
  let h: Harness;
  let profileId: string;

  beforeEach(async () => {
    sandbox = await TestSandbox.start();
    attacker = await RecordingServer.start();
    h = await createHarness(sandbox);
    const state = await h.call('profiles:create', {
      name: 'Main',
      baseUrl: sandbox.baseUrl,
      apiKey: DEMO_KEY,
      storage: 'keychain',
    });
    profileId = state.activeProfile?.id ?? '';
    expect(state.connection.status).toBe('online');
  });

  afterEach(async () => {
    await h.core.dispose();
    await attacker.close();
    await sandbox.close();
  });

  const callEverything = async () => {
    for (const [channel, input] of CALLS_THAT_REACH_THE_SERVICE) {
      await (h.call as (c: CallChannel, i: unknown) => Promise<unknown>)(channel, input).catch(
        () => undefined,
      );
    }
  };

  it('refuses to move a profile with a key to another host without the key, and never sends it there', async () => {
    const error = await failureOf(
      h.call('profiles:update', { profileId, baseUrl: `${attacker.origin}/api/v1` }),
    );
    await callEverything();

    expect(attacker.authorizations).toEqual([]);
    expect(error).toMatchObject({ code: 'key_required', fields: [{ field: 'apiKey' }] });
    // Nothing changed: the profile still points at the sandbox, and works.
    const state = await h.call('app:getState');
    expect(state.activeProfile?.baseUrl).toBe(sandbox.baseUrl);
    expect(state.connection.status).toBe('online');
  });

  it('refuses a move to the same host on another port as well (another origin)', async () => {
    const otherPort = sandbox.baseUrl.replace(/:(\d+)\//, (_m, port: string) => `:${Number(port) + 1}/`);
    const error = await failureOf(h.call('profiles:update', { profileId, baseUrl: otherPort }));
    expect(error).toMatchObject({ code: 'key_required' });
  });

  it('moves with the key given again: the new host gets that key, never the old one', async () => {
    await h.call('profiles:update', {
      profileId,
      baseUrl: `${attacker.origin}/api/v1`,
      apiKey: 'key-for-the-new-host',
    });
    await callEverything();
    expect(attacker.authorizations.length).toBeGreaterThan(0);
    expect(new Set(attacker.authorizations)).toEqual(new Set(['Bearer key-for-the-new-host']));
    expect(JSON.stringify(attacker.requests)).not.toContain(DEMO_KEY);
  });

  it('moves a profile without a key freely; a key set afterwards is bound to the new host', async () => {
    await h.call('profiles:removeKey', { profileId });
    await h.call('profiles:update', { profileId, baseUrl: `${attacker.origin}/api/v1` });
    await callEverything();
    expect(attacker.authorizations).toEqual([]);
    await h.call('profiles:setKey', { profileId, apiKey: 'typed-for-this-host', storage: 'session' });
    await h.call('connection:check');
    expect(new Set(attacker.authorizations)).toEqual(new Set(['Bearer typed-for-this-host']));
  });

  it('keeps the key when only the path or the path style changes (same origin)', async () => {
    const state = await h.call('profiles:update', {
      profileId,
      baseUrl: `${sandbox.baseUrl}/`,
      pathStyle: 'literal',
    });
    expect(state.activeProfile?.key.configured).toBe(true);
    expect(state.connection.status).toBe('online');
  });
});

describe('base URLs that could leak the key are refused with a field error', () => {
  let sandbox: TestSandbox;
  let h: Harness;

  beforeEach(async () => {
    sandbox = await TestSandbox.start();
    h = await createHarness(sandbox);
  });

  afterEach(async () => {
    await h.core.dispose();
    await sandbox.close();
  });

  it.each([
    ['https://api.example.com/api/v1?key=abc', /query/],
    ['https://api.example.com/api/v1#key=abc', /fragment/],
    ['https://user:pass@api.example.com/api/v1', /user name or password/],
    ['http://api.example.com/api/v1', /unencrypted/],
    ['http://192.168.1.20:4010/api/v1', /unencrypted/],
  ])('%s: invalid_input on baseUrl for connection:test and profiles:create', async (baseUrl, message) => {
    for (const call of [
      h.call('connection:test', { baseUrl, apiKey: DEMO_KEY }),
      h.call('profiles:create', { name: 'X', baseUrl, apiKey: DEMO_KEY, storage: 'session' }),
    ]) {
      const error = await failureOf(call);
      expect(error).toMatchObject({
        code: 'invalid_input',
        fields: [{ field: 'baseUrl', message: expect.stringMatching(message) }],
      });
      expect(JSON.stringify(error)).not.toContain('abc');
      expect(JSON.stringify(error)).not.toContain('pass@');
    }
  });

  it.each(['http://127.0.0.1:4010/api/v1', 'http://localhost:4010/api/v1', 'http://[::1]:4010/api/v1'])(
    'accepts plain http to this machine: %s',
    async (baseUrl) => {
      const state = await h.call('profiles:create', {
        name: baseUrl,
        baseUrl,
        apiKey: DEMO_KEY,
        storage: 'session',
      });
      expect(state.profiles.map((p) => p.name)).toContain(baseUrl);
    },
  );
});
