import {
  ApiError,
  AuthError,
  NetworkError,
  ProtocolError,
  TimeoutError,
  type BaseUrlProbeResult,
  type ProxyServiceClient,
} from '../api';
import type {
  AppState,
  ConnectionState,
  ConnectionStatus,
  ConnectionTestResult,
  EventChannel,
  EventPayload,
  MobilePortView,
  Notice,
  ParsedCallInput,
  PathStyle,
  ProfileSummary,
  SettingsView,
} from '../ipc/contract';
import { CoreError } from './core-error';
import type { ProfilesService, ProfileView } from './profiles/profiles-service';
import type { KeychainProbeResult } from './secrets/keychain-probe';
import type { SettingsStore } from './settings/settings-store';

export interface ClientConfig {
  baseUrl: string;
  pathStyle: PathStyle;
  apiKey: string | null;
}

/** The in-process sandbox behind demo mode. */
export interface DemoSandbox {
  baseUrl: string;
  apiKey: string;
  close(): Promise<void>;
}

export interface AppCoreOptions {
  mode: 'desktop' | 'web';
  settings: SettingsStore;
  profiles: ProfilesService;
  keychainStatus: () => KeychainProbeResult;
  createClient: (config: ClientConfig) => ProxyServiceClient;
  probeBaseUrl: (baseUrl: string) => Promise<BaseUrlProbeResult>;
  startDemoSandbox: () => Promise<DemoSandbox>;
  now?: () => Date;
  log?: (line: string) => void;
}

export interface StartOptions {
  /** `PROXY_MANAGER_BASE_URL` + `PROXY_MANAGER_API_KEY`: a profile for this run only, never saved. */
  environment?: { baseUrl?: string | undefined; apiKey?: string | undefined };
  /** `--profile NAME`: make that saved profile active (and give it the environment key, if any). */
  profileName?: string;
  /** `--demo`: start connected to the in-process sandbox. */
  demo?: boolean;
}

type Listener = (channel: EventChannel, payload: unknown) => void;

const DEMO_PROFILE_NAME = 'Demo (sandbox)';
const ENVIRONMENT_PROFILE_NAME = 'Environment';

/** The authenticated call that proves a key works: listing mobile ports needs only the `proxies` scope. */
const checkKey = (client: ProxyServiceClient) => client.listMobilePorts();

/**
 * The app's core: profiles and keys, the connection to the service and its state, demo mode, and the
 * API calls the UI makes. Both the Electron shell and web mode drive it through the IPC contract; it
 * never touches Electron. Every change of what the UI shows is pushed as one `app:stateChanged` event.
 */
export class AppCore {
  private readonly listeners = new Set<Listener>();
  private readonly now: () => Date;
  private readonly log: (line: string) => void;
  private connection: ConnectionState = {
    status: 'not_configured',
    message: 'No profile yet.',
    checkedAt: null,
  };
  private notices: Notice[] = [];
  private demo: DemoSandbox | null = null;
  private demoProfileId: string | null = null;
  private cachedClient: { signature: string; client: ProxyServiceClient } | null = null;
  private checkGeneration = 0;
  private noticeCounter = 0;

  constructor(private readonly options: AppCoreOptions) {
    this.now = options.now ?? (() => new Date());
    this.log = options.log ?? (() => undefined);
  }

  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private emit<E extends EventChannel>(channel: E, payload: EventPayload<E>): void {
    for (const listener of this.listeners) {
      try {
        listener(channel, payload);
      } catch (error) {
        this.log(`event listener failed: ${String(error)}`);
      }
    }
  }

  private async pushState(): Promise<AppState> {
    const state = await this.getState();
    this.emit('app:stateChanged', state);
    return state;
  }

  /** Applies start-up options and checks the active profile's connection in the background. */
  async start(options: StartOptions = {}): Promise<void> {
    const recovery = this.options.settings.recovery;
    if (recovery) {
      this.addNotice('warning', `${recovery.reason} The old file was kept at ${recovery.recoveredFrom}.`);
    }
    const keychain = this.options.keychainStatus();
    if (!keychain.available) this.log(`keychain unavailable: ${keychain.detail}`);
    const env = options.environment ?? {};
    if (options.profileName !== undefined) {
      const profile = this.options.profiles
        .list()
        .find((p) => p.name === options.profileName && p.provided === null);
      if (!profile) throw new CoreError('profile_not_found', `No profile named "${options.profileName}".`);
      if (env.apiKey) this.options.profiles.provideKey(profile.id, env.apiKey, 'environment');
      await this.options.profiles.switchTo(profile.id);
    } else if (env.apiKey && env.baseUrl) {
      const probe = await this.options.probeBaseUrl(env.baseUrl).catch(() => null);
      this.options.profiles.addProvidedProfile({
        name: ENVIRONMENT_PROFILE_NAME,
        baseUrl: env.baseUrl,
        key: env.apiKey,
        source: 'environment',
        pathStyle: probe?.adopted ?? 'literal',
        activate: true,
      });
    } else if (env.apiKey || env.baseUrl) {
      this.addNotice(
        'warning',
        'PROXY_MANAGER_API_KEY and PROXY_MANAGER_BASE_URL must be set together; both were ignored.',
      );
    }
    if (options.demo) {
      await this.startDemo();
      return;
    }
    void this.checkConnection();
  }

  async dispose(): Promise<void> {
    this.listeners.clear();
    await this.cachedClient?.client.close().catch(() => undefined);
    this.cachedClient = null;
    await this.demo?.close().catch(() => undefined);
    this.demo = null;
  }

  // --- state -----------------------------------------------------------------------------------

  async getState(): Promise<AppState> {
    const views = this.options.profiles.list();
    const profiles = await Promise.all(views.map((view) => this.summarize(view)));
    const keychain = this.options.keychainStatus();
    return {
      mode: this.options.mode,
      profiles,
      activeProfile: profiles.find((p) => p.active) ?? null,
      connection: { ...this.connection },
      keychain: { available: keychain.available, reason: keychain.available ? null : keychain.reason },
      demo: { running: this.demo !== null },
      notices: [...this.notices],
    };
  }

  async dismissNotice(input: ParsedCallInput<'app:dismissNotice'>): Promise<AppState> {
    this.notices = this.notices.filter((notice) => notice.id !== input.noticeId);
    return this.pushState();
  }

  private addNotice(level: Notice['level'], message: string): void {
    this.noticeCounter += 1;
    this.notices.push({ id: `notice-${this.noticeCounter}`, level, message });
  }

  private async summarize(view: ProfileView): Promise<ProfileSummary> {
    const status = await this.options.profiles.keyStatus(view.id).catch(() => null);
    return {
      id: view.id,
      name: view.name,
      baseUrl: view.baseUrl,
      pathStyle: view.pathStyle,
      kind: view.provided === 'demo' ? 'demo' : view.provided === 'environment' ? 'environment' : 'account',
      active: view.active,
      key: status
        ? {
            configured: status.configured,
            masked: status.masked,
            source: status.configured ? status.source : null,
          }
        : { configured: false, masked: null, source: null },
    };
  }

  private setConnection(status: ConnectionStatus, message: string): void {
    const changed = this.connection.status !== status || this.connection.message !== message;
    this.connection = { status, message, checkedAt: this.now().toISOString() };
    if (changed) void this.pushState();
  }

  // --- connection ------------------------------------------------------------------------------

  /** Probes the base URL's readings, then makes one authenticated call with the key. Saves nothing. */
  async testConnection(input: ParsedCallInput<'connection:test'>): Promise<ConnectionTestResult> {
    const probe = await this.options.probeBaseUrl(input.baseUrl);
    const probes = probe.readings.map((reading) => ({
      pathStyle: reading.style,
      url: reading.url,
      ok: reading.ok,
      detail: reading.summary,
    }));
    if (probe.adopted === null) {
      return {
        ok: false,
        pathStyle: null,
        message: `The service did not answer at this base URL. ${probe.summary}`,
        probes,
        authenticated: { ok: false, message: 'Not tried: the base URL did not answer.' },
      };
    }
    const client = this.options.createClient({
      baseUrl: input.baseUrl,
      pathStyle: probe.adopted,
      apiKey: input.apiKey,
    });
    try {
      await checkKey(client);
      return {
        ok: true,
        pathStyle: probe.adopted,
        message: `Connected. ${probe.summary}`,
        probes,
        authenticated: { ok: true, message: 'The service accepted the API key.' },
      };
    } catch (error) {
      return {
        ok: false,
        pathStyle: probe.adopted,
        message: `The base URL answers, but the key did not work. ${probe.summary}`,
        probes,
        authenticated: { ok: false, message: describeFailure(error) },
      };
    } finally {
      await client.close().catch(() => undefined);
    }
  }

  /** Re-checks the active profile with one authenticated call; the answer updates the status bar. */
  async checkConnection(): Promise<AppState> {
    const generation = ++this.checkGeneration;
    const active = this.options.profiles.active();
    if (!active) {
      this.connection = {
        status: 'not_configured',
        message: 'Add a profile or try the demo.',
        checkedAt: null,
      };
      return this.pushState();
    }
    this.connection = {
      status: 'checking',
      message: `Checking ${active.name}…`,
      checkedAt: this.connection.checkedAt,
    };
    await this.pushState();
    try {
      const client = await this.activeClient(true);
      await checkKey(client);
      if (generation === this.checkGeneration) this.setConnection('online', `Connected to ${active.name}.`);
    } catch (error) {
      if (generation === this.checkGeneration) this.noteFailure(error, true);
    }
    return this.getState();
  }

  private noteFailure(error: unknown, fromCheck = false): void {
    if (error instanceof CoreError && error.code === 'not_configured') {
      this.setConnection('not_configured', error.message);
    } else if (error instanceof AuthError && error.status === 401) {
      this.setConnection('key_rejected', 'The service rejected the API key. Replace it in Settings.');
    } else if (error instanceof NetworkError || error instanceof TimeoutError) {
      this.setConnection('offline', `Cannot reach the service: ${error.message}`);
    } else if (error instanceof ProtocolError || (error instanceof ApiError && error.status >= 500)) {
      this.setConnection('service_error', `The service answered with an error: ${error.message}`);
    } else if (fromCheck) {
      this.setConnection('service_error', describeFailure(error));
    }
  }

  private async activeClient(requireKey: boolean): Promise<ProxyServiceClient> {
    const active = this.options.profiles.active();
    if (!active)
      throw new CoreError('not_configured', 'No profile is active: add one in Settings or try the demo.');
    const apiKey = await this.options.profiles.getKey(active.id);
    if (requireKey && apiKey === null) {
      throw new CoreError(
        'not_configured',
        `The profile "${active.name}" has no API key: add it in Settings.`,
      );
    }
    const signature = JSON.stringify([active.id, active.baseUrl, active.pathStyle, apiKey]);
    if (this.cachedClient?.signature !== signature) {
      const previous = this.cachedClient?.client;
      this.cachedClient = {
        signature,
        client: this.options.createClient({ baseUrl: active.baseUrl, pathStyle: active.pathStyle, apiKey }),
      };
      void previous?.close().catch(() => undefined);
    }
    return this.cachedClient.client;
  }

  /** Runs an API call for the active profile and lets its outcome update the connection state. */
  private async callService<T>(
    access: 'public' | 'authenticated',
    run: (client: ProxyServiceClient) => Promise<T>,
  ): Promise<T> {
    try {
      const value = await run(await this.activeClient(access === 'authenticated'));
      if (access === 'authenticated' && this.connection.status !== 'online') {
        const active = this.options.profiles.active();
        this.setConnection('online', `Connected to ${active?.name ?? 'the service'}.`);
      } else if (access === 'public' && this.connection.status === 'offline') {
        // The service is reachable again; only an authenticated call can say whether the key works.
        void this.checkConnection();
      }
      return value;
    } catch (error) {
      this.noteFailure(error);
      throw error;
    }
  }

  // --- profiles --------------------------------------------------------------------------------

  async createProfile(input: ParsedCallInput<'profiles:create'>): Promise<AppState> {
    await this.options.profiles.create({
      name: input.name,
      baseUrl: input.baseUrl,
      pathStyle: input.pathStyle,
      key: input.apiKey,
      keyStorage: input.storage,
      activate: true,
    });
    return this.checkConnection();
  }

  async updateProfile(input: ParsedCallInput<'profiles:update'>): Promise<AppState> {
    if (input.name !== undefined) await this.options.profiles.rename(input.profileId, input.name);
    if (input.baseUrl !== undefined || input.pathStyle !== undefined) {
      await this.options.profiles.updateConnection(input.profileId, {
        ...(input.baseUrl !== undefined ? { baseUrl: input.baseUrl } : {}),
        ...(input.pathStyle !== undefined ? { pathStyle: input.pathStyle } : {}),
      });
    }
    return this.afterProfileChange(input.profileId);
  }

  async deleteProfile(input: ParsedCallInput<'profiles:delete'>): Promise<AppState> {
    const wasActive = this.options.profiles.active()?.id === input.profileId;
    if (input.profileId === this.demoProfileId) return this.stopDemo();
    await this.options.profiles.delete(input.profileId);
    return wasActive ? this.checkConnection() : this.pushState();
  }

  async switchProfile(input: ParsedCallInput<'profiles:switch'>): Promise<AppState> {
    await this.options.profiles.switchTo(input.profileId);
    return this.checkConnection();
  }

  async setKey(input: ParsedCallInput<'profiles:setKey'>): Promise<AppState> {
    await this.options.profiles.setKey(input.profileId, input.apiKey, { storage: input.storage });
    return this.afterProfileChange(input.profileId);
  }

  async removeKey(input: ParsedCallInput<'profiles:removeKey'>): Promise<AppState> {
    await this.options.profiles.removeKey(input.profileId);
    return this.afterProfileChange(input.profileId);
  }

  private afterProfileChange(profileId: string): Promise<AppState> {
    return this.options.profiles.active()?.id === profileId ? this.checkConnection() : this.pushState();
  }

  // --- demo ------------------------------------------------------------------------------------

  /** Starts the in-process sandbox (once) and makes its profile active. */
  async startDemo(): Promise<AppState> {
    if (!this.demo) {
      this.demo = await this.options.startDemoSandbox();
      const view = this.options.profiles.addProvidedProfile({
        name: DEMO_PROFILE_NAME,
        baseUrl: this.demo.baseUrl,
        key: this.demo.apiKey,
        source: 'demo',
        activate: true,
      });
      this.demoProfileId = view.id;
    }
    if (this.demoProfileId) await this.options.profiles.switchTo(this.demoProfileId);
    return this.checkConnection();
  }

  /** Stops the sandbox and forgets its profile; the saved active profile (if any) takes over. */
  async stopDemo(): Promise<AppState> {
    if (this.demoProfileId) await this.options.profiles.delete(this.demoProfileId);
    this.demoProfileId = null;
    const sandbox = this.demo;
    this.demo = null;
    await sandbox?.close();
    return this.checkConnection();
  }

  // --- settings --------------------------------------------------------------------------------

  getSettings(): Promise<SettingsView> {
    const settings = this.options.settings.get();
    return Promise.resolve({
      theme: settings.ui.theme,
      polling: { ...settings.polling },
      alerts: { ...settings.alerts },
    });
  }

  async updateSettings(input: ParsedCallInput<'settings:update'>): Promise<SettingsView> {
    await this.options.settings.update((draft) => {
      if (input.theme !== undefined) draft.ui.theme = input.theme;
      Object.assign(draft.polling, definedOnly(input.polling));
      Object.assign(draft.alerts, definedOnly(input.alerts));
    });
    return this.getSettings();
  }

  // --- service calls ---------------------------------------------------------------------------

  listCountries(input: ParsedCallInput<'catalog:countries'>) {
    return this.callService('public', (client) =>
      client.listCountries(input?.product ? { product: input.product } : {}),
    );
  }

  listStates(input: ParsedCallInput<'catalog:states'>) {
    return this.callService('public', (client) => client.listStates(input.countryCode));
  }

  listCities(input: ParsedCallInput<'catalog:cities'>) {
    return this.callService('public', (client) =>
      client.listCities(input.countryCode, input.product ? { product: input.product } : {}),
    );
  }

  listAsns(input: ParsedCallInput<'catalog:asns'>) {
    return this.callService('public', (client) => client.listAsns(input.countryCode));
  }

  listCarriers(input: ParsedCallInput<'catalog:carriers'>) {
    return this.callService('public', (client) => client.listCarriers(input.countryCode));
  }

  listCoins() {
    return this.callService('public', (client) => client.listCoins());
  }

  async listPorts(): Promise<MobilePortView[]> {
    const ports = await this.callService('authenticated', (client) => client.listMobilePorts());
    // The rotation link carries the API key: it stays in main unless the user asks for it.
    return ports.map(({ rotationLink, ...port }) => ({
      ...port,
      hasRotationLink: typeof rotationLink === 'string',
    }));
  }

  listSubscriptions(input: ParsedCallInput<'subscriptions:list'>) {
    return this.callService('authenticated', (client) =>
      client.listSubscriptions(input?.productId ? { productId: input.productId } : {}),
    );
  }

  listTopUps(input: ParsedCallInput<'topups:list'>) {
    return this.callService('authenticated', (client) => client.listTopUps(definedOnly(input) ?? {}));
  }
}

function definedOnly<T extends object>(value: T | undefined): Partial<T> | undefined {
  if (value === undefined) return undefined;
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}

function describeFailure(error: unknown): string {
  if (error instanceof AuthError && error.status === 401) return 'The service rejected this API key.';
  if (error instanceof AuthError && error.status === 403)
    return `The key was accepted but lacks a permission: ${error.message}`;
  if (error instanceof Error) return error.message;
  return 'The call failed.';
}
