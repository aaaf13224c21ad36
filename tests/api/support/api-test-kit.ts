import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  ProxyServiceClient,
  type ProxyServiceClientOptions,
} from '../../../src-main/api/proxy-service-client';
import type { TransportClock } from '../../../src-main/api/call-budget';
import type { ApiLogEntry } from '../../../src-main/api/http-transport';
import { DEMO_KEY, type TestSandbox } from '@proxy-manager/sandbox/testing';

/**
 * A sleep that never waits by itself: every call is recorded and stays pending until released. Given
 * to the sandbox, it holds `delayMs` faults (and nothing else in fast latency) under the test's control.
 */
export class HeldSleep {
  private readonly pending: Array<{ ms: number; resolve: () => void }> = [];

  readonly sleep = (ms: number): Promise<void> =>
    new Promise<void>((resolve) => {
      this.pending.push({ ms, resolve });
    });

  get count(): number {
    return this.pending.length;
  }

  releaseAll(): void {
    for (const entry of this.pending.splice(0)) entry.resolve();
  }
}

/**
 * The client's clock in tests: time moves only through `advance`, which fires due timers in order at
 * their exact time. Sockets stay real; only budgets, deadlines and backoff pauses run on this clock.
 */
export class FakeClock implements TransportClock {
  private time = 0;
  private sequence = 0;
  private readonly timers: Array<{ at: number; seq: number; fn: () => void }> = [];

  readonly now = (): number => this.time;

  readonly after = (ms: number, fn: () => void): (() => void) => {
    const timer = { at: this.time + Math.max(0, ms), seq: (this.sequence += 1), fn };
    this.timers.push(timer);
    return () => {
      const index = this.timers.indexOf(timer);
      if (index >= 0) this.timers.splice(index, 1);
    };
  };

  /** Backoff pauses in progress (the client's `sleep` when given `clock.sleep`). */
  sleeping = 0;
  /** Every pause asked for, in ms. */
  readonly waits: number[] = [];

  /** A sleep on this clock: it ends when `advance` reaches it, or rejects when `signal` aborts. */
  readonly sleep = (ms: number, signal?: AbortSignal): Promise<void> =>
    new Promise<void>((resolve, reject) => {
      this.waits.push(ms);
      this.sleeping += 1;
      const onAbort = () => {
        cancel();
        this.sleeping -= 1;
        reject(signal?.reason as Error);
      };
      const cancel = this.after(ms, () => {
        signal?.removeEventListener('abort', onAbort);
        this.sleeping -= 1;
        resolve();
      });
      signal?.addEventListener('abort', onAbort, { once: true });
    });

  get pending(): number {
    return this.timers.length;
  }

  /** When the next timer is due, or null when none is set. */
  nextAt(): number | null {
    return this.timers.reduce<number | null>((min, t) => (min === null || t.at < min ? t.at : min), null);
  }

  advance(ms: number): void {
    const end = this.time + ms;
    for (;;) {
      const due = this.timers.filter((t) => t.at <= end).sort((a, b) => a.at - b.at || a.seq - b.seq)[0];
      if (!due) break;
      this.timers.splice(this.timers.indexOf(due), 1);
      this.time = due.at;
      due.fn();
    }
    this.time = end;
  }
}

/** The client's sleep in tests: records each wait and returns at once. */
export function recordingSleep(): { sleep: (ms: number) => Promise<void>; waits: number[] } {
  const waits: number[] = [];
  return {
    waits,
    sleep: (ms: number) => {
      waits.push(ms);
      return Promise.resolve();
    },
  };
}

export function captureLog(): {
  logger: (line: string, entry: ApiLogEntry) => void;
  lines: string[];
  entries: ApiLogEntry[];
} {
  const lines: string[] = [];
  const entries: ApiLogEntry[] = [];
  return {
    lines,
    entries,
    logger: (line, entry) => {
      lines.push(line);
      entries.push(entry);
    },
  };
}

/** A client on the sandbox (or any `{ baseUrl }`) with the demo key, instant retries and a fixed jitter. */
export function sandboxClient(
  target: { baseUrl: string },
  options: Partial<ProxyServiceClientOptions> = {},
): ProxyServiceClient {
  return new ProxyServiceClient({
    baseUrl: target.baseUrl,
    apiKey: DEMO_KEY,
    sleep: () => Promise.resolve(),
    random: () => 0.5,
    ...options,
  });
}

export interface LoggedRequest {
  method: string;
  path: string;
  idempotencyKey: string | null;
  status: number;
}

/** The sandbox's request log (paths with the key redacted by the sandbox). */
export async function requestLog(sandbox: TestSandbox): Promise<LoggedRequest[]> {
  const answer = await sandbox.control<{ data: LoggedRequest[] }>('GET', '/requests');
  return answer.json.data;
}

export async function clearRequestLog(sandbox: TestSandbox): Promise<void> {
  await sandbox.control('DELETE', '/requests');
}

export async function addFault(
  sandbox: TestSandbox,
  fault: {
    match: string;
    status?: number;
    headers?: Record<string, string>;
    delayMs?: number;
    dropConnection?: boolean;
    malformedBody?: boolean;
    phase?: 'before' | 'after';
    times?: number;
  },
): Promise<void> {
  const answer = await sandbox.control('POST', '/faults', fault);
  if (answer.status !== 201) throw new Error(`fault refused: ${answer.text}`);
}

export interface LocalServer {
  origin: string;
  /** Requests seen, in order. */
  requests: Array<{ method: string; url: string; headers: IncomingMessage['headers']; body: string }>;
  /** Requests received whose response is neither finished nor cut off by a closed connection. */
  readonly open: number;
  /** Connections that carried a request and have closed (the client aborting closes its socket). */
  readonly closedConnections: number;
  close(): Promise<void>;
}

/** A tiny HTTP server for answers the sandbox never gives (extra fields, broken shapes, stalls). */
export async function startLocalServer(
  handler: (req: IncomingMessage, res: ServerResponse, body: string) => void | Promise<void>,
): Promise<LocalServer> {
  const requests: LocalServer['requests'] = [];
  let open = 0;
  let closedConnections = 0;
  const seen = new WeakSet<object>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      open += 1;
      res.once('close', () => (open -= 1));
      // Only connections that carried a request: undici may open a spare one after an abort.
      if (!seen.has(req.socket)) {
        seen.add(req.socket);
        req.socket.once('close', () => (closedConnections += 1));
      }
      Promise.resolve(handler(req, res, body)).catch(() => res.destroy());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    requests,
    get open() {
      return open;
    },
    get closedConnections() {
      return closedConnections;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
) {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

/**
 * A reverse proxy in front of the sandbox that serves its API under another layout: `rewrite` maps the
 * incoming path to the sandbox path, or returns null for a 404 page (HTML, as a web server would).
 */
export async function startRewritingProxy(
  sandbox: TestSandbox,
  rewrite: (path: string) => string | null,
): Promise<LocalServer> {
  const target = new URL(sandbox.baseUrl).origin;
  return startLocalServer(async (req, res, body) => {
    const path = rewrite(req.url ?? '/');
    if (path === null) {
      res.writeHead(404, { 'content-type': 'text/html' });
      res.end('<html><body>Not Found</body></html>');
      return;
    }
    const headers: Record<string, string> = {};
    if (req.headers.authorization) headers.authorization = req.headers.authorization;
    if (req.headers['content-type']) headers['content-type'] = req.headers['content-type'];
    const answer = await fetch(`${target}${path}`, {
      method: req.method ?? 'GET',
      headers,
      body: body.length > 0 ? body : undefined,
    });
    const text = await answer.text();
    res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'text/plain' });
    res.end(text);
  });
}
