import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, Server, ServerOptions, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * The defences every local HTTP listener of the app shares (web mode, the local REST API): the
 * loopback address only, `Host` and `Origin` checked against it, bounded bodies, connections and
 * times, constant-time token comparison. One copy, so the listeners cannot drift apart.
 */

const LOOPBACK_HOST = '127.0.0.1';

/** What one client may cost a server. A client over a limit is answered or dropped; the server stays up. */
export interface HttpServerLimits {
  /** Largest request body; a larger one is 413 as soon as it is announced or read past the limit. */
  maxBodyBytes: number;
  /** Open TCP connections at once; Node drops any connection over the cap. */
  maxConnections: number;
  /** Time to receive a request's headers, from the connection's start (Node `headersTimeout`). */
  headersTimeoutMs: number;
  /** Time to receive a whole request, body included (Node `requestTimeout`). */
  requestTimeoutMs: number;
  /** How long an idle keep-alive connection is kept between requests (Node `keepAliveTimeout`). */
  keepAliveTimeoutMs: number;
  /** A connection with no traffic for this long is closed (Node `server.timeout`). */
  idleTimeoutMs: number;
  /** How often Node checks the header and request timeouts (`connectionsCheckingInterval`). */
  timeoutCheckIntervalMs: number;
}

export const HTTP_LIMITS: Readonly<HttpServerLimits> = {
  maxBodyBytes: 1024 * 1024,
  maxConnections: 64,
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  keepAliveTimeoutMs: 5_000,
  idleTimeoutMs: 60_000,
  timeoutCheckIntervalMs: 1_000,
};

/** `createServer` options that bound a request's time. */
export function httpServerOptions(limits: HttpServerLimits): ServerOptions {
  return {
    headersTimeout: limits.headersTimeoutMs,
    requestTimeout: limits.requestTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    connectionsCheckingInterval: limits.timeoutCheckIntervalMs,
  };
}

/** The idle timeout and the connection cap, with one log line when a flood starts and one when it ends. */
export function applyConnectionLimits(
  server: Server,
  limits: HttpServerLimits,
  log: (line: string) => void,
  name: string,
): void {
  server.timeout = limits.idleTimeoutMs;
  server.maxConnections = limits.maxConnections;
  let droppedInBurst = 0;
  server.on('drop', () => {
    if (droppedInBurst === 0)
      log(`${name}: connection cap (${limits.maxConnections}) reached; dropping new connections`);
    droppedInBurst += 1;
  });
  server.on('connection', () => {
    if (droppedInBurst === 0) return;
    log(`${name}: ${droppedInBurst} connection(s) dropped at the cap`);
    droppedInBurst = 0;
  });
}

/** Listens on 127.0.0.1 (port 0: a free one) and answers the `Host` value clients must send. */
export async function listenOnLoopback(
  server: Server,
  port: number,
  log: (line: string) => void,
  name: string,
): Promise<{ port: number; host: string; origin: string }> {
  await new Promise<void>((resolveListen, reject) => {
    server.once('error', reject);
    server.listen(port, LOOPBACK_HOST, () => {
      server.off('error', reject);
      resolveListen();
    });
  });
  // After listening, a server error (e.g. EMFILE on accept) is logged; it must not end the process.
  server.on('error', (error) => log(`${name}: server error: ${error.message}`));
  const bound = (server.address() as AddressInfo).port;
  const host = `${LOOPBACK_HOST}:${bound}`;
  return { port: bound, host, origin: `http://${host}` };
}

/**
 * Whether a request names this exact loopback address in `Host`, and this origin in `Origin` when
 * it sends one: a page on another site, or a DNS name rebound to 127.0.0.1, is refused.
 */
export function isOwnOrigin(req: IncomingMessage, host: string, origin: string): boolean {
  if (req.headers.host !== host) return false;
  const requestOrigin = req.headers.origin;
  return requestOrigin === undefined || requestOrigin === origin;
}

export function tokensMatch(expected: string, given: string | null | undefined): boolean {
  if (typeof given !== 'string') return false;
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The token of `Authorization: Bearer <token>`, or null. */
export function bearerToken(req: IncomingMessage): string | null {
  const match = /^Bearer\s+(\S+)$/.exec(req.headers.authorization ?? '');
  return match?.[1] ?? null;
}

export function plain(
  res: ServerResponse,
  status: number,
  text: string,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, {
    'Content-Type': 'text/plain; charset=utf-8',
    'Cache-Control': 'no-store',
    ...headers,
  });
  res.end(text);
}

export class BodyTooLarge extends Error {}

/**
 * Reads a request's body, refusing more than `limit` bytes as soon as that is known: from the
 * announced `Content-Length`, or while reading. The rest is never buffered.
 */
export function readBody(req: IncomingMessage, limit: number): Promise<string> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) return Promise.reject(new BodyTooLarge());
  return new Promise((resolveBody, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) {
        chunks.push(chunk);
        return;
      }
      req.off('data', onData);
      // Discard what is still in flight; the answer closes the connection, and requestTimeout bounds it.
      req.resume();
      reject(new BodyTooLarge());
    };
    req.on('data', onData);
    req.on('end', () => resolveBody(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/** A request target as a URL path and query: `//x` and absolute forms are not taken for a host, garbage is null. */
export function parseTarget(raw: string | undefined): URL | null {
  if (raw === undefined || !raw.startsWith('/')) return null;
  try {
    return new URL(`http://target.invalid${raw}`);
  } catch {
    return null;
  }
}

export function decodeSegment(text: string): string | null {
  try {
    return decodeURIComponent(text);
  } catch {
    return null;
  }
}
