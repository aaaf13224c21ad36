import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  ProxyServiceClient,
  type ProxyServiceClientOptions,
} from '../../../src-main/api/proxy-service-client';
import type { ApiLogEntry } from '../../../src-main/api/http-transport';
import { DEMO_KEY, type TestSandbox } from '../../support/sandbox-harness';

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
  close(): Promise<void>;
}

/** A tiny HTTP server for answers the sandbox never gives (extra fields, broken shapes, stalls). */
export async function startLocalServer(
  handler: (req: IncomingMessage, res: ServerResponse, body: string) => void | Promise<void>,
): Promise<LocalServer> {
  const requests: LocalServer['requests'] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      Promise.resolve(handler(req, res, body)).catch(() => res.destroy());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    requests,
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
