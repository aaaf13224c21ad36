import {
  createServer as createHttpServer,
  type IncomingMessage,
  type Server,
  STATUS_CODES,
  type ServerResponse,
} from 'node:http';
import {
  type AddressInfo,
  createServer as createNetServer,
  type Server as NetServer,
  type Socket,
} from 'node:net';
import type { SandboxWorld } from '../sandbox-world';
import {
  accountId,
  type Admission,
  admit,
  allowance,
  ExitPlanner,
  recheck,
  recordTraffic,
  type Refusal,
} from './gateway-accounts';
import type { GatewayEndpoint } from './gateway-endpoint';
import { errorPage, PROXY_REALM, REFUSAL_SOCKS_REPLY, REFUSAL_STATUS } from './gateway-pages';
import { parseProxyUsername } from './gateway-username';
import { REPLY_SUCCEEDED, runSocks5Handshake } from './socks5-handshake';

/** Simulated answer time of the gateway per request with `--latency realistic` (real milliseconds). */
const LATENCY_MIN_MS = 50;
const LATENCY_MAX_MS = 250;
/** How long a tunnel or keep-alive connection may sit idle (real time) before the gateway closes it. */
const IDLE_TIMEOUT_MS = 60_000;
/** A TLS record starts with this byte (handshake); the gateway cannot answer TLS without a CA. */
const TLS_HANDSHAKE_RECORD = 0x16;
/** A fatal TLS alert `handshake_failure` (40): the client reports a handshake failure at once. */
const TLS_HANDSHAKE_FAILURE_ALERT = Buffer.from([0x15, 0x03, 0x03, 0x00, 0x02, 0x02, 0x28]);
const CONNECT_ESTABLISHED = 'HTTP/1.1 200 Connection Established\r\n\r\n';

export interface GatewayOptions {
  world: SandboxWorld;
  host: string;
  /** 0 takes a free port. */
  httpPort: number;
  /** 0 takes a free port. */
  socksPort: number;
  /** Called after traffic was added to the state (the sandbox saves it soon after). */
  onTraffic: () => void;
  logError: (message: string) => void;
}

export interface RunningGateway {
  endpoint: GatewayEndpoint;
  /** Stops listening and cuts every proxy connection (nothing is in flight for long: answers are local). */
  close(): Promise<void>;
}

type Via = 'http' | 'connect' | 'socks5';

interface Tunnel {
  admission: Admission;
  via: Via;
  /** `host:port` the client asked for. */
  target: string;
}

interface Credentials {
  username: string;
  password: string;
}

/** `Proxy-Authorization: Basic base64(user:password)`; null when absent or malformed. */
function parseProxyAuthorization(header: string | undefined): Credentials | null {
  const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header ?? '');
  if (!match?.[1]) return null;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return null;
  return { username: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

/** Bytes of the request line and headers as received (Node keeps them in order in `rawHeaders`). */
function requestHeadBytes(req: IncomingMessage): number {
  let head = `${req.method ?? ''} ${req.url ?? ''} HTTP/${req.httpVersion}\r\n`;
  for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) {
    head += `${req.rawHeaders[i] ?? ''}: ${req.rawHeaders[i + 1] ?? ''}\r\n`;
  }
  return Buffer.byteLength(`${head}\r\n`, 'latin1');
}

/** Reads and discards the body, counting its bytes (the echo reports its size, never its content). */
function drainBody(req: IncomingMessage): Promise<number> {
  return new Promise((resolve, reject) => {
    let bytes = 0;
    req.on('data', (chunk: Buffer) => (bytes += chunk.length));
    req.on('end', () => resolve(bytes));
    req.on('error', reject);
  });
}

const wantsKeepAlive = (req: IncomingMessage): boolean => {
  const connection = (req.headers.connection ?? '').toLowerCase();
  if (connection.includes('close')) return false;
  return req.httpVersion === '1.1' || connection.includes('keep-alive');
};

interface Answer {
  status: number;
  headers: [string, string][];
  body: Buffer;
}

/** Exact bytes of an answer as Node writes it: status line, headers in order, blank line, body. */
function answerBytes(answer: Answer, withBody: boolean): number {
  let head = `HTTP/1.1 ${answer.status} ${STATUS_CODES[answer.status] ?? ''}\r\n`;
  for (const [name, value] of answer.headers) head += `${name}: ${value}\r\n`;
  return Buffer.byteLength(`${head}\r\n`, 'latin1') + (withBody ? answer.body.length : 0);
}

function pageAnswer(status: number, title: string, message: string, code: string, close: boolean): Answer {
  const body = Buffer.from(errorPage(status, title, message, code), 'utf8');
  const headers: [string, string][] = [
    ['Content-Type', 'text/html; charset=utf-8'],
    ['Content-Length', String(body.length)],
    ['Cache-Control', 'no-store'],
    ['X-Sandbox-Gateway-Error', code],
  ];
  if (status === 407) headers.push(['Proxy-Authenticate', `Basic realm="${PROXY_REALM}"`]);
  headers.push(['Connection', close ? 'close' : 'keep-alive']);
  return { status, headers, body };
}

const refusalAnswer = (refusal: Refusal, close: boolean): Answer =>
  pageAnswer(REFUSAL_STATUS[refusal.kind], refusal.title, refusal.message, refusal.kind, close);

const capAnswer = (close: boolean): Answer =>
  pageAnswer(
    403,
    'Traffic cap reached',
    'This request would go over the traffic the account has left (its sub-user cap or the subscription total); it was refused and not counted.',
    'forbidden',
    close,
  );

/** Writes a whole answer on a raw socket (a CONNECT that is refused) and closes it. */
function writeRaw(socket: Socket, answer: Answer): void {
  let head = `HTTP/1.1 ${answer.status} ${STATUS_CODES[answer.status] ?? ''}\r\n`;
  for (const [name, value] of answer.headers) head += `${name}: ${value}\r\n`;
  socket.end(Buffer.concat([Buffer.from(`${head}\r\n`, 'latin1'), answer.body]));
}

function listenOn(server: Server | NetServer, port: number, host: string, flag: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException) => {
      const message =
        error.code === 'EADDRINUSE'
          ? `port ${port} on ${host} is already in use; choose another with ${flag} (0 takes a free one)`
          : `cannot listen on ${host}:${port} for the gateway (${flag}): ${error.message}`;
      reject(Object.assign(new Error(message), { code: error.code }));
    };
    server.once('error', onError);
    server.listen(port, host, () => {
      server.off('error', onError);
      resolve();
    });
  });
}

/**
 * The sandbox's proxy gateway: an HTTP proxy (plain requests and CONNECT) and a SOCKS5 proxy
 * (username/password) that authenticate with the account credentials of the sandbox state. It never
 * connects anywhere: every request, whatever its target, is answered by the gateway itself with an
 * echo (the exit IP chosen and the request as received), in plain HTTP, also inside tunnels.
 */
export async function startGateway(options: GatewayOptions): Promise<RunningGateway> {
  const { world, onTraffic, logError } = options;
  const planner = new ExitPlanner(world.state.seed);
  const tunnels = new WeakMap<Socket, Tunnel>();
  const sockets = new Set<Socket>();

  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    // A client that goes away mid-answer is not an error of the sandbox.
    socket.on('error', () => undefined);
  };

  function send(req: IncomingMessage, res: ServerResponse, answer: Answer): void {
    res.sendDate = false;
    res.writeHead(answer.status, answer.headers);
    res.end(req.method === 'HEAD' ? undefined : answer.body);
  }

  function echoAnswer(
    req: IncomingMessage,
    admission: Admission,
    via: Via,
    target: string | null,
    bodyBytes: number,
    now: number,
    close: boolean,
  ): Answer {
    const headers: Record<string, string | string[] | undefined> = { ...req.headers };
    delete headers['proxy-authorization'];
    const url = target === null ? (req.url ?? '') : `http://${req.headers.host ?? target}${req.url ?? ''}`;
    const account = admission.account;
    const echo = {
      sandboxGateway: 'Answered by the Proxy Manager sandbox gateway: nothing was sent to the target.',
      exit: admission.exit,
      session:
        admission.session === null
          ? null
          : { id: admission.session.id, ipKeptUntil: new Date(admission.session.keptUntil).toISOString() },
      account: {
        type: account.type,
        id: accountId(account),
        username: parseProxyUsername(admission.username).account,
      },
      via,
      tunnelTarget: target,
      request: { method: req.method ?? '', url, httpVersion: req.httpVersion, headers, bodyBytes },
      at: new Date(now).toISOString(),
    };
    const body = Buffer.from(`${JSON.stringify(echo, null, 2)}\n`, 'utf8');
    return {
      status: 200,
      headers: [
        ['Content-Type', 'application/json; charset=utf-8'],
        ['Content-Length', String(body.length)],
        ['Cache-Control', 'no-store'],
        ['X-Sandbox-Exit-Ip', admission.exit.ip],
        ['Connection', close ? 'close' : 'keep-alive'],
      ],
      body,
    };
  }

  /** One HTTP request: sent to the proxy (absolute URL) or inside a CONNECT/SOCKS tunnel. */
  async function handleRequest(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const bodyBytes = await drainBody(req);
    const close = !wantsKeepAlive(req);
    const tunnel = tunnels.get(req.socket);
    const now = world.settle();
    let admission: Admission;
    if (tunnel) {
      const refusal = recheck(world, tunnel.admission, now);
      if (refusal) {
        send(req, res, refusalAnswer(refusal, true));
        return;
      }
      admission = tunnel.admission;
    } else {
      if (!/^https?:\/\//i.test(req.url ?? '')) {
        send(
          req,
          res,
          pageAnswer(
            400,
            'This is a proxy',
            'The sandbox gateway is a proxy, not a web server: use it as one, e.g. curl -x http://USER:PASS@HOST:PORT http://example.com/',
            'not_a_proxy_request',
            close,
          ),
        );
        return;
      }
      const credentials = parseProxyAuthorization(req.headers['proxy-authorization']);
      const result = credentials
        ? admit(world, planner, credentials.username, credentials.password, now)
        : ({
            kind: 'credentials',
            title: 'Proxy authentication required',
            message: 'Send the proxy username and password (Proxy-Authorization: Basic).',
          } satisfies Refusal);
      if ('kind' in result) {
        send(req, res, refusalAnswer(result, close));
        return;
      }
      admission = result;
    }
    const answer = echoAnswer(
      req,
      admission,
      tunnel?.via ?? 'http',
      tunnel?.target ?? null,
      bodyBytes,
      now,
      close,
    );
    const bytes = requestHeadBytes(req) + bodyBytes + answerBytes(answer, req.method !== 'HEAD');
    if (bytes > allowance(admission.account)) {
      send(req, res, capAnswer(close));
      return;
    }
    recordTraffic(world, admission.account, admission.exit, bytes, 1, now);
    onTraffic();
    await world.simulateDelay(LATENCY_MIN_MS, LATENCY_MAX_MS);
    send(req, res, answer);
  }

  const onRequest = (req: IncomingMessage, res: ServerResponse) => {
    handleRequest(req, res).catch((error: unknown) => {
      logError(`sandbox gateway: failed to answer: ${String((error as Error)?.stack ?? error)}`);
      res.destroy();
    });
  };

  /** Answers HTTP inside tunnels; it never listens itself, tunnels are handed to it. */
  const tunnelServer = createHttpServer(onRequest);
  tunnelServer.keepAliveTimeout = IDLE_TIMEOUT_MS;

  /** Hands a granted tunnel to the HTTP answerer, or ends it with a TLS alert when the client starts TLS. */
  function enterTunnel(socket: Socket, first: Buffer, tunnel: Tunnel): void {
    const start = (chunk: Buffer) => {
      if (chunk[0] === TLS_HANDSHAKE_RECORD) {
        recordTraffic(
          world,
          tunnel.admission.account,
          tunnel.admission.exit,
          chunk.length + TLS_HANDSHAKE_FAILURE_ALERT.length,
          0,
          world.settle(),
        );
        onTraffic();
        socket.end(TLS_HANDSHAKE_FAILURE_ALERT);
        return;
      }
      socket.unshift(chunk);
      tunnels.set(socket, tunnel);
      tunnelServer.emit('connection', socket);
      socket.resume();
    };
    if (first.length > 0) {
      start(first);
      return;
    }
    const onData = (chunk: Buffer) => {
      socket.off('data', onData);
      socket.pause();
      start(chunk);
    };
    socket.on('data', onData);
    socket.resume();
  }

  const httpServer = createHttpServer(onRequest);
  httpServer.keepAliveTimeout = 5_000;
  httpServer.on('connection', track);
  httpServer.on('connect', (req: IncomingMessage, socket: Socket, head: Buffer) => {
    const now = world.settle();
    const credentials = parseProxyAuthorization(req.headers['proxy-authorization']);
    if (!credentials) {
      writeRaw(
        socket,
        pageAnswer(
          407,
          'Proxy authentication required',
          'Send the proxy username and password (Proxy-Authorization: Basic).',
          'credentials',
          true,
        ),
      );
      return;
    }
    const result = admit(world, planner, credentials.username, credentials.password, now);
    if ('kind' in result) {
      writeRaw(socket, refusalAnswer(result, true));
      return;
    }
    const bytes = requestHeadBytes(req) + Buffer.byteLength(CONNECT_ESTABLISHED, 'latin1');
    if (bytes > allowance(result.account)) {
      writeRaw(socket, capAnswer(true));
      return;
    }
    recordTraffic(world, result.account, result.exit, bytes, 0, now);
    onTraffic();
    socket.write(CONNECT_ESTABLISHED);
    enterTunnel(socket, head, { admission: result, via: 'connect', target: req.url ?? '' });
  });

  const socksServer = createNetServer((socket) => {
    track(socket);
    socket.setTimeout(IDLE_TIMEOUT_MS, () => socket.destroy());
    let outcome: Admission | Refusal | null = null;
    runSocks5Handshake(socket, {
      login: (username, password) => {
        outcome = admit(world, planner, username, password, world.settle());
        return !('kind' in outcome && outcome.kind === 'credentials');
      },
      connect: (_target, handshakeBytes) => {
        const decided = outcome as Admission | Refusal;
        if ('kind' in decided) {
          return decided.kind === 'credentials'
            ? REFUSAL_SOCKS_REPLY.forbidden
            : REFUSAL_SOCKS_REPLY[decided.kind];
        }
        return handshakeBytes > allowance(decided.account) ? REFUSAL_SOCKS_REPLY.forbidden : REPLY_SUCCEEDED;
      },
    }).then(
      (result) => {
        if (!result.granted) return;
        const admission = outcome as Admission;
        recordTraffic(world, admission.account, admission.exit, result.handshakeBytes, 0, world.settle());
        onTraffic();
        const target = `${result.target.host.includes(':') ? `[${result.target.host}]` : result.target.host}:${result.target.port}`;
        enterTunnel(socket, result.rest, { admission, via: 'socks5', target });
      },
      (error: unknown) => {
        logError(`sandbox gateway: SOCKS5 handshake failed: ${String(error)}`);
        socket.destroy();
      },
    );
  });

  const host = options.host;
  await listenOn(httpServer, options.httpPort, host, '--gateway-http-port');
  try {
    await listenOn(socksServer, options.socksPort, host, '--gateway-socks-port');
  } catch (error) {
    await new Promise<void>((resolve) => httpServer.close(() => resolve()));
    throw error;
  }
  httpServer.on('error', (error) => logError(`sandbox gateway: server error: ${String(error)}`));
  socksServer.on('error', (error) => logError(`sandbox gateway: server error: ${String(error)}`));

  const address = httpServer.address() as AddressInfo;
  // Listening on every interface: the endpoint names loopback, which always reaches it.
  const connectable =
    address.address === '0.0.0.0' ? '127.0.0.1' : address.address === '::' ? '::1' : address.address;
  const endpoint: GatewayEndpoint = {
    host: connectable,
    httpPort: address.port,
    socksPort: (socksServer.address() as AddressInfo).port,
  };

  let closed: Promise<void> | null = null;
  return {
    endpoint,
    close: () => {
      closed ??= (async () => {
        const stopped = Promise.all([
          new Promise<void>((resolve) => httpServer.close(() => resolve())),
          new Promise<void>((resolve) => socksServer.close(() => resolve())),
        ]);
        for (const socket of sockets) socket.destroy();
        httpServer.closeAllConnections();
        await stopped;
      })();
      return closed;
    },
  };
}
