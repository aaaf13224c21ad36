import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ProxyServiceClient } from '../../../src-main/api';
import { accountFor, ProfilesService } from '../../../src-main/core/profiles/profiles-service';
import { SessionSecretStore } from '../../../src-main/core/secrets/session-secret-store';
import { type ClientConfig, ClientPool } from '../../../src-main/core/session/client-pool';
import { SettingsStore } from '../../../src-main/core/settings/settings-store';
import { RecordingServer } from '../../support/recording-server';

const NOW = new Date('2026-03-10T12:00:00.000Z');

interface Made {
  config: ClientConfig;
  closed: boolean;
}

let dataDir: string;
let keychain: SessionSecretStore;
let profiles: ProfilesService;
let made: Made[];
let pool: ClientPool;
let ids: number;

async function start(): Promise<void> {
  const settings = await SettingsStore.open({ dataDir, now: () => NOW });
  profiles = new ProfilesService({
    settings,
    keychain,
    session: new SessionSecretStore(),
    keychainStatus: () => ({ available: true }),
    now: () => NOW,
    newId: () => `id-${++ids}`,
  });
  made = [];
  pool = new ClientPool({
    profiles,
    createClient: (config) => {
      const record: Made = { config, closed: false };
      made.push(record);
      const client = new ProxyServiceClient({ ...config, retry: { maxAttempts: 1 } });
      const close = client.close.bind(client);
      client.close = () => {
        record.closed = true;
        return close();
      };
      return client;
    },
  });
}

beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'pm-pool-'));
  keychain = new SessionSecretStore();
  ids = 0;
  await start();
});

afterEach(async () => {
  await pool.close();
  await rm(dataDir, { recursive: true, force: true });
});

const create = (name: string, baseUrl: string, key: string) =>
  profiles.create({ name, baseUrl, key, keyStorage: 'keychain' });

describe('ClientPool', () => {
  it('keeps one client per profile, made on first use, each with its own key', async () => {
    const a = await create('A', 'https://a.example.com/api/v1', 'key-a-123');
    const b = await create('B', 'https://b.example.com/api/v1', 'key-b-456');
    expect(made).toEqual([]);
    const first = await pool.clientFor(a.id);
    expect(await pool.clientFor(a.id)).toBe(first);
    const other = await pool.clientFor(b.id);
    expect(other).not.toBe(first);
    expect(made.map((m) => m.config)).toEqual([
      { baseUrl: 'https://a.example.com/api/v1', pathStyle: 'literal', apiKey: 'key-a-123' },
      { baseUrl: 'https://b.example.com/api/v1', pathStyle: 'literal', apiKey: 'key-b-456' },
    ]);
    expect((await pool.activeClient()).client).toBe(first);
  });

  it('closes a profile’s client when its key changes or is removed, and only that one', async () => {
    const a = await create('A', 'https://a.example.com/api/v1', 'key-a-123');
    const b = await create('B', 'https://b.example.com/api/v1', 'key-b-456');
    const oldA = await pool.clientFor(a.id);
    const keepB = await pool.clientFor(b.id);
    await profiles.setKey(a.id, 'key-a-789', { storage: 'keychain' });
    await Promise.resolve();
    expect(made.map((m) => m.closed)).toEqual([true, false]);
    const newA = await pool.clientFor(a.id);
    expect(newA).not.toBe(oldA);
    expect(made[2]?.config.apiKey).toBe('key-a-789');
    expect(await pool.clientFor(b.id)).toBe(keepB);

    await profiles.removeKey(a.id);
    await expect(pool.clientFor(a.id)).rejects.toMatchObject({ code: 'not_configured' });
    expect(made[2]?.closed).toBe(true);
  });

  it('closes a profile’s client when its base URL or path style changes', async () => {
    const a = await create('A', 'https://a.example.com/api/v1', 'key-a-123');
    await pool.clientFor(a.id);
    await profiles.updateConnection(a.id, { pathStyle: 'strip-v1' });
    await pool.clientFor(a.id);
    await profiles.updateConnection(a.id, { baseUrl: 'https://a.example.com/v2' });
    await pool.clientFor(a.id);
    expect(made.map((m) => [m.config.baseUrl, m.config.pathStyle, m.closed])).toEqual([
      ['https://a.example.com/api/v1', 'literal', true],
      ['https://a.example.com/api/v1', 'strip-v1', true],
      ['https://a.example.com/v2', 'literal', false],
    ]);
  });

  it('closes a profile’s client when the profile is deleted, and everything on close', async () => {
    const a = await create('A', 'https://a.example.com/api/v1', 'key-a-123');
    const b = await create('B', 'https://b.example.com/api/v1', 'key-b-456');
    await pool.clientFor(a.id);
    await pool.clientFor(b.id);
    await profiles.delete(a.id);
    await Promise.resolve();
    expect(made.map((m) => m.closed)).toEqual([true, false]);
    expect(pool.profileIds).toEqual([b.id]);
    await pool.close();
    expect(made.map((m) => m.closed)).toEqual([true, true]);
  });

  describe('the last gate before the network', () => {
    let host: RecordingServer;

    beforeEach(async () => {
      host = await RecordingServer.start();
    });

    afterEach(async () => {
      await host.close();
    });

    /** A settings file as an older version, or a tampered one, could have left it. */
    async function legacyProfile(profile: Record<string, unknown>, key: string): Promise<void> {
      await pool.close();
      await writeFile(
        join(dataDir, 'settings.json'),
        JSON.stringify({
          version: 1,
          profiles: [
            { id: 'p1', name: 'Old', pathStyle: 'literal', createdAt: NOW.toISOString(), ...profile },
          ],
          activeProfileId: 'p1',
        }),
      );
      await keychain.set(accountFor('p1'), key);
      await start();
    }

    it('refuses to send a key to an origin other than the one it was saved for', async () => {
      await legacyProfile(
        { baseUrl: `${host.origin}/api/v1`, keyOrigin: 'https://api.example.com' },
        'key-saved-elsewhere',
      );
      await expect(pool.clientFor('p1')).rejects.toMatchObject({
        code: 'key_origin_mismatch',
        fields: [{ field: 'apiKey' }],
      });
      // Public calls still work there, without the key.
      await (await pool.clientFor('p1', 'public')).listCountries();
      expect(host.requests).toHaveLength(1);
      expect(host.authorizations).toEqual([]);
      expect(made.every((m) => m.config.apiKey === null)).toBe(true);
    });

    it('refuses to send a key over plain http to another machine, even from an old settings file', async () => {
      await legacyProfile({ baseUrl: 'http://api.example.com/api/v1' }, 'key-over-http');
      await expect(pool.clientFor('p1')).rejects.toMatchObject({ code: 'insecure_base_url' });
      expect(made.every((m) => m.config.apiKey === null)).toBe(true);
    });

    it('binds a key from a file without a binding to the profile’s own origin', async () => {
      await legacyProfile({ baseUrl: `${host.origin}/api/v1` }, 'key-from-before');
      await (await pool.clientFor('p1')).listTopUps({ perPage: 1 });
      expect(host.authorizations).toEqual(['Bearer key-from-before']);
    });
  });
});
