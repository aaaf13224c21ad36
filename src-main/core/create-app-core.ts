import { join } from 'node:path';
import { probeBaseUrl, type BaseUrlProbeResult, ProxyServiceClient } from '../api';
import { DEFAULT_API_KEYS, startSandbox } from '../sandbox';
import { AppCore } from './app-core';
import { AppStateService } from './app-state';
import type { CoreServices } from './app-services';
import { CatalogService } from './catalog/catalog-service';
import { ConnectionService } from './connection/connection-service';
import { type DemoSandbox, DemoService } from './demo/demo-service';
import type { Lifecycle } from './domain-service';
import { EventBus } from './events';
import { type RelocationNotice, RelocationTracker, type RelocationsState } from './ports/relocation-tracker';
import { type ReceiptsState, RotationService, type VerifyExitIp } from './ports/rotation-service';
import { PortsService, toPortView } from './ports/ports-service';
import { alwaysOwner, BackgroundJobs, type JobsOwnership, lockOwnership } from './runtime/background-jobs';
import { type Clock, systemClock } from './runtime/clock';
import { ProfilesController } from './profiles/profiles-controller';
import { ProfilesService } from './profiles/profiles-service';
import { ProxyTestService, SANDBOX_ECHO_URL } from './proxy-test/proxy-test-service';
import { probeKeychain, type KeychainProbeResult } from './secrets/keychain-probe';
import { KeychainSecretStore } from './secrets/keychain-secret-store';
import type { SecretStore } from './secrets/secret-store';
import { SessionSecretStore } from './secrets/session-secret-store';
import { ApiCaller } from './session/api-caller';
import { type ClientConfig, ClientPool } from './session/client-pool';
import { ConnectionMonitor } from './session/connection-monitor';
import { SettingsService } from './settings/settings-service';
import { SettingsStore } from './settings/settings-store';
import { type JobSection, jobStateSection, MemoryJobSection } from './storage/job-section';
import { JobStateStore } from './storage/job-state-store';
import { InstanceLock } from './storage/instance-lock';
import { SubscriptionsService } from './subscriptions/subscriptions-service';
import { TopUpsService } from './topups/topups-service';

export type { DemoSandbox } from './demo/demo-service';

/** Everything outside the core's own logic, so that tests can put a sandbox or a memory store in. */
export interface AppCoreDependencies {
  mode: 'desktop' | 'web';
  settings: SettingsStore;
  /** The OS keychain (tests: a memory store). */
  keychain: SecretStore;
  keychainStatus: () => KeychainProbeResult;
  createClient: (config: ClientConfig) => ProxyServiceClient;
  probeBaseUrl: (baseUrl: string) => Promise<BaseUrlProbeResult>;
  startDemoSandbox: () => Promise<DemoSandbox>;
  /** Whether this process runs the background jobs (the instance lock decides); default: it does. */
  jobsOwnership?: JobsOwnership;
  /** What background work must find again after a crash (`state.json`); default: memory only. */
  jobState?: JobStateStore;
  /** Flushes the job state and releases the jobs lock; the last thing `dispose` does. */
  releaseResources?: () => Promise<void>;
  now?: () => Date;
  log?: (line: string) => void;
  /** Background work's clock (tests: a FakeClock). Default: the system clock. */
  clock?: Clock;
  /**
   * Reads a port's exit IP through the port; fills receipts' `verification`. Default: the proxy
   * test's (`ProxyTestService.verifyExitIp`); tests may put another in.
   */
  verifyExitIp?: VerifyExitIp;
  /** Told when a tracked relocation ends (OS notifications). */
  notifyRelocation?: (notice: RelocationNotice) => void;
}

/**
 * The composition root: builds the services from their dependencies, in dependency order, and
 * hands the lifecycle list (start in order, stop in reverse) to `AppCore`. A new domain service is
 * built here and added to `services` (the type requires one per contract domain).
 */
export function buildAppCore(deps: AppCoreDependencies): AppCore {
  const log = deps.log ?? (() => undefined);
  const now = deps.now ?? (() => new Date());
  const ownership = deps.jobsOwnership ?? alwaysOwner;
  const jobs = () => ownership.status();
  const jobSection = <T>(name: string): JobSection<T> =>
    deps.jobState ? jobStateSection<T>(deps.jobState, name) : new MemoryJobSection<T>();
  const events = new EventBus(log);
  const profiles = new ProfilesService({
    settings: deps.settings,
    keychain: deps.keychain,
    session: new SessionSecretStore(),
    keychainStatus: deps.keychainStatus,
    now,
  });
  const pool = new ClientPool({ profiles, createClient: deps.createClient, log });
  // The monitor and the demo are needed by the state, the state by them: they meet through closures.
  const monitor: ConnectionMonitor = new ConnectionMonitor({
    profiles,
    pool,
    events,
    now,
    onChange: () => void state.push(),
  });
  const state: AppStateService = new AppStateService({
    mode: deps.mode,
    events,
    profiles,
    connection: () => monitor.state(),
    keychainStatus: deps.keychainStatus,
    demoRunning: () => demo.running,
    jobs,
  });
  const demo: DemoService = new DemoService({
    profiles,
    startDemoSandbox: deps.startDemoSandbox,
    monitor,
    state,
  });
  const api = new ApiCaller(pool, monitor);
  const clock = deps.clock ?? systemClock;
  const proxyTests = new ProxyTestService({
    api,
    clock,
    // The demo's gateway answers every request itself; a real account asks the configured echo.
    echoUrlFor: (profileId) =>
      profileId === demo.demoProfileId ? SANDBOX_ECHO_URL : deps.settings.get().proxyTest.ipEchoUrl,
  });
  const ports = new PortsService({ api, events, now: () => clock.now(), ownsJobs: () => jobs().owner });
  const rotation = new RotationService({
    api,
    clock,
    events,
    receipts: jobSection<ReceiptsState>('rotation-receipts'),
    publishPort: (profileId, port) => ports.publish(profileId, [port]),
    verifyExitIp: deps.verifyExitIp ?? proxyTests.verifyExitIp,
    log,
  });
  const relocations = new RelocationTracker({
    api,
    clock,
    store: jobSection<RelocationsState>('relocations'),
    publish: (profileId, changed, progress) => ports.publish(profileId, changed, progress),
    toView: toPortView,
    ...(deps.notifyRelocation ? { notify: deps.notifyRelocation } : {}),
    log,
  });
  ports.attach({ rotation, relocations });
  const services: CoreServices = {
    app: state,
    connection: new ConnectionService({
      probeBaseUrl: deps.probeBaseUrl,
      createClient: deps.createClient,
      monitor,
      state,
    }),
    profiles: new ProfilesController({ profiles, monitor, state, demo }),
    demo,
    settings: new SettingsService(deps.settings, events),
    catalog: new CatalogService(api),
    ports,
    subscriptions: new SubscriptionsService(api, events),
    topups: new TopUpsService(api, events),
    proxy: proxyTests,
  };
  const backgroundJobs = new BackgroundJobs(ownership, log, () => void state.push());
  backgroundJobs.add(relocations);
  const lifecycle: Lifecycle[] = [
    {
      name: 'job state',
      start: () => {
        for (const recovery of deps.jobState?.recoveries ?? []) {
          state.addNotice(
            'warning',
            `${recovery.reason} The old file was kept at ${recovery.recoveredFrom}.`,
          );
        }
      },
      stop: () => deps.releaseResources?.(),
    },
    { name: 'client pool', stop: () => pool.close() },
    { name: 'connection monitor', stop: () => monitor.stop() },
    { name: 'app state', stop: () => state.stop() },
    demo,
    // Last: jobs start once everything they use runs, and only in the process owning them.
    backgroundJobs,
  ];
  return new AppCore({
    events,
    state,
    profiles,
    services,
    lifecycle,
    settingsRecovery: deps.settings.recovery,
    keychainStatus: deps.keychainStatus,
    probeBaseUrl: deps.probeBaseUrl,
    startDemo: () => demo.startDemo(),
    checkConnection: () => monitor.check(),
    log,
  });
}

export interface NodeAppCoreOptions {
  mode: 'desktop' | 'web';
  dataDir: string;
  /** Demo sandbox latency; `realistic` (rotation takes 5-15 s) unless tests ask for `fast`. */
  demoLatency?: 'fast' | 'realistic';
  /** How long to wait for the OS keychain at start (a locked keyring may be asking for a password). */
  keychainProbeTimeoutMs?: number;
  log?: (line: string) => void;
}

/**
 * Wires the real dependencies (settings file, OS keychain, undici client, in-process sandbox) into
 * the core. The one entry point for both the Electron shell and web mode.
 */
export async function createNodeAppCore(options: NodeAppCoreOptions): Promise<AppCore> {
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const settings = await SettingsStore.open({ dataDir: options.dataDir });
  const keychain: KeychainProbeResult = await probeKeychain({
    timeoutMs: options.keychainProbeTimeoutMs ?? 10_000,
  });
  const jobState = await JobStateStore.open({ dataDir: options.dataDir });
  // One process per data folder runs schedules, pollers and watchers; the others serve reads.
  const lock = new InstanceLock({ dataDir: options.dataDir, mode: options.mode, log });
  await lock.acquire();
  const startDemoSandbox = async (): Promise<DemoSandbox> => {
    // The demo keeps its state in the data folder, so what the user did in the demo is there next time.
    const sandbox = await startSandbox({
      port: 0,
      latency: options.demoLatency ?? 'realistic',
      seed: 1,
      dataFile: join(options.dataDir, 'demo-sandbox.json'),
      logError: log,
    });
    return { baseUrl: sandbox.baseUrl, apiKey: DEFAULT_API_KEYS[0]?.key ?? '', close: () => sandbox.close() };
  };
  return buildAppCore({
    mode: options.mode,
    settings,
    keychain: new KeychainSecretStore(),
    keychainStatus: () => keychain,
    createClient: (config) => new ProxyServiceClient(config),
    probeBaseUrl: (baseUrl) => probeBaseUrl(baseUrl),
    startDemoSandbox,
    jobsOwnership: lockOwnership(lock),
    jobState,
    releaseResources: async () => {
      await jobState.flush();
      await lock.release();
    },
    log,
  });
}
