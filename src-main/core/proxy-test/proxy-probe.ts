import { connect as netConnect, type Socket } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import { SocksClient } from 'socks';
import { Agent, type Dispatcher, Pool, ProxyAgent, request } from 'undici';
import type {
  ProxyExit,
  ProxyFailureKind,
  ProxyProtocol,
  ProxyTestResult,
} from '../../../src-shared/contract';
import type { Clock } from '../runtime/clock';
import { explainFailure, failureKindOf, readEcho, readErrorPage } from './echo-reading';

/** How much of the echo's answer is read (an IP echo is a few hundred bytes; the sandbox's ~1 KB). */
const MAX_ECHO_BYTES = 64 * 1024;

export interface ProbeRequest {
  protocol: ProxyProtocol;
  host: string;
  port: number;
  username: string;
  password: string;
  echoUrl: string;
  /** The whole test (connect, handshake, answer, body) ends by then, answered or not. */
  deadlineMs: number;
}

export type ProbeOutcome = Pick<ProxyTestResult, 'ok' | 'exit' | 'timings' | 'failure'>;

export interface ProbeDependencies {
  /** Fires the deadline (tests: a FakeClock, so a hung proxy is settled without waiting). */
  clock: Pick<Clock, 'sleep'>;
  /** Measures connect and first-byte times; default `performance.now`. */
  monotonic?: () => number;
}

interface ConnectOptions {
  protocol?: string;
  hostname?: string;
  port?: string | number;
  servername?: string | null;
}

type Connector = (
  options: ConnectOptions,
  callback: (error: Error | null, socket: Socket | null) => void,
) => void;

/** Wraps undici's connector so that the first TCP connection to the proxy is timed. */
function timedConnector(connect: unknown, onConnected: () => void): unknown {
  if (typeof connect !== 'function') return connect;
  const inner = connect as Connector;
  return ((options, callback) =>
    inner(options, (error, socket) => {
      if (!error) onConnected();
      callback(error, socket);
    })) satisfies Connector;
}

/**
 * HTTP proxies through undici's `ProxyAgent`: a plain-http echo URL is sent as a proxied request
 * (so a refusal's error page can be read), an https one through a CONNECT tunnel.
 */
function httpDispatcher(request: ProbeRequest, onConnected: () => void): Dispatcher {
  const token = Buffer.from(`${request.username}:${request.password}`, 'utf8').toString('base64');
  const host = request.host.includes(':') ? `[${request.host}]` : request.host;
  const timedPool = (origin: string | URL, options: Record<string, unknown>) =>
    new Pool(origin, { ...options, connect: timedConnector(options.connect, onConnected) } as Pool.Options);
  return new ProxyAgent({
    uri: `http://${host}:${request.port}`,
    token: `Basic ${token}`,
    proxyTunnel: false,
    clientFactory: timedPool,
    factory: timedPool,
  });
}

/**
 * SOCKS5 through the `socks` package (RFC 1928/1929, its reply codes reach us, unlike undici's own
 * SOCKS support), on a TCP socket opened here so that the connect time is the proxy's.
 */
function socksDispatcher(
  request: ProbeRequest,
  onConnected: () => void,
  signal: AbortSignal,
  sockets: Set<Socket>,
): Dispatcher {
  const connect: Connector = (options, callback) => {
    let settled = false;
    const finish = (error: Error | null, socket: Socket | null) => {
      if (settled) return;
      settled = true;
      signal.removeEventListener('abort', onAbort);
      callback(error, socket);
    };
    const socket = netConnect({ host: request.host, port: request.port });
    sockets.add(socket);
    const onAbort = () => {
      socket.destroy();
      finish(new Error('The test was stopped at its deadline.'), null);
    };
    signal.addEventListener('abort', onAbort, { once: true });
    socket.once('error', (error) => finish(error, null));
    socket.once('connect', () => {
      onConnected();
      const protocol = options.protocol ?? 'http:';
      const hostname = options.hostname ?? '';
      const port = Number(options.port) || (protocol === 'https:' ? 443 : 80);
      SocksClient.createConnection({
        proxy: {
          host: request.host,
          port: request.port,
          type: 5,
          userId: request.username,
          password: request.password,
        },
        command: 'connect',
        destination: { host: hostname, port },
        existing_socket: socket,
        timeout: request.deadlineMs,
      }).then(
        ({ socket: tunnel }) => {
          if (protocol !== 'https:') {
            finish(null, tunnel);
            return;
          }
          const secure = tlsConnect({
            socket: tunnel,
            servername: options.servername ?? hostname,
            ALPNProtocols: ['http/1.1'],
          });
          sockets.add(secure);
          secure.once('secureConnect', () => finish(null, secure));
          secure.once('error', (error: Error) => finish(error, null));
        },
        (error: unknown) => finish(error instanceof Error ? error : new Error(String(error)), null),
      );
    });
  };
  return new Agent({ connect: connect as Agent.Options['connect'] });
}

async function readLimited(body: AsyncIterable<Buffer | Uint8Array>): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    const buffer = Buffer.from(chunk);
    chunks.push(buffer);
    size += buffer.length;
    if (size >= MAX_ECHO_BYTES) break;
  }
  return Buffer.concat(chunks).subarray(0, MAX_ECHO_BYTES).toString('utf8');
}

function flatHeaders(
  headers: Record<string, string | string[] | undefined>,
): Record<string, string | undefined> {
  const flat: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(headers)) {
    flat[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return flat;
}

const SOCKS_REPLIES: ReadonlyArray<[RegExp, ProxyFailureKind]> = [
  [/Authentication failed/i, 'credentials'],
  [/NotAllowed/, 'forbidden'],
  [/NetworkUnreachable/, 'unavailable'],
  [/HostUnreachable/, 'no_exit'],
];

/** What a thrown error of a test means (the answer never came, or the tunnel was refused). */
function classifyError(
  error: unknown,
  connected: boolean,
): { kind: ProxyFailureKind; status: number | null } {
  const message = error instanceof Error ? error.message : String(error);
  const code = (error as { code?: unknown } | null)?.code;
  const tunnelStatus = /Proxy response \((\d{3})\)/.exec(message) ?? /\((\d{3})\)/.exec(message);
  if (tunnelStatus?.[1]) {
    const status = Number(tunnelStatus[1]);
    return { kind: failureKindOf(status, {}), status };
  }
  for (const [pattern, kind] of SOCKS_REPLIES) if (pattern.test(message)) return { kind, status: null };
  if (/socks/i.test(message)) return { kind: 'refused', status: null };
  if (code === 'UND_ERR_CONNECT_TIMEOUT' || code === 'ETIMEDOUT') return { kind: 'timeout', status: null };
  if (typeof code === 'string' && /^(ERR_TLS|ERR_SSL|EPROTO)/.test(code))
    return { kind: 'tls', status: null };
  if (/ssl|tls|handshake/i.test(message)) return { kind: 'tls', status: null };
  return { kind: connected ? 'refused' : 'unreachable', status: null };
}

/** A message as the user may see it: never the password, whatever a library put in it. */
function redact(text: string, request: ProbeRequest): string {
  let out = text;
  for (const secret of [request.password, encodeURIComponent(request.password)]) {
    if (secret.length > 0) out = out.split(secret).join('***');
  }
  return out.slice(0, 500);
}

/**
 * Sends one GET through the proxy to the echo URL and reads which exit IP it came out of. Never
 * throws: every fault (refusal, network, deadline) is a `failure`; credentials go only to the proxy.
 */
export async function probeProxy(request_: ProbeRequest, deps: ProbeDependencies): Promise<ProbeOutcome> {
  const monotonic = deps.monotonic ?? (() => performance.now());
  const started = monotonic();
  const elapsed = () => Math.max(0, Math.round(monotonic() - started));
  let connectMs: number | null = null;
  let firstByteMs: number | null = null;
  const onConnected = () => {
    connectMs ??= elapsed();
  };
  const deadline = new AbortController();
  const timer = new AbortController();
  let timedOut = false;
  deps.clock.sleep(request_.deadlineMs, timer.signal).then(
    () => {
      timedOut = true;
      deadline.abort(new Error('The test was stopped at its deadline.'));
    },
    () => undefined,
  );
  const sockets = new Set<Socket>();
  const dispatcher =
    request_.protocol === 'http'
      ? httpDispatcher(request_, onConnected)
      : socksDispatcher(request_, onConnected, deadline.signal, sockets);
  const fail = (kind: ProxyFailureKind, status: number | null, detail: string | null): ProbeOutcome => ({
    ok: false,
    exit: null,
    timings: { connectMs, firstByteMs, totalMs: elapsed() },
    failure: {
      kind,
      status,
      message: explainFailure(kind, { deadlineMs: request_.deadlineMs, status }),
      detail: detail === null ? null : redact(detail, request_),
    },
  });
  try {
    const response = await request(request_.echoUrl, {
      dispatcher,
      signal: deadline.signal,
      headers: {
        accept: 'application/json, text/plain;q=0.9, */*;q=0.5',
        'user-agent': 'ProxyManager-ProxyTest/1',
      },
    });
    firstByteMs = elapsed();
    const headers = flatHeaders(response.headers);
    const body = await readLimited(response.body);
    const status = response.statusCode;
    if (status < 200 || status >= 300) {
      return fail(failureKindOf(status, headers), status, readErrorPage(body));
    }
    const exit: ProxyExit | null = readEcho(body, headers);
    if (!exit) return fail('echo', status, body.trim().slice(0, 200) || null);
    return { ok: true, exit, timings: { connectMs, firstByteMs, totalMs: elapsed() }, failure: null };
  } catch (error) {
    if (timedOut) return fail('timeout', null, null);
    const { kind, status } = classifyError(error, connectMs !== null);
    return fail(kind, status, error instanceof Error ? error.message : String(error));
  } finally {
    timer.abort();
    for (const socket of sockets) socket.destroy();
    dispatcher.destroy().catch(() => undefined);
  }
}
