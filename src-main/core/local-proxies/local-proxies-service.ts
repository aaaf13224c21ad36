import { randomUUID } from 'node:crypto';
import { createServer } from 'node:net';
import type { MobilePort, ProxyServiceClient, SubUser } from '../../api';
import type {
  DomainHandlers,
  JobsStatus,
  LocalProxiesView,
  LocalProxyConfig,
  LocalProxyError,
  LocalProxyHealth,
  LocalProxyStats,
  LocalProxyUpstream,
  LocalProxyView,
  ParsedCallInput,
} from '../../../src-shared/contract';
import {
  isLoopbackAddress,
  LOCAL_PROXIES_MAX,
  LOCAL_PROXY_PORTS,
} from '../../../src-shared/contract/local-proxies';
import type { BackgroundJob } from '../runtime/background-jobs';
import type { Clock } from '../runtime/clock';
import type { DomainService, Lifecycle } from '../domain-service';
import { AppError } from '../errors';
import type { EventBus } from '../events';
import type { SecretStore } from '../secrets/secret-store';
import type { ApiCaller } from '../session/api-caller';
import type { SettingsStore } from '../settings/settings-store';
import { targetedUsername, validateTargeting } from '../subscriptions/proxy-string';
import {
  describeFailure,
  type FailureReport,
  ListenError,
  type LocalProxyLimits,
  LocalProxyServer,
} from './local-proxy-server';
import { hostPort, type Upstream, type UpstreamSource } from './upstream';
import { type UpstreamCredentials, UpstreamResolver } from './upstream-resolver';

/** What a local proxy stores instead of the id of a profile that lives for one run only. */
type ProvidedProfileKind = 'demo' | 'environment';
const PROVIDED_KINDS: readonly string[] = ['demo', 'environment'] satisfies ProvidedProfileKind[];
/** Stats reach the screens at most this often while traffic flows. */
const STATS_PUSH_MS = 1_000;

const EMPTY_STATS: LocalProxyStats = {
  openConnections: 0,
  requests: 0,
  bytesUp: 0,
  bytesDown: 0,
  failures: 0,
  rejectedConnections: 0,
};

export interface LocalProxiesServiceOptions {
  settings: Pick<SettingsStore, 'get' | 'update' | 'reload'>;
  /** Where a local password is kept: the OS keychain, or this run's memory without one. */
  secrets: () => SecretStore;
  api: Pick<ApiCaller, 'active' | 'forProfile'>;
  events: Pick<EventBus, 'emit' | 'on'>;
  clock: Clock;
  /** Whether this process runs the background jobs (local proxies run only there). */
  jobs: () => JobsStatus;
  /**
   * A one-shot command's process with nobody running the jobs: changes are saved for the process
   * that runs them next (or `local-proxy run`), and nothing listens here.
   */
  oneShot?: boolean;
  /**
   * Profiles that live for one run only (the demo's, one from `PROXY_MANAGER_API_KEY`) get a new id
   * every run: a local proxy stores which kind it was (`demo`, `environment`) and finds this run's.
   */
  providedProfiles: {
    kindOf: (profileId: string) => ProvidedProfileKind | null;
    idOf: (kind: ProvidedProfileKind) => string | null;
  };
  /**
   * Main's whole sub-user list of a subscription (`HeldAccountData.subUsers`), null when not held:
   * `subscriptions:changed` carries rows without passwords, and the service holds the list it
   * announces before announcing it, so a sub-user's new password is found here.
   */
  heldSubUsers?: (profileId: string, subscriptionId: string) => readonly SubUser[] | null;
  limits?: Partial<LocalProxyLimits>;
  /** What the health checks through a local proxy say (read from the health store); null: none yet. */
  health?: (localProxyId: string) => LocalProxyHealth | null;
  log?: (line: string) => void;
}

/** A running local proxy as a health check reaches it (its address on this computer, its login). */
export interface LocalProxyListening {
  id: string;
  profileId: string;
  host: string;
  port: number;
  auth: { username: string; password: string } | null;
}

/**
 * A local proxy run in the foreground by the command line (`local-proxy run`), outside the saved
 * list: a configured one by id, or an upstream given on the spot (for the active profile).
 */
export interface DetachedRunSpec {
  id?: string | undefined;
  upstream?: LocalProxyUpstream | undefined;
  /** Default: the configured port, else the first free one from 24000. */
  listenPort?: number | undefined;
  bindAddress?: string | undefined;
  allowNetwork?: boolean | undefined;
  auth?: { username: string; password: string } | undefined;
  /** Told of every request that did not get through (the command line writes it to stderr). */
  onFailure?: (error: LocalProxyError) => void;
}

export interface DetachedLocalProxy {
  id: string | null;
  label: string;
  url: string;
  listen: { host: string; port: number };
  upstream: LocalProxyUpstream;
  stats(): LocalProxyStats;
  close(): Promise<void>;
}

/** What one local proxy's upstream is called, read with its credentials. */
interface TargetRead {
  credentials: UpstreamCredentials;
  name: string;
}

/** One local proxy in this process: its upstream (kept across restarts of the listener) and listener. */
class Runtime implements UpstreamSource {
  server: LocalProxyServer | null = null;
  /** The local password the listener checks (kept for the health checks: no keychain read each time). */
  localPassword: string | null = null;
  listenError: string | null = null;
  lastError: LocalProxyError | null = null;
  /** Stats of the last listener, kept after a stop so the screen still shows them. */
  frozenStats: LocalProxyStats = EMPTY_STATS;
  resolver: UpstreamResolver;

  constructor(
    public config: LocalProxyConfig,
    private readonly makeResolver: (runtime: Runtime) => UpstreamResolver,
  ) {
    this.resolver = makeResolver(this);
  }

  /** A new upstream (the user switched it): new requests use the new one, open tunnels finish. */
  retarget(config: LocalProxyConfig): void {
    this.config = config;
    this.resolver = this.makeResolver(this);
  }

  current(): Promise<Upstream> {
    return this.resolver.current();
  }

  refresh(used: Upstream): Promise<Upstream> {
    return this.resolver.refresh(used);
  }

  stats(): LocalProxyStats {
    return this.server ? this.server.stats() : this.frozenStats;
  }
}

const secretAccount = (id: string): string => `local-proxy:${id}`;

/** `http://127.0.0.1:24001`; a wildcard address is reached on this computer through loopback. */
function urlFor(config: LocalProxyConfig): string {
  const host =
    config.bindAddress === '0.0.0.0' ? '127.0.0.1' : config.bindAddress === '::' ? '::1' : config.bindAddress;
  return `http://${hostPort(host, config.listenPort)}`;
}

/** Whether `port` can be bound on `host` right now. */
function portIsFree(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen({ host, port, exclusive: true }, () => probe.close(() => resolve(true)));
  });
}

/**
 * Local proxies (`localProxies:*`): their configuration in `settings.json`, their listeners in the
 * process that runs the background jobs, their upstreams kept current from the app's own events
 * (`ports:changed`, `subscriptions:changed`, `ports:rotation`) and, for changes made elsewhere, from
 * a re-read when the upstream refuses. Registered as a background job: it starts the enabled ones
 * when this process takes the jobs and stops them when it loses them or quits.
 */
export class LocalProxiesService implements DomainService<'localProxies'>, Lifecycle {
  readonly name = 'local proxies';
  private readonly runtimes = new Map<string, Runtime>();
  /** Runs of the command line: kept current from events like the others, never saved. */
  private readonly detached = new Set<Runtime>();
  private pushPending = false;
  private readonly pushes = new AbortController();
  private readonly unsubscribe: (() => void)[] = [];

  constructor(private readonly options: LocalProxiesServiceOptions) {
    const { events } = options;
    this.unsubscribe.push(
      events.on('ports:changed', ({ profileId, changed }) => {
        for (const runtime of this.runtimesOf(profileId)) {
          const { upstream } = runtime.config;
          if (upstream.kind !== 'port') continue;
          const port = changed.find((candidate) => candidate.id === upstream.portId);
          if (port) runtime.resolver.apply(portCredentials(port));
        }
      }),
      events.on('subscriptions:changed', ({ profileId, changed, subUsers }) => {
        for (const runtime of this.runtimesOf(profileId)) {
          const { upstream } = runtime.config;
          if (upstream.kind !== 'subscription') continue;
          const subscription = changed.find((candidate) => candidate.id === upstream.subscriptionId);
          if (subscription && upstream.subUserId === undefined) {
            runtime.resolver.apply({
              host: subscription.endpoint.host,
              port: subscription.endpoint.httpPort,
              username: targetedUsername(subscription.username, upstream.targeting ?? {}),
              password: subscription.password,
            });
          } else if (subscription) {
            runtime.resolver.update({
              host: subscription.endpoint.host,
              port: subscription.endpoint.httpPort,
            });
          }
          const list = subUsers?.[upstream.subscriptionId];
          if (list && upstream.subUserId !== undefined) {
            const { subUserId } = upstream;
            const listed = list.some((candidate) => candidate.id === subUserId);
            const subUser = listed
              ? this.options
                  .heldSubUsers?.(profileId, upstream.subscriptionId)
                  ?.find((candidate) => candidate.id === subUserId)
              : undefined;
            // Listed but not held whole: read again at the next request rather than keep a stale password.
            if (subUser) {
              runtime.resolver.update({
                username: targetedUsername(subUser.username, upstream.targeting ?? {}),
                password: subUser.password,
              });
            } else runtime.resolver.invalidate();
          }
        }
      }),
      events.on('ports:rotation', ({ profileId, portId, phase }) => {
        if (phase !== 'finished') return;
        for (const runtime of this.runtimesOf(profileId)) {
          const { upstream, closeOnRotation } = runtime.config;
          if (closeOnRotation && upstream.kind === 'port' && upstream.portId === portId) {
            runtime.server?.closeConnections();
          }
        }
      }),
    );
  }

  handlers(): DomainHandlers<'localProxies'> {
    return {
      'localProxies:list': () => this.list(),
      'localProxies:add': (input) => this.add(input),
      'localProxies:update': (input) => this.update(input),
      'localProxies:remove': async ({ id }) => {
        await this.remove(id);
        return { removed: true as const };
      },
      'localProxies:start': ({ id }) => this.startProxy(id),
      'localProxies:stop': ({ id }) => this.stopProxy(id),
    };
  }

  // ---- the background job -------------------------------------------------------------------------

  /**
   * Registered with the background jobs: starts the enabled local proxies when this process takes
   * the jobs (at start, or when the other process quits) and closes them when it loses them.
   */
  readonly job: BackgroundJob = {
    name: 'local proxies',
    start: () => this.startAll(),
    stop: () => this.stopAll(),
  };

  /** At app exit: the listeners close, events stop arriving. */
  async stop(): Promise<void> {
    this.pushes.abort();
    for (const off of this.unsubscribe) off();
    await this.stopAll();
    await this.closeDetached();
  }

  /** The local proxies of one profile (a demo's are stored by kind: matched to this run's id). */
  async ofProfile(profileId: string): Promise<LocalProxyView[]> {
    const { proxies } = await this.list();
    const configs = new Map(this.configs().map((config) => [config.id, config]));
    return proxies.filter((proxy) => {
      const config = configs.get(proxy.id);
      return config !== undefined && this.profileIdOf(config) === profileId;
    });
  }

  /**
   * The local proxies listening in this process (saved ones, not the command line's runs), as the
   * health checks reach them: through their own address with their local login.
   */
  listening(): Promise<LocalProxyListening[]> {
    const out: LocalProxyListening[] = [];
    for (const runtime of this.runtimes.values()) {
      const { config } = runtime;
      const profileId = this.profileIdOf(config);
      if (!runtime.server || !profileId) continue;
      // The password it listens with (read once from the keychain at its start), not read again here.
      const password = runtime.localPassword;
      if (config.auth && password === null) continue;
      const { hostname, port } = new URL(urlFor(config));
      out.push({
        id: config.id,
        profileId,
        host: hostname.replace(/^\[|\]$/g, ''),
        port: Number(port),
        auth: config.auth && password !== null ? { username: config.auth.username, password } : null,
      });
    }
    return Promise.resolve(out);
  }

  /** A health check changed a local proxy's status: the screens show it now, not at the next push. */
  healthChanged(): void {
    this.publish();
  }

  // ---- calls --------------------------------------------------------------------------------------

  async list(): Promise<LocalProxiesView> {
    const status = this.options.jobs();
    if (!status.owner) await this.options.settings.reload().catch(() => undefined);
    const configs = this.configs();
    const elsewhere = this.options.oneShot
      ? 'Local proxies listen while the desktop app or web mode runs, or in the foreground with `proxy-manager local-proxy run <id>`.'
      : status.message;
    return {
      proxies: configs.map((config) => this.view(config)),
      runsHere: status.owner,
      message: status.owner ? null : elsewhere,
      suggestedPort: this.suggestFromConfig(configs),
    };
  }

  async add(input: ParsedCallInput<'localProxies:add'>): Promise<LocalProxyView> {
    const listensHere = this.ownerOnly();
    const configs = this.configs();
    if (configs.length >= LOCAL_PROXIES_MAX) {
      throw new AppError('invalid_input', `At most ${LOCAL_PROXIES_MAX} local proxies: remove one first.`);
    }
    checkTargeting(input.upstream);
    // The target is read now: an unknown port or sub-user is refused before anything is saved.
    const { profileId, value: target } = await this.options.api.active('authenticated', (client) =>
      readTarget(client, input.upstream),
    );
    const listenPort = input.listenPort ?? (await this.suggestFree(input.bindAddress, configs));
    this.checkPortNotConfigured(configs, input.bindAddress, listenPort, null);
    if (!listensHere) await checkPortFree(input.bindAddress, listenPort);
    const id = `lp-${randomUUID().slice(0, 8)}`;
    const config: LocalProxyConfig = {
      id,
      label: input.label ?? target.name,
      profileId: this.storedProfileId(profileId),
      listenPort,
      bindAddress: input.bindAddress,
      allowNetwork: input.allowNetwork,
      auth: input.auth ? { username: input.auth.username } : null,
      upstream: input.upstream,
      closeOnRotation: input.closeOnRotation,
      enabled: input.start,
      createdAt: new Date(this.options.clock.now()).toISOString(),
    };
    if (input.auth) await this.options.secrets().set(secretAccount(id), input.auth.password);
    const runtime = this.runtimeFor(config);
    runtime.resolver.apply(target.credentials);
    try {
      if (input.start && listensHere) await this.listen(runtime, input.auth?.password ?? null);
    } catch (error) {
      this.runtimes.delete(id);
      if (input.auth)
        await this.options
          .secrets()
          .delete(secretAccount(id))
          .catch(() => false);
      throw error;
    }
    try {
      await this.options.settings.update((draft) => {
        draft.localProxies.push(config);
      });
    } catch (error) {
      await this.closeServer(runtime);
      this.runtimes.delete(id);
      throw error;
    }
    this.publish();
    return this.view(config);
  }

  async update(input: ParsedCallInput<'localProxies:update'>): Promise<LocalProxyView> {
    this.ownerOnly();
    const configs = this.configs();
    const before = configs.find((config) => config.id === input.id);
    if (!before) throw notFound(input.id);
    const next: LocalProxyConfig = {
      ...before,
      ...(input.label !== undefined ? { label: input.label } : {}),
      ...(input.upstream !== undefined ? { upstream: input.upstream } : {}),
      ...(input.listenPort !== undefined ? { listenPort: input.listenPort } : {}),
      ...(input.bindAddress !== undefined ? { bindAddress: input.bindAddress } : {}),
      ...(input.allowNetwork !== undefined ? { allowNetwork: input.allowNetwork } : {}),
      ...(input.closeOnRotation !== undefined ? { closeOnRotation: input.closeOnRotation } : {}),
      ...(input.auth !== undefined ? { auth: input.auth ? { username: input.auth.username } : null } : {}),
    };
    checkNetworkRule(next);
    this.checkPortNotConfigured(configs, next.bindAddress, next.listenPort, next.id);
    let target: TargetRead | null = null;
    if (input.upstream !== undefined) {
      checkTargeting(input.upstream);
      const profileId = this.profileIdOf(next);
      if (!profileId) throw profileGone(next);
      target = await this.options.api.forProfile(profileId, 'authenticated', (client) =>
        readTarget(client, input.upstream as LocalProxyUpstream),
      );
    }
    const runtime = this.runtimeFor(before);
    const listenerChanged =
      next.listenPort !== before.listenPort ||
      next.bindAddress !== before.bindAddress ||
      input.auth !== undefined;
    const oldPassword = before.auth ? await this.options.secrets().get(secretAccount(before.id)) : null;
    const newPassword = input.auth === undefined ? oldPassword : (input.auth?.password ?? null);
    if (runtime.server && listenerChanged) {
      // The new address first: a refused one leaves the running listener as it was.
      const previous = runtime.server;
      runtime.server = null;
      await previous.close();
      runtime.frozenStats = previous.stats();
      const saved = runtime.config;
      runtime.config = next;
      try {
        await this.listen(runtime, newPassword);
      } catch (error) {
        runtime.config = saved;
        await this.listen(runtime, oldPassword).catch(() => undefined);
        throw error;
      }
    }
    if (input.auth) await this.options.secrets().set(secretAccount(next.id), input.auth.password);
    if (input.auth === null)
      await this.options
        .secrets()
        .delete(secretAccount(next.id))
        .catch(() => false);
    await this.options.settings.update((draft) => {
      draft.localProxies = draft.localProxies.map((config) => (config.id === next.id ? next : config));
    });
    if (input.upstream !== undefined) {
      runtime.retarget(next);
      if (target) runtime.resolver.apply(target.credentials);
    } else runtime.config = next;
    this.publish();
    return this.view(next);
  }

  async remove(id: string): Promise<void> {
    this.ownerOnly();
    if (!this.configs().some((config) => config.id === id)) throw notFound(id);
    const runtime = this.runtimes.get(id);
    if (runtime) await this.closeServer(runtime);
    this.runtimes.delete(id);
    await this.options.settings.update((draft) => {
      draft.localProxies = draft.localProxies.filter((config) => config.id !== id);
    });
    await this.options
      .secrets()
      .delete(secretAccount(id))
      .catch(() => false);
    this.publish();
  }

  async startProxy(id: string): Promise<LocalProxyView> {
    const listensHere = this.ownerOnly();
    const config = this.configs().find((candidate) => candidate.id === id);
    if (!config) throw notFound(id);
    if (listensHere) {
      const runtime = this.runtimeFor(config);
      if (!runtime.server) await this.listen(runtime, await this.passwordOf(config));
    }
    if (!config.enabled) await this.setEnabled(id, true);
    this.publish();
    return this.view(this.configOf(id) ?? config);
  }

  async stopProxy(id: string): Promise<LocalProxyView> {
    this.ownerOnly();
    const runtime = this.runtimes.get(id);
    if (runtime) await this.closeServer(runtime);
    await this.setEnabled(id, false);
    this.publish();
    const config = this.configOf(id);
    if (!config) throw notFound(id);
    return this.view(config);
  }

  /**
   * Runs a local proxy in this process until `close` (the command line's `local-proxy run`): no
   * ownership of background jobs needed, nothing saved. Its upstream is read at once, so an unknown
   * port or sub-user fails here; afterwards it follows this process's events and re-reads on a 407.
   */
  async runDetached(spec: DetachedRunSpec): Promise<DetachedLocalProxy> {
    const saved = spec.id === undefined ? undefined : this.configOf(spec.id);
    if (spec.id !== undefined && !saved) throw notFound(spec.id);
    const upstream = spec.upstream ?? saved?.upstream;
    if (!upstream) {
      throw new AppError('invalid_input', 'Name a local proxy or what to forward to.', [
        { field: 'upstream', message: 'A port, or a subscription (and sub-user), or a local proxy id.' },
      ]);
    }
    checkTargeting(upstream);
    let profileId: string;
    let target: TargetRead;
    if (saved && spec.upstream === undefined) {
      const resolved = this.profileIdOf(saved);
      if (!resolved) throw profileGone(saved);
      profileId = resolved;
      target = await this.options.api.forProfile(profileId, 'authenticated', (client) =>
        readTarget(client, upstream),
      );
    } else {
      const read = await this.options.api.active('authenticated', (client) => readTarget(client, upstream));
      profileId = read.profileId;
      target = read.value;
    }
    const bindAddress = spec.bindAddress ?? saved?.bindAddress ?? '127.0.0.1';
    const password = spec.auth?.password ?? (saved ? await this.passwordOf(saved) : null);
    const username = spec.auth?.username ?? saved?.auth?.username ?? null;
    const config: LocalProxyConfig = {
      id: saved?.id ?? `run-${randomUUID().slice(0, 8)}`,
      label: saved?.label ?? target.name,
      profileId: this.storedProfileId(profileId),
      listenPort:
        spec.listenPort ?? saved?.listenPort ?? (await this.suggestFree(bindAddress, this.configs())),
      bindAddress,
      allowNetwork: spec.allowNetwork ?? saved?.allowNetwork ?? false,
      auth: username === null ? null : { username },
      upstream,
      closeOnRotation: saved?.closeOnRotation ?? false,
      enabled: true,
      createdAt: new Date(this.options.clock.now()).toISOString(),
    };
    const runtime = this.newRuntime(config);
    runtime.resolver.apply(target.credentials);
    await this.listen(runtime, username === null ? null : password, (error) => spec.onFailure?.(error));
    this.detached.add(runtime);
    const server = runtime.server;
    if (!server) throw new AppError('listen_failed', 'The local proxy did not start.');
    const address = server.address;
    return {
      id: saved?.id ?? null,
      label: config.label,
      url: urlFor({ ...config, listenPort: address.port }),
      listen: address,
      upstream,
      stats: () => server.stats(),
      close: async () => {
        this.detached.delete(runtime);
        await this.closeServer(runtime);
      },
    };
  }

  // ---- listeners ----------------------------------------------------------------------------------

  private async startAll(): Promise<void> {
    for (const config of this.configs()) {
      if (!config.enabled) continue;
      const runtime = this.runtimeFor(config);
      if (runtime.server) continue;
      try {
        await this.listen(runtime, await this.passwordOf(config));
      } catch (error) {
        // Shown on the screen (`listenError`); the others start anyway.
        this.options.log?.(
          `[local proxies] ${config.label}: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
    }
    this.publish();
  }

  private async stopAll(): Promise<void> {
    for (const runtime of this.runtimes.values()) await this.closeServer(runtime);
    this.publish();
  }

  /** At app exit the command line's runs close too. */
  private async closeDetached(): Promise<void> {
    for (const runtime of [...this.detached]) await this.closeServer(runtime);
    this.detached.clear();
  }

  private async listen(
    runtime: Runtime,
    password: string | null,
    onError?: (error: LocalProxyError) => void,
  ): Promise<void> {
    const { config } = runtime;
    if (config.auth && password === null) {
      runtime.listenError =
        'The local password is not stored (no keychain on this computer, or it was removed): set it again.';
      throw new AppError('listen_failed', runtime.listenError, [
        { field: 'auth', message: runtime.listenError },
      ]);
    }
    try {
      checkNetworkRule(config);
      runtime.server = await LocalProxyServer.listen({
        host: config.bindAddress,
        port: config.listenPort,
        auth: config.auth && password !== null ? { username: config.auth.username, password } : null,
        upstream: runtime,
        label: config.label,
        ...(this.options.limits ? { limits: this.options.limits } : {}),
        onFailure: (failure) => {
          this.recordFailure(runtime, failure);
          if (onError && runtime.lastError) onError(runtime.lastError);
        },
        onActivity: () => this.schedulePush(),
        ...(this.options.log ? { log: this.options.log } : {}),
      });
      runtime.localPassword = password;
      runtime.listenError = null;
      runtime.frozenStats = EMPTY_STATS;
    } catch (error) {
      runtime.listenError = error instanceof Error ? error.message : String(error);
      this.publish();
      if (error instanceof ListenError) {
        throw new AppError(
          error.code === 'port_in_use' ? 'port_in_use' : 'listen_failed',
          error.message,
          [{ field: error.code === 'auth_required' ? 'auth' : 'listenPort', message: error.message }],
          error,
        );
      }
      throw error;
    }
  }

  private async closeServer(runtime: Runtime): Promise<void> {
    const server = runtime.server;
    if (!server) return;
    runtime.server = null;
    runtime.frozenStats = server.stats();
    await server.close();
  }

  private recordFailure(runtime: Runtime, failure: FailureReport): void {
    runtime.lastError = {
      at: new Date(this.options.clock.now()).toISOString(),
      kind: failure.kind,
      status: failure.status,
      message: `${describeFailure(failure.kind)} (${failure.target})`,
      detail: failure.detail === null ? null : failure.detail.slice(0, 500),
    };
    this.schedulePush();
  }

  // ---- helpers ------------------------------------------------------------------------------------

  private configs(): readonly LocalProxyConfig[] {
    return this.options.settings.get().localProxies;
  }

  private configOf(id: string): LocalProxyConfig | undefined {
    return this.configs().find((config) => config.id === id);
  }

  private profileIdOf(config: LocalProxyConfig): string | null {
    return PROVIDED_KINDS.includes(config.profileId)
      ? this.options.providedProfiles.idOf(config.profileId as ProvidedProfileKind)
      : config.profileId;
  }

  private storedProfileId(profileId: string): string {
    return this.options.providedProfiles.kindOf(profileId) ?? profileId;
  }

  private *runtimesOf(profileId: string): Iterable<Runtime> {
    for (const runtime of [...this.runtimes.values(), ...this.detached]) {
      if (this.profileIdOf(runtime.config) === profileId) yield runtime;
    }
  }

  private runtimeFor(config: LocalProxyConfig): Runtime {
    let runtime = this.runtimes.get(config.id);
    if (!runtime) {
      runtime = this.newRuntime(config);
      this.runtimes.set(config.id, runtime);
    }
    return runtime;
  }

  private newRuntime(config: LocalProxyConfig): Runtime {
    return new Runtime(
      config,
      (owner) =>
        new UpstreamResolver({
          read: async () => {
            const profileId = this.profileIdOf(owner.config);
            if (!profileId) throw profileGone(owner.config);
            const upstream = owner.config.upstream;
            const { credentials } = await this.options.api.forProfile(profileId, 'authenticated', (client) =>
              readTarget(client, upstream),
            );
            return credentials;
          },
          now: () => this.options.clock.now(),
          onChange: () => this.schedulePush(),
        }),
    );
  }

  private async passwordOf(config: LocalProxyConfig): Promise<string | null> {
    if (!config.auth) return null;
    return this.options
      .secrets()
      .get(secretAccount(config.id))
      .catch(() => null);
  }

  private async setEnabled(id: string, enabled: boolean): Promise<void> {
    await this.options.settings.update((draft) => {
      draft.localProxies = draft.localProxies.map((config) =>
        config.id === id ? { ...config, enabled } : config,
      );
    });
    const runtime = this.runtimes.get(id);
    const config = this.configOf(id);
    if (runtime && config) runtime.config = config;
  }

  /**
   * Changes are made where the local proxies run (the owner of the background jobs), or saved by a
   * one-shot command when nobody runs them; answers whether they listen in this process.
   */
  private ownerOnly(): boolean {
    const status = this.options.jobs();
    if (status.owner) return true;
    if (this.options.oneShot) return false;
    throw new AppError(
      'not_job_owner',
      `Local proxies run in the Proxy Manager process that runs the background jobs: change them there. ${status.message ?? ''}`.trim(),
    );
  }

  private checkPortNotConfigured(
    configs: readonly LocalProxyConfig[],
    bindAddress: string,
    listenPort: number,
    exceptId: string | null,
  ): void {
    const taken = configs.find(
      (config) =>
        config.id !== exceptId &&
        config.listenPort === listenPort &&
        (config.bindAddress === bindAddress ||
          !isLoopbackAddress(config.bindAddress) ||
          !isLoopbackAddress(bindAddress)),
    );
    if (taken) {
      const message = `Port ${listenPort} is already the port of local proxy “${taken.label}”: choose another.`;
      throw new AppError('port_in_use', message, [{ field: 'listenPort', message }]);
    }
  }

  private suggestFromConfig(configs: readonly LocalProxyConfig[]): number {
    const used = new Set(configs.map((config) => config.listenPort));
    let port: number = LOCAL_PROXY_PORTS.suggestedFrom;
    while (used.has(port) && port < LOCAL_PROXY_PORTS.max) port += 1;
    return port;
  }

  /** The first port from 24000 up that no local proxy has and that is free right now. */
  private async suggestFree(bindAddress: string, configs: readonly LocalProxyConfig[]): Promise<number> {
    const used = new Set(configs.map((config) => config.listenPort));
    for (
      let port: number = LOCAL_PROXY_PORTS.suggestedFrom;
      port < LOCAL_PROXY_PORTS.suggestedFrom + 1000;
      port += 1
    ) {
      if (!used.has(port) && (await portIsFree(bindAddress, port))) return port;
    }
    throw new AppError('port_in_use', 'No free port from 24000 to 24999: choose one.', [
      { field: 'listenPort', message: 'Choose a port' },
    ]);
  }

  private view(config: LocalProxyConfig): LocalProxyView {
    const owner = this.options.jobs().owner;
    const runtime = this.runtimes.get(config.id);
    const state = !owner
      ? 'elsewhere'
      : runtime?.server
        ? 'running'
        : runtime?.listenError && config.enabled
          ? 'failed'
          : 'stopped';
    return {
      id: config.id,
      label: config.label,
      profileId: config.profileId,
      url: urlFor(config),
      listen: { host: config.bindAddress, port: config.listenPort },
      allowNetwork: config.allowNetwork,
      auth: config.auth ? { username: config.auth.username } : null,
      upstream: config.upstream,
      upstreamEndpoint: runtime?.resolver.endpoint ?? null,
      closeOnRotation: config.closeOnRotation,
      enabled: config.enabled,
      state,
      listenError: state === 'failed' ? (runtime?.listenError ?? null) : null,
      stats: runtime?.stats() ?? EMPTY_STATS,
      lastError: runtime?.lastError ?? null,
      health: this.options.health?.(config.id) ?? null,
      createdAt: config.createdAt,
    };
  }

  private publish(): void {
    this.options.events.emit('localProxies:changed', {
      proxies: this.configs().map((config) => this.view(config)),
    });
  }

  /** Stats and errors reach the screens at most once a second while traffic flows. */
  private schedulePush(): void {
    if (this.pushPending || this.pushes.signal.aborted) return;
    this.pushPending = true;
    this.options.clock.sleep(STATS_PUSH_MS, this.pushes.signal).then(
      () => {
        this.pushPending = false;
        this.publish();
      },
      () => undefined,
    );
  }
}

function portCredentials(port: Pick<MobilePort, 'endpoint' | 'username' | 'password'>): UpstreamCredentials {
  return {
    host: port.endpoint.host,
    port: port.endpoint.httpPort,
    username: port.username,
    password: port.password,
  };
}

/** Reads what a local proxy forwards to, with its credentials, through one client. */
async function readTarget(client: ProxyServiceClient, upstream: LocalProxyUpstream): Promise<TargetRead> {
  if (upstream.kind === 'port') {
    const port = await client.getMobilePort(upstream.portId);
    return { credentials: portCredentials(port), name: port.label.trim() || `Port ${port.id}` };
  }
  const subscription = await client.getSubscription(upstream.subscriptionId);
  let user: Pick<SubUser, 'username' | 'password'> = subscription;
  let name = subscription.label;
  if (upstream.subUserId !== undefined) {
    const list = await client.listSubUsers(upstream.subscriptionId);
    const subUser = list.data.find((candidate) => candidate.id === upstream.subUserId);
    if (!subUser) {
      throw new AppError('invalid_input', 'This sub-user no longer exists in the subscription.', [
        { field: 'upstream.subUserId', message: 'Unknown sub-user.' },
      ]);
    }
    user = subUser;
    name = `${subscription.label} · ${subUser.label}`;
  }
  const targeting = upstream.targeting ?? {};
  const where = [targeting.country, targeting.state, targeting.city, targeting.zip].filter(Boolean).join(' ');
  return {
    credentials: {
      host: subscription.endpoint.host,
      port: subscription.endpoint.httpPort,
      username: targetedUsername(user.username, targeting),
      password: user.password,
    },
    name: (where ? `${name} (${where})` : name).slice(0, 60),
  };
}

function checkTargeting(upstream: LocalProxyUpstream): void {
  if (upstream.kind !== 'subscription') return;
  const fields = validateTargeting(upstream.targeting ?? {}).map((error) => ({
    field: `upstream.targeting.${error.field}`,
    message: error.message,
  }));
  if (fields.length > 0)
    throw new AppError('invalid_input', fields.map((field) => field.message).join(' '), fields);
}

/** The clear error for a port another program holds, before anything is saved. */
async function checkPortFree(host: string, port: number): Promise<void> {
  if (await portIsFree(host, port)) return;
  const message = `${hostPort(host, port)} is already in use by another program: choose another port.`;
  throw new AppError('port_in_use', message, [{ field: 'listenPort', message }]);
}

/** Off loopback only with the explicit choice and a local login (the contract checks the input too). */
function checkNetworkRule(config: LocalProxyConfig): void {
  if (isLoopbackAddress(config.bindAddress)) return;
  const message =
    'Listening on an address other computers can reach needs “allow network” and a local user name and password.';
  const fields = [
    ...(config.allowNetwork ? [] : [{ field: 'allowNetwork', message }]),
    ...(config.auth ? [] : [{ field: 'auth', message }]),
  ];
  if (fields.length > 0) throw new AppError('invalid_input', message, fields);
}

function notFound(id: string): AppError {
  return new AppError('local_proxy_not_found', `There is no local proxy ${id}.`, [
    { field: 'id', message: 'Unknown local proxy.' },
  ]);
}

function profileGone(config: LocalProxyConfig): AppError {
  return new AppError(
    'profile_not_found',
    config.profileId === 'demo'
      ? 'This local proxy forwards to the demo’s account, and the demo is not running: start it (Try demo).'
      : config.profileId === 'environment'
        ? 'This local proxy forwards to the account of PROXY_MANAGER_API_KEY, which this process was not started with.'
        : 'The profile of this local proxy no longer exists: remove the local proxy or point it elsewhere.',
  );
}
