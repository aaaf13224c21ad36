import { createHash, randomUUID, timingSafeEqual } from 'node:crypto';
import { originOf } from '../../../src-shared/base-url-rule';
import type { KeychainProbeResult } from '../secrets/keychain-probe';
import type { SecretStore } from '../secrets/secret-store';
import type { PathStyle } from '../../../src-shared/base-url-rule';
import type { KeyStorage, Profile, Settings } from '../settings/settings-schema';
import type { SettingsStore } from '../settings/settings-store';
import { ProfileError } from './profile-errors';
import {
  maskKey,
  normalizeBaseUrl,
  validateApiKey,
  validateKeyStorage,
  validatePathStyle,
  validateProfileName,
} from './profile-validation';

/** Keys the app core supplies for this run only; they are never written anywhere. */
export type ProvidedKeySource = 'demo' | 'environment';
type KeySource = KeyStorage | ProvidedKeySource;

export interface ProfileView {
  id: string;
  name: string;
  baseUrl: string;
  pathStyle: PathStyle;
  keyStorage: KeyStorage;
  createdAt: string;
  /** Set for a profile the app core provides for this run (demo, environment); never saved. */
  provided: ProvidedKeySource | null;
  active: boolean;
}

/** What the renderer may know about a key: never the key itself. */
export interface KeyStatus {
  configured: boolean;
  /** `…` and the last 4 characters, or null when no key is configured. */
  masked: string | null;
  source: KeySource;
  /** Why the key cannot be read right now (keychain unavailable or locked), or null. */
  problem: string | null;
}

export interface CreateProfileInput {
  name: string;
  baseUrl: string;
  pathStyle?: PathStyle;
  /** Saved with the profile, so that a failure (keychain unavailable) creates nothing. */
  key?: string;
  keyStorage?: KeyStorage;
  /** Default: only when no profile is active. */
  activate?: boolean;
  /**
   * False: fail with `duplicate_profile` when a saved profile has the same base URL and key.
   * Default true (a second profile for one account is allowed once the user confirmed it).
   */
  allowDuplicate?: boolean;
}

/** A saved profile that connects to the same base URL with the same key. */
export interface DuplicateProfile {
  profileId: string;
  name: string;
}

export interface ProvidedProfileInput {
  name: string;
  baseUrl: string;
  key: string;
  source: ProvidedKeySource;
  pathStyle?: PathStyle;
  /** Default: only when no profile is active. */
  activate?: boolean;
}

/** What changed about a profile; caches (clients, key status) drop what they hold for it. */
export interface ProfileChange {
  profileId: string;
  kind: 'created' | 'renamed' | 'connection' | 'key' | 'deleted' | 'activated';
}

/** A key with the origin it may be sent to (see `keyOrigin` in the settings schema). */
export interface BoundKey {
  key: string;
  origin: string;
}

export interface ConnectionChange {
  baseUrl?: string;
  pathStyle?: PathStyle;
  /**
   * The key to use at the new address. Required when the origin changes while the profile has a
   * key: a key is sent only to the origin it was saved for.
   */
  key?: { value: string; storage?: KeyStorage };
}

export interface DeleteProfileResult {
  /** True only when `force` deleted the profile while its keychain entry could not be removed. */
  keyLeftInKeychain: boolean;
}

export interface ProfilesServiceOptions {
  settings: SettingsStore;
  /** The OS keychain store (`KeychainSecretStore`). */
  keychain: SecretStore;
  /** The memory-only store for "keep the key for this session" (`SessionSecretStore`). */
  session: SecretStore;
  /** The latest `probeKeychain()` answer; read on every call, so a re-probe takes effect at once. */
  keychainStatus: () => KeychainProbeResult;
  now?: () => Date;
  newId?: () => string;
}

interface ProvidedProfile {
  profile: Profile;
  key: string;
  source: ProvidedKeySource;
}

const SESSION_OFFER =
  'You can keep the key for this session only: it is not saved and must be entered again after a restart.';

/**
 * Profiles (`{ name, baseUrl, key in the keychain }`) and their keys. Profiles live in the
 * settings file, keys in a `SecretStore` under `api-key:<profileId>`, never in a file. The app
 * core may add profiles or keys for this run only (demo, environment): those are kept in memory.
 * Changes run one at a time, so that, say, a key saved while its profile is deleted cannot
 * outlive it.
 */
export class ProfilesService {
  private readonly settings: SettingsStore;
  private readonly keychain: SecretStore;
  private readonly session: SecretStore;
  private readonly keychainStatus: () => KeychainProbeResult;
  private readonly now: () => Date;
  private readonly newId: () => string;
  private readonly provided = new Map<string, ProvidedProfile>();
  private readonly providedKeys = new Map<
    string,
    { key: string; source: ProvidedKeySource; origin: string }
  >();
  private readonly listeners = new Set<(change: ProfileChange) => void>();
  /** A provided profile chosen for this run; wins over the saved `activeProfileId`. */
  private providedActiveId: string | null = null;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(options: ProfilesServiceOptions) {
    this.settings = options.settings;
    this.keychain = options.keychain;
    this.session = options.session;
    this.keychainStatus = options.keychainStatus;
    this.now = options.now ?? (() => new Date());
    this.newId = options.newId ?? randomUUID;
  }

  /** Told after every change, once it is saved; a listener that throws does not undo it. */
  onChange(listener: (change: ProfileChange) => void): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  private notify(profileId: string, kind: ProfileChange['kind']): void {
    for (const listener of [...this.listeners]) {
      try {
        listener({ profileId, kind });
      } catch {
        // A cache that fails to drop an entry must not fail the change the user made.
      }
    }
  }

  /** Saved profiles in creation order, then the provided ones. */
  list(): ProfileView[] {
    const activeId = this.activeId();
    const saved = this.settings.get().profiles.map((profile) => this.view(profile, null, activeId));
    const provided = [...this.provided.values()].map((entry) =>
      this.view(entry.profile, entry.source, activeId),
    );
    return [...saved, ...provided];
  }

  get(profileId: string): ProfileView {
    const provided = this.provided.get(profileId);
    if (provided) return this.view(provided.profile, provided.source, this.activeId());
    return this.view(this.savedProfile(profileId), null, this.activeId());
  }

  active(): ProfileView | null {
    const id = this.activeId();
    return id === null ? null : this.get(id);
  }

  create(input: CreateProfileInput): Promise<ProfileView> {
    return this.exclusive(async () => {
      const name = validateProfileName(input.name, this.settings.get().profiles);
      const baseUrl = normalizeBaseUrl(input.baseUrl);
      const pathStyle = validatePathStyle(input.pathStyle ?? 'literal');
      const storage = validateKeyStorage(input.keyStorage ?? 'keychain');
      const key = input.key === undefined ? null : validateApiKey(input.key);
      if (key !== null && storage === 'keychain') this.requireKeychain();
      if (key !== null && input.allowDuplicate === false) {
        const duplicate = await this.duplicateOf(baseUrl, key);
        if (duplicate) {
          throw new ProfileError(
            'duplicate_profile',
            `The profile "${duplicate.name}" already connects to ${baseUrl} with this key. ` +
              'Switch to it, or confirm to add a second profile.',
          );
        }
      }
      const activate = input.activate ?? this.activeId() === null;
      const id = this.newId();
      if (key !== null) await this.writeKey(storage, id, key);
      try {
        await this.settings.update((draft) => {
          // Settings may have changed since the check above (another window, another service).
          validateProfileName(name, draft.profiles);
          draft.profiles.push({
            id,
            name,
            baseUrl,
            pathStyle,
            keyStorage: storage,
            ...(key !== null ? { keyOrigin: originOrThrow(baseUrl) } : {}),
            createdAt: this.now().toISOString(),
          });
          if (activate) draft.activeProfileId = id;
        });
      } catch (error) {
        if (key !== null) await this.discardKey(storage, id);
        throw error;
      }
      if (activate) this.providedActiveId = null;
      this.notify(id, 'created');
      if (activate) this.notify(id, 'activated');
      return this.get(id);
    });
  }

  rename(profileId: string, newName: string): Promise<ProfileView> {
    return this.exclusive(async () => {
      this.requireSaved(profileId);
      const name = validateProfileName(newName, this.settings.get().profiles, profileId);
      await this.updateSaved(profileId, (profile, draft) => {
        validateProfileName(name, draft.profiles, profileId);
        profile.name = name;
      });
      this.notify(profileId, 'renamed');
      return this.get(profileId);
    });
  }

  /**
   * Changes where a profile connects. A new base URL resets the path style unless one is given.
   * The key stays bound to the origin it was saved for: moving to another origin with a key needs
   * `change.key` (saved for the new origin), else it fails with `key_required` on `apiKey` and
   * nothing changes.
   */
  updateConnection(profileId: string, change: ConnectionChange): Promise<ProfileView> {
    return this.exclusive(async () => {
      const current = this.requireSaved(profileId);
      const baseUrl = change.baseUrl === undefined ? current.baseUrl : normalizeBaseUrl(change.baseUrl);
      const pathStyle =
        change.pathStyle !== undefined
          ? validatePathStyle(change.pathStyle)
          : baseUrl === current.baseUrl
            ? current.pathStyle
            : 'literal';
      const newOrigin = originOrThrow(baseUrl);
      const boundOrigin = keyOriginOf(current);
      const newKey =
        change.key === undefined
          ? null
          : {
              value: validateApiKey(change.key.value),
              storage: validateKeyStorage(change.key.storage ?? current.keyStorage),
            };
      if (newKey === null && newOrigin !== boundOrigin) {
        if (this.providedKeys.has(profileId)) this.requireWritableKey(profileId);
        const status = await this.readKeyStatus(profileId);
        // A key that cannot be read right now (locked keychain) may still be there: ask for it too.
        if (status.configured || status.problem !== null) {
          throw new ProfileError(
            'key_required',
            `The API key of "${current.name}" was saved for ${boundOrigin}. Enter the key again to use it ` +
              `with ${newOrigin}, or remove the key first.`,
            'apiKey',
          );
        }
      }
      if (newKey !== null) {
        this.requireWritableKey(profileId);
        if (newKey.storage === 'keychain') this.requireKeychain();
        await this.replaceKey(current, newKey.value, newKey.storage, async () => {
          await this.updateSaved(profileId, (profile) => {
            profile.baseUrl = baseUrl;
            profile.pathStyle = pathStyle;
            profile.keyStorage = newKey.storage;
            profile.keyOrigin = newOrigin;
          });
        });
      } else {
        await this.updateSaved(profileId, (profile) => {
          profile.baseUrl = baseUrl;
          profile.pathStyle = pathStyle;
          // The binding never follows the address: only a key given for an origin binds to it
          // (`setKey`, or `change.key` above). Written down now, as older files have none.
          profile.keyOrigin = boundOrigin;
        });
      }
      this.notify(profileId, 'connection');
      if (newKey !== null) this.notify(profileId, 'key');
      return this.get(profileId);
    });
  }

  /**
   * Deletes a profile with its key, its pending top-ups and its rotation schedules. When its key
   * is in a keychain that cannot be reached, nothing is deleted unless `force` is set (the key is
   * then left behind and the result says so).
   */
  delete(profileId: string, options: { force?: boolean } = {}): Promise<DeleteProfileResult> {
    return this.exclusive(async () => {
      if (this.provided.has(profileId)) {
        this.provided.delete(profileId);
        this.providedKeys.delete(profileId);
        if (this.providedActiveId === profileId) this.providedActiveId = null;
        this.notify(profileId, 'deleted');
        return { keyLeftInKeychain: false };
      }
      const profile = this.requireSaved(profileId);
      let keyLeftInKeychain = false;
      try {
        await this.deleteStoredKeys(profile);
      } catch (error) {
        if (!options.force) throw error;
        keyLeftInKeychain = true;
      }
      await this.settings.update((draft) => {
        draft.profiles = draft.profiles.filter((candidate) => candidate.id !== profileId);
        if (draft.activeProfileId === profileId) draft.activeProfileId = draft.profiles[0]?.id ?? null;
      });
      this.providedKeys.delete(profileId);
      this.notify(profileId, 'deleted');
      return { keyLeftInKeychain };
    });
  }

  /** Makes a profile the active one; a saved profile stays active after a restart. */
  switchTo(profileId: string): Promise<ProfileView> {
    return this.exclusive(async () => {
      if (this.provided.has(profileId)) {
        this.providedActiveId = profileId;
        this.notify(profileId, 'activated');
        return this.get(profileId);
      }
      this.requireSaved(profileId);
      await this.settings.update((draft) => {
        this.findIn(draft, profileId);
        draft.activeProfileId = profileId;
      });
      this.providedActiveId = null;
      this.notify(profileId, 'activated');
      return this.get(profileId);
    });
  }

  /**
   * Saves the profile's key in the keychain or for this session only, replacing any key it had
   * (in either place). With `keychain` while no keychain is usable, fails with
   * `keychain_unavailable`, whose message offers session storage; the key is never written to a file.
   */
  setKey(profileId: string, key: string, options: { storage: KeyStorage }): Promise<KeyStatus> {
    return this.exclusive(async () => {
      const profile = this.requireWritableKey(profileId);
      const storage = validateKeyStorage(options.storage);
      const cleanKey = validateApiKey(key);
      if (storage === 'keychain') this.requireKeychain();
      // The user gives this key for the profile's address as it is now: it is bound to that origin.
      const origin = originOrThrow(profile.baseUrl);
      await this.replaceKey(profile, cleanKey, storage, async () => {
        if (profile.keyStorage !== storage || profile.keyOrigin !== origin) {
          await this.updateSaved(profileId, (draft) => {
            draft.keyStorage = storage;
            draft.keyOrigin = origin;
          });
        }
      });
      this.notify(profileId, 'key');
      return this.readKeyStatus(profileId);
    });
  }

  /**
   * Writes `key` to `storage`, then runs `save` (the settings change that points the profile at it).
   * When `save` fails, the key that was there before is put back, so a failed change loses nothing
   * and never leaves a new key bound to an old origin. Then the copy in the other store goes.
   */
  private async replaceKey(
    profile: Profile,
    key: string,
    storage: KeyStorage,
    save: () => Promise<void>,
  ): Promise<void> {
    const previous = await this.storeFor(storage)
      .get(accountFor(profile.id))
      .catch(() => null);
    await this.writeKey(storage, profile.id, key);
    try {
      await save();
    } catch (error) {
      if (previous === null) await this.discardKey(storage, profile.id);
      else await this.writeKey(storage, profile.id, previous).catch(() => undefined);
      throw error;
    }
    if (storage === 'keychain') {
      await this.session.delete(accountFor(profile.id));
    } else if (this.keychainStatus().available) {
      // The old key must not stay in the keychain; when the keychain fails here it is removed
      // by the next removeKey or delete.
      await this.keychain.delete(accountFor(profile.id)).catch(() => false);
    }
  }

  /** Removes the stored key from both places; the profile stays. */
  removeKey(profileId: string): Promise<KeyStatus> {
    return this.exclusive(async () => {
      const profile = this.requireWritableKey(profileId);
      await this.deleteStoredKeys(profile);
      this.notify(profileId, 'key');
      return this.readKeyStatus(profileId);
    });
  }

  /**
   * The key to send to the service: a provided one first, then the stored one; null when none.
   * For the main process only: it never crosses IPC.
   */
  async getKey(profileId: string): Promise<string | null> {
    const provided = this.providedKey(profileId);
    if (provided) return provided.key;
    const profile = this.savedProfile(profileId);
    if (profile.keyStorage === 'session') return this.session.get(accountFor(profileId));
    this.requireKeychain();
    try {
      return await this.keychain.get(accountFor(profileId));
    } catch (error) {
      throw new ProfileError('keychain_unavailable', errorMessage(error), 'key', { cause: error });
    }
  }

  /**
   * The key with the origin it is bound to: a caller sends it to that origin only. Null when the
   * profile has no key. For the main process only: it never crosses IPC.
   */
  async getBoundKey(profileId: string): Promise<BoundKey | null> {
    const provided = this.provided.get(profileId);
    if (provided) return { key: provided.key, origin: originOrThrow(provided.profile.baseUrl) };
    const providedKey = this.providedKeys.get(profileId);
    if (providedKey) return { key: providedKey.key, origin: providedKey.origin };
    const key = await this.getKey(profileId);
    return key === null ? null : { key, origin: keyOriginOf(this.savedProfile(profileId)) };
  }

  /**
   * The first saved profile with this base URL (compared as stored) and this key, or null. The keys
   * are compared here, in main, by their SHA-256 digests in constant time; neither leaves the process.
   * A key that cannot be read (locked keychain) counts as different.
   */
  findDuplicate(baseUrl: string, key: string): Promise<DuplicateProfile | null> {
    return this.duplicateOf(normalizeBaseUrl(baseUrl), key.trim());
  }

  private async duplicateOf(baseUrl: string, key: string): Promise<DuplicateProfile | null> {
    const wanted = digest(key);
    for (const profile of this.settings.get().profiles) {
      if (profile.baseUrl !== baseUrl) continue;
      const stored = await this.storeFor(profile.keyStorage)
        .get(accountFor(profile.id))
        .catch(() => null);
      if (stored !== null && timingSafeEqual(digest(stored), wanted)) {
        return { profileId: profile.id, name: profile.name };
      }
    }
    return null;
  }

  keyStatus(profileId: string): Promise<KeyStatus> {
    return this.readKeyStatus(profileId);
  }

  /**
   * For the app core: a profile that exists for this run only, with its key (the in-process
   * demo sandbox, or `PROXY_MANAGER_BASE_URL` + `PROXY_MANAGER_API_KEY`). Never saved; read-only
   * for the user except that it can be deleted. Its name is not checked against saved profiles:
   * the list marks it by `provided`.
   */
  addProvidedProfile(input: ProvidedProfileInput): ProfileView {
    const name = validateProfileName(
      input.name,
      [...this.provided.values()].map((entry) => entry.profile),
    );
    const profile: Profile = {
      // The environment's profile keeps its id across starts (what began under it resumes); the demo's
      // is new at each start, so a fresh demo starts with fresh alerts and schedules.
      id:
        input.source === 'environment'
          ? providedProfileId(input.source, input.baseUrl, input.key)
          : `${input.source}-${this.newId()}`,
      name,
      baseUrl: normalizeBaseUrl(input.baseUrl),
      pathStyle: validatePathStyle(input.pathStyle ?? 'literal'),
      keyStorage: 'session',
      createdAt: this.now().toISOString(),
    };
    const key = validateApiKey(input.key);
    const activate = input.activate ?? this.activeId() === null;
    if (activate) this.providedActiveId = profile.id;
    this.provided.set(profile.id, { profile, key, source: input.source });
    this.notify(profile.id, 'created');
    if (activate) this.notify(profile.id, 'activated');
    return this.get(profile.id);
  }

  /**
   * For the app core: use this key for a saved profile during this run (`--profile NAME` with
   * `PROXY_MANAGER_API_KEY`). It wins over the stored key and is never persisted.
   */
  provideKey(profileId: string, key: string, source: ProvidedKeySource): void {
    const profile = this.savedProfile(profileId);
    // Bound to the address the profile has now: the user named both for this run.
    this.providedKeys.set(profileId, {
      key: validateApiKey(key),
      source,
      origin: originOrThrow(profile.baseUrl),
    });
    this.notify(profileId, 'key');
  }

  clearProvidedKey(profileId: string): void {
    if (this.providedKeys.delete(profileId)) this.notify(profileId, 'key');
  }

  private activeId(): string | null {
    if (this.providedActiveId !== null && this.provided.has(this.providedActiveId))
      return this.providedActiveId;
    return this.settings.get().activeProfileId;
  }

  private view(profile: Profile, provided: ProvidedKeySource | null, activeId: string | null): ProfileView {
    return { ...profile, provided, active: profile.id === activeId };
  }

  private savedProfile(profileId: string): Profile {
    const profile = this.settings.get().profiles.find((candidate) => candidate.id === profileId);
    if (!profile) throw notFound(profileId);
    return profile;
  }

  private findIn(settings: Settings, profileId: string): Profile {
    const profile = settings.profiles.find((candidate) => candidate.id === profileId);
    if (!profile) throw notFound(profileId);
    return profile;
  }

  /** A saved profile that the user may change; provided profiles are read-only. */
  private requireSaved(profileId: string): Profile {
    if (this.provided.has(profileId)) {
      throw new ProfileError(
        'profile_read_only',
        'This profile is provided by the app for this run and cannot be changed',
      );
    }
    return this.savedProfile(profileId);
  }

  private requireWritableKey(profileId: string): Profile {
    const profile = this.requireSaved(profileId);
    const provided = this.providedKeys.get(profileId);
    if (provided) {
      throw new ProfileError(
        'profile_read_only',
        provided.source === 'environment'
          ? 'This profile uses the key from PROXY_MANAGER_API_KEY during this run; change it there'
          : 'This profile uses the demo key during this run',
        'key',
      );
    }
    return profile;
  }

  private async updateSaved(
    profileId: string,
    change: (profile: Profile, draft: Settings) => void,
  ): Promise<void> {
    await this.settings.update((draft) => {
      change(this.findIn(draft, profileId), draft);
    });
  }

  private requireKeychain(): void {
    const status = this.keychainStatus();
    if (!status.available) {
      throw new ProfileError(
        'keychain_unavailable',
        `The system keychain is not available. ${status.reason} ${SESSION_OFFER}`,
        'storage',
      );
    }
  }

  private storeFor(storage: KeyStorage): SecretStore {
    return storage === 'keychain' ? this.keychain : this.session;
  }

  private async writeKey(storage: KeyStorage, profileId: string, key: string): Promise<void> {
    try {
      await this.storeFor(storage).set(accountFor(profileId), key);
    } catch (error) {
      if (storage === 'session') throw error;
      throw new ProfileError('keychain_unavailable', `${errorMessage(error)} ${SESSION_OFFER}`, 'storage', {
        cause: error,
      });
    }
  }

  /** Best-effort removal of a key just written, when what it belongs to could not be saved. */
  private async discardKey(storage: KeyStorage, profileId: string): Promise<void> {
    await this.storeFor(storage)
      .delete(accountFor(profileId))
      .catch(() => false);
  }

  /** Removes the key from the session store and the keychain; fails when the keychain must be reached and cannot. */
  private async deleteStoredKeys(profile: Profile): Promise<void> {
    await this.session.delete(accountFor(profile.id));
    const keychainNeeded = profile.keyStorage === 'keychain';
    const status = this.keychainStatus();
    if (!status.available) {
      if (!keychainNeeded) return;
      throw new ProfileError(
        'keychain_unavailable',
        `The key could not be removed from the system keychain, so nothing was deleted. ${status.reason}`,
        'key',
      );
    }
    try {
      await this.keychain.delete(accountFor(profile.id));
    } catch (error) {
      if (!keychainNeeded) return;
      throw new ProfileError(
        'keychain_unavailable',
        `The key could not be removed from the system keychain, so nothing was deleted. ${errorMessage(error)}`,
        'key',
        { cause: error },
      );
    }
  }

  private providedKey(profileId: string): { key: string; source: ProvidedKeySource } | null {
    const profile = this.provided.get(profileId);
    if (profile) return { key: profile.key, source: profile.source };
    return this.providedKeys.get(profileId) ?? null;
  }

  private async readKeyStatus(profileId: string): Promise<KeyStatus> {
    const provided = this.providedKey(profileId);
    if (provided)
      return { configured: true, masked: maskKey(provided.key), source: provided.source, problem: null };
    const profile = this.savedProfile(profileId);
    const source = profile.keyStorage;
    if (source === 'keychain') {
      const status = this.keychainStatus();
      if (!status.available) return { configured: false, masked: null, source, problem: status.reason };
    }
    try {
      const key = await this.storeFor(source).get(accountFor(profileId));
      return { configured: key !== null, masked: key === null ? null : maskKey(key), source, problem: null };
    } catch (error) {
      return { configured: false, masked: null, source, problem: errorMessage(error) };
    }
  }

  private exclusive<T>(work: () => Promise<T>): Promise<T> {
    const run = this.queue.then(work);
    this.queue = run.catch(() => undefined);
    return run;
  }
}

/** The account name of a profile's key in a `SecretStore`. */
function digest(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest();
}

export function accountFor(profileId: string): string {
  return `api-key:${profileId}`;
}

/** The origin a saved profile's key may be sent to; files without `keyOrigin` bound it to `baseUrl`. */
function keyOriginOf(profile: Profile): string {
  return profile.keyOrigin ?? originOrThrow(profile.baseUrl);
}

function originOrThrow(url: string): string {
  const origin = originOf(url);
  if (origin === null)
    throw new ProfileError('invalid_base_url', 'The base URL is not a valid URL', 'baseUrl');
  return origin;
}

function notFound(profileId: string): ProfileError {
  return new ProfileError('profile_not_found', `No profile with id ${profileId}`, 'profileId');
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * The environment's profile keeps one id across runs, so that what was begun under it (a top-up
 * attempt, a watched payment, dismissed alerts) resumes under it: derived from the origin and the
 * key, hashed so the id never reveals the key.
 */
export function providedProfileId(source: 'environment', baseUrl: string, key: string): string {
  const where = originOrThrow(normalizeBaseUrl(baseUrl));
  const hash = createHash('sha256').update(`${source}\n${where}\n${key.trim()}`).digest('hex');
  return `${source}-${hash.slice(0, 24)}`;
}
