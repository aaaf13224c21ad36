import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AppStateService } from '../../src-main/core/app-state';
import { EventBus } from '../../src-main/core/events';
import { ProfilesService } from '../../src-main/core/profiles/profiles-service';
import type { KeychainProbeResult } from '../../src-main/core/secrets/keychain-probe';
import type { SecretStore } from '../../src-main/core/secrets/secret-store';
import { SessionSecretStore } from '../../src-main/core/secrets/session-secret-store';
import { SettingsStore } from '../../src-main/core/settings/settings-store';
import type { AppState } from '../../src-shared/contract';

/** The OS keychain stand-in, counting reads: each one may be a D-Bus round trip (or a prompt). */
class CountingKeychain implements SecretStore {
  readonly kind = 'keychain' as const;
  reads: string[] = [];
  private readonly inner = new SessionSecretStore();
  get(account: string) {
    this.reads.push(account);
    return this.inner.get(account);
  }
  set(account: string, secret: string) {
    return this.inner.set(account, secret);
  }
  delete(account: string) {
    return this.inner.delete(account);
  }
}

let dataDir: string;
let keychain: CountingKeychain;
let keychainStatus: KeychainProbeResult;
let profiles: ProfilesService;
let state: AppStateService;
let pushed: AppState[];

beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'pm-app-state-'));
  keychain = new CountingKeychain();
  keychainStatus = { available: true };
  profiles = new ProfilesService({
    settings: await SettingsStore.open({ dataDir }),
    keychain,
    session: new SessionSecretStore(),
    keychainStatus: () => keychainStatus,
  });
  const events = new EventBus();
  pushed = [];
  events.on('app:stateChanged', (s) => pushed.push(s));
  state = new AppStateService({
    mode: 'desktop',
    events,
    profiles,
    connection: () => ({ status: 'online', message: 'ok', checkedAt: null }),
    keychainStatus: () => keychainStatus,
    demoRunning: () => false,
    jobs: () => ({ owner: false, message: 'Another window runs the background jobs.' }),
  });
});

afterEach(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

describe('AppStateService', () => {
  it('reads each key status once, not on every push; again only for the profile whose key changed', async () => {
    const a = await profiles.create({ name: 'A', baseUrl: 'https://a.example.com', key: 'key-aaaa-1111' });
    const b = await profiles.create({ name: 'B', baseUrl: 'https://b.example.com', key: 'key-bbbb-2222' });
    keychain.reads = [];
    for (let i = 0; i < 5; i += 1) await state.push();
    expect(keychain.reads.sort()).toEqual([`api-key:${a.id}`, `api-key:${b.id}`].sort());
    expect(pushed).toHaveLength(5);
    expect(pushed.at(-1)?.profiles.map((p) => p.key.masked)).toEqual(['…1111', '…2222']);

    keychain.reads = [];
    await profiles.setKey(b.id, 'key-bbbb-3333', { storage: 'keychain' });
    await state.push();
    await state.push();
    expect(keychain.reads.filter((r) => r === `api-key:${a.id}`)).toEqual([]);
    expect(pushed.at(-1)?.profiles.map((p) => p.key.masked)).toEqual(['…1111', '…3333']);
  });

  it('reads the key statuses again when the keychain comes or goes', async () => {
    await profiles.create({ name: 'A', baseUrl: 'https://a.example.com', key: 'key-aaaa-1111' });
    await state.getState();
    keychainStatus = { available: false, reason: 'Locked.', detail: 'test' };
    expect((await state.getState()).profiles[0]?.key.configured).toBe(false);
    keychainStatus = { available: true };
    expect((await state.getState()).profiles[0]?.key.configured).toBe(true);
  });

  it('carries what this process does about background jobs', async () => {
    expect((await state.getState()).jobs).toEqual({
      owner: false,
      message: 'Another window runs the background jobs.',
    });
  });
});
