import { randomBytes, timingSafeEqual } from 'node:crypto';
import { promises as fs } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { WebSocketServer, type WebSocket } from 'ws';
import type { IpcResult } from '../ipc/contract';

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
  dispatch: (sender: WebSender, channel: string, input: unknown) => Promise<IpcResult<unknown>>;
  /** Events from the core; each is forwarded to every authenticated socket. */
  subscribe: (listener: (channel: string, payload: unknown) => void) => () => void;
  /** Injected for tests; default 32 random bytes, hex. */
  token?: string;
  log?: (line: string) => void;
}

export interface RunningWebServer {
  /** `http://127.0.0.1:PORT/#token=…`: the only way in. */
  url: string;
  origin: string;
  token: string;
  close(): Promise<void>;
}

export const WEB_HOST = '127.0.0.1';
const MAX_RPC_BODY = 1024 * 1024;
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

function tokensMatch(expected: string, given: string | null | undefined): boolean {
  if (typeof given !== 'string') return false;
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}

function plain(
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

function readBody(req: IncomingMessage): Promise<string | null> {
  return new Promise((resolveBody, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_RPC_BODY) tooLarge = true;
      else chunks.push(chunk);
    });
    req.on('end', () => resolveBody(tooLarge ? null : Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

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
  const log = options.log ?? (() => undefined);
  const staticRoot = resolve(options.staticDir);
  let origin = '';
  let hostHeader = '';

  const originAllowed = (req: IncomingMessage): boolean => {
    if (req.headers.host !== hostHeader) return false;
    const requestOrigin = req.headers.origin;
    return requestOrigin === undefined || requestOrigin === origin;
  };

  const bearer = (req: IncomingMessage): string | null => {
    const match = /^Bearer\s+(\S+)$/.exec(req.headers.authorization ?? '');
    return match?.[1] ?? null;
  };

  async function serveStatic(req: IncomingMessage, res: ServerResponse, pathname: string): Promise<void> {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      plain(res, 405, 'Method not allowed', { Allow: 'GET, HEAD' });
      return;
    }
    let relative: string;
    try {
      relative = decodeURIComponent(pathname === '/' ? '/index.html' : pathname);
    } catch {
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
    if (!tokensMatch(token, bearer(req))) {
      plain(res, 401, 'Missing or wrong token: open the URL that `npm run web` printed', {
        'WWW-Authenticate': 'Bearer',
      });
      return;
    }
    // A JSON content type cannot be sent cross-site without a CORS preflight, which this server never grants.
    if (!(req.headers['content-type'] ?? '').startsWith('application/json')) {
      plain(res, 415, 'Calls are JSON');
      return;
    }
    const text = await readBody(req);
    if (text === null) {
      plain(res, 413, 'Body too large');
      return;
    }
    let input: unknown;
    try {
      const envelope = (text.length > 0 ? JSON.parse(text) : {}) as { input?: unknown };
      input = envelope?.input;
    } catch {
      const result: IpcResult<never> = {
        ok: false,
        error: { code: 'invalid_json', message: 'The call body is not JSON.' },
      };
      res.writeHead(400, { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store' });
      res.end(JSON.stringify(result));
      return;
    }
    const result = await options.dispatch({ kind: 'web', tokenValid: true }, channel, input);
    res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store' });
    res.end(JSON.stringify(result));
  }

  const server: Server = createServer((req, res) => {
    const handle = async () => {
      if (!originAllowed(req)) {
        plain(res, 403, 'Forbidden: this server answers only on its own loopback address');
        return;
      }
      const { pathname } = new URL(req.url ?? '/', origin);
      if (pathname.startsWith('/rpc/'))
        await serveRpc(req, res, decodeURIComponent(pathname.slice('/rpc/'.length)));
      else await serveStatic(req, res, pathname);
    };
    handle().catch((error: unknown) => {
      log(`web: request failed: ${error instanceof Error ? error.message : String(error)}`);
      if (!res.headersSent) plain(res, 500, 'Internal error');
      else res.destroy();
    });
  });

  const sockets = new Set<WebSocket>();
  const wss = new WebSocketServer({
    noServer: true,
    maxPayload: 64 * 1024,
    handleProtocols: (protocols) => (protocols.has(WS_PROTOCOL) ? WS_PROTOCOL : false),
  });
  server.on('upgrade', (req, socket, head) => {
    const { pathname } = new URL(req.url ?? '/', origin);
    const offered = (req.headers['sec-websocket-protocol'] ?? '').split(',').map((p) => p.trim());
    const offeredToken = offered
      .find((p) => p.startsWith(TOKEN_PROTOCOL_PREFIX))
      ?.slice(TOKEN_PROTOCOL_PREFIX.length);
    if (pathname !== '/events' || !originAllowed(req) || !tokensMatch(token, offeredToken)) {
      socket.write('HTTP/1.1 403 Forbidden\r\nConnection: close\r\n\r\n');
      socket.destroy();
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => {
      sockets.add(ws);
      ws.on('close', () => sockets.delete(ws));
      // The socket only carries events to the page; anything the page sends is ignored.
      ws.on('message', () => undefined);
    });
  });

  const unsubscribe = options.subscribe((channel, payload) => {
    const message = JSON.stringify({ channel, payload });
    for (const ws of sockets) ws.send(message);
  });

  await new Promise<void>((resolveListen, reject) => {
    server.once('error', reject);
    server.listen(options.port, WEB_HOST, () => {
      server.off('error', reject);
      resolveListen();
    });
  });
  const { port } = server.address() as AddressInfo;
  hostHeader = `${WEB_HOST}:${port}`;
  origin = `http://${hostHeader}`;

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
