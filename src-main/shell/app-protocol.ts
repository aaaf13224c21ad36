import { promises as fs } from 'node:fs';
import { extname, isAbsolute, relative, resolve } from 'node:path';

/**
 * The built renderer is served from `app://renderer/…` rather than `file://`: under `file://` every
 * local file shares the page's origin (so `'self'` in the CSP matches the whole disk) and no response
 * header can carry the CSP. A privileged standard scheme gives the page its own origin, and this
 * handler decides exactly which bytes exist under it.
 */
export const APP_SCHEME = 'app';
const APP_HOST = 'renderer';
const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;
export const APP_RENDERER_URL = `${APP_ORIGIN}/index.html`;

/**
 * Privileges for `protocol.registerSchemesAsPrivileged` (before `ready`): `standard` for a real
 * origin and relative URLs, `secure` for a secure context, `supportFetchAPI`/`corsEnabled` for
 * module scripts (Vite tags them `crossorigin`), `codeCache` for V8's cache. Not `bypassCSP`.
 */
export const APP_SCHEME_PRIVILEGES = {
  standard: true,
  secure: true,
  supportFetchAPI: true,
  corsEnabled: true,
  codeCache: true,
} as const;

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};

export interface AppProtocolOptions {
  /** `out/renderer`: nothing outside it is ever served. */
  rootDir: string;
  /** Sent with every answer as `Content-Security-Policy`. */
  contentSecurityPolicy: string;
  /** Injected by tests; default `fs.promises`. */
  fs?: Pick<typeof fs, 'readFile' | 'realpath' | 'stat'>;
}

function isInside(root: string, target: string): boolean {
  const path = relative(root, target);
  return path === '' || (!path.startsWith('..') && !isAbsolute(path));
}

/**
 * The handler for `protocol.handle('app', …)`: GET/HEAD of a file inside `rootDir`, with the CSP
 * and `nosniff` on every answer. `/` is `index.html`. A path that leaves the root (`..`, encoded
 * `%2e%2e%2f`, a backslash, a NUL, a symlink pointing out) is 403; a missing file 404.
 */
export function createAppProtocolHandler(
  options: AppProtocolOptions,
): (request: Request) => Promise<Response> {
  const files = options.fs ?? fs;
  const root = resolve(options.rootDir);
  const baseHeaders = {
    'Content-Security-Policy': options.contentSecurityPolicy,
    'X-Content-Type-Options': 'nosniff',
    'Cross-Origin-Opener-Policy': 'same-origin',
    'Cross-Origin-Resource-Policy': 'same-origin',
    'Referrer-Policy': 'no-referrer',
  };
  const plain = (status: number, text: string, extra: Record<string, string> = {}) =>
    new Response(text, {
      status,
      headers: { ...baseHeaders, 'Content-Type': 'text/plain; charset=utf-8', ...extra },
    });

  return async (request) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      return plain(405, 'Method not allowed', { Allow: 'GET, HEAD' });
    }
    let url: URL;
    let pathname: string;
    try {
      url = new URL(request.url);
      pathname = decodeURIComponent(url.pathname);
    } catch {
      return plain(400, 'Bad request');
    }
    if (url.protocol !== `${APP_SCHEME}:` || url.host !== APP_HOST) return plain(404, 'Not found');
    if (pathname.includes('\0') || pathname.includes('\\')) return plain(403, 'Forbidden');
    const target = resolve(root, `.${pathname === '/' ? '/index.html' : pathname}`);
    if (!isInside(root, target)) return plain(403, 'Forbidden');
    let body: Buffer;
    try {
      // A symlink inside the root may still point outside it.
      const [realRoot, realTarget] = await Promise.all([files.realpath(root), files.realpath(target)]);
      if (!isInside(realRoot, realTarget)) return plain(403, 'Forbidden');
      if (!(await files.stat(realTarget)).isFile()) return plain(404, 'Not found');
      body = await files.readFile(realTarget);
    } catch {
      return plain(404, 'Not found');
    }
    const headers = {
      ...baseHeaders,
      'Content-Type': CONTENT_TYPES[extname(target).toLowerCase()] ?? 'application/octet-stream',
      'Content-Length': String(body.length),
      'Cache-Control': 'no-cache',
    };
    return new Response(request.method === 'HEAD' ? null : new Uint8Array(body), { status: 200, headers });
  };
}
