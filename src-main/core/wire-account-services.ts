import type { AlertChannelView } from '../../src-shared/contract';
import { AlertCenter, crossingsIn } from './alerts/alert-center';
import { AlertsService } from './alerts/alerts-service';
import type { AppCoreDependencies } from './app-core-dependencies';
import { CatalogCache } from './catalog/catalog-cache';
import { CatalogService } from './catalog/catalog-service';
import type { DemoService } from './demo/demo-service';
import type { EventBus } from './events';
import { AsnLookup } from './health/asn-lookup';
import type { HealthStatusChange } from './health/health-check-job';
import { LazyHealthStore } from './health/health-store';
import { healthChecksJob, lastCheckedExit } from './health/health-wiring';
import { PortHealthReader } from './health/port-health-reader';
import { LocalProxiesService } from './local-proxies/local-proxies-service';
import type { AppNotifications } from './notifications/app-notifications';
import { alertScreen } from './overview/overview-rules';
import { heldOpenTopUps, OverviewService } from './overview/overview-service';
import { publishPortChanges } from './ports/port-changes';
import { PortsService, toPortView } from './ports/ports-service';
import { RelocationTracker, type RelocationsState } from './ports/relocation-tracker';
import { type ReceiptsState, RotationService } from './ports/rotation-service';
import type { ProfilesService } from './profiles/profiles-service';
import { ProxyTestService } from './proxy-test/proxy-test-service';
import type { JobsOwnership } from './runtime/background-jobs';
import type { Clock } from './runtime/clock';
import { RotationScheduler } from './schedules/rotation-scheduler';
import { CachedStateSection, ROTATION_SCHEDULES_SECTION } from './schedules/rotation-scheduler-state';
import { SchedulesService } from './schedules/schedules-service';
import type { SessionSecretStore } from './secrets/session-secret-store';
import type { ApiCaller } from './session/api-caller';
import type { HeldAccountData } from './snapshots/held-lists';
import type { JobSection } from './storage/job-section';
import { pollerPolicy } from './subscriptions/poller-policy';
import { catalogTargeting, SubscriptionsService } from './subscriptions/subscriptions-service';
import { UsagePoller, type UsagePollerState } from './subscriptions/usage-poller';
import { publishTopUpChanges } from './topups/topup-changes';
import type { TopUpIntentsState } from './topups/topup-intents';
import type { TopUpLinks } from './topups/topup-links';
import { TopUpWatcher, type TopUpWatchState } from './topups/topup-watcher';
import { TopUpsService } from './topups/topups-service';
import { TrayStateService } from './tray/tray-state';

/** What the account's services are built from: the session layer and the process's plumbing. */
export interface AccountWiring {
  deps: AppCoreDependencies;
  log: (line: string) => void;
  clock: Clock;
  events: EventBus;
  ownership: JobsOwnership;
  jobSection: <T>(name: string) => JobSection<T>;
  notifications: AppNotifications;
  profiles: ProfilesService;
  sessionSecrets: SessionSecretStore;
  api: ApiCaller;
  demo: DemoService;
  held: HeldAccountData;
  topUpLinks: TopUpLinks;
  /** Alert channels that keep failing, for the overview (alert delivery is wired after this half). */
  failingAlertChannels: () => readonly AlertChannelView[];
  /** A health check changed a target's status (alert delivery's port down / up). */
  onHealthStatusChange?: (change: HealthStatusChange) => void;
  /** Puts a warning in the app's notices (self-heal that did not help). */
  notice?: (message: string) => void;
}

/**
 * The second half of the composition root: the services of an account (ports, schedules, the
 * catalog, subscriptions, top-ups, the tray, alerts, local proxies, the overview), in dependency
 * order. Wiring only, like `create-app-core.ts`, which builds the session before and assembles the
 * lifecycle after.
 */
export function wireAccountServices(wiring: AccountWiring) {
  const { deps, log, clock, events, ownership, jobSection, notifications, profiles, sessionSecrets } = wiring;
  const { api, demo, held, topUpLinks, failingAlertChannels } = wiring;
  const { settings, jobState } = deps;
  const jobs = () => ownership.status();
  const ownsJobs = () => jobs().owner;
  const activeProfileId = () => profiles.active()?.id ?? null;

  // Health: the store the checks write (the job owner) and every process reads; ASNs offline.
  const healthStore = new LazyHealthStore(deps.healthDatabaseFile ?? ':memory:', log);
  const asn = new AsnLookup(deps.asnDataFile ?? null, log);

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
    repeatWindow: () => {
      const { repeatWindowHours, repeatWindowRotations } = settings.get().healthChecks;
      return { hours: repeatWindowHours, rotations: repeatWindowRotations };
    },
    lastCheckedExit: (profileId, portId) => lastCheckedExit(healthStore.get(), profileId, portId),
    lookupAsn: asn.asnOf,
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
  const healthReader = new PortHealthReader({
    store: () => healthStore.get(),
    now: () => clock.now(),
    thresholds: () => settings.get().healthChecks,
    receipts: (profileId) => rotation.receiptsByPort(profileId),
  });
  const ports = new PortsService({
    api,
    events,
    now: () => clock.now(),
    ownsJobs,
    rotation,
    relocations,
    held: held.ports,
    health: healthReader,
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
    clock,
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
    health: healthReader,
  });
  // The account's open top-ups: one list read shared by the watcher's start, the overview and the tray.
  const listOpenTopUps = heldOpenTopUps(api, held, () => clock.now());
  const topUpWatcher = new TopUpWatcher({
    api,
    clock,
    store: jobSection<TopUpWatchState>('topup-watch'),
    publish: (profileId, changed) => publishTopUpChanges(events, topUpLinks, profileId, changed),
    polling: () => settings.get().polling,
    profileIds: () => profiles.list().map((profile) => profile.id),
    listOpen: (profileId) => listOpenTopUps(profileId),
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
    pendingPayments: () => overview.pendingPayments(),
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
    // In the model's words (what a top-up buys included), as the overview says them.
    pendingPayments: () => overview.pendingPayments(),
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
      events.emit('alerts:raised', { alert: { ...alert, screen: alertScreen(alert) } });
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
    heldSubUsers: (profileId, subscriptionId) =>
      held.subUsers.get(profileId, subscriptionId)?.view.data ?? null,
    health: (id) => healthReader.localProxy(id),
    log,
  });

  // Health checks through ports, subscriptions and local proxies: built once all three are.
  const healthChecks = healthChecksJob({
    clock,
    store: () => healthStore.get(),
    profileIds: () => profiles.list().map((profile) => profile.id),
    settings: () => settings.get(),
    heldPorts: {
      held: (profileId, notBefore) => held.ports.get(profileId, notBefore)?.items ?? null,
      read: (profileId) => ports.refresh(profileId),
    },
    heldSubscriptions: {
      held: (profileId, notBefore) => held.subscriptions.get(profileId, notBefore)?.items ?? null,
      read: (profileId) => subscriptions.refresh(profileId),
    },
    localProxies,
    demoEchoUrl: (profileId) => demo.echoUrlFor(profileId),
    ...(deps.probe ? { probe: deps.probe } : {}),
    ...(deps.random ? { random: deps.random } : {}),
    rotate: (profileId, portId) => rotation.rotate(profileId, portId, 'schedule'),
    notice: wiring.notice ?? ((message) => log(`[health] ${message}`)),
    events,
    ...(wiring.onHealthStatusChange ? { onStatusChange: wiring.onHealthStatusChange } : {}),
    log,
  });

  const alerts: AlertsService = new AlertsService(alertCenter, (raised) => overview.judgeAlerts(raised));

  // The overview: what needs attention, from what the services above hold.
  const overview: OverviewService = new OverviewService({
    now: () => clock.now(),
    api,
    policy: () => pollerPolicy(settings.get()),
    held,
    read: {
      ports: (profileId) => ports.refresh(profileId),
      subscriptions: (profileId) => subscriptions.refresh(profileId),
      openTopUps: listOpenTopUps,
    },
    // Only the owner of background jobs follows them; a one-shot command has read them, and is done.
    follow: async (profileId, listed) => {
      if (!ownsJobs()) return;
      for (const topUp of listed) if (!topUp.final) await topUpWatcher.watch(profileId, topUp);
    },
    watchedTopUps: () => topUpWatcher.watched(),
    schedules: (profileId) => schedules.view(profileId).schedules,
    alerts: () => Promise.resolve(alerts.raised()),
    holdingAlertKeys: () => Promise.resolve(crossings.read()),
    localProxies: (profileId) => localProxies.ofProfile(profileId),
    failingAlertChannels: () => failingAlertChannels(),
    pace: (profileId) => usagePoller.paceOf(profileId),
    portHealth: async (profileId, portIds) =>
      (await healthReader.attention(profileId, portIds)).map((entry) => ({
        ...entry,
        label: held.portLabel(profileId, entry.portId) ?? '',
      })),
  });

  return {
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
  };
}
