import { join } from 'node:path';
import { probeBaseUrl, type BaseUrlProbeResult, ProxyServiceClient } from '../api';
import { DEFAULT_API_KEYS, startSandbox } from '@proxy-manager/sandbox';
import { AlertCenter, type RaisedAlert } from './alerts/alert-center';
import { AlertsService } from './alerts/alerts-service';
import { AppCore } from './app-core';
import { AppStateService } from './app-state';
import type { CoreServices } from './app-services';
import { CatalogService } from './catalog/catalog-service';
import { ConnectionService } from './connection/connection-service';
import { type DemoSandbox, DemoService } from './demo/demo-service';
import type { DomainService, Lifecycle } from './domain-service';
import { AppError } from './errors';
import { EventBus } from './events';
import { type RelocationNotice, RelocationTracker, type RelocationsState } from './ports/relocation-tracker';
import { type ReceiptsState, RotationService, type VerifyExitIp } from './ports/rotation-service';
import { PortsService, toPortView } from './ports/ports-service';
import { alwaysOwner, BackgroundJobs, type JobsOwnership, lockOwnership } from './runtime/background-jobs';
import { type Clock, systemClock } from './runtime/clock';
import { RotationScheduler, type ScheduledRunListener } from './ports/rotation-scheduler';
import { CachedStateSection } from './ports/rotation-scheduler-state';
import { attachNotifications, type DesktopNotifications } from './notifications/notifications-wiring';
import { TrayStateService } from './ports/tray-state';
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
import { UiCalls } from './session/ui-calls';
import { SettingsService } from './settings/settings-service';
import { pollerPolicy } from './subscriptions/poller-policy';
import { UsagePoller, type UsagePollerState } from './subscriptions/usage-poller';
import { SettingsStore } from './settings/settings-store';
import { type JobSection, jobStateSection, MemoryJobSection } from './storage/job-section';
import { JobStateStore } from './storage/job-state-store';
import { InstanceLock } from './storage/instance-lock';
import { catalogTargeting, SubscriptionsService } from './subscriptions/subscriptions-service';
import type { TopUpIntentsState } from './topups/topup-intents';
import { type TopUpNotice, TopUpWatcher, type TopUpWatchState } from './topups/topup-watcher';
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
  /**
   * Told of every raised alert, besides the in-app list. OS notifications need nothing here: with
   * `notifications` the core routes alerts through its notification controller itself.
   */
  notifyAlert?: (alert: RaisedAlert) => void;
  /** Whether a window shows at start; the shell then tells changes through `core.windowVisibility`. */
  windowVisible?: boolean;
  /** Told when a tracked relocation ends (OS notifications). */
  notifyRelocation?: (notice: RelocationNotice) => void;
  /** Told after every scheduled run. */
  notifyScheduledRun?: ScheduledRunListener;
  /** Desktop only: where OS notifications go and whether a window has focus. */
  notifications?: DesktopNotifications;
  /** Desktop only: the tray's state and the scheduler, for the shell's tray and global shortcut. */
  onDesktopParts?: (parts: { tray: TrayStateService; scheduler: RotationScheduler }) => void;
  /**
   * Desktop: hands a checked link to the OS (Electron's `openExternal`, `shell/open-external.ts`) for `app:openExternal`. Absent
   * (web mode): the call is refused, the browser opens links itself.
   */
  openExternal?: (url: string) => Promise<void>;
  /** Desktop: a save dialog and the file written, for `app:saveFile`; the path, or null when cancelled. */
  saveFile?: (fileName: string, content: string) => Promise<string | null>;
  /**
   * Told when a watched top-up is credited, rejected or expired, or its purchase ends. With
   * `notifications` these also become OS notifications (the core's controller).
   */
  notifyTopUp?: (notice: TopUpNotice) => void;
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
  const uiCalls = new UiCalls(events);
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
    cancelCall: (callId) => uiCalls.cancel(callId),
    ...(deps.openExternal ? { openExternal: (url: string) => openTopUpLink(url) } : {}),
    ...(deps.saveFile ? { saveFile: deps.saveFile } : {}),
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
  const labels = new Map<string, string>();
  events.on('ports:changed', ({ profileId, changed }) => {
    for (const port of changed) labels.set(`${profileId}:${port.id}`, port.label);
  });
  const notifications = deps.notifications
    ? attachNotifications({
        ...deps.notifications,
        clock,
        settings: deps.settings,
        events,
        labelOf: (profileId, portId) => labels.get(`${profileId}:${portId}`) ?? null,
      })
    : null;
  const notifyRelocation =
    deps.notifyRelocation || notifications
      ? (notice: RelocationNotice) => {
          deps.notifyRelocation?.(notice);
          notifications?.relocation(notice);
        }
      : null;
  const relocations = new RelocationTracker({
    api,
    clock,
    store: jobSection<RelocationsState>('relocations'),
    publish: (profileId, changed, progress) => ports.publish(profileId, changed, progress),
    toView: toPortView,
    ...(notifyRelocation ? { notify: notifyRelocation } : {}),
    log,
  });
  ports.attach({ rotation, relocations });
  const scheduleState = new CachedStateSection(jobSection<unknown>('rotation-schedules'), log);
  const scheduler = new RotationScheduler({
    clock,
    state: scheduleState,
    rotate: rotation,
    events,
    activeProfileId: () => profiles.active()?.id ?? null,
    ...(deps.notifyScheduledRun ? { onRun: deps.notifyScheduledRun } : {}),
    log,
  });
  /*
   * Schedules live in one process's memory (the owner of background jobs writes them through to
   * `state.json`). Another process re-reads the file before it lists them, so it shows the owner's
   * changes and runs; it may not change them (its whole-state write would undo the owner's newer
   * runs, and the owner would not see it), so those calls say where to make the change.
   */
  const freshSchedules = async (): Promise<void> => {
    if (jobs().owner || !deps.jobState) return;
    await deps.jobState.reload();
    await scheduleState.load();
  };
  const ownerOnly = (): void => {
    const status = jobs();
    if (status.owner) return;
    throw new AppError(
      'not_job_owner',
      `Schedules are changed in the Proxy Manager process that runs them. ${status.message ?? ''}`.trim(),
    );
  };
  const scheduleHandlers = scheduler.handlers();
  const schedulesService: DomainService<'schedules'> = {
    handlers: () => ({
      'schedules:list': async (input) => {
        await freshSchedules();
        return scheduleHandlers['schedules:list'](input);
      },
      'schedules:runs': async (input) => {
        await freshSchedules();
        return scheduleHandlers['schedules:runs'](input);
      },
      'schedules:set': (input) => {
        ownerOnly();
        return scheduleHandlers['schedules:set'](input);
      },
      'schedules:remove': (input) => {
        ownerOnly();
        return scheduleHandlers['schedules:remove'](input);
      },
      'schedules:pause': (input) => {
        ownerOnly();
        return scheduleHandlers['schedules:pause'](input);
      },
    }),
  };
  // A rotation from the tray, a shortcut or a button starts a cooldown no scheduled run may enter.
  events.on('ports:rotation', ({ profileId, portId, phase, receipt }) => {
    if (phase === 'finished' && receipt && receipt.trigger !== 'schedule') {
      void scheduler.noteCooldown(profileId, portId, receipt.nextRotationAvailableAt);
    }
  });
  const tray = new TrayStateService({
    settings: deps.settings,
    events,
    clock,
    activeProfileId: () => profiles.active()?.id ?? null,
    ownsJobs: () => jobs().owner,
    listPorts: (profileId) => ports.refresh(profileId),
    rotation,
    schedules: {
      get paused() {
        return scheduler.paused;
      },
      pause: (paused) => {
        ownerOnly();
        return scheduler.pause(paused);
      },
      view: (profileId) => scheduler.view(profileId),
    },
    // The watcher is built below; the tray reads it only once started.
    pendingPayments: () => topUpWatcher.pending(),
    log,
  });
  deps.onDesktopParts?.({ tray, scheduler });
  const alertCrossings = jobSection<{ keys: string[] }>('alert-crossings');
  const alertCenter = new AlertCenter({
    crossings: {
      read: async () => (await alertCrossings.read())?.keys ?? [],
      write: async (keys) => {
        await alertCrossings.update(() => ({ keys: [...keys] }));
      },
    },
    now: () => new Date(clock.now()),
    publish: (alert) => {
      events.emit('alerts:raised', { alert });
      deps.notifyAlert?.(alert);
      notifications?.alert(alert);
    },
  });
  const catalog = new CatalogService(api);
  const subscriptions = new SubscriptionsService({
    api,
    events,
    now: () => clock.now(),
    catalog: catalogTargeting(catalog),
    log,
  });
  const topups = new TopUpsService({
    api,
    events,
    intents: jobSection<TopUpIntentsState>('topup-intents'),
    now: () => clock.now(),
    ownsJobs: () => jobs().owner,
    demoControl: () => {
      const control = demo.control;
      return control && demo.demoProfileId ? { profileId: demo.demoProfileId, controlUrl: control } : null;
    },
    log,
  });
  const topUpWatcher = new TopUpWatcher({
    api,
    clock,
    store: jobSection<TopUpWatchState>('topup-watch'),
    publish: (profileId, changed) => topups.publish(profileId, changed),
    polling: () => deps.settings.get().polling,
    profileIds: () => profiles.list().map((profile) => profile.id),
    changed: () => tray.paymentsChanged(),
    ...(deps.notifyTopUp || notifications
      ? {
          notify: (notice: TopUpNotice) => {
            deps.notifyTopUp?.(notice);
            notifications?.topUp(notice);
          },
        }
      : {}),
    log,
  });
  topups.attach({ watcher: topUpWatcher });
  // Only links main read for the user's own top-ups, each with its allowed scheme (`TopUpLinks`).
  const openTopUpLink = async (url: string): Promise<void> => {
    const link = topups.links.check(url);
    try {
      await deps.openExternal?.(link.url);
    } catch (error) {
      throw new AppError(
        'link_not_opened',
        link.kind === 'wallet'
          ? 'No wallet app on this computer opens this payment link. Copy the address and the exact amount instead.'
          : 'The browser did not open the explorer link.',
        [],
        error,
      );
    }
  };
  const services: CoreServices = {
    app: state,
    connection: new ConnectionService({
      probeBaseUrl: deps.probeBaseUrl,
      createClient: deps.createClient,
      monitor,
      state,
      findDuplicate: (baseUrl, apiKey) => profiles.findDuplicate(baseUrl, apiKey),
    }),
    profiles: new ProfilesController({ profiles, monitor, state, demo }),
    demo,
    settings: new SettingsService(deps.settings, events),
    catalog,
    ports,
    subscriptions,
    topups,
    schedules: schedulesService,
    tray,
    alerts: new AlertsService(alertCenter),
    proxy: proxyTests,
  };
  const backgroundJobs = new BackgroundJobs(ownership, log, () => void state.push());
  backgroundJobs.add(relocations);
  backgroundJobs.add({
    name: 'rotation scheduler',
    // A process that becomes the owner later (the other one quit) starts from the file, not from
    // what it read at its own start.
    start: async () => {
      if (deps.jobState) {
        await deps.jobState.reload();
        await scheduleState.load();
      }
      await scheduler.start();
    },
    stop: () => scheduler.stop(),
  });
  const usagePoller = new UsagePoller({
    clock,
    // Every profile: one without a usable key fails its read and backs off like any other error.
    profiles: () => profiles.list().map((p) => p.id),
    subscriptions,
    ports,
    store: jobSection<UsagePollerState>('usage-samples'),
    alerts: alertCenter,
    policy: () => pollerPolicy(deps.settings.get()),
    windowVisible: deps.windowVisible ?? true,
    log,
  });
  deps.settings.subscribe(() => usagePoller.reschedule('settings changed'));
  // A profile that only lives in memory (the demo, a key from the environment) changes no setting:
  // without this the poller would first read it at whatever deadline it was already waiting for.
  profiles.onChange((change) => {
    if (change.kind === 'created' || change.kind === 'key' || change.kind === 'connection')
      usagePoller.reschedule(`profile ${change.kind}`);
  });
  backgroundJobs.add(usagePoller);
  backgroundJobs.add(topUpWatcher);
  // Creates whose answer was lost to a crash are resolved with their own Idempotency-Key.
  backgroundJobs.add({
    name: 'top-up intents',
    start: () => void topups.resumeIntents(),
    stop: () => undefined,
  });
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
    // Every process lists schedules; only the owner of background jobs runs them (below).
    { name: 'rotation schedules', start: () => scheduleState.load() },
    // The tray exists on the desktop only; elsewhere `tray:*` still reads and sets the pins.
    {
      name: 'tray state',
      start: () => (deps.mode === 'desktop' ? tray.start() : undefined),
      stop: () => {
        tray.stop();
        notifications?.detach();
      },
    },
    // Last: jobs start once everything they use runs, and only in the process owning them.
    backgroundJobs,
  ];
  return new AppCore({
    events,
    uiCalls,
    state,
    profiles,
    services,
    lifecycle,
    settingsRecovery: deps.settings.recovery,
    keychainStatus: deps.keychainStatus,
    probeBaseUrl: deps.probeBaseUrl,
    startDemo: () => demo.startDemo(),
    checkConnection: () => monitor.check(),
    setWindowVisible: (visible) => usagePoller.setWindowVisible(visible),
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
  /** Desktop: OS notifications (see `AppCoreDependencies`). */
  notifications?: DesktopNotifications;
  onDesktopParts?: AppCoreDependencies['onDesktopParts'];
  /** Whether the user sees the app at start (default true); later changes: `core.windowVisibility`. */
  windowVisible?: boolean;
  /** Desktop: the shell's link opener (see `AppCoreDependencies.openExternal`). */
  openExternal?: (url: string) => Promise<void>;
  /** Desktop: see `AppCoreDependencies.saveFile`. */
  saveFile?: (fileName: string, content: string) => Promise<string | null>;
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
    return {
      baseUrl: sandbox.baseUrl,
      apiKey: DEFAULT_API_KEYS[0]?.key ?? '',
      controlUrl: sandbox.controlUrl,
      close: () => sandbox.close(),
    };
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
    ...(options.notifications ? { notifications: options.notifications } : {}),
    ...(options.onDesktopParts ? { onDesktopParts: options.onDesktopParts } : {}),
    ...(options.windowVisible !== undefined ? { windowVisible: options.windowVisible } : {}),
    ...(options.openExternal ? { openExternal: options.openExternal } : {}),
    ...(options.saveFile ? { saveFile: options.saveFile } : {}),
    log,
  });
}
