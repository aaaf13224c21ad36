import type { Subscription } from '../../src-shared/api-types';
import type { InitialState, PortsListView } from '../../src-shared/contract';
import { AppCore } from './app-core';
import type { AppCoreDependencies } from './app-core-dependencies';
import { wireAlertDelivery } from './alert-delivery/wire-alert-delivery';
import type { CoreServices } from './app-services';
import { AppStateService } from './app-state';
import { AutomationService } from './automation/automation-service';
import { ConnectionService } from './connection/connection-service';
import { DemoService, DemoSession } from './demo/demo-service';
import type { Lifecycle } from './domain-service';
import { EventBus } from './events';
import { AppNotifications } from './notifications/app-notifications';
import { ProfilesController } from './profiles/profiles-controller';
import { ProfilesService } from './profiles/profiles-service';
import { alwaysOwner, BackgroundJobs } from './runtime/background-jobs';
import { systemClock } from './runtime/clock';
import { SessionSecretStore } from './secrets/session-secret-store';
import { ApiCaller } from './session/api-caller';
import { ClientPool } from './session/client-pool';
import { ConnectionMonitor } from './session/connection-monitor';
import { UiCalls } from './session/ui-calls';
import { SettingsFollower } from './settings/settings-follower';
import { SettingsService } from './settings/settings-service';
import { HeldAccountData } from './snapshots/held-lists';
import { type JobSection, jobStateSection, MemoryJobSection } from './storage/job-section';
import { topUpLinkOpener, TopUpLinks } from './topups/topup-links';
import type { UpdateMemory } from './updates/updates-service';
import { wireUpdates } from './updates/wire-updates';
import { wireAccountServices } from './wire-account-services';
export type { AppCoreDependencies } from './app-core-dependencies';
export type { DemoSandbox } from './demo/demo-service';

/**
 * The composition root: builds the services from their dependencies, in dependency order, and
 * hands the lifecycle list (start in order, stop in reverse) to `AppCore`. A new domain service is
 * built here and added to `services` (the type requires one per contract domain). Rules live in
 * the services; this function only connects them.
 */
export function buildAppCore(deps: AppCoreDependencies): AppCore {
  const log = deps.log ?? (() => undefined);
  const now = deps.now ?? (() => new Date());
  const clock = deps.clock ?? systemClock;
  const { settings, jobState } = deps;
  const ownership = deps.jobsOwnership ?? alwaysOwner;
  const jobs = () => ownership.status();
  const ownsJobs = () => jobs().owner;
  const jobSection = <T>(name: string): JobSection<T> =>
    jobState ? jobStateSection<T>(jobState, name) : new MemoryJobSection<T>();
  const events = new EventBus(log);
  const uiCalls = new UiCalls(events);
  const notifications = new AppNotifications({
    events,
    clock,
    settings,
    ...(deps.notifications ? { desktop: deps.notifications } : {}),
    listeners: {
      alert: deps.notifyAlert,
      relocation: deps.notifyRelocation,
      // Alert delivery is built below; top-ups are watched only once the core runs.
      topUp: (notice) => {
        deps.notifyTopUp?.(notice);
        alertDelivery.sources.topUp(notice);
      },
    },
    // `held` is built below; labels are asked for only once the core runs.
    knownLabel: (profileId, portId) => held.portLabel(profileId, portId),
  });

  // Session: profiles, their clients, the connection the status bar shows, the app state.
  const sessionSecrets = new SessionSecretStore();
  const profiles = new ProfilesService({
    settings,
    keychain: deps.keychain,
    session: sessionSecrets,
    keychainStatus: deps.keychainStatus,
    now,
  });
  const pool = new ClientPool({ profiles, createClient: deps.createClient, log });
  const monitor = new ConnectionMonitor({ profiles, pool, events, now });
  const api = new ApiCaller(pool, monitor);
  const demoSession = new DemoSession();
  const topUpLinks = new TopUpLinks();
  const state: AppStateService = new AppStateService({
    mode: deps.mode,
    // The services are built below; a window asks for its first state only once the core runs.
    snapshotsOf: (screen, profileId): InitialState['snapshots'] => {
      if (screen === 'ports') {
        const view: PortsListView | null = ports.snapshot(profileId);
        return view ? { ports: view } : undefined;
      }
      const list: Subscription[] | null = subscriptions.snapshot(profileId);
      return list ? { subscriptions: { profileId, items: list } } : undefined;
    },
    events,
    profiles,
    connection: () => monitor.state(),
    connectionChanges: (listener) => monitor.subscribe(listener),
    settings,
    keychainStatus: deps.keychainStatus,
    demoRunning: () => demoSession.running,
    jobs,
    cancelCall: (callId) => uiCalls.cancel(callId),
    ...(deps.openExternal ? { openExternal: topUpLinkOpener(topUpLinks, deps.openExternal) } : {}),
    ...(deps.saveFile ? { saveFile: deps.saveFile } : {}),
  });
  const demo = new DemoService({
    session: demoSession,
    profiles,
    startDemoSandbox: deps.startDemoSandbox,
    monitor,
    state,
  });

  // Main's snapshots per profile (ports, subscriptions, top-ups seen): the list screens, the overview
  // and the background jobs read and keep the same ones.
  const held = new HeldAccountData();
  held.listen(events);
  held.followProfiles((listener) => profiles.onChange(listener));

  const account = wireAccountServices({
    deps,
    log,
    clock,
    events,
    ownership,
    jobSection,
    notifications,
    profiles,
    sessionSecrets,
    api,
    demo,
    held,
    topUpLinks,
    // Alert delivery is built below; the overview asks only once the core runs.
    failingAlertChannels: () => alertDelivery.service.failingChannels(),
    onHealthStatusChange: (change) =>
      alertDelivery.sources.portHealth({
        profileId: change.profileId,
        kind: change.kind,
        id: change.id,
        previous: change.previous,
        status: change.status.status,
        since: change.status.since,
        failuresInARow: change.status.failuresInARow,
        error: change.check.error,
      }),
    notice: (message) => state.addNotice('warning', message),
  });
  const {
    healthStore,
    healthChecks,
    proxyTests,
    relocations,
    ports,
    schedules,
    catalog,
    catalogCache,
    subscriptions,
    topUpWatcher,
    topups,
    tray,
    usagePoller,
    localProxies,
    alerts,
    overview,
  } = account;
  const alertDelivery = wireAlertDelivery({
    deps,
    clock,
    events,
    ownership,
    sessionSecrets,
    localProxies,
    readPort: async (profileId, portId) =>
      held.ports.get(profileId, 0)?.items.find((port) => port.id === portId) ??
      (await api.forProfile(profileId, 'authenticated', (client) => client.getMobilePort(portId))),
    activeProfileId: () => profiles.active()?.id ?? null,
    log,
  });
  const settingsService = new SettingsService(settings, events);
  const updates = wireUpdates({
    wiring: deps.updates,
    settings,
    memory: jobSection<UpdateMemory>('updates'),
    clock,
    events,
    demoRunning: () => demoSession.running,
    log,
  });
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
    settings: settingsService,
    catalog,
    ports,
    subscriptions,
    topups,
    schedules,
    tray,
    alerts,
    alertRouting: alertDelivery.service,
    proxy: proxyTests,
    localProxies,
    overview,
    automation: new AutomationService({ stores: deps.automation ?? null, settings, ownsJobs }),
    updates,
  };
  const backgroundJobs = new BackgroundJobs(ownership, log, () => void state.push());
  for (const job of [
    relocations,
    schedules.job,
    usagePoller,
    topUpWatcher,
    topups.intentsJob,
    localProxies.job,
    alertDelivery.service.job,
    healthChecks,
  ])
    backgroundJobs.add(job);
  const lifecycle: Lifecycle[] = [
    // Every process follows what the other one saves; the owner's jobs read settings as they are.
    new SettingsFollower(settings, clock, log),
    { name: 'settings', stop: () => settingsService.stop() },
    {
      name: 'job state',
      start: () => {
        for (const { reason, recoveredFrom } of jobState?.recoveries ?? [])
          state.addNotice('warning', `${reason} The old file was kept at ${recoveredFrom}.`);
      },
      stop: () => deps.releaseResources?.(),
    },
    { name: 'client pool', stop: () => pool.close() },
    { name: 'catalog cache', start: () => catalogCache.load(), stop: () => catalogCache.flush() },
    localProxies,
    { name: 'connection monitor', stop: () => monitor.stop() },
    { name: 'app state', stop: () => state.stop() },
    demo,
    schedules,
    notifications,
    alertDelivery.lifecycle,
    // The tray exists on the desktop only; elsewhere `tray:*` still reads and sets the pins.
    ...(deps.mode === 'desktop' ? [tray] : []),
    // Every app process (not a one-shot command) checks for updates, owner or not: each window shows
    // its own process's status, and the counter in state.json is updated under its lock.
    ...(deps.updates && deps.updates.dailyChecks !== false && !ownership.oneShot
      ? [
          {
            name: 'update checks',
            start: () => updates.job.start('start'),
            stop: () => updates.job.stop('quit'),
          },
        ]
      : []),
    // Closed after the jobs stop (stops run in reverse): the checks write it until then.
    { name: 'health store', stop: () => healthStore.close() },
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
    settingsRecovery: settings.recovery,
    keychainStatus: deps.keychainStatus,
    probeBaseUrl: deps.probeBaseUrl,
    startDemo: () => demo.startDemo(),
    checkConnection: () => monitor.check(),
    setWindowVisible: (visible) => usagePoller.setWindowVisible(visible),
    log,
  });
}
