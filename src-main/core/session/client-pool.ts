import type { ProxyServiceClient } from '../../api';
import type { PathStyle } from '../../../src-shared/base-url-rule';
import { checkBaseUrl, originOf } from '../../../src-shared/base-url-rule';
import { AppError } from '../errors';
import type { BoundKey, ProfileChange, ProfileView } from '../profiles/profiles-service';

export interface ClientConfig {
  baseUrl: string;
  pathStyle: PathStyle;
  apiKey: string | null;
}

/** What the pool reads about profiles: their address, their key (with its origin), their changes. */
interface PoolProfiles {
  get(profileId: string): ProfileView;
  active(): ProfileView | null;
  getBoundKey(profileId: string): Promise<BoundKey | null>;
  onChange(listener: (change: ProfileChange) => void): () => void;
}

export interface ClientPoolOptions {
  profiles: PoolProfiles;
  createClient: (config: ClientConfig) => ProxyServiceClient;
  log?: (line: string) => void;
}

/** `public`: the catalog (no key is sent); `authenticated`: everything else. */
export type Access = 'public' | 'authenticated';

interface Entry {
  /** The profile's address when the client was made; another address makes another client. */
  signature: string;
  client: Promise<PooledClient>;
}

interface PooledClient {
  client: ProxyServiceClient;
  /** Why this client carries no key (an authenticated call fails with it), or null when it has one. */
  keyless: AppError | null;
}

/**
 * One API client per profile, made on first use and kept (with its keep-alive connections) until the
 * profile's key, base URL or path style changes or the profile goes. Background jobs ask for the
 * profile they work for (`clientFor`); UI calls for the active one (`activeClient`).
 *
 * It is also the last gate before the network for the key: a client carries the key only when the
 * profile's base URL passes today's rule (https, or http to loopback) and its origin is the one the
 * key was saved for. Otherwise the client is keyless and an authenticated call is refused here,
 * before any request is made.
 */
export class ClientPool {
  private readonly entries = new Map<string, Entry>();
  private readonly unsubscribe: () => void;
  private readonly log: (line: string) => void;
  private closed = false;

  constructor(private readonly options: ClientPoolOptions) {
    this.log = options.log ?? (() => undefined);
    this.unsubscribe = options.profiles.onChange((change) => {
      if (change.kind === 'key' || change.kind === 'connection' || change.kind === 'deleted') {
        this.drop(change.profileId);
      }
    });
  }

  /** The client of one profile (for background jobs and for the UI's active profile alike). */
  async clientFor(profileId: string, access: Access = 'authenticated'): Promise<ProxyServiceClient> {
    if (this.closed) throw new AppError('internal_error', 'The app is shutting down.');
    const view = this.options.profiles.get(profileId);
    const signature = JSON.stringify([view.baseUrl, view.pathStyle]);
    let entry = this.entries.get(profileId);
    if (entry && entry.signature !== signature) {
      this.drop(profileId);
      entry = undefined;
    }
    if (!entry) {
      entry = { signature, client: this.build(view) };
      this.entries.set(profileId, entry);
      // A failed build (keychain locked) is not kept: the next call tries again.
      entry.client.catch(() => {
        if (this.entries.get(profileId) === entry) this.entries.delete(profileId);
      });
    }
    const pooled = await entry.client;
    if (access === 'authenticated' && pooled.keyless) {
      // Read the key again next time (a locked keychain may have been unlocked since).
      if (this.entries.get(profileId) === entry) this.drop(profileId);
      throw pooled.keyless;
    }
    return pooled.client;
  }

  /** The active profile's id; `not_configured` when no profile is active. */
  activeProfileId(): string {
    const active = this.options.profiles.active();
    if (!active) {
      throw new AppError('not_configured', 'No profile is active: add one in Settings or try the demo.');
    }
    return active.id;
  }

  /** The active profile's id and client. */
  async activeClient(
    access: Access = 'authenticated',
  ): Promise<{ profileId: string; client: ProxyServiceClient }> {
    const profileId = this.activeProfileId();
    return { profileId, client: await this.clientFor(profileId, access) };
  }

  /** Closes the profile's client (if any); the next call makes a new one. */
  drop(profileId: string): void {
    const entry = this.entries.get(profileId);
    if (!entry) return;
    this.entries.delete(profileId);
    void entry.client.then(
      ({ client }) => client.close().catch(() => undefined),
      () => undefined,
    );
  }

  /** Profiles that have a client now (for tests and diagnostics). */
  get profileIds(): string[] {
    return [...this.entries.keys()];
  }

  async close(): Promise<void> {
    this.closed = true;
    this.unsubscribe();
    const entries = [...this.entries.values()];
    this.entries.clear();
    await Promise.all(
      entries.map((entry) =>
        entry.client.then(
          ({ client }) => client.close().catch(() => undefined),
          () => undefined,
        ),
      ),
    );
  }

  private async build(view: ProfileView): Promise<PooledClient> {
    const bound = await this.options.profiles.getBoundKey(view.id).catch((error: unknown) => {
      // Public calls still work without the key; authenticated ones say why.
      this.log(`profile ${view.id}: key unreadable`);
      return error instanceof Error ? error : new Error(String(error));
    });
    const refusal = bound instanceof Error ? keyUnreadable(view, bound) : refuseKey(view, bound);
    const apiKey = refusal === null && !(bound instanceof Error) && bound !== null ? bound.key : null;
    const client = this.options.createClient({ baseUrl: view.baseUrl, pathStyle: view.pathStyle, apiKey });
    return { client, keyless: refusal };
  }
}

/** Null when `bound` may be sent to the profile's base URL; else why not. */
function refuseKey(view: ProfileView, bound: BoundKey | null): AppError | null {
  if (bound === null) {
    return new AppError('not_configured', `The profile "${view.name}" has no API key: add it in Settings.`);
  }
  const rule = checkBaseUrl(view.baseUrl);
  if (!rule.ok) {
    return new AppError('insecure_base_url', `The API key of "${view.name}" is not sent: ${rule.message}`, [
      { field: 'baseUrl', message: rule.message },
    ]);
  }
  const origin = originOf(view.baseUrl);
  if (origin !== bound.origin) {
    return new AppError(
      'key_origin_mismatch',
      `The API key of "${view.name}" was saved for ${bound.origin}, not ${origin ?? 'this address'}; ` +
        'it is not sent there. Enter the key again for the new address.',
      [{ field: 'apiKey', message: 'Enter the API key again for this address' }],
    );
  }
  return null;
}

function keyUnreadable(view: ProfileView, error: Error): AppError {
  const code = (error as { code?: unknown }).code;
  return new AppError(
    code === 'keychain_unavailable' ? 'keychain_unavailable' : 'not_configured',
    `The API key of "${view.name}" cannot be read: ${error.message}`,
    [],
    error,
  );
}
