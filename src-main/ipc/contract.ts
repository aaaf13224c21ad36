/**
 * The one IPC contract between main and the renderer. Every call is declared once here, named
 * `domain:name`, with a zod schema for its input (validated in main before any handler runs) and the
 * type of its output; every main-to-renderer event is declared once too. The preload and the web
 * transport build `window.api` from this declaration, so a channel that is not here does not exist.
 *
 * This file must stay free of Node and Electron imports: the preload bundles it and the renderer
 * type-checks against it.
 */
import { z } from 'zod';
import { PATH_STYLES } from '../api/base-url';
import { API_KEY_MAX, BASE_URL_MAX, PROFILE_NAME_MAX } from '../core/profiles/profile-validation';
import type {
  Asn,
  Carrier,
  City,
  Coin,
  Country,
  MobilePort,
  State,
  Subscription,
  TopUpPage,
} from '../api/api-types';

// ---------------------------------------------------------------------------------------------------
// Shared input pieces

const noInput = z.undefined();

/** An API key as pasted: trimmed, no inner whitespace. Never echoed back in errors. */
const apiKey = z
  .string()
  .trim()
  .min(1, 'Paste your API key')
  .max(API_KEY_MAX, `An API key is at most ${API_KEY_MAX} characters`)
  // It goes into an `Authorization: Bearer` header: one run of visible ASCII characters.
  .regex(/^[\x21-\x7e]+$/, 'An API key is one run of visible characters, without spaces');

const baseUrl = z
  .string()
  .trim()
  .min(1, 'Enter the base URL your provider gave you')
  .max(BASE_URL_MAX, 'The base URL is too long')
  .refine((value) => {
    try {
      const url = new URL(value);
      return url.protocol === 'http:' || url.protocol === 'https:';
    } catch {
      return false;
    }
  }, 'Enter a full http:// or https:// URL, e.g. https://api.example.com/api/v1');

const profileName = z
  .string()
  .trim()
  .min(1, 'Give the profile a name')
  .max(PROFILE_NAME_MAX, `At most ${PROFILE_NAME_MAX} characters`);
const profileId = z.string().min(1).max(128);
const pathStyle = z.enum(PATH_STYLES);
const keyStorage = z.enum(['keychain', 'session']);
const countryCode = z.string().regex(/^[A-Z]{2}$/, 'A country is a two-letter upper-case ISO code, e.g. US');
const catalogProduct = z.enum(['residential', 'mobile', 'mobile-gb']);

// ---------------------------------------------------------------------------------------------------
// Output shapes that are the app's own (API shapes come from api-types)

export type PathStyle = z.infer<typeof pathStyle>;
export type KeyStorage = z.infer<typeof keyStorage>;

export type ConnectionStatus =
  'not_configured' | 'checking' | 'online' | 'offline' | 'key_rejected' | 'service_error';

export interface ConnectionState {
  status: ConnectionStatus;
  /** A sentence for the status bar; never holds a key. */
  message: string;
  /** ISO time of the last answer (or failure) from the service. */
  checkedAt: string | null;
}

export interface KeyStatus {
  configured: boolean;
  /** `…a1b2`: the last four characters only. */
  masked: string | null;
  source: 'keychain' | 'session' | 'demo' | 'environment' | null;
}

export interface ProfileSummary {
  id: string;
  name: string;
  baseUrl: string;
  pathStyle: PathStyle;
  kind: 'account' | 'demo' | 'environment';
  active: boolean;
  key: KeyStatus;
}

export interface Notice {
  id: string;
  level: 'info' | 'warning' | 'error';
  message: string;
}

/** Everything the shell of the UI needs, pushed again on every change (`app:stateChanged`). */
export interface AppState {
  mode: 'desktop' | 'web';
  profiles: ProfileSummary[];
  activeProfile: ProfileSummary | null;
  connection: ConnectionState;
  keychain: { available: boolean; reason: string | null };
  demo: { running: boolean };
  notices: Notice[];
}

export interface ProbeAttempt {
  pathStyle: PathStyle;
  /** The URL probed (the public catalog: it never carries a key). */
  url: string;
  ok: boolean;
  detail: string;
}

export interface ConnectionTestResult {
  ok: boolean;
  /** The reading of the base URL that answered, if any. */
  pathStyle: PathStyle | null;
  /** One sentence for the user: what was adopted and why, or what failed. */
  message: string;
  probes: ProbeAttempt[];
  /** Result of an authenticated call with the key. */
  authenticated: { ok: boolean; message: string };
}

export interface SettingsView {
  theme: 'system' | 'light' | 'dark';
  polling: { usageMinutes: number; topUpVerifyingSeconds: number; topUpAwaitingPaymentSeconds: number };
  alerts: { trafficRemainingPercent: number; expiryWarningDays: number };
}

/**
 * `Omit` for API types: they are loose objects with a string index signature, under which plain `Omit`
 * would drop every named member.
 */
type OmitMembers<T, K extends string> = {
  [P in keyof T as string extends P ? never : P extends K ? never : P]: T[P];
};

/** A mobile port as the renderer sees it: the rotation link (it carries the key) is left in main. */
export type MobilePortView = OmitMembers<MobilePort, 'rotationLink'> & { hasRotationLink: boolean };

export interface IpcFieldError {
  field: string;
  message: string;
}

export interface IpcError {
  /** Machine code: `invalid_input`, `not_configured`, `unauthorized`, `network_error`, an API code, … */
  code: string;
  message: string;
  fields?: IpcFieldError[];
  retryAfterMs?: number;
  /** A write may or may not have happened; the UI re-reads before offering a retry. */
  outcomeUnknown?: boolean;
}

export type IpcResult<T> = { ok: true; value: T } | { ok: false; error: IpcError };

// ---------------------------------------------------------------------------------------------------
// The contract

interface CallDefinition<Input extends z.ZodType, Output> {
  input: Input;
  /** Phantom: carries the output type only. */
  output?: Output;
}

const call =
  <Output>() =>
  <Input extends z.ZodType>(input: Input): CallDefinition<Input, Output> => ({ input });

interface EventDefinition<Payload> {
  payload?: Payload;
}

const event = <Payload>(): EventDefinition<Payload> => ({});

export const ipcCalls = {
  'app:getState': call<AppState>()(noInput),
  'app:dismissNotice': call<AppState>()(z.strictObject({ noticeId: z.string().min(1).max(128) })),

  'connection:test': call<ConnectionTestResult>()(z.strictObject({ baseUrl, apiKey })),
  'connection:check': call<AppState>()(noInput),

  'profiles:create': call<AppState>()(
    z.strictObject({
      name: profileName,
      baseUrl,
      pathStyle: pathStyle.default('literal'),
      apiKey,
      storage: keyStorage.default('keychain'),
    }),
  ),
  'profiles:update': call<AppState>()(
    z.strictObject({
      profileId,
      name: profileName.optional(),
      baseUrl: baseUrl.optional(),
      pathStyle: pathStyle.optional(),
    }),
  ),
  'profiles:delete': call<AppState>()(z.strictObject({ profileId })),
  'profiles:switch': call<AppState>()(z.strictObject({ profileId })),
  'profiles:setKey': call<AppState>()(
    z.strictObject({ profileId, apiKey, storage: keyStorage.default('keychain') }),
  ),
  'profiles:removeKey': call<AppState>()(z.strictObject({ profileId })),

  'demo:start': call<AppState>()(noInput),
  'demo:stop': call<AppState>()(noInput),

  'settings:get': call<SettingsView>()(noInput),
  'settings:update': call<SettingsView>()(
    z.strictObject({
      theme: z.enum(['system', 'light', 'dark']).optional(),
      polling: z
        .strictObject({
          usageMinutes: z
            .int()
            .min(1, 'At least 1 minute')
            .max(1440, 'At most 1440 minutes (a day)')
            .optional(),
          // The spec asks clients not to poll faster than every 10 s (verifying) and 30 s (awaiting payment).
          topUpVerifyingSeconds: z
            .int()
            .min(10, 'At least 10 seconds')
            .max(600, 'At most 600 seconds')
            .optional(),
          topUpAwaitingPaymentSeconds: z
            .int()
            .min(30, 'At least 30 seconds')
            .max(600, 'At most 600 seconds')
            .optional(),
        })
        .optional(),
      alerts: z
        .strictObject({
          trafficRemainingPercent: z.int().min(0, 'At least 0').max(100, 'At most 100').optional(),
          expiryWarningDays: z.int().min(0, 'At least 0').max(365, 'At most 365').optional(),
        })
        .optional(),
    }),
  ),

  'catalog:countries': call<Country[]>()(z.strictObject({ product: catalogProduct.optional() }).optional()),
  'catalog:states': call<State[]>()(z.strictObject({ countryCode })),
  'catalog:cities': call<City[]>()(z.strictObject({ countryCode, product: catalogProduct.optional() })),
  'catalog:asns': call<Asn[]>()(z.strictObject({ countryCode })),
  'catalog:carriers': call<Carrier[]>()(z.strictObject({ countryCode })),
  'catalog:coins': call<Coin[]>()(noInput),

  'ports:list': call<MobilePortView[]>()(noInput),
  'subscriptions:list': call<Subscription[]>()(
    z.strictObject({ productId: z.enum(['residential', 'mobile-gb']).optional() }).optional(),
  ),
  'topups:list': call<TopUpPage>()(
    z
      .strictObject({
        page: z.int().min(1).max(100_000).optional(),
        perPage: z.int().min(1).max(100).optional(),
        status: z.enum(['awaiting_payment', 'verifying', 'credited', 'rejected', 'expired']).optional(),
      })
      .optional(),
  ),
} as const;

export const ipcEvents = {
  'app:stateChanged': event<AppState>(),
} as const;

// ---------------------------------------------------------------------------------------------------
// Types derived from the contract

export type CallChannel = keyof typeof ipcCalls;
export type EventChannel = keyof typeof ipcEvents;

type CallSchema<C extends CallChannel> = (typeof ipcCalls)[C]['input'];
/** What the renderer may pass. */
export type CallInput<C extends CallChannel> = z.input<CallSchema<C>>;
/** What the handler receives, after parsing (defaults applied). */
export type ParsedCallInput<C extends CallChannel> = z.output<CallSchema<C>>;
export type CallOutput<C extends CallChannel> = NonNullable<(typeof ipcCalls)[C]['output']>;
export type EventPayload<E extends EventChannel> = NonNullable<(typeof ipcEvents)[E]['payload']>;

/** Main's side: one handler per call, exhaustively. */
export type ContractHandlers = {
  [C in CallChannel]: (input: ParsedCallInput<C>) => Promise<CallOutput<C>>;
};

type DomainOf<K extends string> = K extends `${infer Domain}:${string}` ? Domain : never;
type NameOf<K extends string> = K extends `${string}:${infer Name}` ? Name : never;
export type Domain = DomainOf<CallChannel> | DomainOf<EventChannel>;

type CallFunction<C extends CallChannel> =
  undefined extends CallInput<C>
    ? (input?: CallInput<C>) => Promise<IpcResult<CallOutput<C>>>
    : (input: CallInput<C>) => Promise<IpcResult<CallOutput<C>>>;

type Listener<E extends EventChannel> = (payload: EventPayload<E>) => void;

/**
 * `window.api`: `api.catalog.countries({ product })` for the call `catalog:countries`, and
 * `api.app.onStateChanged(listener)` (returning an unsubscribe function) for the event `app:stateChanged`.
 */
export type RendererApi = {
  [D in Domain]: {
    [C in CallChannel as DomainOf<C> extends D ? NameOf<C> : never]: CallFunction<C>;
  } & {
    [E in EventChannel as DomainOf<E> extends D ? `on${Capitalize<NameOf<E>>}` : never]: (
      listener: Listener<E>,
    ) => () => void;
  };
};

/** Splits `domain:name` and gives the `window.api` member names; shared by the preload and the web transport. */
export function apiMemberOf(channel: string): { domain: string; member: string } {
  const [domain = '', name = ''] = channel.split(':');
  return { domain, member: name };
}

export function eventMemberOf(channel: string): { domain: string; member: string } {
  const { domain, member } = apiMemberOf(channel);
  return { domain, member: `on${member.charAt(0).toUpperCase()}${member.slice(1)}` };
}
