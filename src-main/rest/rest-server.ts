import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { AuditEntry, AutomationTokenView, IpcError, IpcResult, Scope } from '../../src-shared/contract';
import type { CallChannel } from '../../src-shared/contract';
import {
  applyConnectionLimits,
  bearerToken,
  BodyTooLarge,
  HTTP_LIMITS,
  type HttpServerLimits,
  httpServerOptions,
  isOwnOrigin,
  listenOnLoopback,
  parseTarget,
  readBody,
} from '../lib/http-guards';
import { isJsonMediaType } from '../lib/json-media-type';
import { publicAnswer } from '../dispatch/public-answers';
import { ipcCalls } from '../../src-shared/contract';
import { matchRoute, openApiDocument, queryInput, restAnswer, type RestRoute } from './rest-routes';

/** A contract call with a token's scopes as the grant, through the guarded dispatcher. */
type GrantedCall = (
  grant: ReadonlySet<Scope>,
  channel: CallChannel,
  input: unknown,
) => Promise<IpcResult<unknown>>;

export interface RestServerOptions {
  /** 0 takes a free port. */
  port: number;
  tokens: { verify(secret: string | null): Promise<AutomationTokenView | null> };
  call: GrantedCall;
  audit?: (entry: AuditEntry) => Promise<void>;
  /** Wall time (epoch ms), for the audit log. */
  now: () => number;
  version: string;
  log?: (line: string) => void;
  /** Overrides of web mode's limits (tests shorten the timeouts). */
  limits?: Partial<HttpServerLimits>;
}

export interface RunningRestServer {
  /** `http://127.0.0.1:PORT` */
  url: string;
  port: number;
  close(): Promise<void>;
}

/** What a connection past the cap is told to wait before trying again. */
const OVER_CAP_RETRY_SECONDS = 1;

const JSON_HEADERS = {
  'Content-Type': 'application/json; charset=utf-8',
  'Cache-Control': 'no-store',
  'X-Content-Type-Options': 'nosniff',
};

function send(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, { ...JSON_HEADERS, ...headers });
  res.end(JSON.stringify(body));
}

function sendError(
  res: ServerResponse,
  status: number,
  error: IpcError,
  headers: Record<string, string> = {},
): void {
  send(res, status, { error }, headers);
}

const CONFLICT_CODES = new Set([
  'owner_refused',
  'not_job_owner',
  'port_in_use',
  'topup_closed',
  'txid_already_used',
  'attempt_elsewhere',
  'idempotency_mismatch',
  'demo_only',
  'conflict',
  'http_409',
]);
const UPSTREAM_CODES = new Set([
  'network_error',
  'timeout',
  'protocol_error',
  'unauthorized',
  'forbidden',
  'cancelled',
]);

/**
 * The HTTP status that fits a contract error. A failure of the proxy service (its 5xx, no answer, an
 * answer that is not the API's, the account's own key refused) is 502, or 503 when the service said
 * when to come back (`Retry-After`): never a 4xx, which would blame the request.
 */
function statusOf(error: IpcError): number {
  const { code } = error;
  const upstream = error.upstreamStatus;
  if (upstream !== undefined && upstream >= 500) {
    return upstream === 503 && error.retryAfterMs !== undefined ? 503 : 502;
  }
  if (UPSTREAM_CODES.has(code) || /^http_5\d\d$/.test(code)) return 502;
  if (error.retryAfterMs !== undefined || code === 'rate_limited' || code === 'http_429') return 429;
  if (code === 'scope_denied') return 403;
  if (code === 'invalid_input' || code === 'invalid_json' || code.startsWith('invalid_')) return 400;
  if (code === 'not_found' || code.endsWith('_not_found') || code === 'http_404') return 404;
  if (CONFLICT_CODES.has(code)) return 409;
  if (code === 'not_configured' || code === 'owner_disconnected') return 503;
  if (code === 'not_implemented') return 501;
  if (code === 'internal_error') return 500;
  // A refusal the service or the app explained (its code and sentence): the request cannot be done.
  return 422;
}

/** Whether the client takes JSON (no `Accept`, or one that names JSON or a wildcard for it). */
function acceptsJson(req: IncomingMessage): boolean {
  const accept = req.headers.accept;
  if (accept === undefined || accept.trim() === '') return true;
  return accept
    .split(',')
    .map((part) => part.split(';')[0]?.trim().toLowerCase())
    .some((type) => type === 'application/json' || type === 'application/*' || type === '*/*');
}

function hasBody(req: IncomingMessage): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/**
 * The local REST API: the contract's routes (`rest-routes.ts`) over HTTP on 127.0.0.1, JSON in and
 * out. Every request needs a token (`Authorization: Bearer`), whose scopes are the grant the guarded
 * dispatcher checks; `Host` and `Origin` must be this exact loopback address (a page elsewhere, or a
 * DNS name rebound here, is refused); no CORS headers, ever; a body must be `application/json`; web
 * mode's limits on bodies, connections and time. Every call after the token check is audited.
 */
export async function startRestServer(options: RestServerOptions): Promise<RunningRestServer> {
  const limits: HttpServerLimits = { ...HTTP_LIMITS, ...options.limits };
  const log = options.log ?? (() => undefined);
  let host = '';
  let origin = '';

  const audit = (
    caller: AuditEntry['caller'],
    channel: string,
    outcome: string,
    started: number,
    remoteAddress: string,
  ): Promise<void> =>
    options.audit?.({
      at: new Date(started).toISOString(),
      surface: 'rest',
      caller,
      channel,
      outcome,
      durationMs: Math.max(0, options.now() - started),
      remoteAddress,
    }) ?? Promise.resolve();
  /** Connections past the cap: each request on them is answered 503 with Retry-After, then closed. */
  const overCap = new WeakSet<Socket>();

  async function readInput(
    req: IncomingMessage,
    res: ServerResponse,
    route: RestRoute,
    url: URL,
    id: string | null,
  ): Promise<{ input: unknown } | { refused: string }> {
    let input: Record<string, unknown> = {};
    if (route.inputIn === 'query') input = queryInput(route, url.searchParams);
    else if (hasBody(req)) {
      // A form or text body is what a page elsewhere can send without a preflight: JSON only.
      if (!isJsonMediaType(req.headers['content-type'])) {
        sendError(res, 415, {
          code: 'unsupported_media_type',
          message: 'Send JSON (Content-Type: application/json).',
        });
        return { refused: 'unsupported_media_type' };
      }
      let text: string;
      try {
        text = await readBody(req, limits.maxBodyBytes);
      } catch (error) {
        if (!(error instanceof BodyTooLarge)) throw error;
        sendError(
          res,
          413,
          { code: 'body_too_large', message: `Body too large (over ${limits.maxBodyBytes} bytes).` },
          { Connection: 'close' },
        );
        return { refused: 'body_too_large' };
      }
      let parsed: unknown;
      try {
        parsed = text.trim() === '' ? {} : JSON.parse(text);
      } catch {
        sendError(res, 400, { code: 'invalid_json', message: 'The body is not JSON.' });
        return { refused: 'bad_json' };
      }
      if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
        sendError(res, 400, { code: 'invalid_json', message: 'The body is a JSON object.' });
        return { refused: 'bad_json' };
      }
      input = parsed as Record<string, unknown>;
    }
    if (route.pathParam && id !== null) {
      if (input[route.pathParam] !== undefined && input[route.pathParam] !== id) {
        const message = `${route.pathParam} is in the path; the body names another.`;
        sendError(res, 400, {
          code: 'invalid_input',
          message,
          fields: [{ field: route.pathParam, message }],
        });
        return { refused: 'invalid_input' };
      }
      input[route.pathParam] = id;
    }
    // No input at all, for a channel that takes none (or whose input is optional).
    if (Object.keys(input).length === 0 && ipcCalls[route.channel].input.safeParse(undefined).success) {
      return { input: undefined };
    }
    return { input };
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const started = options.now();
    const remoteAddress = req.socket.remoteAddress ?? 'unknown';
    let channel = `${req.method ?? '?'} ${(req.url ?? '').split('?')[0] ?? ''}`.slice(0, 100);
    /** A refusal before any token was accepted: audited with the peer, never with what it sent. */
    const refuse = async (
      status: number,
      outcome: string,
      error: IpcError,
      headers: Record<string, string> = {},
    ): Promise<void> => {
      sendError(res, status, error, headers);
      await audit(
        { kind: 'anonymous', name: bearerToken(req) ? 'unknown token' : 'no token' },
        channel,
        outcome,
        started,
        remoteAddress,
      );
    };
    if (overCap.has(req.socket)) {
      await refuse(
        503,
        'over_capacity',
        {
          code: 'over_capacity',
          message: `Too many connections (over ${limits.maxConnections}); try again shortly.`,
        },
        { 'Retry-After': String(OVER_CAP_RETRY_SECONDS), Connection: 'close' },
      );
      return;
    }
    if (!isOwnOrigin(req, host, origin)) {
      await refuse(403, 'forbidden_origin', {
        code: 'forbidden_origin',
        message: 'This server answers only on its own loopback address, to no web page.',
      });
      return;
    }
    const url = parseTarget(req.url);
    if (url === null) {
      await refuse(400, 'bad_target', { code: 'bad_target', message: 'Bad request target.' });
      return;
    }
    if (!acceptsJson(req)) {
      await refuse(406, 'not_acceptable', {
        code: 'not_acceptable',
        message: 'Answers are JSON (Accept: application/json).',
      });
      return;
    }
    const token = await options.tokens.verify(bearerToken(req));
    if (!token) {
      await refuse(
        401,
        'unauthorized',
        {
          code: 'token_invalid',
          message:
            'Missing or unknown token: create one in Settings → Automation or with `proxy-manager token create`.',
        },
        { 'WWW-Authenticate': 'Bearer' },
      );
      return;
    }
    const caller: AuditEntry['caller'] = { kind: 'token', tokenId: token.id, name: token.name };
    if (url.pathname === '/openapi.json') {
      if (req.method !== 'GET') {
        sendError(res, 405, { code: 'method_not_allowed', message: 'GET only.' }, { Allow: 'GET' });
        await audit(caller, channel, 'method_not_allowed', started, remoteAddress);
        return;
      }
      send(res, 200, openApiDocument(origin, options.version));
      return;
    }
    const matched = matchRoute(req.method ?? '', url.pathname);
    if (matched === null) {
      sendError(res, 404, { code: 'not_found', message: 'No such route (see /openapi.json).' });
      await audit(caller, channel, 'not_found', started, remoteAddress);
      return;
    }
    if ('methods' in matched) {
      sendError(
        res,
        405,
        { code: 'method_not_allowed', message: `Use ${matched.methods.join(' or ')}.` },
        { Allow: matched.methods.join(', ') },
      );
      await audit(caller, channel, 'method_not_allowed', started, remoteAddress);
      return;
    }
    const { route, id } = matched;
    channel = route.channel;
    const read = await readInput(req, res, route, url, id);
    if ('refused' in read) {
      await audit(caller, channel, read.refused, started, remoteAddress);
      return;
    }
    const result = await options.call(new Set(token.scopes), route.channel, read.input);
    await audit(caller, channel, result.ok ? 'ok' : result.error.code, started, remoteAddress);
    if (result.ok) {
      const answer = restAnswer(route, publicAnswer(route.channel, result.value) ?? null, origin, url);
      send(res, 200, answer.body ?? null, answer.headers);
      return;
    }
    const status = statusOf(result.error);
    const retry = result.error.retryAfterMs;
    sendError(
      res,
      status,
      result.error,
      (status === 429 || status === 503) && retry !== undefined
        ? { 'Retry-After': String(Math.max(1, Math.ceil(retry / 1000))) }
        : {},
    );
  }

  const server: Server = createServer(httpServerOptions(limits), (req, res) => {
    handle(req, res).catch((error: unknown) => {
      log(`rest: request failed: ${error instanceof Error ? error.message : String(error)}`);
      if (!res.headersSent) sendError(res, 500, { code: 'internal_error', message: 'Internal error.' });
      else res.destroy();
    });
  });
  // Past the cap a connection is answered (503, Retry-After) rather than reset; only past twice the
  // cap is it dropped unanswered, so that a flood cannot hold unbounded sockets.
  applyConnectionLimits(server, { ...limits, maxConnections: limits.maxConnections * 2 }, log, 'rest');
  let open = 0;
  server.on('connection', (socket: Socket) => {
    open += 1;
    if (open > limits.maxConnections) overCap.add(socket);
    socket.once('close', () => {
      open -= 1;
    });
  });
  const bound = await listenOnLoopback(server, options.port, log, 'rest');
  ({ host, origin } = bound);
  return {
    url: origin,
    port: bound.port,
    close: () =>
      new Promise<void>((resolveClose) => {
        server.close(() => resolveClose());
        server.closeAllConnections();
      }),
  };
}
