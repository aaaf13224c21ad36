/**
 * How a spec path (`/v1/mobile`) becomes a URL. The spec writes paths relative to a `{base_url}` that
 * already ends in `/api/v1`, and the paths themselves start with `/v1`; it can be read three ways:
 * - `literal` (default, the sandbox's reading): base + path, `…/api/v1` + `/v1/mobile` = `…/api/v1/v1/mobile`;
 * - `strip-v1`: base + path without its leading `/v1`, `…/api/v1/mobile`;
 * - `origin`: the base's origin + path, `https://host/v1/mobile`.
 */
import type { PathStyle } from '../../src-shared/base-url-rule';

type QueryValue = string | number | boolean | null | undefined;
export type QueryParams = Record<string, QueryValue>;

export class InvalidBaseUrlError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InvalidBaseUrlError';
  }
}

/**
 * Checks and tidies a base URL as a user typed it: trimmed, http(s) only, no credentials, query or
 * fragment, no trailing slash. Throws `InvalidBaseUrlError` with a message for the settings form (which
 * never repeats the input, in case a key was pasted in the wrong field).
 */
export function normalizeBaseUrl(input: string): string {
  const text = input.trim();
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new InvalidBaseUrlError('The base URL is not a valid URL; it looks like https://host/api/v1');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new InvalidBaseUrlError('The base URL must start with https:// (or http:// for a local sandbox)');
  }
  if (url.username || url.password) {
    throw new InvalidBaseUrlError('The base URL must not contain a user name or password');
  }
  if (url.search || url.hash) {
    throw new InvalidBaseUrlError('The base URL must not contain a query (?…) or fragment (#…)');
  }
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

/** The path as the style reads it, e.g. `/v1/mobile` -> `/mobile` under `strip-v1`. */
function stylePath(specPath: string, style: PathStyle): string {
  if (style !== 'strip-v1') return specPath;
  const stripped = specPath.replace(/^\/v1(?=\/|$)/, '');
  return stripped === '' ? '/' : stripped;
}

/** Appends `query` (skipping null and undefined values) to `url`. */
export function withQuery(url: string, query: QueryParams | undefined): string {
  if (!query) return url;
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value === null || value === undefined) continue;
    params.append(name, String(value));
  }
  const text = params.toString();
  if (!text) return url;
  return `${url}${url.includes('?') ? '&' : '?'}${text}`;
}

/** The absolute URL of a spec path under a normalised base URL. */
export function joinUrl(
  baseUrl: string,
  specPath: string,
  style: PathStyle = 'literal',
  query?: QueryParams,
): string {
  if (!specPath.startsWith('/')) throw new TypeError(`A spec path starts with "/": ${specPath}`);
  const base = normalizeBaseUrl(baseUrl);
  const root = style === 'origin' ? new URL(base).origin : base;
  return withQuery(`${root}${stylePath(specPath, style)}`, query);
}
