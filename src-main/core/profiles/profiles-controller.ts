import type { AppState, DomainHandlers, ParsedCallInput } from '../../../src-shared/contract';
import type { DomainService } from '../domain-service';
import type { ProfilesService } from './profiles-service';

export interface ProfilesControllerOptions {
  profiles: ProfilesService;
  /** Re-checks the active profile's connection (`ConnectionMonitor.check`). */
  monitor: { check(): Promise<unknown> };
  state: { getState(): Promise<AppState>; push(): Promise<AppState> };
  /** Deleting the demo's profile stops the demo. */
  demo: { readonly demoProfileId: string | null; stopDemo(): Promise<AppState> };
}

/**
 * The `profiles:*` calls: each changes profiles through the profiles service, then re-checks the
 * connection when the active profile changed (the answer is the new app state).
 */
export class ProfilesController implements DomainService<'profiles'> {
  constructor(private readonly options: ProfilesControllerOptions) {}

  handlers(): DomainHandlers<'profiles'> {
    return {
      'profiles:create': (input) => this.create(input),
      'profiles:update': (input) => this.update(input),
      'profiles:delete': (input) => this.delete(input.profileId),
      'profiles:switch': (input) => this.switchTo(input.profileId),
      'profiles:setKey': (input) => this.setKey(input),
      'profiles:removeKey': (input) => this.removeKey(input.profileId),
    };
  }

  async switchTo(profileId: string): Promise<AppState> {
    await this.options.profiles.switchTo(profileId);
    return this.recheck();
  }

  async setKey(input: ParsedCallInput<'profiles:setKey'>): Promise<AppState> {
    await this.options.profiles.setKey(input.profileId, input.apiKey, { storage: input.storage });
    return this.afterChange(input.profileId);
  }

  async removeKey(profileId: string): Promise<AppState> {
    await this.options.profiles.removeKey(profileId);
    return this.afterChange(profileId);
  }

  async create(input: ParsedCallInput<'profiles:create'>): Promise<AppState> {
    await this.options.profiles.create({
      name: input.name,
      baseUrl: input.baseUrl,
      pathStyle: input.pathStyle,
      key: input.apiKey,
      keyStorage: input.storage,
      allowDuplicate: input.duplicate === 'allow',
      activate: true,
    });
    return this.recheck();
  }

  async update(input: ParsedCallInput<'profiles:update'>): Promise<AppState> {
    const { profiles } = this.options;
    if (input.name !== undefined) await profiles.rename(input.profileId, input.name);
    if (input.baseUrl !== undefined || input.pathStyle !== undefined || input.apiKey !== undefined) {
      await profiles.updateConnection(input.profileId, {
        ...(input.baseUrl !== undefined ? { baseUrl: input.baseUrl } : {}),
        ...(input.pathStyle !== undefined ? { pathStyle: input.pathStyle } : {}),
        ...(input.apiKey !== undefined
          ? {
              key: {
                value: input.apiKey,
                ...(input.storage !== undefined ? { storage: input.storage } : {}),
              },
            }
          : {}),
      });
    }
    return this.afterChange(input.profileId);
  }

  async delete(profileId: string): Promise<AppState> {
    if (profileId === this.options.demo.demoProfileId) return this.options.demo.stopDemo();
    const wasActive = this.options.profiles.active()?.id === profileId;
    await this.options.profiles.delete(profileId);
    return wasActive ? this.recheck() : this.options.state.push();
  }

  private afterChange(profileId: string): Promise<AppState> {
    return this.options.profiles.active()?.id === profileId ? this.recheck() : this.options.state.push();
  }

  private async recheck(): Promise<AppState> {
    await this.options.monitor.check();
    return this.options.state.getState();
  }
}
