import type { Subscription } from '../../src-shared/api-types';
import type { InitialState, PortsListView } from '../../src-shared/contract';
import { AlertCenter, crossingsIn } from './alerts/alert-center';
import { AlertsService } from './alerts/alerts-service';
import type { AppCoreDependencies } from './app-core-dependencies';
import { AppCore } from './app-core';
import { AppStateService } from './app-state';
import { AutomationService } from './automation/automation-service';
import type { CoreServices } from './app-services';
import { CatalogCache } from './catalog/catalog-cache';
import { CatalogService } from './catalog/catalog-service';
import { ConnectionService } from './connection/connection-service';
import { DemoService, DemoSession } from './demo/demo-service';
import type { Lifecycle } from './domain-service';
import { EventBus } from './events';
import { LocalProxiesService } from './local-proxies/local-proxies-service';
import { AppNotifications } from './notifications/app-notifications';
import { publishPortChanges } from './ports/port-changes';
import { HeldAccountData } from './snapshots/held-lists';
import { OverviewService } from './overview/overview-service';
import { PortsService, toPortView } from './ports/ports-service';
import { RelocationTracker, type RelocationsState } from './ports/relocation-tracker';
import { type ReceiptsState, RotationService } from './ports/rotation-service';
import { ProfilesController } from './profiles/profiles-controller';
import { ProfilesService } from './profiles/profiles-service';
import { ProxyTestService } from './proxy-test/proxy-test-service';
import { alwaysOwner, BackgroundJobs } from './runtime/background-jobs';
import { systemClock } from './runtime/clock';
import { RotationScheduler } from './schedules/rotation-scheduler';
import { CachedStateSection, ROTATION_SCHEDULES_SECTION } from './schedules/rotation-scheduler-state';
import { SchedulesService } from './schedules/schedules-service';
import { SessionSecretStore } from './secrets/session-secret-store';
import { ApiCaller } from './session/api-caller';
import { ClientPool } from './session/client-pool';
import { ConnectionMonitor } from './session/connection-monitor';
import { UiCalls } from './session/ui-calls';
import { SettingsFollower } from './settings/settings-follower';
import { SettingsService } from './settings/settings-service';
import { type JobSection, jobStateSection, MemoryJobSection } from './storage/job-section';
import { pollerPolicy } from './subscriptions/poller-policy';
import { catalogTargeting, SubscriptionsService } from './subscriptions/subscriptions-service';
import { UsagePoller, type UsagePollerState } from './subscriptions/usage-poller';
import { publishTopUpChanges } from './topups/topup-changes';
import type { TopUpIntentsState } from './topups/topup-intents';
import { topUpLinkOpener, TopUpLinks } from './topups/topup-links';
import { TopUpWatcher, type TopUpWatchState } from './topups/topup-watcher';
import { TopUpsService } from './topups/topups-service';
import { TrayStateService } from './tray/tray-state';

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
    listeners: { alert: deps.notifyAlert, relocation: deps.notifyRelocation, topUp: deps.notifyTopUp },
    // `held` is built below; labels are asked for only once the core runs.
    knownLabel: (profileId, portId) =>
      held.ports.get(profileId, Number.NEGATIVE_INFINITY)?.items.find((port) => port.id === portId)?.label ??
      null,
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
  const activeProfileId = () => profiles.active()?.id ?? null;
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

  // What the overview reads instead of asking the service item by item.
  // Main's snapshots per profile (ports, subscriptions, top-ups seen): the list screens, the overview
  // and the background jobs read and keep the same ones.
  const held = new HeldAccountData();
  held.listen(events);
  profiles.onChange(({ profileId, kind }) => {
    if (kind === 'key' || kind === 'connection' || kind === 'deleted') held.forget(profileId);
  });

  // Ports: rotations, relocations, the proxy test that verifies a rotation's exit IP.
  const proxyTests = new ProxyTestService({
    api,
    clock,
    onResult: (profileId, result) => held.proxyTests.record(profileId, result),
    echoUrlFor: (profileId) => demo.echoUrlFor(profileId) ?? settings.get().proxyTest.ipEchoUrl,
  });
  const rotation = new RotationService({
    api,
    clock,
    events,
    receipts: jobSection<ReceiptsState>('rotation-receipts'),
    publishPort: (profileId, port) => publishPortChanges(events, profileId, [port]),
    verifyExitIp: deps.verifyExitIp ?? proxyTests.verifyExitIp,
    log,
  });
  const relocations = new RelocationTracker({
    api,
    clock,
    store: jobSection<RelocationsState>('relocations'),
    publish: (profileId, changed, progress) => publishPortChanges(events, profileId, changed, progress),
    toView: toPortView,
    notify: notifications.relocation,
    log,
  });
  const ports = new PortsService({
    api,
    events,
    now: () => clock.now(),
    ownsJobs,
    rotation,
    relocations,
    held: held.ports,
    log,
  });

  // Schedules: in every process's view; run (and changed) only by the owner of background jobs.
  const scheduleState = new CachedStateSection(jobSection<unknown>(ROTATION_SCHEDULES_SECTION), log);
  const scheduler = new RotationScheduler({
    clock,
    state: scheduleState,
    rotate: rotation,
    events,
    activeProfileId,
    ...(deps.notifyScheduledRun ? { onRun: deps.notifyScheduledRun } : {}),
    log,
  });
  const schedules = new SchedulesService({
    scheduler,
    load: () => scheduleState.load(),
    ...(jobState ? { reloadJobState: () => jobState.reload() } : {}),
    jobs,
    activeProfileId,
    events,
  });

  // The catalog, subscriptions, and top-ups with the watcher that follows the open ones.
  const catalogCache = new CatalogCache({
    ...(deps.catalogCacheFile ? { file: deps.catalogCacheFile } : {}),
    now: () => clock.now(),
    log,
  });
  const catalog = new CatalogService(api, {
    cache: catalogCache,
    catalogOf: () => {
      const profile = profiles.active();
      return profile ? `${profile.baseUrl}|${profile.pathStyle}` : null;
    },
  });
  const subscriptions = new SubscriptionsService({
    api,
    events,
    now: () => clock.now(),
    catalog: catalogTargeting(catalog),
    log,
    held: held.subscriptions,
    heldSubUsers: held.subUsers,
  });
  const topUpWatcher = new TopUpWatcher({
    api,
    clock,
    store: jobSection<TopUpWatchState>('topup-watch'),
    publish: (profileId, changed) => publishTopUpChanges(events, topUpLinks, profileId, changed),
    polling: () => settings.get().polling,
    profileIds: () => profiles.list().map((profile) => profile.id),
    notify: notifications.topUp,
    log,
  });
  const topups = new TopUpsService({
    api,
    events,
    intents: jobSection<TopUpIntentsState>('topup-intents'),
    now: () => clock.now(),
    ownsJobs,
    watcher: topUpWatcher,
    links: topUpLinks,
    demo,
    onProfileChange: (listener) => profiles.onChange(listener),
    log,
  });

  // The tray: a view of ports, schedules and pending payments.
  const tray = new TrayStateService({
    settings,
    events,
    clock,
    activeProfileId,
    ownsJobs,
    listPorts: (profileId) => ports.refresh(profileId),
    rotation,
    schedules,
    pendingPayments: () => topUpWatcher.pending(),
    onPaymentsChange: (listener) => topUpWatcher.onChange(listener),
    log,
  });
  deps.onDesktopParts?.({ tray, scheduler });

  // Usage alerts: the poller reads, the alert center raises once per crossing.
  const crossings = crossingsIn(jobSection<{ keys: string[] }>('alert-crossings'));
  const alertCenter = new AlertCenter({
    crossings,
    now: () => new Date(clock.now()),
    publish: (alert) => {
      events.emit('alerts:raised', { alert });
      notifications.alert(alert);
    },
  });
  const usagePoller = new UsagePoller({
    clock,
    // Every profile: one without a usable key fails its read and backs off like any other error.
    profiles: () => profiles.list().map((p) => p.id),
    subscriptions,
    ports,
    store: jobSection<UsagePollerState>('usage-samples'),
    alerts: alertCenter,
    policy: () => pollerPolicy(settings.get()),
    windowVisible: deps.windowVisible ?? true,
    settingsChanges: (listener) => settings.subscribe(listener),
    profileChanges: (listener) => profiles.onChange(listener),
    log,
  });

  // Local proxies: listeners in the owner of background jobs, upstreams kept current from events.
  const localProxies = new LocalProxiesService({
    settings,
    // A local password lives in the keychain; without one, in this run's memory only.
    secrets: () => (deps.keychainStatus().available ? deps.keychain : sessionSecrets),
    api,
    events,
    clock,
    jobs,
    oneShot: ownership.oneShot === true,
    providedProfiles: {
      kindOf: (profileId) => profiles.list().find((profile) => profile.id === profileId)?.provided ?? null,
      idOf: (kind) => profiles.list().find((profile) => profile.provided === kind)?.id ?? null,
    },
    log,
  });

  const alerts = new AlertsService(alertCenter);

  // The overview: what needs attention, from what the services above hold.
  const overview = new OverviewService({
    now: () => clock.now(),
    api,
    policy: () => pollerPolicy(settings.get()),
    held,
    read: {
      ports: (profileId) => ports.refresh(profileId),
      subscriptions: (profileId) => subscriptions.refresh(profileId),
    },
    watchedTopUps: () => topUpWatcher.watched(),
    schedules: (profileId) => schedules.view(profileId).schedules,
    alerts: () => alerts.list(),
    holdingAlertKeys: () => Promise.resolve(crossings.read()),
    localProxies: (profileId) => localProxies.ofProfile(profileId),
  });

  const settingsService = new SettingsService(settings, events);
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
    proxy: proxyTests,
    localProxies,
    overview,
    automation: new AutomationService({ stores: deps.automation ?? null, settings, ownsJobs }),
  };
  const backgroundJobs = new BackgroundJobs(ownership, log, () => void state.push());
  for (const job of [
    relocations,
    schedules.job,
    usagePoller,
    topUpWatcher,
    topups.intentsJob,
    localProxies.job,
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
    // The tray exists on the desktop only; elsewhere `tray:*` still reads and sets the pins.
    ...(deps.mode === 'desktop' ? [tray] : []),
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
