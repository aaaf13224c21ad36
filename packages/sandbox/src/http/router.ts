import type { IncomingHttpHeaders } from 'node:http';
import { SandboxError } from './sandbox-error';

type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'DELETE';

/**
 * How a route authenticates: `public` needs nothing, `bearer` needs `Authorization: Bearer <key>`,
 * `query-key` takes the key from the `key` query parameter (the bookmarkable rotate link).
 */
type AuthMode = 'public' | 'bearer' | 'query-key';

export interface AuthenticatedKey {
  key: string;
  scopes: ReadonlySet<string>;
}

export interface RouteContext {
  method: HttpMethod;
  /** Path relative to the mount point, e.g. `/v1/mobile/port_1` for the API or `/clock` for control. */
  path: string;
  params: Readonly<Record<string, string>>;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  /** Parsed JSON body; `undefined` when the request had no body. */
  body: unknown;
  /** Sandbox clock (epoch ms) at the moment the request was handled; modules are settled up to it. */
  now: number;
  auth: AuthenticatedKey | null;
}

export interface RouteResult {
  status: number;
  /** Serialised as JSON unless `text` is given. */
  body?: unknown;
  /** A `text/plain` body instead of JSON. */
  text?: string;
  headers?: Record<string, string>;
}

export interface RouteDefinition {
  method: HttpMethod;
  /** Literal segments and `:name` parameters, e.g. `/v1/mobile/:portId/rotate`. */
  path: string;
  auth: AuthMode;
  /** Scope the key must carry (only checked when set). */
  scope?: string;
  /** True when the handler may change state, so the sandbox persists after it. */
  mutates?: boolean;
  handler: (ctx: RouteContext) => RouteResult | Promise<RouteResult>;
}

interface CompiledRoute {
  definition: RouteDefinition;
  segments: string[];
}

export interface RouteMatch {
  definition: RouteDefinition;
  params: Record<string, string>;
}

const splitPath = (path: string): string[] => path.split('/').filter((s) => s.length > 0);

/** Matches request paths against route patterns; distinguishes "no such path" (404) from "wrong method" (405). */
export class Router {
  private readonly routes: CompiledRoute[] = [];

  add(definitions: readonly RouteDefinition[]): this {
    for (const definition of definitions) {
      const duplicate = this.routes.find(
        (r) => r.definition.method === definition.method && r.definition.path === definition.path,
      );
      if (duplicate) throw new Error(`duplicate route ${definition.method} ${definition.path}`);
      this.routes.push({ definition, segments: splitPath(definition.path) });
    }
    return this;
  }

  /** Throws a 404 or 405 `SandboxError` when nothing matches. */
  match(method: string, path: string): RouteMatch {
    const requested = splitPath(path);
    const allowed: string[] = [];
    for (const route of this.routes) {
      const params = matchSegments(route.segments, requested);
      if (!params) continue;
      if (route.definition.method === method) return { definition: route.definition, params };
      allowed.push(route.definition.method);
    }
    if (allowed.length > 0) {
      throw new SandboxError(405, 'method_not_allowed', `${method} is not allowed on ${path}`, undefined, {
        Allow: allowed.join(', '),
      });
    }
    throw new SandboxError(404, 'not_found', `No endpoint at ${path}`);
  }
}

function matchSegments(pattern: string[], requested: string[]): Record<string, string> | null {
  if (pattern.length !== requested.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < pattern.length; i += 1) {
    const expected = pattern[i] as string;
    const actual = requested[i] as string;
    if (expected.startsWith(':')) {
      let decoded: string;
      try {
        decoded = decodeURIComponent(actual);
      } catch {
        return null;
      }
      params[expected.slice(1)] = decoded;
    } else if (expected !== actual) {
      return null;
    }
  }
  return params;
}
