import type { ProxyServiceClient } from '../../api';
import type { Access, ClientPool } from './client-pool';
import type { ConnectionMonitor } from './connection-monitor';

/**
 * How services call the service API. `active` is for UI calls: the active profile's client, and the
 * outcome feeds the status bar. `forProfile` is for background jobs: that profile's client; its
 * outcome reaches the status bar only when that profile is the active one.
 */
export class ApiCaller {
  constructor(
    private readonly pool: Pick<ClientPool, 'clientFor' | 'activeProfileId'>,
    private readonly monitor: Pick<ConnectionMonitor, 'begin' | 'record'>,
  ) {}

  /** Runs `run` with the active profile's client; resolves with the profile it ran for. */
  async active<T>(
    access: Access,
    run: (client: ProxyServiceClient, profileId: string) => Promise<T>,
  ): Promise<{ profileId: string; value: T }> {
    const profileId = this.pool.activeProfileId();
    const value = await this.forProfile(profileId, access, (client) => run(client, profileId));
    return { profileId, value };
  }

  /** Runs `run` with `profileId`'s client (a background job's call). */
  async forProfile<T>(
    profileId: string,
    access: Access,
    run: (client: ProxyServiceClient) => Promise<T>,
  ): Promise<T> {
    const startedAt = this.monitor.begin();
    try {
      const value = await run(await this.pool.clientFor(profileId, access));
      this.monitor.record(profileId, startedAt, access, { ok: true });
      return value;
    } catch (error) {
      this.monitor.record(profileId, startedAt, access, { ok: false, error });
      throw error;
    }
  }
}
