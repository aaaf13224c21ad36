import type { BaseUrlProbeResult } from '../api';
import { keyFingerprint } from './profiles/key-fingerprint';
import type { AppState } from '../../src-shared/contract';
import type { AppStateService } from './app-state';
import type { CoreServices } from './app-services';
import type { Lifecycle } from './domain-service';
import { AppError } from './errors';
import type { AnyEventListener, EventBus } from './events';
import type { ProfilesService } from './profiles/profiles-service';
import type { KeychainProbeResult } from './secrets/keychain-probe';
import type { UiCallRegistry } from './session/ui-calls';
import type { SettingsRecovery } from './settings/settings-store';

export interface AppCoreOptions {
  events: EventBus;
  /** The UI's calls in flight, for Cancel and "still waiting…" (the dispatcher registers them). */
  uiCalls: UiCallRegistry;
  state: AppStateService;
  profiles: ProfilesService;
  /** Every domain service, for the IPC handler table (`createIpcHandlers`). */
  services: CoreServices;
  /** Started in this order at `start`, stopped in the reverse order at `dispose`. */
  lifecycle: readonly Lifecycle[];
  settingsRecovery: SettingsRecovery | null;
  keychainStatus: () => KeychainProbeResult;
  probeBaseUrl: (baseUrl: string) => Promise<BaseUrlProbeResult>;
  startDemo: () => Promise<AppState>;
  checkConnection: () => Promise<unknown>;
  /** Whether the user can see the app (the usage poller's pace); see `windowVisibility`. */
  setWindowVisible?: (visible: boolean) => void;
  log?: (line: string) => void;
}

export interface StartOptions {
  /** `PROXY_MANAGER_BASE_URL` + `PROXY_MANAGER_API_KEY`: a profile for this run only, never saved. */
  environment?: { baseUrl?: string | undefined; apiKey?: string | undefined };
  /** `--profile NAME`: make that saved profile active (and give it the environment key, if any). */
  profileName?: string;
  /** `--demo`: start connected to the in-process sandbox. */
  demo?: boolean;
  /** False: skip the background check of the active profile (a one-shot command makes its own call). */
  checkConnection?: boolean;
}

const ENVIRONMENT_PROFILE_NAME = 'Environment';

/**
 * The app's lifecycle: start-up options (environment key, `--profile`, `--demo`), the services
 * started and stopped in order, and the event stream the transports forward. It makes no API call
 * of its own: calls live in the domain services (`services`), wired by `create-app-core.ts`.
 */
export class AppCore {
  readonly services: CoreServices;
  readonly state: AppStateService;
  readonly uiCalls: UiCallRegistry;
  private readonly log: (line: string) => void;
  private started: Lifecycle[] = [];

  constructor(private readonly options: AppCoreOptions) {
    this.services = options.services;
    this.state = options.state;
    this.uiCalls = options.uiCalls;
    this.log = options.log ?? (() => undefined);
  }

  /** Every event for the transports (the preload's window, the web socket). */
  subscribe(listener: AnyEventListener): () => void {
    return this.options.events.subscribe(listener);
  }

  /**
   * The shell says whether the user can see the app: on the desktop a window shown and not
   * minimised, in web mode at least one browser connected to the event socket. Background reads
   * (usage) go faster while it is seen and slower in the tray.
   */
  windowVisibility(visible: boolean): void {
    this.options.setWindowVisible?.(visible);
  }

  /**
   * The fingerprint of the active profile's key and the origin it goes to (`keyFingerprint`), never
   * the key: the control socket's hello, so a command holding the same key goes through this process.
   */
  async activeKeyFingerprint(): Promise<string | null> {
    const { profiles } = this.options;
    const active = profiles.active();
    if (!active) return null;
    const bound = await profiles.getBoundKey(active.id).catch(() => null);
    return bound ? keyFingerprint(bound.key, bound.origin) : null;
  }

  getState(): Promise<AppState> {
    return this.state.getState();
  }

  /** Starts the services, applies start-up options and checks the active profile in the background. */
  async start(options: StartOptions = {}): Promise<void> {
    for (const service of this.options.lifecycle) {
      if (this.started.includes(service)) continue;
      await service.start?.();
      this.started.push(service);
    }
    const recovery = this.options.settingsRecovery;
    if (recovery) {
      this.state.addNotice(
        'warning',
        `${recovery.reason} The old file was kept at ${recovery.recoveredFrom}.`,
      );
    }
    const keychain = this.options.keychainStatus();
    if (!keychain.available) this.log(`keychain unavailable: ${keychain.detail}`);
    const { profiles } = this.options;
    const env = options.environment ?? {};
    if (options.profileName !== undefined) {
      const profile = profiles.list().find((p) => p.name === options.profileName && p.provided === null);
      if (!profile) throw new AppError('profile_not_found', `No profile named "${options.profileName}".`);
      if (env.apiKey) profiles.provideKey(profile.id, env.apiKey, 'environment');
      await profiles.switchTo(profile.id);
    } else if (env.apiKey && env.baseUrl) {
      const probe = await this.options.probeBaseUrl(env.baseUrl).catch(() => null);
      profiles.addProvidedProfile({
        name: ENVIRONMENT_PROFILE_NAME,
        baseUrl: probe?.baseUrl ?? env.baseUrl,
        key: env.apiKey,
        source: 'environment',
        pathStyle: probe?.adopted ?? 'literal',
        activate: true,
      });
    } else if (env.apiKey || env.baseUrl) {
      this.state.addNotice(
        'warning',
        'PROXY_MANAGER_API_KEY and PROXY_MANAGER_BASE_URL must be set together; both were ignored.',
      );
    }
    if (options.demo) {
      await this.options.startDemo();
      return;
    }
    if (options.checkConnection !== false) void this.options.checkConnection();
  }

  /**
   * Stops every service in the reverse order of the lifecycle list (also those never started: they
   * may hold resources, and `stop` is safe to call on them); no event is sent after this.
   */
  async dispose(): Promise<void> {
    this.options.events.clear();
    this.started = [];
    for (const service of [...this.options.lifecycle].reverse()) {
      try {
        await service.stop?.();
      } catch (error) {
        this.log(
          `stopping ${service.name} failed: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
    }
  }
}
