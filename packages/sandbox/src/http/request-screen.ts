import type { IncomingMessage } from 'node:http';
import { isIP } from 'node:net';
import { isJsonMediaType } from '../lib/json-media-type';
import { SandboxError } from './sandbox-error';

/** The host name of a `Host` value (`[::1]:4010` -> `::1`), lower case; '' when it is not one. */
function hostName(host: string): string {
  const match = /^(?:\[([^\]]+)\]|([^:[\]]+))(?::\d+)?$/.exec(host);
  return (match?.[1] ?? match?.[2] ?? '').toLowerCase();
}

/**
 * Browsers name the page that sent a request in `Origin`; scripts and the app send none. The sandbox
 * serves no pages, so the only origin it accepts is its own: `http://` plus the `Host` the request
 * names, and only when that host is an IP address or `localhost` (a DNS name could have been
 * re-pointed at the sandbox by the page's own site). Anything else, `null` included, is 403.
 */
export function requireOwnOrigin(req: IncomingMessage): void {
  const origin = req.headers.origin;
  if (origin === undefined) return;
  const host = req.headers.host ?? '';
  const name = hostName(host);
  const ownHost = name === 'localhost' || isIP(name) !== 0;
  if (ownHost && origin.toLowerCase() === `http://${host.toLowerCase()}`) return;
  throw new SandboxError(
    403,
    'origin_not_allowed',
    'Requests from web pages are refused: the sandbox answers only requests without an Origin or from its own',
  );
}

/** Whether the request carries a body (a declared non-zero length, or a chunked one). */
function hasBody(req: IncomingMessage): boolean {
  if (req.headers['transfer-encoding'] !== undefined) return true;
  const length = req.headers['content-length'];
  return length !== undefined && length !== '0';
}

/**
 * A body must be declared `application/json` (parameters allowed). A page can send `text/plain`,
 * form or multipart bodies to any site without asking first; `application/json` needs a CORS
 * preflight, which the sandbox never grants.
 */
export function requireJsonBody(req: IncomingMessage): void {
  if (!hasBody(req) || isJsonMediaType(req.headers['content-type'])) return;
  throw new SandboxError(
    415,
    'unsupported_media_type',
    'A request body must be JSON, sent with Content-Type: application/json',
  );
}
