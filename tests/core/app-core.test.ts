import { readFileSync, readdirSync, writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEMO_KEY, TestSandbox } from '@proxy-manager/sandbox/testing';
import { createHarness, type Harness } from './support/core-harness';

/** An origin on this computer where nothing listens (a port taken, then released). */
async function startClosedPort(): Promise<string> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as { port: number };
  await new Promise<void>((done) => server.close(() => done()));
  return `http://127.0.0.1:${port}`;
}

describe('AppCore against the sandbox', () => {
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

  /** A saved profile on the sandbox with the demo key kept for the session. */
  const addAccount = (name: string) =>
    h.call('profiles:create', {
      name,
      baseUrl: sandbox.baseUrl,
      pathStyle: 'literal',
      apiKey: DEMO_KEY,
      storage: 'session',
    });

  it('starts unconfigured when there is no profile', async () => {
    await h.core.start();
    await h.call('connection:check');
    const state = await h.core.getState();
    expect(state.activeProfile).toBeNull();
    expect(state.connection.status).toBe('not_configured');
  });

  it('tests a connection: adopts the literal reading and accepts the key', async () => {
    const result = await h.call('connection:test', { baseUrl: sandbox.baseUrl, apiKey: DEMO_KEY });
    expect(result.ok).toBe(true);
    expect(result.pathStyle).toBe('literal');
    expect(result.authenticated.ok).toBe(true);
    expect(result.probes.map((p) => p.pathStyle).sort()).toEqual(['literal', 'origin', 'strip-v1']);
    expect(JSON.stringify(result)).not.toContain(DEMO_KEY);
  });

  it('tests a connection: a wrong key is rejected with a clear message', async () => {
    const result = await h.call('connection:test', { baseUrl: sandbox.baseUrl, apiKey: 'wrong-key-123' });
    expect(result.ok).toBe(false);
    expect(result.pathStyle).toBe('literal');
    expect(result.authenticated).toEqual({ ok: false, message: 'The service rejected this API key.' });
  });

  it('tests a connection: a base URL that does not answer says so', async () => {
    const result = await h.call('connection:test', {
      baseUrl: `${sandbox.controlUrl}/nothing`,
      apiKey: DEMO_KEY,
    });
    expect(result.ok).toBe(false);
    expect(result.pathStyle).toBeNull();
    expect(result.authenticated.ok).toBe(false);
    // Plain words for the welcome screen, not the probe's jargon ("no reading of it reached the catalog").
    expect(result.message).toBe(
      `${sandbox.controlUrl}/nothing answered, but not as a proxy service. Check the base URL your provider gave you (it usually ends in /api/v1).`,
    );
    expect(result.message).not.toMatch(/reading|catalog/);
  });

  it('tests a connection: a host that cannot be reached says so', async () => {
    const closed = await startClosedPort();
    const result = await h.call('connection:test', { baseUrl: `${closed}/api/v1`, apiKey: DEMO_KEY });
    expect(result.ok).toBe(false);
    expect(result.message).toBe(
      `Could not reach ${closed}/api/v1: check the address, and that this computer is online and can reach it.`,
    );
  });

  it('tests a base URL typed without /api/v1: adopts it with the suffix, and a save uses that', async () => {
    const origin = new URL(sandbox.baseUrl).origin;
    const result = await h.call('connection:test', { baseUrl: origin, apiKey: DEMO_KEY });
    expect(result).toMatchObject({
      ok: true,
      pathStyle: 'literal',
      baseUrl: sandbox.baseUrl,
      suffixAdded: '/api/v1',
    });
    expect(result.message).toContain(`The service answered at ${sandbox.baseUrl}`);
    expect(result.authenticated.ok).toBe(true);
    const urls = result.probes.map((p) => p.url);
    expect(new Set(urls).size).toBe(urls.length);
  });

  it('tests a connection that a saved profile already has: names it; a second create is refused unless allowed', async () => {
    await h.call('profiles:create', {
      name: 'Main account',
      baseUrl: sandbox.baseUrl,
      pathStyle: 'literal',
      apiKey: DEMO_KEY,
      storage: 'keychain',
    });
    const mainId = (await h.call('app:getState')).activeProfile!.id;
    const result = await h.call('connection:test', { baseUrl: sandbox.baseUrl, apiKey: DEMO_KEY });
    expect(result.duplicateOf).toEqual({ profileId: mainId, name: 'Main account' });
    expect(
      (await h.call('connection:test', { baseUrl: sandbox.baseUrl, apiKey: 'another-key-1' })).duplicateOf,
    ).toBeNull();
    const again = {
      name: 'Again',
      baseUrl: sandbox.baseUrl,
      pathStyle: 'literal',
      apiKey: DEMO_KEY,
      storage: 'keychain',
      duplicate: 'refuse',
    } as const;
    await expect(h.call('profiles:create', again)).rejects.toMatchObject({ code: 'duplicate_profile' });
    const state = await h.call('profiles:create', { ...again, duplicate: 'allow' });
    expect(state.profiles.map((p) => p.name)).toEqual(['Main account', 'Again']);
  });

  it('creates a profile, stores the key outside the settings file, and goes online', async () => {
    const state = await h.call('profiles:create', {
      name: 'Main account',
      baseUrl: sandbox.baseUrl,
      pathStyle: 'literal',
      apiKey: DEMO_KEY,
      storage: 'keychain',
    });
    expect(state.activeProfile).toMatchObject({ name: 'Main account', kind: 'account' });
    expect(state.activeProfile?.key).toEqual({ configured: true, masked: '…-key', source: 'keychain' });
    expect(state.connection.status).toBe('online');
    for (const file of readdirSync(h.dataDir)) {
      expect(readFileSync(join(h.dataDir, file), 'utf8')).not.toContain(DEMO_KEY);
    }
    expect(h.events.at(-1)?.connection.status).toBe('online');
  });

  it('offers session storage when no keychain is available', async () => {
    h.keychain.status = { available: false, reason: 'No Secret Service here.', detail: 'test' };
    await expect(
      h.call('profiles:create', {
        name: 'A',
        baseUrl: sandbox.baseUrl,
        pathStyle: 'literal',
        apiKey: DEMO_KEY,
        storage: 'keychain',
      }),
    ).rejects.toMatchObject({ code: 'keychain_unavailable' });
    const state = await addAccount('A');
    expect(state.activeProfile?.key.source).toBe('session');
    expect(state.keychain).toEqual({ available: false, reason: 'No Secret Service here.' });
  });

  it('tracks the connection: offline on network faults, key rejected on 401, back online after', async () => {
    await addAccount('A');

    await sandbox.control('POST', '/faults', { match: '/v1/mobile', dropConnection: true, times: 2 });
    await expect(h.call('ports:list')).rejects.toThrow();
    expect((await h.core.getState()).connection.status).toBe('offline');

    await sandbox.control('POST', '/faults', { match: '/v1/mobile', status: 503, times: 2 });
    await expect(h.call('ports:list')).rejects.toThrow();
    expect((await h.core.getState()).connection.status).toBe('service_error');

    expect((await h.call('ports:list')).rows.length).toBeGreaterThan(0);
    expect((await h.core.getState()).connection.status).toBe('online');

    const active = (await h.core.getState()).activeProfile;
    await h.call('profiles:setKey', {
      profileId: active?.id ?? '',
      apiKey: 'revoked-key',
      storage: 'session',
    });
    const state = await h.core.getState();
    expect(state.connection.status).toBe('key_rejected');
    expect(state.connection.message).not.toContain('revoked-key');
  });

  it('the first state of a window on a list screen carries main’s snapshot of that list', async () => {
    await addAccount('A');
    expect((await h.call('app:getState', { screen: 'ports' })).snapshots).toBeUndefined();
    const list = await h.call('ports:list');
    const state = await h.call('app:getState', { screen: 'ports' });
    expect(state.snapshots?.ports?.rows).toEqual(list.rows);
    expect(state.snapshots?.ports?.profileId).toBe(state.activeProfile?.id);
    expect((await h.call('app:getState')).snapshots).toBeUndefined();
  });

  it('never hands the rotation link (it carries the key) to the renderer', async () => {
    await addAccount('A');
    const list = await h.call('ports:list');
    expect(list.rows.length).toBeGreaterThan(0);
    expect(JSON.stringify(list)).not.toContain(DEMO_KEY);
    const port = await h.call('ports:get', { portId: list.rows[0]![0] });
    expect(port).not.toHaveProperty('rotationLink');
    expect(port.hasRotationLink).toBe(true);
    expect(JSON.stringify(port)).not.toContain(DEMO_KEY);
  });

  it('runs the demo: a demo profile that is active, online, and goes away on stop', async () => {
    await addAccount('Saved');
    const demo = await h.call('demo:start');
    expect(demo.demo.running).toBe(true);
    expect(demo.activeProfile).toMatchObject({ kind: 'demo', key: { source: 'demo' } });
    expect(demo.connection.status).toBe('online');
    await h.call('demo:start');
    expect(h.demoStarts).toBe(1);
    const settingsText = readFileSync(join(h.dataDir, 'settings.json'), 'utf8');
    expect(settingsText).not.toContain('demo');

    const stopped = await h.call('demo:stop');
    expect(stopped.demo.running).toBe(false);
    expect(stopped.profiles.map((p) => p.kind)).toEqual(['account']);
    expect(stopped.activeProfile?.name).toBe('Saved');
  });

  it('makes a profile created during the demo the active one', async () => {
    await h.call('demo:start');
    const state = await addAccount('Real account');
    expect(state.activeProfile).toMatchObject({ name: 'Real account', kind: 'account' });
  });

  it('uses an environment key for this run only', async () => {
    await h.core.start({ environment: { baseUrl: sandbox.baseUrl, apiKey: DEMO_KEY } });
    const state = await h.call('connection:check');
    expect(state.activeProfile).toMatchObject({ kind: 'environment', key: { source: 'environment' } });
    expect(state.connection.status).toBe('online');
    expect(
      readdirSync(h.dataDir)
        .map((f) => readFileSync(join(h.dataDir, f), 'utf8'))
        .join(),
    ).not.toContain(DEMO_KEY);
  });

  it('selects a saved profile by name at start, and refuses an unknown one', async () => {
    await addAccount('First');
    await addAccount('Second');
    await h.core.start({ profileName: 'First' });
    expect((await h.core.getState()).activeProfile?.name).toBe('First');
    await expect(h.core.start({ profileName: 'Nope' })).rejects.toMatchObject({ code: 'profile_not_found' });
  });

  it('reads and updates settings', async () => {
    expect(await h.call('settings:get')).toMatchObject({
      theme: 'system',
      polling: { topUpVerifyingSeconds: 10 },
    });
    const updated = await h.call('settings:update', {
      theme: 'dark',
      alerts: { trafficRemainingPercent: 25 },
    });
    expect(updated.theme).toBe('dark');
    expect(updated.alerts.trafficRemainingPercent).toBe(25);
    expect(JSON.parse(readFileSync(join(h.dataDir, 'settings.json'), 'utf8')).ui.theme).toBe('dark');
  });

  it('browses the public catalog without a key', async () => {
    await h.call('demo:start');
    const countries = await h.call('catalog:countries', { product: 'mobile' });
    expect(countries.length).toBeGreaterThan(10);
    expect(countries.every((c) => c.products.includes('mobile'))).toBe(true);
    const states = await h.call('catalog:states', { countryCode: 'US' });
    expect(states).toHaveLength(51);
    expect((await h.call('catalog:coins')).map((c) => c.code)).toEqual(
      expect.arrayContaining(['BTC', 'USDT']),
    );
  });

  it('names several countries’ cities in one call, leaving out a country the service does not know', async () => {
    await h.call('demo:start');
    const us = await h.call('catalog:cities', { countryCode: 'US' });
    const byCountry = await h.call('catalog:citiesOf', { countryCodes: ['US', 'DE', 'US', 'ZZ'] });
    expect(Object.keys(byCountry).sort()).toEqual(['DE', 'US']);
    expect(byCountry.US).toEqual(us);
    expect(byCountry.DE?.length).toBeGreaterThan(0);
    const mobile = await h.call('catalog:citiesOf', { countryCodes: ['US'], product: 'mobile' });
    expect(mobile.US).toEqual(await h.call('catalog:cities', { countryCode: 'US', product: 'mobile' }));
    // Nothing could be read: that is the error, not an empty answer.
    const unknown = await h.dispatch('catalog:citiesOf', { countryCodes: ['ZZ', 'QQ'] });
    expect(unknown.ok).toBe(false);
  });
});

describe('AppCore start-up notices', () => {
  it('tells the user when the settings file was corrupt and kept aside, and lets them dismiss it', async () => {
    const sandbox = await TestSandbox.start();
    const dataDir = mkdtempSync(join(tmpdir(), 'pm-core-'));
    writeFileSync(join(dataDir, 'settings.json'), '{"version": 1, "profiles": [oops');
    const h = await createHarness(sandbox, { dataDir });
    await h.core.start();
    const [notice] = (await h.core.getState()).notices;
    expect(notice?.level).toBe('warning');
    expect(notice?.message).toContain('settings.json.corrupt-');
    expect(readdirSync(dataDir).some((f) => f.startsWith('settings.json.corrupt-'))).toBe(true);
    const dismissed = await h.call('app:dismissNotice', { noticeId: notice?.id ?? '' });
    expect(dismissed.notices).toEqual([]);
    await h.core.dispose();
    await sandbox.close();
  });

  it('starts cleanly with no notice when the settings file is fine', async () => {
    const sandbox = await TestSandbox.start();
    const h = await createHarness(sandbox);
    await h.core.start();
    expect((await h.core.getState()).notices).toEqual([]);
    await h.core.dispose();
    await sandbox.close();
  });
});
