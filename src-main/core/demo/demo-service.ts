import type { AppState, DomainHandlers } from '../../../src-shared/contract';
import type { DomainService, Lifecycle } from '../domain-service';
import type { ProfilesService } from '../profiles/profiles-service';
import type { ConnectionMonitor } from '../session/connection-monitor';

/** The in-process sandbox behind demo mode. */
export interface DemoSandbox {
  baseUrl: string;
  apiKey: string;
  /** The sandbox's control API (`.../__sandbox`): simulated payments in the top-up wizard. */
  controlUrl?: string;
  close(): Promise<void>;
}

export interface DemoServiceOptions {
  profiles: Pick<ProfilesService, 'addProvidedProfile' | 'switchTo' | 'delete'>;
  startDemoSandbox: () => Promise<DemoSandbox>;
  monitor: Pick<ConnectionMonitor, 'check'>;
  state: { getState(): Promise<AppState> };
}

export const DEMO_PROFILE_NAME = 'Demo (sandbox)';

/** Demo mode: the sandbox in this process, with a profile for this run only. */
export class DemoService implements DomainService<'demo'>, Lifecycle {
  readonly name = 'demo';
  private sandbox: DemoSandbox | null = null;
  private profileId: string | null = null;

  constructor(private readonly options: DemoServiceOptions) {}

  get running(): boolean {
    return this.sandbox !== null;
  }

  /** The sandbox's control API while the demo runs. */
  get control(): string | null {
    return this.sandbox?.controlUrl ?? null;
  }

  /** The demo's profile id while it runs. */
  get demoProfileId(): string | null {
    return this.profileId;
  }

  handlers(): DomainHandlers<'demo'> {
    return {
      'demo:start': () => this.startDemo(),
      'demo:stop': () => this.stopDemo(),
    };
  }

  /** Starts the sandbox (once) and makes its profile active. */
  async startDemo(): Promise<AppState> {
    if (!this.sandbox) {
      this.sandbox = await this.options.startDemoSandbox();
      const view = this.options.profiles.addProvidedProfile({
        name: DEMO_PROFILE_NAME,
        baseUrl: this.sandbox.baseUrl,
        key: this.sandbox.apiKey,
        source: 'demo',
        activate: true,
      });
      this.profileId = view.id;
    }
    if (this.profileId) await this.options.profiles.switchTo(this.profileId);
    await this.options.monitor.check();
    return this.options.state.getState();
  }

  /** Stops the sandbox and forgets its profile; the saved active profile (if any) takes over. */
  async stopDemo(): Promise<AppState> {
    await this.shutDown();
    await this.options.monitor.check();
    return this.options.state.getState();
  }

  /** At app exit: the sandbox goes, nothing is checked. */
  async stop(): Promise<void> {
    await this.shutDown().catch(() => undefined);
  }

  private async shutDown(): Promise<void> {
    if (this.profileId) await this.options.profiles.delete(this.profileId);
    this.profileId = null;
    const sandbox = this.sandbox;
    this.sandbox = null;
    await sandbox?.close();
  }
}
