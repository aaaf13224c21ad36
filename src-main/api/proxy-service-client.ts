/**
 * The typed client of the Proxy Service API: one method per endpoint of the spec, every answer checked
 * by its schema. No Electron here; the main process, web mode and tests all use this class.
 */
import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import { AuthError, type ResourceRef } from './api-errors';
import {
  asnListSchema,
  type Asn,
  type Carrier,
  carrierListSchema,
  type City,
  cityListSchema,
  type Coin,
  coinListSchema,
  type Country,
  countryListSchema,
  type CountryQuery,
  ipHistoryPageSchema,
  type IpHistoryPage,
  type MobilePort,
  mobilePortListSchema,
  mobilePortSchema,
  type MobilePortUpdate,
  type PageQuery,
  type RelocationRequest,
  type RotationResult,
  rotationResultSchema,
  type RotationTextResult,
  type State,
  stateListSchema,
  type Subscription,
  subscriptionListSchema,
  type SubscriptionListQuery,
  subscriptionSchema,
  type SubscriptionUpdate,
  type SubscriptionUsageQuery,
  type SubUser,
  type SubUserCreate,
  type SubUserList,
  subUserListSchema,
  subUserSchema,
  type SubUserUpdate,
  type TopUp,
  type TopUpCreate,
  type TopUpListQuery,
  type TopUpPage,
  topUpPageSchema,
  topUpSchema,
  type TxidDeclaration,
  type UsageQuery,
  type UsageReport,
  usageReportSchema,
} from '../../src-shared/api-types';
import type { BudgetClass, CallBudget, CallPriority, SlowCallInfo } from './call-budget';
import { resourceIdProblem } from '../../src-shared/resource-id';
import type { PathStyle } from '../../src-shared/base-url-rule';
import { joinUrl, normalizeBaseUrl, type QueryParams } from './base-url';
import {
  AnswerProblem,
  type HttpMethod,
  HttpTransport,
  type HttpTransportOptions,
  type RawAnswer,
  type RetryMode,
  type TransportLoad,
} from './http-transport';
import { Redactor } from './redact';

export interface ProxyServiceClientOptions extends Omit<HttpTransportOptions, 'redactor'> {
  /** As the provider gave it, e.g. `https://host/api/v1`. */
  baseUrl: string;
  /** Null or absent: only the public catalog works; other calls fail with `AuthError` `missing_key`. */
  apiKey?: string | null;
  /** How spec paths join the base URL; default `literal`. `probeBaseUrl` finds the right one. */
  pathStyle?: PathStyle;
  /** Makes `Idempotency-Key` values when the caller gives none. Default `crypto.randomUUID`. */
  newIdempotencyKey?: () => string;
}

/**
 * Per call: how the caller can cancel it, who is waiting for it and how to hear that it is slow.
 * Every public method takes one as its last argument.
 */
export interface CallOptions {
  /**
   * Aborting cancels the call at once: the waiting slot, the open socket or the pause before a retry.
   * The call then fails with `CancelledError` (never retried); a write that may have reached the
   * service is `outcomeUnknown`.
   */
  signal?: AbortSignal | undefined;
  /**
   * `interactive` (default): someone is waiting; `background`: refreshes and jobs. Background calls get
   * the patient `background` budget and never take the slots kept for interactive calls. Rotations keep
   * the `rotation` budget either way.
   */
  priority?: CallPriority | undefined;
  /**
   * Called once if the call is still unsettled after its budget's `slowAfterMs` (3 s for interactive
   * calls): the moment to show "still waiting…" next to a Cancel that aborts `signal`.
   */
  onSlow?: ((info: SlowCallInfo) => void) | undefined;
}

export interface TopUpCreateOptions extends CallOptions {
  /**
   * One key per user intent (max 128 characters): keep it with the pending intent and pass it again
   * when the user retries, so that the service answers with the same top-up. Default: a new key per
   * call, reused on every automatic retry of that call.
   */
  idempotencyKey?: string;
}

export interface RotateViaLinkOptions extends CallOptions {
  /** Default `json`. */
  format?: 'json' | 'text';
}

/** What `reread` returns for each kind of resource. */
export type RereadResult =
  | { kind: 'mobilePort'; port: MobilePort }
  | { kind: 'subscription'; subscription: Subscription }
  | { kind: 'subUsers'; subUsers: SubUserList }
  | { kind: 'topUp'; topUp: TopUp }
  | { kind: 'topUps'; topUps: TopUpPage };

type Auth = 'bearer' | 'public';

/** `rotation`: the rotation budget whatever the priority; `call`: the caller's priority decides. */
type EndpointBudget = 'rotation' | 'call';

interface Endpoint {
  method: HttpMethod;
  /** Spec path template, e.g. `/v1/mobile/{portId}`. */
  path: string;
  auth: Auth;
  retry: RetryMode;
  budget: EndpointBudget;
}

const endpoint = (
  method: HttpMethod,
  path: string,
  auth: Auth,
  retry: RetryMode,
  budget: EndpointBudget = 'call',
): Endpoint => ({ method, path, auth, retry, budget });

/**
 * Every endpoint of the spec with its retry rule and budget: reads are retried; top-up creation is
 * retried with one Idempotency-Key; every other write (and the GET rotate link, which rotates) is sent
 * once. Both rotations get the longer `rotation` budget; every other call gets `interactive`, or
 * `background` when the caller says so.
 */
const ENDPOINTS = {
  listSubscriptions: endpoint('GET', '/v1/residential/subscriptions', 'bearer', 'safe'),
  getSubscription: endpoint('GET', '/v1/residential/subscriptions/{subscriptionId}', 'bearer', 'safe'),
  updateSubscription: endpoint('PATCH', '/v1/residential/subscriptions/{subscriptionId}', 'bearer', 'never'),
  resetSubscriptionPassword: endpoint(
    'POST',
    '/v1/residential/subscriptions/{subscriptionId}/reset-password',
    'bearer',
    'never',
  ),
  getSubscriptionUsage: endpoint(
    'GET',
    '/v1/residential/subscriptions/{subscriptionId}/usage',
    'bearer',
    'safe',
  ),
  listSubUsers: endpoint('GET', '/v1/residential/subscriptions/{subscriptionId}/sub-users', 'bearer', 'safe'),
  createSubUser: endpoint(
    'POST',
    '/v1/residential/subscriptions/{subscriptionId}/sub-users',
    'bearer',
    'never',
  ),
  updateSubUser: endpoint(
    'PATCH',
    '/v1/residential/subscriptions/{subscriptionId}/sub-users/{subUserId}',
    'bearer',
    'never',
  ),
  deleteSubUser: endpoint(
    'DELETE',
    '/v1/residential/subscriptions/{subscriptionId}/sub-users/{subUserId}',
    'bearer',
    'never',
  ),
  listMobilePorts: endpoint('GET', '/v1/mobile', 'bearer', 'safe'),
  getMobilePort: endpoint('GET', '/v1/mobile/{portId}', 'bearer', 'safe'),
  updateMobilePort: endpoint('PATCH', '/v1/mobile/{portId}', 'bearer', 'never'),
  rotateMobilePort: endpoint('POST', '/v1/mobile/{portId}/rotate', 'bearer', 'never', 'rotation'),
  rotateMobilePortViaLink: endpoint('GET', '/v1/mobile/{portId}/rotate', 'public', 'never', 'rotation'),
  relocateMobilePort: endpoint('POST', '/v1/mobile/{portId}/relocate', 'bearer', 'never'),
  resetMobilePortPassword: endpoint('POST', '/v1/mobile/{portId}/reset-password', 'bearer', 'never'),
  getMobileIpHistory: endpoint('GET', '/v1/mobile/{portId}/ip-history', 'bearer', 'safe'),
  getMobilePortUsage: endpoint('GET', '/v1/mobile/{portId}/usage', 'bearer', 'safe'),
  listCountries: endpoint('GET', '/v1/catalog/countries', 'public', 'safe'),
  listStates: endpoint('GET', '/v1/catalog/countries/{countryCode}/states', 'public', 'safe'),
  listCities: endpoint('GET', '/v1/catalog/countries/{countryCode}/cities', 'public', 'safe'),
  listAsns: endpoint('GET', '/v1/catalog/countries/{countryCode}/asns', 'public', 'safe'),
  listCarriers: endpoint('GET', '/v1/catalog/countries/{countryCode}/carriers', 'public', 'safe'),
  listCoins: endpoint('GET', '/v1/catalog/coins', 'public', 'safe'),
  createTopUp: endpoint('POST', '/v1/topups', 'bearer', 'idempotency-key'),
  declareTopUpTxid: endpoint('POST', '/v1/topups/{topUpId}/txid', 'bearer', 'never'),
  getTopUp: endpoint('GET', '/v1/topups/{topUpId}', 'bearer', 'safe'),
  listTopUps: endpoint('GET', '/v1/topups', 'bearer', 'safe'),
} as const satisfies Record<string, Endpoint>;

const endpointName = (e: Endpoint): string => `${e.method} ${e.path}`;

/** The budget of one call of `e` made with `options`. */
function budgetClassFor(e: Endpoint, options: CallOptions = {}): BudgetClass {
  if (e.budget === 'rotation') return 'rotation';
  return options.priority === 'background' ? 'background' : 'interactive';
}

/** What the transport needs from the caller's options, whatever else they carry. */
function callControls(e: Endpoint, options: CallOptions) {
  return {
    signal: options.signal,
    budget: budgetClassFor(e, options),
    lane: options.priority ?? 'interactive',
    onSlow: options.onSlow,
  } as const;
}

/** `data[2].currentIp` from zod's `['data', 2, 'currentIp']`. */
function formatIssuePath(path: readonly PropertyKey[]): string {
  let text = '';
  for (const segment of path) {
    if (typeof segment === 'number') text += `[${segment}]`;
    else text += text === '' ? String(segment) : `.${String(segment)}`;
  }
  return text === '' ? '(body)' : text;
}

export const WEB_PAGE_ANSWER =
  'The answer was a web page, not the API: a captive portal, a proxy or a wrong base URL?';
export const EMPTY_ANSWER =
  'The answer was empty, not the API: a captive portal, a proxy or a wrong base URL?';

/**
 * An `AnswerProblem` when a success answer is plainly not from the API: empty, or a web page (an HTML
 * content type or markup). Null when it may be the API's and the parser should judge it.
 */
function notApiProblem(answer: RawAnswer): AnswerProblem | null {
  const text = answer.text.trim();
  if (text === '') {
    return new AnswerProblem([{ path: '(body)', message: 'empty' }], true, EMPTY_ANSWER);
  }
  const type = answer.headers['content-type'];
  const html = (Array.isArray(type) ? type.join(',') : (type ?? '')).toLowerCase().includes('html');
  if (html || text.startsWith('<')) {
    return new AnswerProblem([{ path: '(body)', message: 'a web page (HTML)' }], true, WEB_PAGE_ANSWER);
  }
  return null;
}

/** Parses a JSON answer with `schema`; any break is an `AnswerProblem` naming the field paths. */
function parseJsonAnswer<S extends z.ZodType>(schema: S, answer: RawAnswer): z.output<S> {
  let body: unknown;
  try {
    body = JSON.parse(answer.text);
  } catch {
    throw notApiProblem(answer) ?? new AnswerProblem([{ path: '(body)', message: 'not valid JSON' }]);
  }
  const result = schema.safeParse(body);
  if (result.success) return result.data;
  throw new AnswerProblem(
    result.error.issues.slice(0, 5).map((issue) => ({
      path: formatIssuePath(issue.path),
      message: issue.message.replace(/^Invalid input: /, ''),
    })),
  );
}

/** The new IP of a `format=text` rotation (tolerating a JSON answer from a service that ignores `format`). */
function parseRotationText(answer: RawAnswer): RotationTextResult {
  const text = answer.text.trim();
  if (text.startsWith('{')) {
    return { ip: parseJsonAnswer(rotationResultSchema, answer).ip };
  }
  const notApi = notApiProblem(answer);
  if (notApi) throw notApi;
  if (/\s/.test(text)) {
    throw new AnswerProblem([{ path: '(body)', message: 'expected the new IP as plain text' }]);
  }
  return { ip: text };
}

function fillPath(template: string, params: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (_match, name: string) => {
    const value = params[name];
    // The contract refuses these first; this keeps any other caller from steering the request.
    const problem = typeof value === 'string' ? resourceIdProblem(value) : 'is missing';
    if (problem !== null || value === undefined) throw new TypeError(`${name} ${problem}`);
    return encodeURIComponent(value);
  });
}

/** Allowed in an HTTP header and a URL query: visible ASCII without spaces. */
const API_KEY_PATTERN = /^[\x21-\x7e]+$/;

export class ProxyServiceClient {
  readonly baseUrl: string;
  readonly pathStyle: PathStyle;
  private readonly apiKey: string | null;
  private readonly transport: HttpTransport;
  private readonly newIdempotencyKey: () => string;

  constructor(options: ProxyServiceClientOptions) {
    this.baseUrl = normalizeBaseUrl(options.baseUrl);
    this.pathStyle = options.pathStyle ?? 'literal';
    const key = options.apiKey?.trim() ? options.apiKey.trim() : null;
    if (key !== null && !API_KEY_PATTERN.test(key)) {
      throw new TypeError('The API key contains spaces or characters that cannot be sent');
    }
    this.apiKey = key;
    const redactor = new Redactor([key]);
    this.transport = new HttpTransport({ ...options, redactor });
    this.newIdempotencyKey = options.newIdempotencyKey ?? randomUUID;
  }

  /** Redaction that knows this client's key; use it for anything logged about this client's calls. */
  get redactor(): Redactor {
    return this.transport.redactor;
  }

  get hasApiKey(): boolean {
    return this.apiKey !== null;
  }

  /** The budget of a class, after this client's overrides (e.g. to show "answers within 20 s"). */
  budgetFor(budgetClass: BudgetClass): Readonly<CallBudget> {
    return this.transport.budgetFor(budgetClass);
  }

  /** Requests in flight and queued behind the concurrency limit. */
  get load(): TransportLoad {
    return this.transport.load;
  }

  /** The absolute URL of a spec path under this client's base URL and path style. */
  urlFor(specPath: string, query?: QueryParams): string {
    return joinUrl(this.baseUrl, specPath, this.pathStyle, query);
  }

  /** Closes the keep-alive connections (not an injected dispatcher). */
  close(): Promise<void> {
    return this.transport.close();
  }

  // Traffic subscriptions ---------------------------------------------------------------------------

  async listSubscriptions(query: SubscriptionListQuery = {}, options?: CallOptions): Promise<Subscription[]> {
    const answer = await this.call(ENDPOINTS.listSubscriptions, subscriptionListSchema, {
      query: { productId: query.productId },
      ...options,
    });
    return answer.data;
  }

  getSubscription(subscriptionId: string, options?: CallOptions): Promise<Subscription> {
    return this.call(ENDPOINTS.getSubscription, subscriptionSchema, {
      params: { subscriptionId },
      ...options,
    });
  }

  updateSubscription(
    subscriptionId: string,
    patch: SubscriptionUpdate,
    options?: CallOptions,
  ): Promise<Subscription> {
    return this.call(ENDPOINTS.updateSubscription, subscriptionSchema, {
      params: { subscriptionId },
      body: patch,
      affects: { kind: 'subscription', subscriptionId },
      ...options,
    });
  }

  /** Sent once. The old password stops working at the gateway within 60 s. */
  resetSubscriptionPassword(subscriptionId: string, options?: CallOptions): Promise<Subscription> {
    return this.call(ENDPOINTS.resetSubscriptionPassword, subscriptionSchema, {
      params: { subscriptionId },
      affects: { kind: 'subscription', subscriptionId },
      ...options,
    });
  }

  getSubscriptionUsage(
    subscriptionId: string,
    query: SubscriptionUsageQuery = {},
    options?: CallOptions,
  ): Promise<UsageReport> {
    return this.call(ENDPOINTS.getSubscriptionUsage, usageReportSchema, {
      params: { subscriptionId },
      query: { from: query.from, to: query.to, subUserId: query.subUserId },
      ...options,
    });
  }

  listSubUsers(subscriptionId: string, options?: CallOptions): Promise<SubUserList> {
    return this.call(ENDPOINTS.listSubUsers, subUserListSchema, { params: { subscriptionId }, ...options });
  }

  createSubUser(subscriptionId: string, input: SubUserCreate, options?: CallOptions): Promise<SubUser> {
    // Should the service echo the chosen password in an error message, it is removed from it.
    this.redactor.add(input.password);
    return this.call(ENDPOINTS.createSubUser, subUserSchema, {
      params: { subscriptionId },
      body: input,
      affects: { kind: 'subUsers', subscriptionId },
      ...options,
    });
  }

  updateSubUser(
    subscriptionId: string,
    subUserId: string,
    patch: SubUserUpdate,
    options?: CallOptions,
  ): Promise<SubUser> {
    return this.call(ENDPOINTS.updateSubUser, subUserSchema, {
      params: { subscriptionId, subUserId },
      body: patch,
      affects: { kind: 'subUsers', subscriptionId },
      ...options,
    });
  }

  async deleteSubUser(subscriptionId: string, subUserId: string, options?: CallOptions): Promise<void> {
    await this.callWith(ENDPOINTS.deleteSubUser, () => undefined, {
      params: { subscriptionId, subUserId },
      affects: { kind: 'subUsers', subscriptionId },
      ...options,
    });
  }

  // Mobile ports --------------------------------------------------------------------------------------

  async listMobilePorts(options?: CallOptions): Promise<MobilePort[]> {
    return (await this.call(ENDPOINTS.listMobilePorts, mobilePortListSchema, { ...options })).data;
  }

  getMobilePort(portId: string, options?: CallOptions): Promise<MobilePort> {
    return this.call(ENDPOINTS.getMobilePort, mobilePortSchema, { params: { portId }, ...options });
  }

  updateMobilePort(portId: string, patch: MobilePortUpdate, options?: CallOptions): Promise<MobilePort> {
    return this.call(ENDPOINTS.updateMobilePort, mobilePortSchema, {
      params: { portId },
      body: patch,
      affects: { kind: 'mobilePort', portId },
      ...options,
    });
  }

  /**
   * Rotates now (the modem reconnects, usually 5-15 s). Sent once: a 429 `rotation_too_soon` carries
   * `retryAfterMs`; a network error, timeout or 5xx is `outcomeUnknown`: `reread` the port (its
   * `currentIp`/`ipChangedAt`) or the IP history before offering another rotation.
   */
  rotateMobilePort(portId: string, options?: CallOptions): Promise<RotationResult> {
    return this.call(ENDPOINTS.rotateMobilePort, rotationResultSchema, {
      params: { portId },
      affects: { kind: 'mobilePort', portId },
      ...options,
    });
  }

  /**
   * `GET /v1/mobile/{portId}/rotate?key=…`, the bookmarkable form, with this client's key in the query.
   * It rotates, so it is sent once like the POST.
   */
  rotateMobilePortViaLink(
    portId: string,
    options?: RotateViaLinkOptions & { format?: 'json' },
  ): Promise<RotationResult>;
  rotateMobilePortViaLink(
    portId: string,
    options: RotateViaLinkOptions & { format: 'text' },
  ): Promise<RotationTextResult>;
  async rotateMobilePortViaLink(
    portId: string,
    options: RotateViaLinkOptions = {},
  ): Promise<RotationResult | RotationTextResult> {
    const key = this.requireKey(ENDPOINTS.rotateMobilePortViaLink);
    const url = this.urlFor(fillPath(ENDPOINTS.rotateMobilePortViaLink.path, { portId }), {
      key,
      format: options.format,
    });
    return this.rotateByUrl(url, portId, options);
  }

  /**
   * "Test the link": calls a port's `rotationLink` exactly as a user's script would (no Authorization
   * header; the key is in the link). This rotates the port. The link must be an http(s) URL whose path
   * ends in `/rotate`; `format` replaces the link's own `format` when given.
   */
  testRotationLink(
    rotationLink: string,
    options?: RotateViaLinkOptions & { format?: 'json' },
  ): Promise<RotationResult>;
  testRotationLink(
    rotationLink: string,
    options: RotateViaLinkOptions & { format: 'text' },
  ): Promise<RotationTextResult>;
  async testRotationLink(
    rotationLink: string,
    options: RotateViaLinkOptions = {},
  ): Promise<RotationResult | RotationTextResult> {
    let url: URL;
    try {
      url = new URL(rotationLink);
    } catch {
      throw new TypeError('The rotation link is not a valid URL');
    }
    const match = /\/mobile\/([^/]+)\/rotate\/?$/.exec(url.pathname);
    if ((url.protocol !== 'http:' && url.protocol !== 'https:') || !match?.[1]) {
      throw new TypeError('The rotation link must be an http(s) URL ending in /mobile/{portId}/rotate');
    }
    this.redactor.add(url.searchParams.get('key'));
    if (options.format) url.searchParams.set('format', options.format);
    const format = url.searchParams.get('format') === 'text' ? 'text' : 'json';
    return this.rotateByUrl(url.toString(), decodeURIComponent(match[1]), { ...options, format });
  }

  /** Starts a relocation (202): the port goes `provisioning` and comes back `active` on a new modem. */
  relocateMobilePort(portId: string, request: RelocationRequest, options?: CallOptions): Promise<MobilePort> {
    return this.call(ENDPOINTS.relocateMobilePort, mobilePortSchema, {
      params: { portId },
      body: request,
      affects: { kind: 'mobilePort', portId },
      ...options,
    });
  }

  resetMobilePortPassword(portId: string, options?: CallOptions): Promise<MobilePort> {
    return this.call(ENDPOINTS.resetMobilePortPassword, mobilePortSchema, {
      params: { portId },
      affects: { kind: 'mobilePort', portId },
      ...options,
    });
  }

  getMobileIpHistory(portId: string, query: PageQuery = {}, options?: CallOptions): Promise<IpHistoryPage> {
    return this.call(ENDPOINTS.getMobileIpHistory, ipHistoryPageSchema, {
      params: { portId },
      query: { page: query.page, perPage: query.perPage },
      ...options,
    });
  }

  getMobilePortUsage(portId: string, query: UsageQuery = {}, options?: CallOptions): Promise<UsageReport> {
    return this.call(ENDPOINTS.getMobilePortUsage, usageReportSchema, {
      params: { portId },
      query: { from: query.from, to: query.to },
      ...options,
    });
  }

  // Catalog (public: no Authorization header) -----------------------------------------------------

  async listCountries(query: CountryQuery = {}, options?: CallOptions): Promise<Country[]> {
    return (
      await this.call(ENDPOINTS.listCountries, countryListSchema, {
        query: { product: query.product },
        ...options,
      })
    ).data;
  }

  async listStates(countryCode: string, options?: CallOptions): Promise<State[]> {
    return (
      await this.call(ENDPOINTS.listStates, stateListSchema, {
        params: { countryCode: countryCode.toUpperCase() },
        ...options,
      })
    ).data;
  }

  async listCities(countryCode: string, query: CountryQuery = {}, options?: CallOptions): Promise<City[]> {
    return (
      await this.call(ENDPOINTS.listCities, cityListSchema, {
        params: { countryCode: countryCode.toUpperCase() },
        query: { product: query.product },
        ...options,
      })
    ).data;
  }

  async listAsns(countryCode: string, options?: CallOptions): Promise<Asn[]> {
    return (
      await this.call(ENDPOINTS.listAsns, asnListSchema, {
        params: { countryCode: countryCode.toUpperCase() },
        ...options,
      })
    ).data;
  }

  async listCarriers(countryCode: string, options?: CallOptions): Promise<Carrier[]> {
    return (
      await this.call(ENDPOINTS.listCarriers, carrierListSchema, {
        params: { countryCode: countryCode.toUpperCase() },
        ...options,
      })
    ).data;
  }

  async listCoins(options?: CallOptions): Promise<Coin[]> {
    return (await this.call(ENDPOINTS.listCoins, coinListSchema, { ...options })).data;
  }

  // Top-ups -----------------------------------------------------------------------------------------

  /**
   * Creates a top-up. Retried on network errors, timeouts, 429 and 5xx with the same `Idempotency-Key`,
   * so the service creates at most one top-up per key. When every attempt fails, the error carries
   * `idempotencyKey`: calling again with it is safe and returns the top-up if it was created.
   */
  createTopUp(input: TopUpCreate, options: TopUpCreateOptions = {}): Promise<TopUp> {
    const idempotencyKey = options.idempotencyKey ?? this.newIdempotencyKey();
    return this.call(ENDPOINTS.createTopUp, topUpSchema, {
      body: input,
      idempotencyKey,
      affects: { kind: 'topUps' },
      signal: options.signal,
      priority: options.priority,
      onSlow: options.onSlow,
    });
  }

  /** Marks the top-up as paid; `txid` is optional (the payment is matched by its exact amount). */
  declareTopUpTxid(
    topUpId: string,
    declaration: TxidDeclaration = {},
    options?: CallOptions,
  ): Promise<TopUp> {
    return this.call(ENDPOINTS.declareTopUpTxid, topUpSchema, {
      params: { topUpId },
      ...(declaration.txid !== undefined ? { body: { txid: declaration.txid } } : {}),
      affects: { kind: 'topUp', topUpId },
      ...options,
    });
  }

  getTopUp(topUpId: string, options?: CallOptions): Promise<TopUp> {
    return this.call(ENDPOINTS.getTopUp, topUpSchema, { params: { topUpId }, ...options });
  }

  listTopUps(query: TopUpListQuery = {}, options?: CallOptions): Promise<TopUpPage> {
    return this.call(ENDPOINTS.listTopUps, topUpPageSchema, {
      query: { page: query.page, perPage: query.perPage, status: query.status },
      ...options,
    });
  }

  // Recovery ------------------------------------------------------------------------------------------

  /**
   * Fetches the current state of what a failed write targeted (`error.affects` when
   * `error.outcomeUnknown`), e.g. after a rotate that timed out: compare the port's `ipChangedAt` with
   * the value before the call to learn whether it rotated. For `topUps`, prefer repeating
   * `createTopUp` with `error.idempotencyKey`; this returns the first page of top-ups.
   */
  async reread(ref: ResourceRef, options?: CallOptions): Promise<RereadResult> {
    switch (ref.kind) {
      case 'mobilePort':
        return { kind: 'mobilePort', port: await this.getMobilePort(ref.portId, options) };
      case 'subscription':
        return {
          kind: 'subscription',
          subscription: await this.getSubscription(ref.subscriptionId, options),
        };
      case 'subUsers':
        return { kind: 'subUsers', subUsers: await this.listSubUsers(ref.subscriptionId, options) };
      case 'topUp':
        return { kind: 'topUp', topUp: await this.getTopUp(ref.topUpId, options) };
      case 'topUps':
        return { kind: 'topUps', topUps: await this.listTopUps({}, options) };
    }
  }

  // Internals ---------------------------------------------------------------------------------------

  private rotateByUrl(
    url: string,
    portId: string,
    options: RotateViaLinkOptions,
  ): Promise<RotationResult | RotationTextResult> {
    const e = ENDPOINTS.rotateMobilePortViaLink;
    const text = options.format === 'text';
    return this.transport.send({
      method: e.method,
      endpoint: endpointName(e),
      url,
      bearer: null,
      accept: text ? 'text/plain' : 'application/json',
      retry: e.retry,
      affects: { kind: 'mobilePort', portId },
      parse: text ? parseRotationText : (answer) => parseJsonAnswer(rotationResultSchema, answer),
      ...callControls(e, options),
    });
  }

  private requireKey(e: Endpoint): string {
    if (this.apiKey === null) {
      throw new AuthError(
        { status: 401, code: 'missing_key', message: 'No API key is set; add one in Settings.' },
        {
          endpoint: endpointName(e),
          attempts: 0,
          outcomeUnknown: false,
          affects: null,
          idempotencyKey: null,
        },
      );
    }
    return this.apiKey;
  }

  private call<S extends z.ZodType>(e: Endpoint, schema: S, request: CallRequest): Promise<z.output<S>> {
    return this.callWith(e, (answer) => parseJsonAnswer(schema, answer), request);
  }

  private async callWith<T>(e: Endpoint, parse: (answer: RawAnswer) => T, request: CallRequest): Promise<T> {
    const bearer = e.auth === 'bearer' ? this.requireKey(e) : null;
    const url = this.urlFor(fillPath(e.path, request.params ?? {}), request.query);
    return this.transport.send({
      method: e.method,
      endpoint: endpointName(e),
      url,
      bearer,
      body: request.body,
      retry: e.retry,
      idempotencyKey: request.idempotencyKey ?? null,
      affects: request.affects ?? null,
      parse,
      ...callControls(e, request),
    });
  }
}

interface CallRequest extends CallOptions {
  params?: Record<string, string>;
  query?: QueryParams;
  body?: unknown;
  idempotencyKey?: string;
  affects?: ResourceRef;
}
