import { z } from 'zod';
import { type AutomationChannel, AUTOMATION_CHANNELS, toolNameOf } from '../dispatch/automation-catalog';
import { answerSchemaOf } from '../dispatch/output-schemas';
import { type CallChannel, ipcCalls, type Scope } from '../../src-shared/contract';

/**
 * The local REST API's routes, derived from the contract (the channels `automation-catalog.ts`
 * offers): `domain:name` becomes a resource path under `/v1/<domain>`, with the resource's id
 * (`portId`, `subscriptionId`, `topUpId`, a local proxy's `id`) as a path segment. Reads are `GET`
 * with query parameters (a read whose input holds objects is a `POST`); writes are `POST`, `PATCH`
 * (`update…`) or `DELETE` (`remove…`, `delete…`) with a JSON body. The OpenAPI document is built from
 * the same schemas.
 */

type JsonSchema = Record<string, unknown> & {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
};

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'DELETE';

export interface RestRoute {
  channel: CallChannel;
  scope: Scope;
  method: HttpMethod;
  /** `/v1/ports/{portId}/rotate` */
  path: string;
  /** The input's id field in the path, or null. */
  pathParam: string | null;
  /** Input in the query (GET) or the body. */
  inputIn: 'query' | 'body';
  /** The input's JSON Schema (zod 4), or null when the channel takes no input. */
  schema: JsonSchema | null;
  description: string;
  /** A list route: answered as a bare array, its wrapper's other members in headers. */
  list: RestList | null;
}

/**
 * A list route's answer is its items, a JSON array of objects (`jq -r '.[0].id'`). A page the
 * service numbers (`server`) is told in headers as GitHub's REST API does (`Link` with rel next,
 * prev, first and last; `X-Total-Count`); the wrapper's other members go into the headers named here.
 */
interface RestList {
  /** The wrapper's member that holds the items. */
  path: string;
  server: boolean;
  /** The items' stable key (`id`, or `portId`, `ip`, `eventId` where they have no `id`). */
  key: string;
  /** Wrapper member → response header. */
  headers: Readonly<Record<string, string>>;
}

const LIST_DETAILS: Partial<Record<CallChannel, Pick<RestList, 'key' | 'headers'>>> = {
  'topups:list': { key: 'id', headers: {} },
  'ports:ipHistory': { key: 'ip', headers: {} },
  'schedules:list': {
    key: 'portId',
    headers: { paused: 'X-Schedules-Paused', profileId: 'X-Schedules-Profile-Id' },
  },
  'localProxies:list': {
    key: 'id',
    headers: {
      runsHere: 'X-Local-Proxies-Runs-Here',
      message: 'X-Local-Proxies-Message',
      suggestedPort: 'X-Local-Proxies-Suggested-Port',
    },
  },
  'alertRouting:deliveries': { key: 'eventId', headers: { sendsHere: 'X-Alert-Deliveries-Sends-Here' } },
};

function listOf(entry: AutomationChannel): RestList | null {
  if (!entry.list || entry.list.path === '') return null;
  const details = LIST_DETAILS[entry.channel] ?? { key: 'id', headers: {} };
  return { path: entry.list.path, server: entry.list.server === true, ...details };
}

const ID_FIELDS = ['portId', 'subscriptionId', 'topUpId', 'id'] as const;

const kebab = (text: string): string => text.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);

function inputSchemaOf(channel: CallChannel): JsonSchema | null {
  const json = z.toJSONSchema(ipcCalls[channel].input, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
  delete json.$schema;
  return json.type === 'object' ? json : null;
}

function methodOf(entry: AutomationChannel, name: string, schema: JsonSchema | null): HttpMethod {
  if (/^(update)/.test(name)) return 'PATCH';
  if (/^(remove|delete)/.test(name)) return 'DELETE';
  if (entry.scope !== 'read') return 'POST';
  const structured = Object.values(schema?.properties ?? {}).some((property) => {
    const type = property.type;
    return (
      type === 'object' || type === 'array' || property.oneOf !== undefined || property.anyOf !== undefined
    );
  });
  return structured ? 'POST' : 'GET';
}

/** The path's last segment: the name without the verb the method already says (`createSubUser` → `sub-user`). */
function actionOf(name: string, method: HttpMethod): string | null {
  if (['list', 'get', 'update', 'remove', 'delete', 'add', 'create'].includes(name)) return null;
  const stripped = name.replace(/^(update|delete|remove|create)(?=[A-Z])/, '');
  if (stripped !== name && method !== 'GET')
    return kebab(stripped.charAt(0).toLowerCase() + stripped.slice(1));
  return kebab(name);
}

function routeOf(entry: AutomationChannel): RestRoute {
  const [domain = '', name = ''] = entry.channel.split(':');
  const schema = inputSchemaOf(entry.channel);
  const required = new Set(schema?.required ?? []);
  const pathParam =
    ID_FIELDS.find((field) => required.has(field) && schema?.properties?.[field]?.type === 'string') ?? null;
  const method = methodOf(entry, name, schema);
  const action = actionOf(name, method);
  const path = [`/v1/${kebab(domain)}`, pathParam ? `{${pathParam}}` : null, action]
    .filter(Boolean)
    .join('/');
  return {
    channel: entry.channel,
    scope: entry.scope,
    method,
    path,
    pathParam,
    inputIn: method === 'GET' ? 'query' : 'body',
    schema,
    description: entry.description,
    list: listOf(entry),
  };
}

const REST_ROUTES: readonly RestRoute[] = AUTOMATION_CHANNELS.map(routeOf);

const ROUTES_LITERAL_FIRST = [...REST_ROUTES].sort(
  (a, b) => Number(a.pathParam !== null) - Number(b.pathParam !== null),
);

export interface MatchedRoute {
  route: RestRoute;
  /** The path parameter's value, decoded. */
  id: string | null;
}

/** The route for a method and path; `methods` lists what the path allows when the method is wrong. */
export function matchRoute(
  method: string,
  pathname: string,
): MatchedRoute | { methods: HttpMethod[] } | null {
  const segments = pathname.split('/');
  const methods: HttpMethod[] = [];
  // Literal paths first: `/v1/ports/relocations` is not the port "relocations".
  for (const route of ROUTES_LITERAL_FIRST) {
    const pattern = route.path.split('/');
    if (pattern.length !== segments.length) continue;
    let id: string | null = null;
    const fits = pattern.every((part, index) => {
      const segment = segments[index] ?? '';
      if (part.startsWith('{')) {
        try {
          id = decodeURIComponent(segment);
        } catch {
          return false;
        }
        return id.length > 0;
      }
      return part === segment;
    });
    if (!fits) continue;
    if (route.method === method) return { route, id };
    methods.push(route.method);
  }
  return methods.length > 0 ? { methods } : null;
}

/** A query parameter's text as its schema's type (zod then checks the value as for any surface). */
function fromQuery(values: string[], schema: JsonSchema | undefined): unknown {
  const type = schema?.type;
  const one = values.at(-1) ?? '';
  if (type === 'integer' || type === 'number') return /^-?\d+(\.\d+)?$/.test(one) ? Number(one) : one;
  if (type === 'boolean') return one === 'true' ? true : one === 'false' ? false : one;
  if (type === 'array') return values.flatMap((value) => value.split(',')).filter(Boolean);
  return one;
}

/** The channel's input from the query string (GET). */
export function queryInput(route: RestRoute, query: URLSearchParams): Record<string, unknown> {
  const input: Record<string, unknown> = {};
  for (const key of new Set(query.keys()))
    input[key] = fromQuery(query.getAll(key), route.schema?.properties?.[key]);
  return input;
}

/** A header value: text as it is where it is printable ASCII, other characters percent-encoded. */
const headerText = (value: string | number | boolean): string =>
  String(value).replace(/[^\x20-\x7e]/g, (character) => encodeURIComponent(character));

/**
 * What a route sends for the channel's (public) answer: a list route's items as a bare array, its
 * paging in `Link` and `X-Total-Count`, its wrapper's other members in its headers; any other route
 * the answer as it is. `origin` and `url` make the `Link` addresses (the request's query, with `page`).
 */
export function restAnswer(
  route: RestRoute,
  value: unknown,
  origin: string,
  url: URL,
): { body: unknown; headers: Record<string, string> } {
  const list = route.list;
  if (!list || value === null || typeof value !== 'object') return { body: value, headers: {} };
  const wrapper = value as Record<string, unknown>;
  const items = wrapper[list.path];
  if (!Array.isArray(items)) return { body: value, headers: {} };
  const headers: Record<string, string> = {};
  for (const [member, header] of Object.entries(list.headers)) {
    const held = wrapper[member];
    if (typeof held === 'string' || typeof held === 'number' || typeof held === 'boolean')
      headers[header] = headerText(held);
  }
  const pagination = wrapper.pagination as
    { page?: unknown; perPage?: unknown; total?: unknown; totalPages?: unknown } | undefined;
  if (list.server && pagination && typeof pagination.page === 'number') {
    const { page, perPage, total, totalPages } = pagination;
    if (typeof total === 'number') headers['X-Total-Count'] = String(total);
    const link = (to: number, rel: string): string => {
      const query = new URLSearchParams(url.searchParams);
      query.set('page', String(to));
      if (typeof perPage === 'number') query.set('perPage', String(perPage));
      return `<${origin}${url.pathname}?${query.toString()}>; rel="${rel}"`;
    };
    const last = typeof totalPages === 'number' ? Math.max(1, totalPages) : null;
    const links: string[] = [];
    if (last === null ? items.length > 0 : page < last) links.push(link(page + 1, 'next'));
    if (page > 1) links.push(link(page - 1, 'prev'));
    links.push(link(1, 'first'));
    if (last !== null) links.push(link(last, 'last'));
    headers.Link = links.join(', ');
  }
  return { body: items, headers };
}

/** A list route's 200 schema: the array its wrapper's schema holds. */
function listSchemaOf(route: RestRoute, list: RestList): Record<string, unknown> {
  const properties = answerSchemaOf(route.channel).properties as Record<string, JsonSchema> | undefined;
  const items = properties?.[list.path];
  if (items?.type !== 'array') throw new Error(`${route.channel} keeps no list in ${list.path}.`);
  return {
    ...items,
    description: `The items, one object each (key: ${list.key}); ${
      list.server ? 'the page in the Link and X-Total-Count headers' : 'not paged'
    }.`,
    'x-list-key': list.key,
  };
}

function listHeadersOf(list: RestList): Record<string, unknown> {
  const headers: Record<string, unknown> = {};
  if (list.server) {
    headers.Link = {
      description:
        'The pages as GitHub’s REST API gives them: `<…?page=2&perPage=50>; rel="next"`, and prev, first, last.',
      schema: { type: 'string' },
    };
    headers['X-Total-Count'] = {
      description: 'How many items there are in all pages.',
      schema: { type: 'integer' },
    };
  }
  for (const [member, header] of Object.entries(list.headers))
    headers[header] = {
      description: `The list’s \`${member}\` (text: characters outside printable ASCII percent-encoded; absent when null).`,
      schema: { type: 'string' },
    };
  return headers;
}

const ERROR_SCHEMA = {
  type: 'object',
  required: ['error'],
  properties: {
    error: {
      type: 'object',
      required: ['code', 'message'],
      properties: {
        code: {
          type: 'string',
          description: 'invalid_input, token_invalid, scope_denied, not_found, rate_limited…',
        },
        message: { type: 'string' },
        fields: {
          type: 'array',
          items: {
            type: 'object',
            required: ['field', 'message'],
            properties: { field: { type: 'string' }, message: { type: 'string' } },
          },
        },
        retryAfterMs: { type: 'integer' },
        scope: { type: 'string' },
      },
    },
  },
} as const;

const errorResponse = (description: string) => ({
  description,
  content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
});

function operationOf(route: RestRoute): Record<string, unknown> {
  const properties = route.schema?.properties ?? {};
  const required = new Set(route.schema?.required ?? []);
  const parameters: Record<string, unknown>[] = [];
  if (route.pathParam) {
    parameters.push({
      name: route.pathParam,
      in: 'path',
      required: true,
      schema: properties[route.pathParam],
    });
  }
  if (route.inputIn === 'query') {
    for (const [name, schema] of Object.entries(properties)) {
      if (name === route.pathParam) continue;
      parameters.push({ name, in: 'query', required: required.has(name), schema });
    }
  }
  let requestBody: Record<string, unknown> | undefined;
  if (route.inputIn === 'body' && route.schema) {
    const bodyProperties = Object.fromEntries(
      Object.entries(properties).filter(([name]) => name !== route.pathParam),
    );
    const bodyRequired = [...required].filter((name) => name !== route.pathParam);
    requestBody = {
      required: bodyRequired.length > 0,
      content: {
        'application/json': {
          schema: {
            ...route.schema,
            properties: bodyProperties,
            ...(bodyRequired.length > 0 ? { required: bodyRequired } : { required: undefined }),
          },
        },
      },
    };
  }
  return {
    operationId: toolNameOf(route.channel),
    summary: route.description,
    tags: [route.channel.split(':')[0]],
    'x-contract-channel': route.channel,
    'x-scope': route.scope,
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(requestBody ? { requestBody: JSON.parse(JSON.stringify(requestBody)) as unknown } : {}),
    responses: {
      '200': route.list
        ? {
            description: 'The list as a JSON array of objects; its paging and other members in the headers.',
            headers: listHeadersOf(route.list),
            content: { 'application/json': { schema: listSchemaOf(route, route.list) } },
          }
        : {
            description: 'The answer, as this schema describes it.',
            content: { 'application/json': { schema: answerSchemaOf(route.channel) } },
          },
      '400': errorResponse('Bad input: the fields and their messages.'),
      '401': errorResponse('No token, or not a valid one.'),
      '403': errorResponse(
        `Outside the token’s scopes (needs "${route.scope}"), or a foreign Host or Origin.`,
      ),
      '404': errorResponse('No such resource.'),
      '409': errorResponse('Refused in the current state (another process owns the jobs, a closed top-up…).'),
      '429': {
        ...errorResponse('Too soon (a rotation within its cooldown).'),
        headers: { 'Retry-After': { schema: { type: 'integer' } } },
      },
    },
  };
}

/** The OpenAPI 3.1 document of the routes, for a server at `origin`. */
export function openApiDocument(origin: string, version: string): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of REST_ROUTES) {
    paths[route.path] ??= {};
    (paths[route.path] as Record<string, unknown>)[route.method.toLowerCase()] = operationOf(route);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Proxy Manager local REST API',
      version,
      description:
        'The contract of Proxy Manager over HTTP on this computer (127.0.0.1 only). Every request needs a token from Settings → Automation or `proxy-manager token create` (Authorization: Bearer); each operation needs the scope in its x-scope.',
    },
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    servers: [{ url: origin }],
    security: [{ bearerAuth: [] }],
    paths,
    components: {
      securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer' } },
      schemas: { Error: ERROR_SCHEMA },
    },
  };
}
