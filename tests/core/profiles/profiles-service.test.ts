import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ProfileError } from '../../../src-main/core/profiles/profile-errors';
import {
  ProfilesService,
  type ProfilesServiceOptions,
} from '../../../src-main/core/profiles/profiles-service';
import type { KeychainProbeResult } from '../../../src-main/core/secrets/keychain-probe';
import { KeychainSecretStore } from '../../../src-main/core/secrets/keychain-secret-store';
import { SessionSecretStore } from '../../../src-main/core/secrets/session-secret-store';
import { SettingsStore } from '../../../src-main/core/settings/settings-store';
import { FakeKeychain } from '../secrets/fixtures/fake-keychain';

const NOW = new Date('2026-03-10T12:00:00.000Z');
const KEY = 'sk_live_0123456789abcdefa1b2';
const OTHER_KEY = 'sk_live_fedcba9876543210c3d4';
const UNAVAILABLE: KeychainProbeResult = {
  available: false,
  reason:
    'No D-Bus session is running, so no Secret Service (GNOME Keyring, KWallet, KeePassXC) can be reached.',
  detail: 'Platform failure: DBus error: Failed to connect to socket',
};

let dataDir: string;
let fakeKeychain: FakeKeychain;
let keychainStatus: KeychainProbeResult;
let settings: SettingsStore;
let service: ProfilesService;
let ids: number;

async function startService(overrides: Partial<ProfilesServiceOptions> = {}): Promise<ProfilesService> {
  settings = await SettingsStore.open({ dataDir, now: () => NOW });
  return new ProfilesService({
    settings,
    keychain: new KeychainSecretStore({ entryFactory: fakeKeychain.factory }),
    session: new SessionSecretStore(),
    keychainStatus: () => keychainStatus,
    now: () => NOW,
    newId: () => `id-${++ids}`,
    ...overrides,
  });
}

beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'pm-profiles-'));
  fakeKeychain = new FakeKeychain();
  keychainStatus = { available: true };
  ids = 0;
  service = await startService();
});

afterEach(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

/** Every byte the app wrote in its data folder, to prove a secret is not among them. */
async function everythingOnDisk(): Promise<string> {
  const names = await readdir(dataDir);
  const contents = await Promise.all(names.map((name) => readFile(join(dataDir, name), 'utf8')));
  return names.join('\n') + contents.join('\n');
}

async function errorOf(work: Promise<unknown>): Promise<ProfileError> {
  const error = await work.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ProfileError);
  return error as ProfileError;
}

const work = { name: 'Work', baseUrl: 'https://proxy.example.com/api/v1' };

describe('ProfilesService: profiles', () => {
  it('creates profiles, makes the first one active and keeps them across a restart', async () => {
    const first = await service.create(work);
    expect(first).toEqual({
      id: 'id-1',
      name: 'Work',
      baseUrl: 'https://proxy.example.com/api/v1',
      pathStyle: 'literal',
      keyStorage: 'keychain',
      createdAt: NOW.toISOString(),
      provided: null,
      active: true,
    });
    const second = await service.create({ name: 'Home', baseUrl: 'http://127.0.0.1:8080/api/v1' });
    expect(second.active).toBe(false);
    const third = await service.create({ name: 'Lab', baseUrl: 'https://lab.example.com', activate: true });
    expect(third.active).toBe(true);

    const restarted = await startService();
    expect(restarted.list().map((profile) => [profile.name, profile.active])).toEqual([
      ['Work', false],
      ['Home', false],
      ['Lab', true],
    ]);
  });

  it('normalises names and base URLs', async () => {
    const profile = await service.create({
      name: '  Café  ',
      baseUrl: ' HTTPS://Proxy.Example.COM:443/api/v1/ ',
    });
    expect(profile.name).toBe('Café');
    expect(profile.baseUrl).toBe('https://proxy.example.com/api/v1');
    const bare = await service.create({ name: 'Bare', baseUrl: 'http://localhost:9000/' });
    expect(bare.baseUrl).toBe('http://localhost:9000');
  });

  it.each([
    ['', 'invalid_name'],
    ['   ', 'invalid_name'],
    ['x'.repeat(61), 'invalid_name'],
    ['two\nlines', 'invalid_name'],
  ])('refuses the name %j with %s on the name field', async (name, code) => {
    const error = await errorOf(service.create({ ...work, name }));
    expect(error).toMatchObject({ code, field: 'name', fields: [{ field: 'name', message: error.message }] });
    expect(service.list()).toEqual([]);
  });

  it('accepts 60 characters, counting an emoji as one', async () => {
    await expect(service.create({ ...work, name: 'x'.repeat(60) })).resolves.toBeDefined();
    await expect(service.create({ ...work, name: `${'y'.repeat(59)}🚀` })).resolves.toBeDefined();
  });

  it('refuses a name that differs from another only in case or spacing', async () => {
    await service.create(work);
    const error = await errorOf(service.create({ ...work, name: ' work ' }));
    expect(error).toMatchObject({ code: 'duplicate_name', field: 'name' });
  });

  it('refuses one of two concurrent creations with the same name', async () => {
    const results = await Promise.allSettled([service.create(work), service.create(work)]);
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'rejected']);
    expect(service.list()).toHaveLength(1);
  });

  it.each([
    ['', /Enter the base URL/],
    ['proxy.example.com/api/v1', /full https:\/\/ URL/],
    ['ftp://proxy.example.com/api/v1', /must start with https:\/\//],
    ['http://proxy.example.com/api/v1', /unencrypted/],
    ['http://10.0.0.1/api/v1', /unencrypted/],
    ['https://user:secret@proxy.example.com/api/v1', /user name or password/],
    ['https://proxy.example.com/api/v1?key=abc', /query/],
    ['https://proxy.example.com/api/v1#top', /fragment/],
    [`https://proxy.example.com/${'a'.repeat(2048)}`, /at most 2048/],
  ])('refuses the base URL %j on the baseUrl field', async (baseUrl, message) => {
    const error = await errorOf(service.create({ ...work, baseUrl }));
    expect(error).toMatchObject({
      code: 'invalid_base_url',
      field: 'baseUrl',
      message: expect.stringMatching(message),
    });
    expect(error.message).not.toContain('secret');
  });

  it('renames, allowing a change of case of its own name', async () => {
    const profile = await service.create(work);
    await service.create({ ...work, name: 'Home' });
    expect((await service.rename(profile.id, 'WORK')).name).toBe('WORK');
    expect(await errorOf(service.rename(profile.id, 'home'))).toMatchObject({ code: 'duplicate_name' });
    expect(await errorOf(service.rename('nope', 'Other'))).toMatchObject({
      code: 'profile_not_found',
      field: 'profileId',
    });
  });

  it('changes the connection; a new base URL resets the adopted path style', async () => {
    const profile = await service.create(work);
    expect((await service.updateConnection(profile.id, { pathStyle: 'strip-v1' })).pathStyle).toBe(
      'strip-v1',
    );
    const moved = await service.updateConnection(profile.id, { baseUrl: 'https://new.example.com/api/v1' });
    expect(moved).toMatchObject({ baseUrl: 'https://new.example.com/api/v1', pathStyle: 'literal' });
    const both = await service.updateConnection(profile.id, {
      baseUrl: 'https://x.example.com',
      pathStyle: 'origin',
    });
    expect(both).toMatchObject({ baseUrl: 'https://x.example.com', pathStyle: 'origin' });
    const error = await errorOf(service.updateConnection(profile.id, { pathStyle: 'sideways' as never }));
    expect(error).toMatchObject({ code: 'invalid_path_style', field: 'pathStyle' });
  });

  it('switches the active profile and keeps the choice across a restart', async () => {
    const one = await service.create(work);
    const two = await service.create({ ...work, name: 'Home' });
    expect(service.active()?.id).toBe(one.id);
    await service.switchTo(two.id);
    expect(service.active()?.id).toBe(two.id);
    expect((await startService()).active()?.id).toBe(two.id);
    expect(await errorOf(service.switchTo('nope'))).toMatchObject({ code: 'profile_not_found' });
  });

  it('deletes a profile with its key; the next profile becomes active', async () => {
    const one = await service.create({ ...work, key: KEY });
    const two = await service.create({ ...work, name: 'Home', key: OTHER_KEY, keyStorage: 'session' });
    expect(await service.delete(one.id)).toEqual({ keyLeftInKeychain: false });
    expect(fakeKeychain.entries.size).toBe(0);
    expect(service.list().map((profile) => profile.id)).toEqual([two.id]);
    expect(service.active()?.id).toBe(two.id);

    await service.delete(two.id);
    expect(await service.getKey(two.id).catch((error: unknown) => error)).toMatchObject({
      code: 'profile_not_found',
    });
    expect(service.active()).toBeNull();
    expect(service.list()).toEqual([]);
  });

  it('deletes nothing when the key cannot be removed from the keychain, unless forced', async () => {
    const profile = await service.create({ ...work, key: KEY });
    keychainStatus = UNAVAILABLE;
    const error = await errorOf(service.delete(profile.id));
    expect(error).toMatchObject({
      code: 'keychain_unavailable',
      message: expect.stringMatching(/nothing was deleted/),
    });
    expect(service.list()).toHaveLength(1);

    keychainStatus = { available: true };
    fakeKeychain.failOn('delete', "Couldn't access platform storage: Secret Service: no result found");
    expect(await errorOf(service.delete(profile.id))).toMatchObject({ code: 'keychain_unavailable' });
    expect(service.list()).toHaveLength(1);

    expect(await service.delete(profile.id, { force: true })).toEqual({ keyLeftInKeychain: true });
    expect(service.list()).toEqual([]);
  });

  it('deletes a session-key profile even when the keychain is unavailable', async () => {
    keychainStatus = UNAVAILABLE;
    const profile = await service.create({ ...work, key: KEY, keyStorage: 'session' });
    await expect(service.delete(profile.id)).resolves.toEqual({ keyLeftInKeychain: false });
  });
});

describe('ProfilesService: keys', () => {
  it('saves a key in the keychain and reports it masked', async () => {
    const profile = await service.create(work);
    expect(await service.keyStatus(profile.id)).toEqual({
      configured: false,
      masked: null,
      source: 'keychain',
      problem: null,
    });
    const status = await service.setKey(profile.id, `  ${KEY}\n`, { storage: 'keychain' });
    expect(status).toEqual({ configured: true, masked: '…a1b2', source: 'keychain', problem: null });
    expect([...fakeKeychain.entries]).toEqual([[`proxy-manager/api-key:${profile.id}`, KEY]]);
    expect(await service.getKey(profile.id)).toBe(KEY);
    expect(await (await startService()).getKey(profile.id)).toBe(KEY);
  });

  it('never writes a key to the settings file, whatever the storage', async () => {
    const one = await service.create({ ...work, key: KEY });
    const two = await service.create({ ...work, name: 'Home', key: OTHER_KEY, keyStorage: 'session' });
    await service.setKey(one.id, 'sk_replaced_key_9999', { storage: 'session' });
    await service.setKey(two.id, 'sk_moved_key_8888', { storage: 'keychain' });
    service.addProvidedProfile({ ...work, name: 'Demo', key: 'sk_demo_key_7777', source: 'demo' });
    service.provideKey(one.id, 'sk_env_key_6666', 'environment');
    await service.rename(one.id, 'Renamed');
    const onDisk = await everythingOnDisk();
    expect(onDisk).toContain('Renamed');
    for (const secret of [
      KEY,
      OTHER_KEY,
      'sk_replaced_key_9999',
      'sk_moved_key_8888',
      'sk_demo_key_7777',
      'sk_env_key_6666',
    ]) {
      expect(onDisk).not.toContain(secret);
    }
  });

  it('refuses keychain storage when no keychain is usable, offering session storage, and writes nothing', async () => {
    const profile = await service.create(work);
    keychainStatus = UNAVAILABLE;
    const error = await errorOf(service.setKey(profile.id, KEY, { storage: 'keychain' }));
    expect(error).toMatchObject({ code: 'keychain_unavailable', field: 'storage' });
    expect(error.message).toContain(UNAVAILABLE.reason);
    expect(error.message).toMatch(/keep the key for this session only/);
    expect(error.message).not.toContain(KEY);
    expect(fakeKeychain.calls).toEqual([]);
    expect(await service.keyStatus(profile.id)).toMatchObject({
      configured: false,
      problem: UNAVAILABLE.reason,
    });
    expect(await everythingOnDisk()).not.toContain(KEY);
  });

  it('creates nothing when a profile created with a key cannot reach the keychain', async () => {
    keychainStatus = UNAVAILABLE;
    expect(await errorOf(service.create({ ...work, key: KEY }))).toMatchObject({
      code: 'keychain_unavailable',
    });
    keychainStatus = { available: true };
    fakeKeychain.failOn('set', "Couldn't access platform storage: Secret Service: no result found");
    const error = await errorOf(service.create({ ...work, key: KEY }));
    expect(error).toMatchObject({ code: 'keychain_unavailable', field: 'storage' });
    expect(error.message).toMatch(/locked.*this session only/s);
    expect(service.list()).toEqual([]);
    expect(await readdir(dataDir)).toEqual([]);
  });

  it('takes the key back out of the keychain when the profile cannot be saved', async () => {
    await service.create(work);
    const keychain = new KeychainSecretStore({ entryFactory: fakeKeychain.factory });
    const racing = await startService({
      keychain: {
        kind: 'keychain',
        get: (account) => keychain.get(account),
        delete: (account) => keychain.delete(account),
        // Another writer saves a profile of the same name between the check and the save.
        set: async (account, secret) => {
          await keychain.set(account, secret);
          await settings.update((draft) => {
            draft.profiles.push({ ...draft.profiles[0]!, id: 'other', name: 'Home' });
          });
        },
      },
    });
    const error = await errorOf(racing.create({ ...work, name: 'home', key: KEY }));
    expect(error.code).toBe('duplicate_name');
    expect(fakeKeychain.calls.filter((call) => call.startsWith('set'))).toHaveLength(1);
    expect(fakeKeychain.entries.size).toBe(0);
  });

  it('keeps a key for this session only: usable now, gone after a restart', async () => {
    keychainStatus = UNAVAILABLE;
    const profile = await service.create(work);
    const status = await service.setKey(profile.id, KEY, { storage: 'session' });
    expect(status).toEqual({ configured: true, masked: '…a1b2', source: 'session', problem: null });
    expect(await service.getKey(profile.id)).toBe(KEY);
    expect(service.get(profile.id).keyStorage).toBe('session');

    const restarted = await startService();
    expect(await restarted.keyStatus(profile.id)).toEqual({
      configured: false,
      masked: null,
      source: 'session',
      problem: null,
    });
    expect(await restarted.getKey(profile.id)).toBeNull();
  });

  it('moves a key between the keychain and the session, leaving no copy behind', async () => {
    const profile = await service.create({ ...work, key: KEY });
    await service.setKey(profile.id, OTHER_KEY, { storage: 'session' });
    expect(fakeKeychain.entries.size).toBe(0);
    expect(await service.getKey(profile.id)).toBe(OTHER_KEY);

    await service.setKey(profile.id, KEY, { storage: 'keychain' });
    expect(await service.keyStatus(profile.id)).toMatchObject({ source: 'keychain', masked: '…a1b2' });
    // The session copy is gone: a later switch back to session without a key finds none.
    await settings.update((draft) => {
      draft.profiles[0]!.keyStorage = 'session';
    });
    expect(await service.getKey(profile.id)).toBeNull();
  });

  it('replaces a key in place', async () => {
    const profile = await service.create({ ...work, key: KEY });
    await service.setKey(profile.id, OTHER_KEY, { storage: 'keychain' });
    expect(await service.getKey(profile.id)).toBe(OTHER_KEY);
    expect(fakeKeychain.entries.size).toBe(1);
  });

  it.each([
    ['', /Enter the API key/],
    ['   ', /Enter the API key/],
    ['two words', /without spaces/],
    ['line\nbreak', /without spaces/],
    ['clé', /visible characters/],
    ['k'.repeat(4097), /at most 4096/],
  ])('refuses the key %j on the key field, without echoing it', async (key, message) => {
    const profile = await service.create(work);
    const error = await errorOf(service.setKey(profile.id, key, { storage: 'keychain' }));
    expect(error).toMatchObject({
      code: 'invalid_key',
      field: 'key',
      message: expect.stringMatching(message),
    });
    if (key.trim()) expect(error.message).not.toContain(key.trim());
    expect(fakeKeychain.entries.size).toBe(0);
  });

  it('refuses an unknown storage', async () => {
    const profile = await service.create(work);
    const error = await errorOf(service.setKey(profile.id, KEY, { storage: 'file' as never }));
    expect(error).toMatchObject({ code: 'invalid_key_storage', field: 'storage' });
  });

  it('removes a key from wherever it is, keeping the profile', async () => {
    const profile = await service.create({ ...work, key: KEY });
    expect(await service.removeKey(profile.id)).toEqual({
      configured: false,
      masked: null,
      source: 'keychain',
      problem: null,
    });
    expect(fakeKeychain.entries.size).toBe(0);
    expect(service.list()).toHaveLength(1);

    await service.setKey(profile.id, KEY, { storage: 'session' });
    await service.removeKey(profile.id);
    expect(await service.getKey(profile.id)).toBeNull();
  });

  it('refuses to remove a keychain key while the keychain is unavailable', async () => {
    const profile = await service.create({ ...work, key: KEY });
    keychainStatus = UNAVAILABLE;
    expect(await errorOf(service.removeKey(profile.id))).toMatchObject({ code: 'keychain_unavailable' });
    keychainStatus = { available: true };
    expect(await service.getKey(profile.id)).toBe(KEY);
  });

  it('reports a keychain that fails to read as a problem, and getKey as a typed error', async () => {
    const profile = await service.create({ ...work, key: KEY });
    fakeKeychain.failOn('get', "Couldn't access platform storage: Secret Service: no result found");
    expect(await service.keyStatus(profile.id)).toEqual({
      configured: false,
      masked: null,
      source: 'keychain',
      problem: expect.stringMatching(/locked/),
    });
    expect(await errorOf(service.getKey(profile.id))).toMatchObject({ code: 'keychain_unavailable' });
    keychainStatus = UNAVAILABLE;
    expect(await errorOf(service.getKey(profile.id))).toMatchObject({ code: 'keychain_unavailable' });
  });

  it('masks a short key without giving most of it away', async () => {
    const profile = await service.create(work);
    expect((await service.setKey(profile.id, 'abcdefgh', { storage: 'session' })).masked).toBe('…efgh');
    expect((await service.setKey(profile.id, 'abcdefg', { storage: 'session' })).masked).toBe('…');
  });

  it('runs a key change and a deletion of the same profile one after the other', async () => {
    const profile = await service.create(work);
    const results = await Promise.allSettled([
      service.setKey(profile.id, KEY, { storage: 'keychain' }),
      service.delete(profile.id),
      service.setKey(profile.id, OTHER_KEY, { storage: 'keychain' }),
    ]);
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'fulfilled', 'rejected']);
    expect(fakeKeychain.entries.size).toBe(0);
  });
});

describe('ProfilesService: duplicate profiles', () => {
  it('finds a saved profile with the same base URL and key, wherever the key is kept', async () => {
    await service.create({ ...work, key: KEY });
    await service.create({
      name: 'Session',
      baseUrl: 'https://other.example.com/api/v1',
      key: OTHER_KEY,
      keyStorage: 'session',
    });

    // Compared as stored: the host's case and a trailing slash make no new address.
    expect(await service.findDuplicate('https://PROXY.example.com/api/v1/', ` ${KEY} `)).toEqual({
      profileId: 'id-1',
      name: 'Work',
    });
    expect(await service.findDuplicate('https://other.example.com/api/v1', OTHER_KEY)).toEqual({
      profileId: 'id-2',
      name: 'Session',
    });
    expect(await service.findDuplicate(work.baseUrl, OTHER_KEY)).toBeNull();
    expect(await service.findDuplicate('https://proxy.example.com/api/v2', KEY)).toBeNull();
  });

  it('refuses a second profile with the same base URL and key unless allowed, without repeating the key', async () => {
    await service.create({ ...work, key: KEY });
    const error = await errorOf(
      service.create({ name: 'Again', baseUrl: work.baseUrl, key: KEY, allowDuplicate: false }),
    );
    expect(error.code).toBe('duplicate_profile');
    expect(error.message).toContain('"Work"');
    expect(error.message).not.toContain(KEY);
    expect(service.list().map((p) => p.name)).toEqual(['Work']);

    await service.create({ name: 'Again', baseUrl: work.baseUrl, key: KEY, allowDuplicate: true });
    await service.create({
      name: 'Other key',
      baseUrl: work.baseUrl,
      key: OTHER_KEY,
      allowDuplicate: false,
    });
    expect(service.list().map((p) => p.name)).toEqual(['Work', 'Again', 'Other key']);
  });
});

describe('ProfilesService: keys and profiles provided by the app core', () => {
  it('adds a demo profile for this run only, read-only but deletable', async () => {
    await service.create(work);
    const demo = service.addProvidedProfile({
      name: 'Demo',
      baseUrl: 'http://127.0.0.1:43123/api/v1',
      key: 'sandbox-demo-key',
      source: 'demo',
      activate: true,
    });
    expect(demo).toMatchObject({ provided: 'demo', active: true, id: 'demo-id-2' });
    expect(service.list().map((profile) => [profile.name, profile.provided, profile.active])).toEqual([
      ['Work', null, false],
      ['Demo', 'demo', true],
    ]);
    expect(await service.keyStatus(demo.id)).toEqual({
      configured: true,
      masked: '…-key',
      source: 'demo',
      problem: null,
    });
    expect(await service.getKey(demo.id)).toBe('sandbox-demo-key');
    for (const attempt of [
      service.rename(demo.id, 'Mine'),
      service.setKey(demo.id, KEY, { storage: 'keychain' }),
      service.removeKey(demo.id),
      service.updateConnection(demo.id, { pathStyle: 'origin' }),
    ]) {
      expect(await errorOf(attempt)).toMatchObject({ code: 'profile_read_only' });
    }
    expect(settings.get().profiles.map((profile) => profile.id)).toEqual(['id-1']);
    expect((await startService()).list().map((profile) => profile.name)).toEqual(['Work']);

    await service.delete(demo.id);
    expect(service.list().map((profile) => profile.name)).toEqual(['Work']);
    expect(service.active()?.name).toBe('Work');
  });

  it('leaves a provided profile when the user switches to a saved one, and can switch back', async () => {
    const saved = await service.create(work);
    const demo = service.addProvidedProfile({
      ...work,
      name: 'Demo',
      key: 'sandbox-demo-key',
      source: 'demo',
      activate: true,
    });
    await service.switchTo(saved.id);
    expect(service.active()?.id).toBe(saved.id);
    await service.switchTo(demo.id);
    expect(service.active()?.id).toBe(demo.id);
    expect(settings.get().activeProfileId).toBe(saved.id);
  });

  it('validates a provided profile like any other', () => {
    expect(() =>
      service.addProvidedProfile({ ...work, baseUrl: 'nope', key: KEY, source: 'environment' }),
    ).toThrow(ProfileError);
    expect(() => service.addProvidedProfile({ ...work, key: 'has space', source: 'environment' })).toThrow(
      /without spaces/,
    );
  });

  it('uses an environment key for a saved profile without storing it', async () => {
    const profile = await service.create({ ...work, key: KEY });
    service.provideKey(profile.id, 'sk_env_key_6666', 'environment');
    expect(await service.getKey(profile.id)).toBe('sk_env_key_6666');
    expect(await service.keyStatus(profile.id)).toEqual({
      configured: true,
      masked: '…6666',
      source: 'environment',
      problem: null,
    });
    const error = await errorOf(service.setKey(profile.id, OTHER_KEY, { storage: 'keychain' }));
    expect(error).toMatchObject({
      code: 'profile_read_only',
      message: expect.stringMatching(/PROXY_MANAGER_API_KEY/),
    });
    expect([...fakeKeychain.entries.values()]).toEqual([KEY]);

    service.clearProvidedKey(profile.id);
    expect(await service.getKey(profile.id)).toBe(KEY);
    expect(() => service.provideKey('nope', KEY, 'environment')).toThrow(/No profile/);
  });
});

// The same flow against the real Secret Service when `npm test` provides one (see
// tests/core/secrets/keychain-secret-store.test.ts for how and when it runs).
describe.skipIf(process.env.PROXY_MANAGER_TEST_KEYCHAIN !== '1')(
  'ProfilesService with a real Secret Service (skipped unless PROXY_MANAGER_TEST_KEYCHAIN=1)',
  () => {
    it('keeps the key in the keychain across a restart, never on disk, and deletes it with the profile', async () => {
      const keychain = new KeychainSecretStore({
        service: `proxy-manager-test-${randomBytes(4).toString('hex')}`,
      });
      const real = await startService({ keychain });
      const profile = await real.create({ ...work, key: KEY });
      const restarted = await startService({ keychain });
      expect(await restarted.getKey(profile.id)).toBe(KEY);
      expect(await everythingOnDisk()).not.toContain(KEY);
      await restarted.delete(profile.id);
      expect(await keychain.get(`api-key:${profile.id}`)).toBeNull();
    });
  },
);
