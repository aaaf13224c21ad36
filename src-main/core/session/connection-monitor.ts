import {
  ApiError,
  AuthError,
  NetworkError,
  ProtocolError,
  TimeoutError,
  type ProxyServiceClient,
  type TopUpPage,
} from '../../api';
import type { ConnectionState, ConnectionStatus } from '../../../src-shared/contract';
import { AppError } from '../errors';
import type { EventSink } from '../events';
import type { ProfileChange, ProfileView } from '../profiles/profiles-service';
import type { Access, ClientPool } from './client-pool';

interface MonitorProfiles {
  active(): ProfileView | null;
  onChange(listener: (change: ProfileChange) => void): () => void;
}

export interface ConnectionMonitorOptions {
  profiles: MonitorProfiles;
  pool: Pick<ClientPool, 'clientFor'>;
  events: EventSink;
  now: () => Date;
}

/** What the cheapest authenticated call says about a key. */
export type KeyProbe = { ok: true; message: string; page: TopUpPage | null } | { ok: false; error: unknown };

/**
 * Proves a key works with the cheapest authenticated call of the spec: `GET /v1/topups?perPage=1`
 * (one small object; listing mobile ports would download every port with its credentials). A 403
 * means the key was recognised but may not read top-ups (the spec leaves scopes open): it counts as
 * working; only 401 says the key is wrong.
 */
export async function probeKey(client: ProxyServiceClient): Promise<KeyProbe> {
  try {
    const page = await client.listTopUps({ perPage: 1 });
    return { ok: true, message: 'The service accepted the API key.', page };
  } catch (error) {
    if (error instanceof AuthError && error.status === 403) {
      return { ok: true, message: 'The service accepted the API key (it may not read top-ups).', page: null };
    }
    return { ok: false, error };
  }
}

/**
 * The status bar's connection state. Only the active profile's calls feed it: the outcome of a call
 * made for another profile (a background job) is dropped, as is one that arrives after the user
 * switched profiles, so a failure elsewhere never flips what the user sees.
 */
export class ConnectionMonitor {
  private current: ConnectionState = {
    status: 'not_configured',
    message: 'No profile yet.',
    checkedAt: null,
  };
  private generation = 0;
  private readonly unsubscribe: () => void;
  private readonly listeners = new Set<() => void>();

  constructor(private readonly options: ConnectionMonitorOptions) {
    this.unsubscribe = options.profiles.onChange((change) => {
      // A new active profile: the answers still in flight for the old one no longer count.
      if (change.kind === 'activated') this.generation += 1;
    });
  }

  state(): ConnectionState {
    return { ...this.current };
  }

  /**
   * Told when the state the status bar shows changes (the app state is pushed again); returns the
   * unsubscribe function.
   */
  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Re-checks the active profile with one authenticated call (see `probeKey`); its answer is not
   * thrown away: the newest top-up goes out as `topups:changed`.
   */
  async check(): Promise<ConnectionState> {
    const generation = ++this.generation;
    const active = this.options.profiles.active();
    if (!active) {
      this.current = { status: 'not_configured', message: 'Add a profile or try the demo.', checkedAt: null };
      this.changed();
      return this.state();
    }
    this.current = {
      status: 'checking',
      message: `Checking ${active.name}…`,
      checkedAt: this.current.checkedAt,
    };
    this.changed();
    let probe: KeyProbe;
    try {
      probe = await probeKey(await this.options.pool.clientFor(active.id, 'authenticated'));
    } catch (error) {
      probe = { ok: false, error };
    }
    if (generation !== this.generation) return this.state();
    if (probe.ok) {
      this.set('online', `Connected to ${active.name}.`, true);
      if (probe.page && probe.page.data.length > 0) {
        this.options.events.emit('topups:changed', { profileId: active.id, changed: probe.page.data });
      }
    } else {
      this.noteFailure(probe.error, true);
    }
    return this.state();
  }

  /**
   * The outcome of a call made for `profileId`. Counts only when that profile is (still) the active
   * one; `startedAt` is the generation the call began in (from `begin()`).
   */
  record(
    profileId: string,
    startedAt: number,
    access: Access,
    outcome: { ok: true } | { ok: false; error: unknown },
  ): void {
    if (startedAt !== this.generation || this.options.profiles.active()?.id !== profileId) return;
    if (outcome.ok) {
      if (access === 'authenticated' && this.current.status !== 'online') {
        const active = this.options.profiles.active();
        this.set('online', `Connected to ${active?.name ?? 'the service'}.`);
      } else if (access === 'public' && this.current.status === 'offline') {
        // The service is reachable again; only an authenticated call can say whether the key works.
        void this.check();
      }
      return;
    }
    this.noteFailure(outcome.error, false);
  }

  /** The generation a call starts in; pass it to `record`. */
  begin(): number {
    return this.generation;
  }

  stop(): void {
    this.unsubscribe();
    this.generation += 1;
  }

  private noteFailure(error: unknown, fromCheck: boolean): void {
    if (error instanceof AppError) {
      this.set('not_configured', error.message);
    } else if (error instanceof AuthError && error.status === 401) {
      this.set('key_rejected', 'The service rejected the API key. Replace it in Settings.');
    } else if (error instanceof NetworkError || error instanceof TimeoutError) {
      this.set('offline', `Cannot reach the service: ${error.message}`);
    } else if (error instanceof ProtocolError || (error instanceof ApiError && error.status >= 500)) {
      this.set('service_error', `The service answered with an error: ${error.message}`);
    } else if (fromCheck) {
      this.set('service_error', describeFailure(error));
    }
  }

  private changed(): void {
    for (const listener of [...this.listeners]) listener();
  }

  private set(status: ConnectionStatus, message: string, force = false): void {
    const changed = force || this.current.status !== status || this.current.message !== message;
    this.current = { status, message, checkedAt: this.options.now().toISOString() };
    if (changed) this.changed();
  }
}

export function describeFailure(error: unknown): string {
  if (error instanceof AuthError && error.status === 401) return 'The service rejected this API key.';
  if (error instanceof AuthError && error.status === 403)
    return `The key was accepted but lacks a permission: ${error.message}`;
  if (error instanceof Error) return error.message;
  return 'The call failed.';
}
