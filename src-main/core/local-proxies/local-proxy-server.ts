import { createHash, timingSafeEqual } from 'node:crypto';
import {
  Agent,
  type IncomingMessage,
  request as httpRequest,
  type Server as HttpServer,
  type ServerResponse,
  createServer as createHttpServer,
} from 'node:http';
import { createServer as createNetServer, type Server as NetServer, type Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { LocalProxyErrorKind, LocalProxyStats } from '../../../src-shared/contract';
import { isLoopbackAddress } from '../../../src-shared/contract/local-proxies';
import { replyBytes, SOCKS_REPLY, socks5Handshake, socksReplyFor } from './socks5-handshake';
import {
  basicAuthorization,
  GATEWAY_ERROR_HEADER,
  hostPort,
  networkFailure,
  openTunnel,
  refusalFailure,
  type Upstream,
  type UpstreamFailure,
  type UpstreamSource,
} from './upstream';

/**
 * Limits of one local proxy, like web mode's (docs/security.md): a bounded number of connections,
 * a first byte and a SOCKS5 handshake within seconds, idle connections closed.
 */
export interface LocalProxyLimits {
  /** Open connections at once; more are dropped on accept (and counted). */
  maxConnections: number;
  /** A connection idle this long in both directions is closed (tunnels included). */
  idleMs: number;
  /** The first byte and a SOCKS5 handshake must arrive within this. */
  handshakeMs: number;
  /** Connecting to the upstream and its answer's head. */
  upstreamTimeoutMs: number;
  /** A plain-http request body up to this size is kept, so the request can be retried after a 407. */
  retryBodyBytes: number;
  /** Idle plain-http keep-alive connections from a tool. */
  keepAliveMs: number;
}

const LOCAL_PROXY_LIMITS: LocalProxyLimits = {
  maxConnections: 1024,
  idleMs: 120_000,
  handshakeMs: 10_000,
  upstreamTimeoutMs: 30_000,
  retryBodyBytes: 64 * 1024,
  keepAliveMs: 5_000,
};

export type ListenErrorCode = 'port_in_use' | 'address_unavailable' | 'permission_denied' | 'auth_required';

/** Why a local proxy could not listen, in a sentence that names the address. */
export class ListenError extends Error {
  constructor(
    readonly code: ListenErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'ListenError';
  }
}

/** A request that did not get through, as the service records it (`lastError`). */
export interface FailureReport extends UpstreamFailure {
  /** What the tool asked for: `http://host/…` (without the query) or `host:port`. */
  target: string;
}

export interface LocalProxyServerOptions {
  host: string;
  port: number;
  /** What tools must log in with; required on any address that is not loopback. */
  auth: { username: string; password: string } | null;
  upstream: UpstreamSource;
  /** Names the local proxy in the answers it writes to tools. */
  label: string;
  limits?: Partial<LocalProxyLimits>;
  /** Told of every request that did not get through (after its one retry). */
  onFailure?: (failure: FailureReport) => void;
  /** Told when connections open or close and requests start, for the stats the screen shows. */
  onActivity?: () => void;
  log?: (line: string) => void;
}

type Outcome<T> = { ok: true; value: T } | { ok: false; failure: UpstreamFailure };

/** Hop-by-hop headers (RFC 9110 7.6.1) and the proxy's own: never forwarded either way. */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

const REALM = 'Basic realm="Proxy Manager local proxy"';

function digest(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest();
}

/** The header names a `Connection` header lists: hop-by-hop for this message only. */
function connectionTokens(raw: readonly string[]): Set<string> {
  const tokens = new Set<string>();
  for (let index = 0; index + 1 < raw.length; index += 2) {
    if ((raw[index] ?? '').toLowerCase() !== 'connection') continue;
    for (const token of (raw[index + 1] ?? '').split(',')) {
      if (token.trim() !== '') tokens.add(token.trim().toLowerCase());
    }
  }
  return tokens;
}

/** Raw headers (`[name, value, …]`) without the hop-by-hop ones, plus `extra`. */
function filterRawHeaders(raw: readonly string[], extra: readonly string[] = []): string[] {
  const named = connectionTokens(raw);
  const kept: string[] = [];
  for (let index = 0; index + 1 < raw.length; index += 2) {
    const name = raw[index] ?? '';
    const lower = name.toLowerCase();
    if (HOP_BY_HOP.has(lower) || named.has(lower)) continue;
    kept.push(name, raw[index + 1] ?? '');
  }
  return [...kept, ...extra];
}

function flatHeaders(headers: IncomingMessage['headers']): Record<string, string | undefined> {
  const flat: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(headers))
    flat[name] = Array.isArray(value) ? value.join(', ') : value;
  return flat;
}

function readUpTo(stream: IncomingMessage, limit: number): Promise<{ chunks: Buffer[]; complete: boolean }> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const cleanup = () => {
      stream.removeListener('data', onData);
      stream.removeListener('end', onEnd);
      stream.removeListener('error', onError);
    };
    const onData = (chunk: Buffer) => {
      chunks.push(chunk);
      size += chunk.length;
      if (size > limit) {
        stream.pause();
        cleanup();
        resolve({ chunks, complete: false });
      }
    };
    const onEnd = () => {
      cleanup();
      resolve({ chunks, complete: true });
    };
    const onError = (error: Error) => {
      cleanup();
      reject(error);
    };
    stream.on('data', onData);
    stream.once('end', onEnd);
    stream.once('error', onError);
  });
}

/** The status a tool gets when its request did not get through. */
function statusFor(failure: UpstreamFailure): number {
  if (failure.kind === 'timeout') return 504;
  if (failure.kind === 'credentials' || failure.kind === 'lookup' || failure.kind === 'unreachable')
    return 502;
  return failure.status !== null && failure.status >= 400 && failure.status !== 407 ? failure.status : 502;
}

/** One sentence per kind for the tool's answer (the screen's `lastError` says more). */
export function describeFailure(kind: LocalProxyErrorKind): string {
  switch (kind) {
    case 'credentials':
      return 'The upstream refused the credentials (407), also after they were read again from the service.';
    case 'no_exit':
      return 'No exit IP matches the targeting of this local proxy right now.';
    case 'targeting':
      return 'The upstream did not accept the targeting of this local proxy.';
    case 'forbidden':
      return 'The upstream refused this account (disabled, over its cap, expired or out of traffic).';
    case 'unavailable':
      return 'The upstream cannot serve this account right now (a port being moved): try again in a minute.';
    case 'refused':
      return 'The upstream refused the request.';
    case 'unreachable':
      return 'The upstream proxy could not be reached.';
    case 'timeout':
      return 'The upstream did not answer in time.';
    case 'lookup':
      return 'The upstream could not be looked up from the service.';
  }
}

interface ConnectionRecord {
  /** Upstream sockets this connection tunnels to, closed with it. */
  tunnels: Set<Socket>;
}

/**
 * One local proxy: a listener that serves HTTP (absolute-form requests and CONNECT) and SOCKS5 on one
 * port, told apart by the first byte (0x05 is SOCKS5), and forwards everything to one upstream with
 * the upstream's credentials added here. It never connects anywhere but that upstream (no open
 * relay), answers an origin-form request (a web page that found the port) with 400, and retries a
 * request once with the credentials read again when the upstream says 407 or refuses to connect.
 */
export class LocalProxyServer {
  private readonly limits: LocalProxyLimits;
  private readonly http: HttpServer;
  private agent: Agent;
  private readonly connections = new Map<Socket, ConnectionRecord>();
  private readonly loginDigest: { username: Buffer; password: Buffer } | null;
  private counters = { requests: 0, failures: 0, closedUp: 0, closedDown: 0, rejected: 0 };
  private droppedInBurst = false;
  private closed = false;

  private constructor(
    private readonly net: NetServer,
    private readonly options: LocalProxyServerOptions,
  ) {
    this.limits = { ...LOCAL_PROXY_LIMITS, ...options.limits };
    this.loginDigest = options.auth
      ? { username: digest(options.auth.username), password: digest(options.auth.password) }
      : null;
    this.agent = this.newAgent();
    this.http = createHttpServer({ keepAliveTimeout: this.limits.keepAliveMs });
    this.http.on('request', (req: IncomingMessage, res: ServerResponse) => void this.onRequest(req, res));
    this.http.on(
      'connect',
      (req: IncomingMessage, socket: Duplex, head: Buffer) =>
        void this.onConnect(req, socket as Socket, head),
    );
    this.http.on('upgrade', (_req: IncomingMessage, socket: Duplex) => {
      socket.end(
        this.plainAnswer(
          501,
          'Upgrades through a plain-http proxy request are not supported: use CONNECT (wss://, https://).',
        ),
      );
    });
    this.http.on('clientError', (_error: Error, socket: Duplex) => {
      if (socket.writable) socket.end(this.plainAnswer(400, 'Malformed request.'));
      else socket.destroy();
    });
    net.on('connection', (socket: Socket) => this.onConnection(socket));
    net.on('drop', () => {
      this.counters.rejected += 1;
      if (!this.droppedInBurst) {
        this.droppedInBurst = true;
        options.log?.(
          `[local proxy ${options.label}] ${this.limits.maxConnections} connections open: new ones are refused until some close`,
        );
      }
      this.options.onActivity?.();
    });
  }

  /** Starts listening; a taken port, a missing address or a non-loopback address without a login are refused. */
  static async listen(options: LocalProxyServerOptions): Promise<LocalProxyServer> {
    const where = hostPort(options.host, options.port);
    if (!isLoopbackAddress(options.host) && !options.auth) {
      throw new ListenError(
        'auth_required',
        `Listening on ${where} lets other computers use it: that needs a local user name and password.`,
      );
    }
    const net = createNetServer({ noDelay: true });
    const server = new LocalProxyServer(net, options);
    net.maxConnections = server.limits.maxConnections;
    await new Promise<void>((resolve, reject) => {
      net.once('error', reject);
      net.listen({ host: options.host, port: options.port, exclusive: true }, () => {
        net.removeListener('error', reject);
        resolve();
      });
    }).catch((error: unknown) => {
      server.agent.destroy();
      throw listenError(error, where);
    });
    net.on('error', (error) => options.log?.(`[local proxy ${options.label}] ${error.message}`));
    return server;
  }

  /** Where it listens (the port chosen when 0 was asked). */
  get address(): { host: string; port: number } {
    const address = this.net.address();
    if (address && typeof address === 'object') return { host: this.options.host, port: address.port };
    return { host: this.options.host, port: this.options.port };
  }

  stats(): LocalProxyStats {
    let up = this.counters.closedUp;
    let down = this.counters.closedDown;
    for (const socket of this.connections.keys()) {
      up += socket.bytesRead;
      down += socket.bytesWritten;
    }
    return {
      openConnections: this.connections.size,
      requests: this.counters.requests,
      bytesUp: up,
      bytesDown: down,
      failures: this.counters.failures,
      rejectedConnections: this.counters.rejected,
    };
  }

  /**
   * Closes every open connection (a rotation with "close connections" on): the tools reconnect and
   * their next request leaves from the new IP. The listener stays.
   */
  closeConnections(): void {
    for (const socket of [...this.connections.keys()]) socket.destroy();
    const old = this.agent;
    this.agent = this.newAgent();
    old.destroy();
  }

  /** Stops listening and closes every connection. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const closing = new Promise<void>((resolve) => this.net.close(() => resolve()));
    for (const socket of [...this.connections.keys()]) socket.destroy();
    this.agent.destroy();
    this.http.close();
    await closing;
  }

  private newAgent(): Agent {
    return new Agent({
      keepAlive: true,
      maxSockets: this.limits.maxConnections,
      maxFreeSockets: 64,
      timeout: this.limits.idleMs,
    });
  }

  private onConnection(socket: Socket): void {
    if (this.closed) {
      socket.destroy();
      return;
    }
    const record: ConnectionRecord = { tunnels: new Set() };
    this.connections.set(socket, record);
    socket.setTimeout(this.limits.handshakeMs);
    socket.on('timeout', () => socket.destroy());
    socket.on('error', () => undefined);
    socket.once('close', () => {
      this.connections.delete(socket);
      this.counters.closedUp += socket.bytesRead;
      this.counters.closedDown += socket.bytesWritten;
      for (const tunnel of record.tunnels) tunnel.destroy();
      if (this.connections.size < this.limits.maxConnections) this.droppedInBurst = false;
      this.options.onActivity?.();
    });
    this.options.onActivity?.();
    socket.once('data', (first: Buffer) => {
      if (first[0] === 0x05) {
        void this.onSocks(socket, first);
        return;
      }
      socket.setTimeout(this.limits.idleMs);
      // The http server reads the socket from here on; it gets the first chunk replayed.
      this.http.emit('connection', socket);
      socket.emit('data', first);
    });
  }

  private checkLogin(username: string, password: string): boolean {
    const expected = this.loginDigest;
    if (!expected) return true;
    // Both compared in full, in constant time.
    const userOk = timingSafeEqual(digest(username), expected.username);
    const passwordOk = timingSafeEqual(digest(password), expected.password);
    return userOk && passwordOk;
  }

  private authorized(header: string | undefined): boolean {
    if (!this.loginDigest) return true;
    const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header ?? '');
    if (!match?.[1]) return false;
    const decoded = Buffer.from(match[1], 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon < 0) return false;
    return this.checkLogin(decoded.slice(0, colon), decoded.slice(colon + 1));
  }

  private plainAnswer(status: number, message: string, headers: Record<string, string> = {}): string {
    const body = `Proxy Manager local proxy “${this.options.label}”: ${message}\n`;
    const lines = [
      `HTTP/1.1 ${status} ${statusText(status)}`,
      'Content-Type: text/plain; charset=utf-8',
      `Content-Length: ${Buffer.byteLength(body)}`,
      'Connection: close',
      ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
    ];
    return `${lines.join('\r\n')}\r\n\r\n${body}`;
  }

  private answer(
    res: ServerResponse,
    status: number,
    message: string,
    headers: Record<string, string> = {},
  ): void {
    if (res.headersSent) {
      res.destroy();
      return;
    }
    const body = `Proxy Manager local proxy “${this.options.label}”: ${message}\n`;
    res.writeHead(status, {
      'Content-Type': 'text/plain; charset=utf-8',
      'Content-Length': String(Buffer.byteLength(body)),
      ...headers,
    });
    res.end(body);
  }

  /** The text a tool gets for a failure: the sentence and the gateway's words, never a password. */
  private failureText(failure: UpstreamFailure, upstream: Upstream | null): string {
    const detail = failure.detail ? ` (${failure.detail})` : '';
    return redact(`${describeFailure(failure.kind)}${detail}`, upstream);
  }

  private report(failure: UpstreamFailure, target: string, upstream: Upstream | null): void {
    this.counters.failures += 1;
    const detail = failure.detail === null ? null : redact(failure.detail, upstream);
    this.options.onFailure?.({ ...failure, detail, target });
  }

  /**
   * Runs `attempt` with the current upstream; when it fails as stale (407, refused connection), once
   * more with the upstream read again. Returns the outcome and the upstream last used.
   */
  private async withUpstream<T>(
    attempt: (upstream: Upstream) => Promise<Outcome<T>>,
    retryable: boolean,
  ): Promise<{ outcome: Outcome<T>; upstream: Upstream | null }> {
    let upstream: Upstream;
    try {
      upstream = await this.options.upstream.current();
    } catch (error) {
      return { outcome: { ok: false, failure: lookupFailure(error) }, upstream: null };
    }
    const first = await attempt(upstream);
    if (first.ok || !first.failure.stale || !retryable) return { outcome: first, upstream };
    try {
      upstream = await this.options.upstream.refresh(upstream);
    } catch {
      return { outcome: first, upstream };
    }
    return { outcome: await attempt(upstream), upstream };
  }

  // ---- plain http -------------------------------------------------------------------------------

  private async onRequest(req: IncomingMessage, res: ServerResponse): Promise<void> {
    this.counters.requests += 1;
    this.options.onActivity?.();
    if (!this.authorized(req.headers['proxy-authorization'])) {
      req.resume();
      this.answer(res, 407, 'This local proxy needs its user name and password.', {
        'Proxy-Authenticate': REALM,
      });
      return;
    }
    const url = req.url ?? '';
    if (!/^http:\/\/[^/?#]/i.test(url) || !URL.canParse(url)) {
      req.resume();
      // An origin-form request is a browser or a web page talking to the port directly, not a tool
      // using it as its proxy; https URLs go through CONNECT.
      this.answer(
        res,
        400,
        `This is a proxy: set http://${hostPort(this.address.host, this.address.port)} as your tool’s HTTP proxy (or socks5:// for SOCKS5).`,
      );
      return;
    }
    const target = redactUrl(url);
    const hasBody =
      req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? '0') > 0;
    let body: { chunks: Buffer[]; complete: boolean };
    try {
      body = hasBody ? await readUpTo(req, this.limits.retryBodyBytes) : { chunks: [], complete: true };
    } catch {
      res.destroy();
      return;
    }
    const extra = req.headers.host === undefined ? ['Host', new URL(url).host] : [];
    const headers = filterRawHeaders(req.rawHeaders, extra);
    const { outcome, upstream } = await this.withUpstream(
      (upstream) => this.forward(upstream, req, url, headers, body),
      body.complete,
    );
    if (!outcome.ok) {
      req.resume();
      this.report(outcome.failure, target, upstream);
      this.answer(res, statusFor(outcome.failure), this.failureText(outcome.failure, upstream));
      return;
    }
    const { response, page } = outcome.value;
    if (page !== null) {
      this.report(
        refusalFailure(response.statusCode ?? 502, flatHeaders(response.headers), page.toString('utf8')),
        target,
        upstream,
      );
    }
    res.writeHead(response.statusCode ?? 502, response.statusMessage, filterRawHeaders(response.rawHeaders));
    if (page !== null) {
      res.end(page);
      return;
    }
    response.pipe(res);
    response.once('error', () => res.destroy());
    res.once('close', () => {
      if (!response.complete) response.destroy();
    });
  }

  /**
   * One attempt of a plain-http request: absolute-form to the upstream's HTTP port with its
   * credentials. A 407 (read and dropped) is a stale failure; a gateway refusal's page is read so
   * that it can be reported and still passed on.
   */
  private forward(
    upstream: Upstream,
    req: IncomingMessage,
    url: string,
    headers: string[],
    body: { chunks: Buffer[]; complete: boolean },
  ): Promise<Outcome<{ response: IncomingMessage; page: Buffer | null }>> {
    return new Promise((resolve) => {
      let settled = false;
      const settle = (outcome: Outcome<{ response: IncomingMessage; page: Buffer | null }>) => {
        if (settled) return;
        settled = true;
        resolve(outcome);
      };
      const outgoing = httpRequest({
        host: upstream.host,
        port: upstream.port,
        method: req.method ?? 'GET',
        path: url,
        headers: [
          ...headers,
          'Proxy-Authorization',
          basicAuthorization(upstream.username, upstream.password),
        ],
        setHost: false,
        agent: this.agent,
        timeout: this.limits.upstreamTimeoutMs,
      });
      outgoing.once('timeout', () => {
        outgoing.destroy();
        settle({ ok: false, failure: { kind: 'timeout', status: null, detail: null, stale: false } });
      });
      outgoing.once('error', (error) => settle({ ok: false, failure: networkFailure(error) }));
      outgoing.once('response', (response) => {
        const status = response.statusCode ?? 0;
        const gatewayRefusal = status === 407 || response.headers[GATEWAY_ERROR_HEADER] !== undefined;
        if (!gatewayRefusal) {
          settle({ ok: true, value: { response, page: null } });
          return;
        }
        void readUpTo(response, 64 * 1024).then(
          ({ chunks }) => {
            const page = Buffer.concat(chunks);
            if (status === 407) {
              response.resume();
              settle({
                ok: false,
                failure: refusalFailure(status, flatHeaders(response.headers), page.toString('utf8')),
              });
            } else settle({ ok: true, value: { response, page } });
          },
          (error: unknown) => settle({ ok: false, failure: networkFailure(error) }),
        );
      });
      for (const chunk of body.chunks) outgoing.write(chunk);
      if (body.complete) outgoing.end();
      else req.pipe(outgoing);
    });
  }

  // ---- tunnels ----------------------------------------------------------------------------------

  private async tunnel(
    target: string,
  ): Promise<{ outcome: Outcome<{ socket: Socket; rest: Buffer }>; upstream: Upstream | null }> {
    return this.withUpstream(async (upstream) => {
      const result = await openTunnel(upstream, target, this.limits.upstreamTimeoutMs);
      return result.ok ? { ok: true, value: { socket: result.socket, rest: result.rest } } : result;
    }, true);
  }

  private async onConnect(req: IncomingMessage, socket: Socket, head: Buffer): Promise<void> {
    this.counters.requests += 1;
    this.options.onActivity?.();
    if (!this.authorized(req.headers['proxy-authorization'])) {
      socket.end(
        this.plainAnswer(407, 'This local proxy needs its user name and password.', {
          'Proxy-Authenticate': REALM,
        }),
      );
      return;
    }
    const target = req.url ?? '';
    if (!/^(?:\[[0-9a-f:.]+\]|[^\s/:@[\]]+):\d{1,5}$/i.test(target)) {
      socket.end(this.plainAnswer(400, 'CONNECT needs host:port.'));
      return;
    }
    const { outcome, upstream } = await this.tunnel(target);
    if (!outcome.ok) {
      this.report(outcome.failure, target, upstream);
      if (socket.writable)
        socket.end(this.plainAnswer(statusFor(outcome.failure), this.failureText(outcome.failure, upstream)));
      return;
    }
    if (socket.destroyed) {
      outcome.value.socket.destroy();
      return;
    }
    socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
    this.join(socket, outcome.value.socket, head, outcome.value.rest);
  }

  private async onSocks(socket: Socket, first: Buffer): Promise<void> {
    socket.unshift(first);
    const request = await socks5Handshake(socket, {
      checkLogin: this.loginDigest ? (username, password) => this.checkLogin(username, password) : null,
    }).catch(() => null);
    if (!request) return;
    this.counters.requests += 1;
    this.options.onActivity?.();
    const { outcome, upstream } = await this.tunnel(request.target);
    if (!outcome.ok) {
      this.report(outcome.failure, request.target, upstream);
      if (socket.writable) socket.end(Buffer.from(replyBytes(socksReplyFor(outcome.failure.kind))));
      return;
    }
    if (socket.destroyed) {
      outcome.value.socket.destroy();
      return;
    }
    socket.write(Buffer.from(replyBytes(SOCKS_REPLY.succeeded)));
    socket.setTimeout(this.limits.idleMs);
    this.join(socket, outcome.value.socket, request.rest, outcome.value.rest);
  }

  /** Pipes a tool's socket and an upstream tunnel both ways; either closing closes the other. */
  private join(client: Socket, tunnel: Socket, clientHead: Buffer, tunnelRest: Buffer): void {
    const record = this.connections.get(client);
    record?.tunnels.add(tunnel);
    client.setTimeout(this.limits.idleMs);
    tunnel.on('error', () => client.destroy());
    tunnel.once('close', () => {
      record?.tunnels.delete(tunnel);
      client.destroy();
    });
    client.once('close', () => tunnel.destroy());
    if (clientHead.length > 0) tunnel.write(clientHead);
    if (tunnelRest.length > 0) client.write(tunnelRest);
    client.pipe(tunnel);
    tunnel.pipe(client);
    client.resume();
  }
}

function statusText(status: number): string {
  const texts: Record<number, string> = {
    400: 'Bad Request',
    403: 'Forbidden',
    407: 'Proxy Authentication Required',
    501: 'Not Implemented',
    502: 'Bad Gateway',
    503: 'Service Unavailable',
    504: 'Gateway Timeout',
  };
  return texts[status] ?? 'Error';
}

function lookupFailure(error: unknown): UpstreamFailure {
  return {
    kind: 'lookup',
    status: null,
    detail: error instanceof Error ? error.message.slice(0, 300) : null,
    stale: false,
  };
}

function listenError(error: unknown, where: string): Error {
  const code = (error as { code?: unknown } | null)?.code;
  if (code === 'EADDRINUSE') {
    return new ListenError(
      'port_in_use',
      `${where} is already in use by another program: choose another port.`,
    );
  }
  if (code === 'EADDRNOTAVAIL') {
    return new ListenError(
      'address_unavailable',
      `This computer has no address ${where.replace(/:\d+$/, '')} to listen on.`,
    );
  }
  if (code === 'EACCES') {
    return new ListenError('permission_denied', `The system does not allow listening on ${where}.`);
  }
  return error instanceof Error ? error : new Error(String(error));
}

/** A URL for a report: scheme, host and path only (a query may hold a tool's own tokens). */
function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}${parsed.pathname}`.slice(0, 300);
  } catch {
    return url.slice(0, 300);
  }
}

/** Never a password in what a tool or the screen is told, whatever a page or a library wrote. */
function redact(text: string, upstream: Pick<Upstream, 'password'> | null): string {
  if (!upstream || upstream.password === '') return text;
  let out = text;
  for (const secret of [upstream.password, encodeURIComponent(upstream.password)]) {
    out = out.split(secret).join('***');
  }
  return out;
}
