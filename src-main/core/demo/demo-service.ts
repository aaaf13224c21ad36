import type { TopUp } from '../../api';
import type { AppState, DomainHandlers, SimulatedPayment } from '../../../src-shared/contract';
import type { DomainService, Lifecycle } from '../domain-service';
import type { ProfilesService } from '../profiles/profiles-service';
import { SANDBOX_ECHO_URL } from '../proxy-test/proxy-test-service';
import type { ConnectionMonitor } from '../session/connection-monitor';
import { type DemoPayments, simulateDemoPayment } from './demo-payments';

/** The in-process sandbox behind demo mode. */
export interface DemoSandbox {
  baseUrl: string;
  apiKey: string;
  /** The sandbox's control API (`.../__sandbox`): simulated payments in the top-up wizard. */
  controlUrl?: string;
  close(): Promise<void>;
}

/**
 * The demo while it runs: its sandbox and its profile. Only `DemoService` changes it; the app state
 * reads `running` from it (the app state is built before the demo service, which answers with it).
 */
export class DemoSession {
  sandbox: DemoSandbox | null = null;
  profileId: string | null = null;

  get running(): boolean {
    return this.sandbox !== null;
  }
}

export interface DemoServiceOptions {
  session: DemoSession;
  profiles: Pick<ProfilesService, 'addProvidedProfile' | 'switchTo' | 'delete'>;
  startDemoSandbox: () => Promise<DemoSandbox>;
  monitor: Pick<ConnectionMonitor, 'check'>;
  state: { getState(): Promise<AppState> };
  /** Sends the simulated payments' control requests (tests: another `fetch`). */
  fetch?: typeof fetch;
}

const DEMO_PROFILE_NAME = 'Demo (sandbox)';

/** Demo mode: the sandbox in this process, with a profile for this run only. */
export class DemoService implements DomainService<'demo'>, DemoPayments, Lifecycle {
  readonly name = 'demo';
  private readonly session: DemoSession;

  constructor(private readonly options: DemoServiceOptions) {
    this.session = options.session;
  }

  get running(): boolean {
    return this.session.running;
  }

  /** The sandbox's control API while the demo runs. */
  get control(): string | null {
    return this.session.sandbox?.controlUrl ?? null;
  }

  /** The demo's profile id while it runs. */
  get demoProfileId(): string | null {
    return this.session.profileId;
  }

  handlers(): DomainHandlers<'demo'> {
    return {
      'demo:start': () => this.startDemo(),
      'demo:stop': () => this.stopDemo(),
    };
  }

  /** Starts the sandbox (once) and makes its profile active. */
  async startDemo(): Promise<AppState> {
    const { session } = this;
    if (!session.sandbox) {
      session.sandbox = await this.options.startDemoSandbox();
      const view = this.options.profiles.addProvidedProfile({
        name: DEMO_PROFILE_NAME,
        baseUrl: session.sandbox.baseUrl,
        key: session.sandbox.apiKey,
        source: 'demo',
        activate: true,
      });
      session.profileId = view.id;
    }
    if (session.profileId) await this.options.profiles.switchTo(session.profileId);
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

  /**
   * Where the proxy test asks for a port's exit IP: the demo's gateway answers every request itself,
   * so the demo profile asks its echo; null for any other profile (the configured echo).
   */
  echoUrlFor(profileId: string): string | null {
    return profileId === this.demoProfileId ? SANDBOX_ECHO_URL : null;
  }

  /** Pays a top-up on the demo sandbox's chain; refused unless it is the demo profile's. */
  simulatePayment(profileId: string, topUp: TopUp, kind: SimulatedPayment): Promise<void> {
    const controlUrl = this.control;
    const demoProfileId = this.demoProfileId;
    const control = controlUrl && demoProfileId ? { profileId: demoProfileId, controlUrl } : null;
    return simulateDemoPayment(control, profileId, topUp, kind, this.options.fetch);
  }

  private async shutDown(): Promise<void> {
    const { session } = this;
    if (session.profileId) await this.options.profiles.delete(session.profileId);
    session.profileId = null;
    const sandbox = session.sandbox;
    session.sandbox = null;
    await sandbox?.close();
  }
}
