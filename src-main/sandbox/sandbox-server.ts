import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { FaultInjector, type FaultSpec } from './control/fault-injector';
import { createControlModule, loopbackOnly } from './control/control-module';
import { RequestLog, redactKeyParam } from './control/request-log';
import { type AuthenticatedKey, type RouteDefinition, type RouteResult, Router } from './http/router';
import { SandboxError } from './http/sandbox-error';
import { SandboxClock } from './sandbox-clock';
import { createDomainModules, seedSandboxState } from './sandbox-modules';
import { loadSandboxState, SandboxStateWriter } from './sandbox-persistence';
import type { SandboxState } from './sandbox-state';
import { createIdFactory, type LatencyProfile, type SandboxModule, type SandboxWorld } from './sandbox-world';
import { SeededRandom } from './seeded-random';

export const API_PREFIX = '/api/v1';
export const CONTROL_PREFIX = '/__sandbox';
const MAX_BODY_BYTES = 1024 * 1024;

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
  keys?: readonly ApiKeySpec[];
  /** Default `realistic` (rotation answers after 5-15 s). */
  latency?: LatencyProfile;
  /** Seed of the demo data and of every random choice. Default: random. */
  seed?: number;
  /** Persist state to this file (atomically) and load it on start. */
  dataFile?: string;
  /** `real` (default): wall clock plus control offsets. `manual`: time moves only through the control API. */
  clock?: 'real' | 'manual';
  /** Start time of a fresh sandbox (ISO string or epoch ms). Default: now. */
  startTime?: string | number;
  /** Injected for tests of realistic latency. */
  sleep?: (ms: number) => Promise<void>;
  /** Where to report unexpected handler errors. Default: stderr. */
  logError?: (message: string) => void;
}

export interface RunningSandbox {
  /** `http://HOST:PORT/api/v1`; the spec's paths are appended literally (`.../api/v1/v1/mobile`). */
  baseUrl: string;
  controlUrl: string;
  world: SandboxWorld;
  close(): Promise<void>;
}

const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function resolveStart(startTime: string | number | undefined): number | undefined {
  if (startTime === undefined) return undefined;
  const ms = typeof startTime === 'number' ? startTime : Date.parse(startTime);
  if (!Number.isFinite(ms)) throw new Error(`invalid start time: ${String(startTime)}`);
  return ms;
}

async function buildWorld(options: SandboxOptions): Promise<{ world: SandboxWorld; state: SandboxState }> {
  const loaded = options.dataFile ? await loadSandboxState(options.dataFile) : null;
  const seed = loaded?.seed ?? options.seed ?? Math.floor(Math.random() * 2 ** 31);
  const clock = loaded
    ? SandboxClock.restore(loaded.clock)
    : new SandboxClock(options.clock ?? 'real', Date.now, resolveStart(options.startTime));
  const random = new SeededRandom(loaded?.randomState ?? seed);
  const state: SandboxState = loaded ?? seedSandboxState({ seed, clock, random });
  const newId = createIdFactory(state.ids, random);
  const sleep = options.sleep ?? realSleep;
  const latency = options.latency ?? 'realistic';
  const modules: SandboxModule[] = [];
  const world: SandboxWorld = {
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
      await sleep(random.int(minMs, maxMs));
    },
    settle: () => {
      const now = clock.now();
      for (const module of modules) module.settle?.(now);
      return now;
    },
  };
  modules.push(...createDomainModules(world));
  worldModules.set(world, modules);
  return { world, state };
}

const worldModules = new WeakMap<SandboxWorld, SandboxModule[]>();

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        reject(new SandboxError(413, 'payload_too_large', 'The body exceeds 1 MiB'));
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
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

function authenticate(
  route: RouteDefinition,
  req: IncomingMessage,
  query: URLSearchParams,
  keys: ReadonlyMap<string, ReadonlySet<string>>,
): AuthenticatedKey | null {
  if (route.auth === 'public') return null;
  let key: string | null;
  if (route.auth === 'bearer') {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '');
    key = match?.[1] ?? null;
    if (key === null) {
      throw new SandboxError(
        401,
        'unauthorized',
        'Missing API key: send Authorization: Bearer <API_KEY>',
        undefined,
        {
          'WWW-Authenticate': 'Bearer',
        },
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
      route.auth === 'bearer' ? { 'WWW-Authenticate': 'Bearer error="invalid_token"' } : undefined,
    );
  }
  if (route.scope && !scopes.has(route.scope)) {
    throw new SandboxError(403, 'insufficient_scope', `The API key lacks the scope ${route.scope}`);
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

/** Starts the sandbox HTTP server (API under `/api/v1`, control under `/__sandbox`). */
export async function startSandbox(options: SandboxOptions = {}): Promise<RunningSandbox> {
  const { world, state } = await buildWorld(options);
  const modules = worldModules.get(world) ?? [];
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

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://sandbox.invalid');
    const isApi = url.pathname === API_PREFIX || url.pathname.startsWith(`${API_PREFIX}/`);
    const isControl = url.pathname === CONTROL_PREFIX || url.pathname.startsWith(`${CONTROL_PREFIX}/`);
    const pathWithQuery = `${url.pathname}${url.search}`;
    let fault: FaultSpec | null = null;
    let status = 500;
    try {
      if (!isApi && !isControl)
        throw new SandboxError(
          404,
          'not_found',
          `No endpoint at ${url.pathname}; the API is under ${API_PREFIX}`,
        );
      if (isControl) loopbackOnly(req.socket.remoteAddress);
      const rawBody = await readBody(req);
      if (isApi) {
        fault = faults.take(pathWithQuery);
        if (fault?.delayMs) await sleep(fault.delayMs);
        if (
          fault &&
          fault.phase === 'before' &&
          (fault.status !== undefined || fault.dropConnection || fault.malformedBody)
        ) {
          const result = faultResult(fault);
          if (result === 'drop') {
            req.socket.destroy();
            return;
          }
          status = result.status;
          send(res, result);
          return;
        }
      }
      const path = url.pathname.slice(isApi ? API_PREFIX.length : CONTROL_PREFIX.length) || '/';
      const router = isApi ? apiRouter : controlRouter;
      const match = router.match(req.method ?? 'GET', path);
      const auth = authenticate(match.definition, req, url.searchParams, keys);
      const body = parseJson(rawBody);
      const now = world.settle();
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
      if (match.definition.mutates || isControl) writer?.schedule();
      if (fault && fault.phase === 'after') {
        const replaced = faultResult(fault);
        if (replaced === 'drop') {
          req.socket.destroy();
          return;
        }
        result = replaced;
      }
      status = result.status;
      send(res, result);
    } catch (error) {
      if (error instanceof SandboxError) {
        status = error.status;
        send(res, {
          status: error.status,
          body: error.toBody(),
          ...(error.headers ? { headers: error.headers } : {}),
        });
      } else {
        logError(
          `sandbox: unexpected error on ${req.method ?? ''} ${redactKeyParam(pathWithQuery)}: ${String((error as Error)?.stack ?? error)}`,
        );
        status = 500;
        send(res, {
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
    handle(req, res).catch((error: unknown) => {
      logError(`sandbox: failed to answer: ${String(error)}`);
      res.destroy();
    });
  });
  server.keepAliveTimeout = 5_000;

  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 4010, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const urlHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const origin = `http://${urlHost}:${address.port}`;
  writer?.schedule();

  return {
    baseUrl: `${origin}${API_PREFIX}`,
    controlUrl: `${origin}${CONTROL_PREFIX}`,
    world,
    close: async () => {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await writer?.flush();
    },
  };
}
