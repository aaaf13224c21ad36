import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { WebSocketServer, type WebSocket } from 'ws';
import type { IpcResult } from '../../src-shared/contract';
import {
  applyConnectionLimits,
  bearerToken,
  BodyTooLarge,
  decodeSegment,
  HTTP_LIMITS,
  type HttpServerLimits,
  httpServerOptions,
  isOwnOrigin,
  listenOnLoopback,
  parseTarget,
  plain,
  readBody,
  tokensMatch,
} from '../lib/http-guards';
import { isJsonMediaType } from '../lib/json-media-type';

/** The token holder's identity as the guarded dispatcher sees it. */
export interface WebSender {
  kind: 'web';
  tokenValid: boolean;
}

export interface WebServerOptions {
  /** Built renderer (`out/renderer`). */
  staticDir: string;
  /** 0 takes a free port. */
  port: number;
  dispatch: (
    sender: WebSender,
    channel: string,
    input: unknown,
    meta?: { callId?: unknown },
  ) => Promise<IpcResult<unknown>>;
  /** Events from the core; each is forwarded to every authenticated socket. */
  subscribe: (listener: (channel: string, payload: unknown) => void) => () => void;
  /**
   * The number of open event sockets, told on each change: a connected page is the web mode's
   * "window visible" (`core.windowVisibility`).
   */
  onEventClients?: (count: number) => void;
  /** Injected for tests; default 32 random bytes, hex. */
  token?: string;
  log?: (line: string) => void;
  /** Overrides of the defences' limits (tests shorten the timeouts); see WEB_LIMITS for the defaults. */
  limits?: Partial<WebServerLimits>;
}

/** What one client may cost the server. A client over a limit is answered or dropped; the server stays up. */
export interface WebServerLimits extends HttpServerLimits {
  /** Largest WebSocket message; the page never sends any, so a larger one closes the socket (1009). */
  maxMessageBytes: number;
  /** Open event sockets at once; more is 503 at the upgrade, so that HTTP calls keep room. */
  maxEventSockets: number;
}

/** The shared HTTP limits (`lib/http-guards.ts`: the `/rpc` body, connections, times), and the socket's. */
const WEB_LIMITS: Readonly<WebServerLimits> = {
  ...HTTP_LIMITS,
  maxMessageBytes: 4 * 1024,
  maxEventSockets: 16,
};

export interface RunningWebServer {
  /** `http://127.0.0.1:PORT/#token=…`: the only way in. */
  url: string;
  origin: string;
  token: string;
  close(): Promise<void>;
}

const WS_PROTOCOL = 'proxy-manager.v1';
const TOKEN_PROTOCOL_PREFIX = 'token.';

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json; charset=utf-8',
  '.woff2': 'font/woff2',
};

function securityHeaders(origin: string): Record<string, string> {
  const wsOrigin = origin.replace(/^http/, 'ws');
  return {
    'Content-Security-Policy': [
      "default-src 'self'",
      "script-src 'self'",
      "style-src 'self'",
      "img-src 'self' data:",
      `connect-src 'self' ${wsOrigin}`,
      "object-src 'none'",
      "base-uri 'none'",
      "form-action 'none'",
      "frame-ancestors 'none'",
    ].join('; '),
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
    'X-Frame-Options': 'DENY',
    'Cross-Origin-Opener-Policy': 'same-origin',
    'Cross-Origin-Resource-Policy': 'same-origin',
  };
}

/** A request target's path, or null. */
const parsePath = (raw: string | undefined): string | null => parseTarget(raw)?.pathname ?? null;

/**
 * Web mode's server: the built renderer as static files, the contract over `POST /rpc/<channel>`
 * and events over a WebSocket at `/events`, on 127.0.0.1 only.
 *
 * Every request, static files included, must name this exact loopback origin in `Host` (and in
 * `Origin` when the browser sends one): a page on another site, or a DNS name rebound to 127.0.0.1,
 * is refused. Calls and the socket also need the random token that only the printed URL carries;
 * static files hold no data and load without it.
 */
export async function startWebServer(options: WebServerOptions): Promise<RunningWebServer> {
  const token = options.token ?? randomBytes(32).toString('hex');
  const limits: WebServerLimits = { ...WEB_LIMITS, ...options.limits };
  const log = options.log ?? (() => undefined);
  const staticRoot = resolve(options.staticDir);
  let origin = '';
  let hostHeader = '';

  const originAllowed = (req: IncomingMessage): boolean => isOwnOrigin(req, hostHeader, origin);

  async function serveStatic(req: IncomingMessage, res: ServerResponse, pathname: string): Promise<void> {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      plain(res, 405, 'Method not allowed', { Allow: 'GET, HEAD' });
      return;
    }
    const relative = decodeSegment(pathname === '/' ? '/index.html' : pathname);
    if (relative === null) {
      plain(res, 400, 'Bad path');
      return;
    }
    const file = normalize(join(staticRoot, relative));
    if (file !== staticRoot && !file.startsWith(`${staticRoot}${sep}`)) {
      plain(res, 404, 'Not found');
      return;
    }
    let body: Buffer;
    try {
      body = await fs.readFile(file);
    } catch {
      plain(res, 404, 'Not found');
      return;
    }
    const isHtml = extname(file) === '.html';
    res.writeHead(200, {
      'Content-Type': CONTENT_TYPES[extname(file)] ?? 'application/octet-stream',
      'Cache-Control': isHtml ? 'no-store' : 'no-cache',
      ...securityHeaders(origin),
    });
    res.end(req.method === 'HEAD' ? undefined : body);
  }

  async function serveRpc(req: IncomingMessage, res: ServerResponse, channel: string): Promise<void> {
    if (req.method !== 'POST') {
      plain(res, 405, 'Method not allowed', { Allow: 'POST' });
      return;
    }
    if (!tokensMatch(token, bearerToken(req))) {
      plain(res, 401, 'Missing or wrong token: open the URL that `npm run web` printed', {
        'WWW-Authenticate': 'Bearer',
      });
      return;
    }
    // A JSON content type cannot be sent cross-site without a CORS preflight, which this server never grants.
    if (!isJsonMediaType(req.headers['content-type'])) {
      plain(res, 415, 'Calls are JSON (Content-Type: application/json)');
      return;
    }
    let text: string;
    try {
      text = await readBody(req, limits.maxBodyBytes);
    } catch (error) {
      if (!(error instanceof BodyTooLarge)) throw error;
      plain(res, 413, `Body too large (over ${limits.maxBodyBytes} bytes)`, { Connection: 'close' });
      return;
    }
    let input: unknown;
    let callId: unknown;
    try {
      // `{ input, callId? }`: the call id lets the page cancel this call (`app:cancelCall`).
      const envelope = (text.length > 0 ? JSON.parse(text) : {}) as { input?: unknown; callId?: unknown };
      input = envelope?.input;
      callId = envelope?.callId;
    } catch {
      const result: IpcResult<never> = {
        ok: false,
        error: { code: 'invalid_json', message: 'The call body is not JSON.' },
      };
      res.writeHead(400, { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store' });
      res.end(JSON.stringify(result));
      return;
    }
    const result = await options.dispatch({ kind: 'web', tokenValid: true }, channel, input, { callId });
    res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store' });
    res.end(JSON.stringify(result));
  }

  const server: Server = createServer(httpServerOptions(limits), (req, res) => {
    const handle = async () => {
      if (!originAllowed(req)) {
        plain(res, 403, 'Forbidden: this server answers only on its own loopback address');
        return;
      }
      const pathname = parsePath(req.url);
      if (pathname === null) {
        plain(res, 400, 'Bad request target');
        return;
      }
      if (pathname.startsWith('/rpc/')) {
        const channel = decodeSegment(pathname.slice('/rpc/'.length));
        if (channel === null) {
          plain(res, 400, 'Bad channel name (malformed percent-encoding)');
          return;
        }
        await serveRpc(req, res, channel);
      } else await serveStatic(req, res, pathname);
    };
    handle().catch((error: unknown) => {
      log(`web: request failed: ${error instanceof Error ? error.message : String(error)}`);
      if (!res.headersSent) plain(res, 500, 'Internal error');
      else res.destroy();
    });
  });
  applyConnectionLimits(server, limits, log, 'web');

  const sockets = new Set<WebSocket>();
  const wss = new WebSocketServer({
    noServer: true,
    maxPayload: limits.maxMessageBytes,
    // The upgrade below refuses a handshake without the app's subprotocol, so it is always offered here.
    handleProtocols: (protocols) => (protocols.has(WS_PROTOCOL) ? WS_PROTOCOL : false),
  });
  wss.on('error', (error) => log(`web: event socket server error: ${error.message}`));

  const refuseUpgrade = (socket: Duplex, status: number, reason: string) => {
    socket.end(`HTTP/1.1 ${status} ${reason}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`, () =>
      socket.destroy(),
    );
  };

  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    // Node removes its own error handler from an upgraded socket: without this one a reset crashes the process.
    socket.on('error', () => socket.destroy());
    const pathname = parsePath(req.url);
    const offered = (req.headers['sec-websocket-protocol'] ?? '').split(',').map((p) => p.trim());
    const offeredToken = offered
      .find((p) => p.startsWith(TOKEN_PROTOCOL_PREFIX))
      ?.slice(TOKEN_PROTOCOL_PREFIX.length);
    if (pathname !== '/events' || !originAllowed(req) || !tokensMatch(token, offeredToken)) {
      refuseUpgrade(socket, 403, 'Forbidden');
      return;
    }
    if (!offered.includes(WS_PROTOCOL)) {
      refuseUpgrade(socket, 400, 'Bad Request');
      return;
    }
    if (sockets.size >= limits.maxEventSockets) {
      refuseUpgrade(socket, 503, 'Service Unavailable');
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => {
      sockets.add(ws);
      options.onEventClients?.(sockets.size);
      ws.on('close', () => {
        if (sockets.delete(ws)) options.onEventClients?.(sockets.size);
      });
      // A frame over maxPayload or a broken frame: ws closes the socket (1009/1002) and reports it here.
      ws.on('error', (error) => {
        log(`web: event socket dropped: ${error.message}`);
        ws.terminate();
      });
      // The socket only carries events to the page; anything the page sends is ignored.
      ws.on('message', () => undefined);
    });
  });

  const unsubscribe = options.subscribe((channel, payload) => {
    const message = JSON.stringify({ channel, payload });
    for (const ws of sockets) if (ws.readyState === ws.OPEN) ws.send(message);
  });

  ({ host: hostHeader, origin } = await listenOnLoopback(server, options.port, log, 'web'));

  return {
    url: `${origin}/#token=${token}`,
    origin,
    token,
    close: async () => {
      unsubscribe();
      for (const ws of sockets) ws.terminate();
      wss.close();
      await new Promise<void>((resolveClose) => {
        server.close(() => resolveClose());
        server.closeAllConnections();
      });
    },
  };
}
