import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { FaultInjector, type FaultSpec } from './control/fault-injector';
import type { GatewayEndpoint } from './gateway/gateway-endpoint';
import { type RunningGateway, startGateway } from './gateway/gateway-server';
import { createControlModule, loopbackHostOnly, loopbackOnly } from './control/control-module';
import { RequestLog, redactKeyParam } from './control/request-log';
import { type AuthenticatedKey, type RouteDefinition, type RouteResult, Router } from './http/router';
import { requireJsonBody, requireOwnOrigin } from './http/request-screen';
import { SandboxError } from './http/sandbox-error';
import { SandboxClock } from './sandbox-clock';
import { createDomainModules, seedSandboxState } from './sandbox-modules';
import { loadSandboxState, SandboxStateWriter } from './sandbox-persistence';
import type { SandboxState } from './sandbox-state';
import type { SandboxScale } from './sandbox-scale';
import {
  createIdFactory,
  type LatencyProfile,
  type SandboxModule,
  type SandboxModuleFactory,
  type SandboxWorld,
} from './sandbox-world';
import { SeededRandom } from './seeded-random';

const API_PREFIX = '/api/v1';
const CONTROL_PREFIX = '/__sandbox';
const MAX_BODY_BYTES = 1024 * 1024;
/** How long `close()` lets requests in progress finish before it cuts their connections. */
const DEFAULT_CLOSE_GRACE_MS = 1_000;

export interface ApiKeySpec {
  key: string;
  scopes: string[];
}

export const DEFAULT_API_KEYS: readonly ApiKeySpec[] = [{ key: 'sandbox-demo-key', scopes: ['proxies'] }];

export interface SandboxOptions {
  /** Default 127.0.0.1. */
  host?: string;
  /** Default 4010; 0 takes a free port. */
  port?: number;
  /** The gateway's HTTP proxy port. Default `port` + 1, or a free port when `port` is 0; 0 takes a free port. */
  gatewayHttpPort?: number;
  /** The gateway's SOCKS5 port. Default `port` + 2, or a free port when `port` is 0; 0 takes a free port. */
  gatewaySocksPort?: number;
  keys?: readonly ApiKeySpec[];
  /** Default `realistic` (rotation answers after 5-15 s). */
  latency?: LatencyProfile;
  /** Seed of the demo data and of every random choice. Default: random. Ignored when `dataFile` exists. */
  seed?: number;
  /** Persist state to this file (atomically) and load it on start. */
  dataFile?: string;
  /**
   * `real` (default): wall clock plus control offsets. `manual`: time moves only through the control
   * API. Ignored when `dataFile` exists (the saved clock continues).
   */
  clock?: 'real' | 'manual';
  /** Start time of a fresh sandbox (ISO string or epoch ms). Default: now. Ignored when `dataFile` exists. */
  startTime?: string | number;
  /**
   * A large account for benchmarks: the demo data plus generated ports, sub-users and top-ups up to
   * these totals. Ignored when `dataFile` exists.
   */
  scale?: SandboxScale;
  /** Injected for tests of realistic latency and fault delays. */
  sleep?: (ms: number) => Promise<void>;
  /** Injected for tests of the `real` clock mode. Default `Date.now`. */
  wallClock?: () => number;
  /** Modules added after the domain modules (tests: routes that exercise the framework). */
  extraModules?: readonly SandboxModuleFactory[];
  /** How long `close()` lets requests in progress finish before cutting them. Default 1000 ms. */
  closeGraceMs?: number;
  /** Where to report unexpected handler errors and failed saves. Default: stderr. */
  logError?: (message: string) => void;
}

export interface RunningSandbox {
  /** `http://HOST:PORT/api/v1`; the spec's paths are appended literally (`.../api/v1/v1/mobile`). */
  baseUrl: string;
  controlUrl: string;
  world: SandboxWorld;
  /** Where the proxy gateway listens (HTTP proxy and SOCKS5): every endpoint the API hands out. */
  gateway: GatewayEndpoint;
  /** True when the state was loaded from `dataFile` (its seed and clock won over the options). */
  restored: boolean;
  /**
   * Stops the gateway and the API, lets API requests in progress finish (briefly), then saves the
   * state one last time.
   */
  close(): Promise<void>;
}

const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function resolveStart(startTime: string | number | undefined): number | undefined {
  if (startTime === undefined) return undefined;
  const ms = typeof startTime === 'number' ? startTime : Date.parse(startTime);
  if (!Number.isFinite(ms)) throw new Error(`invalid start time: ${String(startTime)}`);
  return ms;
}

/**
 * Moves every module to `now` through the instants at which any of them touches shared state, in time
 * order: all modules settle to the earliest pending instant, then the next, and so on.
 */
function settleInStep(modules: readonly SandboxModule[], now: number): void {
  let previous = Number.NEGATIVE_INFINITY;
  for (;;) {
    let next = Number.POSITIVE_INFINITY;
    for (const module of modules) {
      const at = module.nextEventAt?.() ?? null;
      if (at !== null && at < next) next = at;
    }
    // A module that keeps reporting an instant it has already settled would loop forever: stop stepping.
    if (next > now || next <= previous) break;
    for (const module of modules) module.settle?.(next);
    previous = next;
  }
  for (const module of modules) module.settle?.(now);
}

async function buildWorld(
  options: SandboxOptions,
): Promise<{ world: SandboxWorld; state: SandboxState; modules: SandboxModule[]; restored: boolean }> {
  const loaded = options.dataFile ? await loadSandboxState(options.dataFile) : null;
  const wallClock = options.wallClock ?? Date.now;
  const seed = loaded?.seed ?? options.seed ?? Math.floor(Math.random() * 2 ** 31);
  const clock = loaded
    ? SandboxClock.restore(loaded.clock, wallClock)
    : new SandboxClock(options.clock ?? 'real', wallClock, resolveStart(options.startTime));
  const random = new SeededRandom(loaded?.randomState ?? seed);
  const state: SandboxState = loaded ?? seedSandboxState({ seed, clock, random, scale: options.scale });
  const newId = createIdFactory(state.ids, random);
  const sleep = options.sleep ?? realSleep;
  const latency = options.latency ?? 'realistic';
  // Delays draw from their own sequence: the demo data must not depend on the latency profile.
  const delays = new SeededRandom(seed ^ 0x5eed_de1a);
  const modules: SandboxModule[] = [];
  // Filled in once the gateway listens, before anything is answered.
  const gateway: GatewayEndpoint = { host: '127.0.0.1', httpPort: 0, socksPort: 0 };
  const world: SandboxWorld = {
    gateway,
    clock,
    random,
    state,
    latency,
    get now() {
      return clock.now();
    },
    newId,
    simulateDelay: async (minMs, maxMs) => {
      if (latency === 'fast') return;
      await sleep(delays.int(minMs, maxMs));
    },
    settle: () => {
      const now = clock.now();
      settleInStep(modules, now);
      return now;
    },
  };
  modules.push(...createDomainModules(world));
  for (const factory of options.extraModules ?? []) modules.push(factory(world));
  return { world, state, modules, restored: loaded !== null };
}

/** The client went away before its request was read: nobody to answer, nothing to log. */
class ClientGone extends Error {}

class BodyTooLarge extends SandboxError {
  constructor() {
    super(413, 'payload_too_large', `The body exceeds ${MAX_BODY_BYTES} bytes`, undefined, {
      Connection: 'close',
    });
  }
}

/** Reads the whole body, refusing (413) more than MAX_BODY_BYTES without buffering the excess. */
function readBody(req: IncomingMessage): Promise<string> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > MAX_BODY_BYTES) return Promise.reject(new BodyTooLarge());
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        // Stop buffering; the answer carries `Connection: close` and the rest is discarded.
        req.off('data', onData);
        req.resume();
        reject(new BodyTooLarge());
        return;
      }
      chunks.push(chunk);
    };
    req.on('data', onData);
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', () => reject(new ClientGone()));
    req.on('close', () => {
      if (!req.complete) reject(new ClientGone());
    });
  });
}

function parseJson(text: string): unknown {
  if (text.trim().length === 0) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new SandboxError(400, 'invalid_json', 'The body is not valid JSON');
  }
}

function parseRequestUrl(raw: string | undefined): URL {
  // Read as a path even when it starts with `//`, which `new URL(raw, base)` would take for a host.
  const path = raw?.startsWith('/') ? raw : `/${raw ?? ''}`;
  try {
    return new URL(`http://sandbox.invalid${path}`);
  } catch {
    throw new SandboxError(400, 'bad_request', 'The request target is not a valid path');
  }
}

function authenticate(
  route: RouteDefinition,
  req: IncomingMessage,
  query: URLSearchParams,
  keys: ReadonlyMap<string, ReadonlySet<string>>,
): AuthenticatedKey | null {
  if (route.auth === 'public') return null;
  const bearer = route.auth === 'bearer';
  let key: string | null;
  if (bearer) {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '');
    key = match?.[1] ?? null;
    if (key === null) {
      throw new SandboxError(
        401,
        'unauthorized',
        'Missing API key: send Authorization: Bearer <API_KEY>',
        undefined,
        { 'WWW-Authenticate': 'Bearer' },
      );
    }
  } else {
    key = query.get('key');
    if (key === null || key === '') {
      throw new SandboxError(401, 'unauthorized', 'Missing API key: add the key query parameter');
    }
  }
  const scopes = keys.get(key);
  if (!scopes) {
    throw new SandboxError(
      401,
      'unauthorized',
      'Invalid API key',
      undefined,
      bearer ? { 'WWW-Authenticate': 'Bearer error="invalid_token"' } : undefined,
    );
  }
  if (route.scope && !scopes.has(route.scope)) {
    throw new SandboxError(
      403,
      'insufficient_scope',
      `The API key lacks the scope ${route.scope}`,
      undefined,
      bearer
        ? { 'WWW-Authenticate': `Bearer error="insufficient_scope", scope="${route.scope}"` }
        : undefined,
    );
  }
  return { key, scopes };
}

function send(res: ServerResponse, result: RouteResult): void {
  const headers: Record<string, string> = { 'Cache-Control': 'no-store', ...result.headers };
  if (result.text !== undefined) {
    res.writeHead(result.status, { 'Content-Type': 'text/plain; charset=utf-8', ...headers });
    res.end(result.text);
  } else if (result.body !== undefined) {
    res.writeHead(result.status, { 'Content-Type': 'application/json; charset=utf-8', ...headers });
    res.end(JSON.stringify(result.body));
  } else {
    res.writeHead(result.status, headers);
    res.end();
  }
}

function faultResult(fault: FaultSpec): RouteResult | 'drop' {
  if (fault.dropConnection) return 'drop';
  const status = fault.status ?? 200;
  const headers = { ...(status === 429 ? { 'Retry-After': '1' } : {}), ...fault.headers };
  if (fault.malformedBody) {
    return {
      status,
      headers: { 'Content-Type': 'application/json; charset=utf-8', ...headers },
      text: '{"data": [',
    };
  }
  return {
    status,
    headers,
    body: {
      error: { code: 'sandbox_fault', message: `Fault injected by the sandbox control API (${status})` },
    },
  };
}

/** Whether the fault replaces the answer (as opposed to only delaying it). */
const faultAnswers = (fault: FaultSpec): boolean =>
  fault.status !== undefined || fault.dropConnection === true || fault.malformedBody === true;

function listenError(error: NodeJS.ErrnoException, host: string, port: number): Error {
  const where = `${host}:${port}`;
  const message =
    error.code === 'EADDRINUSE'
      ? `port ${port} on ${host} is already in use; choose another with --port (0 takes a free one)`
      : error.code === 'EACCES'
        ? `not allowed to listen on ${where} (ports below 1024 need privileges)`
        : error.code === 'EADDRNOTAVAIL'
          ? `${host} is not an address of this machine`
          : `cannot listen on ${where}: ${error.message}`;
  return Object.assign(new Error(message), { code: error.code });
}

/** Starts the sandbox HTTP server (API under `/api/v1`, control under `/__sandbox`). */
export async function startSandbox(options: SandboxOptions = {}): Promise<RunningSandbox> {
  const { world, state, modules, restored } = await buildWorld(options);
  const faults = new FaultInjector();
  const requestLog = new RequestLog();
  const controlModule = createControlModule(world, faults, requestLog);
  const apiRouter = new Router();
  const controlRouter = new Router();
  for (const module of [controlModule, ...modules]) {
    apiRouter.add(module.routes);
    controlRouter.add(module.controlRoutes ?? []);
  }
  modules.unshift(controlModule);
  const keys = new Map<string, ReadonlySet<string>>(
    (options.keys ?? DEFAULT_API_KEYS).map((k) => [k.key, new Set(k.scopes)]),
  );
  const logError = options.logError ?? ((message: string) => process.stderr.write(`${message}\n`));
  const sleep = options.sleep ?? realSleep;
  const writer = options.dataFile
    ? new SandboxStateWriter(options.dataFile, () => {
        state.clock = world.clock.snapshot();
        state.randomState = world.random.snapshot;
        return state;
      })
    : null;
  let closing = false;
  let inFlight = 0;

  /** A change is answered only once it is on disk, so that an acknowledged change survives a crash. */
  async function persist(): Promise<void> {
    if (!writer) return;
    try {
      await writer.save();
    } catch (error) {
      logError(`sandbox: ${(error as Error).message}`);
      throw new SandboxError(
        500,
        'persistence_failed',
        'The change was applied but could not be saved to the data file',
      );
    }
  }

  function reply(res: ServerResponse, result: RouteResult): void {
    // While closing, keep-alive clients learn that this connection will not take another request.
    if (closing) res.setHeader('Connection', 'close');
    send(res, result);
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let pathWithQuery = req.url ?? '/';
    let isApi = false;
    let status = 500;
    let persistAfter = false;
    try {
      const url = parseRequestUrl(req.url);
      pathWithQuery = `${url.pathname}${url.search}`;
      isApi = url.pathname === API_PREFIX || url.pathname.startsWith(`${API_PREFIX}/`);
      const isControl = url.pathname === CONTROL_PREFIX || url.pathname.startsWith(`${CONTROL_PREFIX}/`);
      if (!isApi && !isControl) {
        throw new SandboxError(
          404,
          'not_found',
          `No endpoint at ${url.pathname}; the API is under ${API_PREFIX}`,
        );
      }
      if (isControl) {
        loopbackOnly(req.socket.remoteAddress);
        loopbackHostOnly(req.headers.host);
      }
      // Screened before the body is read: a web page must not drive the API or the control API.
      requireOwnOrigin(req);
      requireJsonBody(req);
      const rawBody = await readBody(req);
      let fault: FaultSpec | null = null;
      if (isApi) {
        fault = faults.take(pathWithQuery);
        if (fault?.delayMs) await sleep(fault.delayMs);
        if (fault && fault.phase === 'before' && faultAnswers(fault)) {
          const result = faultResult(fault);
          if (result === 'drop') {
            status = 0;
            req.socket.destroy();
            return;
          }
          status = result.status;
          reply(res, result);
          return;
        }
      }
      const path = url.pathname.slice(isApi ? API_PREFIX.length : CONTROL_PREFIX.length) || '/';
      const router = isApi ? apiRouter : controlRouter;
      const match = router.match(req.method ?? 'GET', path);
      const auth = authenticate(match.definition, req, url.searchParams, keys);
      const body = parseJson(rawBody);
      const now = world.settle();
      // Control writes (clock, account, chain, rates) always persist, whether or not flagged.
      const mutating = match.definition.mutates === true || (isControl && match.definition.method !== 'GET');
      persistAfter = mutating;
      let result = await match.definition.handler({
        method: match.definition.method,
        path,
        params: match.params,
        query: url.searchParams,
        headers: req.headers,
        body,
        now,
        auth,
      });
      persistAfter = false;
      if (mutating) await persist();
      if (fault && fault.phase === 'after' && faultAnswers(fault)) {
        const replaced = faultResult(fault);
        if (replaced === 'drop') {
          status = 0;
          req.socket.destroy();
          return;
        }
        result = replaced;
      }
      status = result.status;
      reply(res, result);
    } catch (error) {
      // A mutating handler that failed half-way may still have changed something.
      if (persistAfter) await persist().catch(() => undefined);
      if (error instanceof ClientGone) {
        status = 0;
        return;
      }
      if (error instanceof SandboxError) {
        status = error.status;
        reply(res, {
          status: error.status,
          body: error.toBody(),
          ...(error.headers ? { headers: error.headers } : {}),
        });
      } else {
        logError(
          `sandbox: unexpected error on ${req.method ?? ''} ${redactKeyParam(pathWithQuery)}: ${String((error as Error)?.stack ?? error)}`,
        );
        status = 500;
        reply(res, {
          status: 500,
          body: { error: { code: 'internal_error', message: 'Unexpected sandbox error' } },
        });
      }
    } finally {
      if (isApi) {
        const idempotencyKey = req.headers['idempotency-key'];
        requestLog.record({
          at: new Date(world.clock.now()).toISOString(),
          method: req.method ?? '',
          path: redactKeyParam(pathWithQuery),
          idempotencyKey: typeof idempotencyKey === 'string' ? idempotencyKey : null,
          status,
        });
      }
    }
  }

  const server: Server = createServer((req, res) => {
    inFlight += 1;
    res.on('close', () => {
      inFlight -= 1;
      if (closing && inFlight === 0) server.closeAllConnections();
    });
    handle(req, res).catch((error: unknown) => {
      logError(`sandbox: failed to answer: ${String(error)}`);
      res.destroy();
    });
  });
  server.keepAliveTimeout = 5_000;

  const host = options.host ?? '127.0.0.1';
  const port = options.port ?? 4010;
  await new Promise<void>((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException) => reject(listenError(error, host, port));
    server.once('error', onError);
    server.listen(port, host, () => {
      server.off('error', onError);
      resolve();
    });
  });
  server.on('error', (error) => logError(`sandbox: server error: ${String(error)}`));
  const address = server.address() as AddressInfo;
  // Listening on every interface: the printed URLs name loopback, which always reaches it.
  const connectable =
    address.address === '0.0.0.0' ? '127.0.0.1' : address.address === '::' ? '::1' : address.address;
  const urlHost = connectable.includes(':') ? `[${connectable}]` : connectable;
  const origin = `http://${urlHost}:${address.port}`;

  let gateway: RunningGateway | null = null;
  /** Gateway traffic changes usage all the time: it is saved at most once a second, not per request. */
  let trafficSave: NodeJS.Timeout | null = null;
  const onTraffic = () => {
    if (!writer || trafficSave) return;
    trafficSave = setTimeout(() => {
      trafficSave = null;
      writer.save().catch((error: unknown) => logError(`sandbox: ${(error as Error).message}`));
    }, 1_000);
    trafficSave.unref();
  };

  let closed: Promise<void> | null = null;
  const close = (): Promise<void> => {
    closed ??= (async () => {
      closing = true;
      if (trafficSave) clearTimeout(trafficSave);
      await gateway?.close();
      const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
      if (inFlight === 0) server.closeAllConnections();
      else server.closeIdleConnections();
      const cut = setTimeout(
        () => server.closeAllConnections(),
        options.closeGraceMs ?? DEFAULT_CLOSE_GRACE_MS,
      );
      await stopped;
      clearTimeout(cut);
      await writer?.close();
    })();
    return closed;
  };

  const defaultGatewayPort = (offset: number) => (port === 0 || port + offset > 65535 ? 0 : port + offset);
  try {
    gateway = await startGateway({
      world,
      host,
      httpPort: options.gatewayHttpPort ?? defaultGatewayPort(1),
      socksPort: options.gatewaySocksPort ?? defaultGatewayPort(2),
      onTraffic,
      logError,
    });
  } catch (error) {
    await close().catch(() => undefined);
    throw error;
  }
  Object.assign(world.gateway, gateway.endpoint);

  if (writer) {
    // A fresh data file exists from the first moment; a path that cannot be written fails the start.
    try {
      await writer.save();
    } catch (error) {
      await close().catch(() => undefined);
      throw error;
    }
  }

  return {
    baseUrl: `${origin}${API_PREFIX}`,
    controlUrl: `${origin}${CONTROL_PREFIX}`,
    world,
    gateway: { ...gateway.endpoint },
    restored,
    close,
  };
}
