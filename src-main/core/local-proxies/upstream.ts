import { connect as netConnect, type Socket } from 'node:net';
import type { LocalProxyErrorKind } from '../../../src-shared/contract';
import { failureKindOf, readErrorPage } from '../proxy-test/echo-reading';

/**
 * The proxy a local proxy forwards to, with the credentials main read for it. It lives in memory
 * only, never in a file, an event or an answer.
 */
export interface Upstream {
  host: string;
  /** The upstream's HTTP proxy port: CONNECT for tunnels, absolute-form requests for plain http. */
  port: number;
  username: string;
  password: string;
  /** Grows with every change, so a failed request can tell that newer credentials already exist. */
  generation: number;
}

/** Why a request did not get through, with whether a re-read of the target may help. */
export interface UpstreamFailure {
  kind: LocalProxyErrorKind;
  status: number | null;
  /** The gateway's own words (its error page), or the network error; never a password. */
  detail: string | null;
  /**
   * A 407 or a refused connection: the credentials or the endpoint may have changed outside the
   * app, so the target is read again once and the request retried with what is found.
   */
  stale: boolean;
}

/** Where a local proxy gets its upstream from (the resolver: the service's API and events). */
export interface UpstreamSource {
  /** The upstream to use now; reads the target when it is not known yet. Throws when it cannot. */
  current(): Promise<Upstream>;
  /** After `used` failed as stale: the newest upstream, reading the target again when that may help. */
  refresh(used: Upstream): Promise<Upstream>;
}

/** The header the sandbox gateway names its refusals in (a real provider's page has its own words). */
export const GATEWAY_ERROR_HEADER = 'x-sandbox-gateway-error';
/** Most of an upstream's answer head read before a tunnel is given up as malformed. */
const MAX_HEAD_BYTES = 32 * 1024;
/** Most of a refusal page read for its words. */
const MAX_PAGE_BYTES = 16 * 1024;

export function basicAuthorization(username: string, password: string): string {
  return `Basic ${Buffer.from(`${username}:${password}`, 'utf8').toString('base64')}`;
}

/** `host:port` as a request target, with brackets for an IPv6 literal. */
export function hostPort(host: string, port: number): string {
  return `${host.includes(':') ? `[${host}]` : host}:${port}`;
}

/** A network error as a failure: a refused connection may mean the endpoint moved. */
export function networkFailure(error: unknown): UpstreamFailure {
  const code = (error as { code?: unknown } | null)?.code;
  const message = error instanceof Error ? error.message : String(error);
  if (code === 'ETIMEDOUT' || code === 'ESOCKETTIMEDOUT') {
    return { kind: 'timeout', status: null, detail: message, stale: false };
  }
  return {
    kind: 'unreachable',
    status: null,
    detail: message,
    stale: code === 'ECONNREFUSED' || code === 'ENOTFOUND' || code === 'EAI_AGAIN',
  };
}

/** A non-2xx answer of the upstream as a failure; a 407 is stale credentials. */
export function refusalFailure(
  status: number,
  headers: Record<string, string | undefined>,
  page: string,
): UpstreamFailure {
  const kind = failureKindOf(status, headers);
  return {
    kind: narrowKind(kind),
    status,
    detail: readErrorPage(page),
    stale: status === 407,
  };
}

function narrowKind(kind: ReturnType<typeof failureKindOf>): LocalProxyErrorKind {
  switch (kind) {
    case 'no_exit':
    case 'targeting':
    case 'forbidden':
    case 'unavailable':
    case 'credentials':
    case 'refused':
    case 'timeout':
    case 'unreachable':
    case 'lookup':
      return kind;
    case 'echo':
    case 'tls':
      return 'refused';
  }
}

export type TunnelResult =
  { ok: true; socket: Socket; rest: Buffer } | { ok: false; failure: UpstreamFailure };

interface ParsedHead {
  status: number;
  headers: Record<string, string | undefined>;
  headEnd: number;
}

function parseHead(buffer: Buffer): ParsedHead | null {
  const end = buffer.indexOf('\r\n\r\n');
  if (end < 0) return null;
  const lines = buffer.subarray(0, end).toString('latin1').split('\r\n');
  const statusLine = /^HTTP\/\d(?:\.\d)? (\d{3})/.exec(lines[0] ?? '');
  const headers: Record<string, string | undefined> = {};
  for (const line of lines.slice(1)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { status: statusLine?.[1] ? Number(statusLine[1]) : 0, headers, headEnd: end + 4 };
}

/**
 * Opens a tunnel to `target` (`host:port`) through the upstream's HTTP proxy port with CONNECT and
 * the upstream's credentials. Settles with the open socket (and any bytes that came after the
 * answer's head) or with why it was refused, reading the refusal page for the gateway's words.
 */
export function openTunnel(upstream: Upstream, target: string, timeoutMs: number): Promise<TunnelResult> {
  return new Promise((resolve) => {
    let settled = false;
    let received = Buffer.alloc(0);
    let head: ParsedHead | null = null;
    const socket = netConnect({ host: upstream.host, port: upstream.port });
    const finish = (result: TunnelResult) => {
      if (settled) return;
      settled = true;
      socket.removeListener('data', onData);
      socket.setTimeout(0);
      if (!result.ok) socket.destroy();
      resolve(result);
    };
    const refuse = () => {
      if (!head) return;
      const page = received.subarray(head.headEnd, head.headEnd + MAX_PAGE_BYTES).toString('utf8');
      finish({ ok: false, failure: refusalFailure(head.status, head.headers, page) });
    };
    const onData = (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      if (!head) {
        head = parseHead(received);
        if (!head) {
          if (received.length > MAX_HEAD_BYTES) {
            finish({
              ok: false,
              failure: {
                kind: 'refused',
                status: null,
                detail: 'The upstream answered no HTTP head.',
                stale: false,
              },
            });
          }
          return;
        }
        if (head.status >= 200 && head.status < 300) {
          socket.pause();
          finish({ ok: true, socket, rest: received.subarray(head.headEnd) });
          return;
        }
      }
      // A refusal: its page is read up to its length (or the cap), for the gateway's words.
      const length = Number(head.headers['content-length'] ?? Number.NaN);
      const body = received.length - head.headEnd;
      if ((Number.isFinite(length) && body >= length) || body >= MAX_PAGE_BYTES) refuse();
    };
    socket.on('data', onData);
    socket.once('end', () => {
      if (head) refuse();
      else
        finish({
          ok: false,
          failure: {
            kind: 'refused',
            status: null,
            detail: 'The upstream closed the connection.',
            stale: false,
          },
        });
    });
    socket.once('error', (error) => finish({ ok: false, failure: networkFailure(error) }));
    socket.setTimeout(timeoutMs, () =>
      finish({ ok: false, failure: { kind: 'timeout', status: null, detail: null, stale: false } }),
    );
    socket.once('connect', () => {
      socket.write(
        `CONNECT ${target} HTTP/1.1\r\nHost: ${target}\r\n` +
          `Proxy-Authorization: ${basicAuthorization(upstream.username, upstream.password)}\r\n\r\n`,
      );
    });
  });
}
