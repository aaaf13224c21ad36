import type { CallMeta, IpcError, IpcResult, RendererApi } from '../../../src-shared/contract';
import type { ConnectedListener, OnConnected } from './transport-events';

/**
 * Web mode's `window.api`: the same contract as the preload's, spoken over `POST /rpc/<channel>` and
 * a WebSocket at `/events` to the loopback server that `npm run web` starts.
 *
 * The renderer cannot load the contract at runtime (it may only `import type` from src-main), so the
 * API is a Proxy: `api.catalog.countries(input)` becomes a call on `catalog:countries`, and
 * `api.app.onStateChanged(listener)` a subscription to `app:stateChanged`. The server rejects any
 * channel that is not in the contract.
 */

export const TOKEN_STORAGE_KEY = 'proxy-manager.web-token';
const EVENTS_PROTOCOL = 'proxy-manager.v1';
const TOKEN_PROTOCOL_PREFIX = 'token.';

/** Codes the UI recognises as "this page cannot talk to its server at all". */
export const WEB_TOKEN_MISSING = 'web_token_missing';
export const WEB_TOKEN_REJECTED = 'web_token_rejected';

export interface WebSocketLike {
  onopen: ((event: unknown) => void) | null;
  onclose: ((event: unknown) => void) | null;
  onerror: ((event: unknown) => void) | null;
  onmessage: ((event: { data: unknown }) => void) | null;
  close(): void;
}

export interface WebTransportEnvironment {
  location: Pick<Location, 'hash' | 'host' | 'protocol' | 'pathname' | 'search'>;
  history: Pick<History, 'replaceState' | 'state'>;
  sessionStorage: Pick<Storage, 'getItem' | 'setItem'>;
  fetch: (url: string, init: RequestInit) => Promise<Response>;
  createWebSocket: (url: string, protocols: string[]) => WebSocketLike;
  setTimeout: (callback: () => void, ms: number) => unknown;
  clearTimeout: (handle: unknown) => void;
  /** In [0, 1): the jitter of reconnect delays. */
  random: () => number;
}

function browserEnvironment(): WebTransportEnvironment {
  return {
    location: window.location,
    history: window.history,
    sessionStorage: window.sessionStorage,
    fetch: (url, init) => window.fetch(url, init),
    createWebSocket: (url, protocols) => new WebSocket(url, protocols) as unknown as WebSocketLike,
    setTimeout: (callback, ms) => window.setTimeout(callback, ms),
    clearTimeout: (handle) => window.clearTimeout(handle as number),
    random: Math.random,
  };
}

/**
 * Reads the token once: from the `#token=…` fragment of the printed URL (then kept in sessionStorage
 * so that a reload works, and removed from the address bar so that it is not bookmarked, shared or
 * shown on screen), else from sessionStorage.
 */
function takeToken(env: Pick<WebTransportEnvironment, 'location' | 'history' | 'sessionStorage'>) {
  const fragment = env.location.hash.replace(/^#/, '');
  const fromFragment = fragment ? new URLSearchParams(fragment).get('token') : null;
  if (fromFragment) {
    try {
      env.sessionStorage.setItem(TOKEN_STORAGE_KEY, fromFragment);
    } catch {
      // Storage may be disabled; the token still works until the page is reloaded.
    }
    env.history.replaceState(env.history.state, '', `${env.location.pathname}${env.location.search}`);
    return fromFragment;
  }
  try {
    return env.sessionStorage.getItem(TOKEN_STORAGE_KEY);
  } catch {
    return null;
  }
}

/** Reconnect delay after `attempt` failures in a row: 0.5 s doubling to 15 s, with ±20 % jitter. */
export function reconnectDelayMs(attempt: number, random: () => number): number {
  const base = Math.min(15_000, 500 * 2 ** Math.min(attempt, 10));
  return Math.round(base * (0.8 + 0.4 * random()));
}

const failure = (code: string, message: string): IpcResult<never> => ({
  ok: false,
  error: { code, message },
});

function isIpcResult(value: unknown): value is IpcResult<unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const record = value as Record<string, unknown>;
  if (record.ok === true) return 'value' in record;
  if (record.ok === false) {
    const error = record.error as Partial<IpcError> | undefined;
    return typeof error?.code === 'string' && typeof error.message === 'string';
  }
  return false;
}

export interface WebTransport {
  api: RendererApi;
  /**
   * Every time the event socket opens. Events sent while it was down are lost, so whoever listens
   * reads again what it shows (the event bridge does); the transport itself re-reads nothing.
   */
  onConnected: OnConnected;
  /** Closes the event socket and stops reconnecting. */
  close(): void;
}

export function createWebTransport(env: WebTransportEnvironment = browserEnvironment()): WebTransport {
  const token = takeToken(env);
  const listeners = new Map<string, Set<(payload: unknown) => void>>();
  let socket: WebSocketLike | null = null;
  let reconnectTimer: unknown = null;
  let failures = 0;
  let closed = false;
  let openedBefore = false;
  const connectedListeners = new Set<ConnectedListener>();

  async function invoke(channel: string, input: unknown, meta?: CallMeta): Promise<IpcResult<unknown>> {
    if (!token) {
      return failure(
        WEB_TOKEN_MISSING,
        'This page has no access token. Open the URL that `npm run web` printed (it ends in #token=…).',
      );
    }
    let response: Response;
    try {
      response = await env.fetch(`/rpc/${encodeURIComponent(channel)}`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({
          ...(input === undefined ? {} : { input }),
          ...(typeof meta?.callId === 'string' ? { callId: meta.callId } : {}),
        }),
        cache: 'no-store',
        credentials: 'omit',
      });
    } catch {
      return failure(
        'web_unreachable',
        'Cannot reach the Proxy Manager web server. Is `npm run web` still running?',
      );
    }
    if (response.status === 401) {
      return failure(
        WEB_TOKEN_REJECTED,
        'The web server refused this page’s access token. Open the URL that `npm run web` printed.',
      );
    }
    let body: unknown;
    try {
      body = await response.json();
    } catch {
      body = null;
    }
    if (isIpcResult(body)) return body;
    return failure(
      'web_bad_response',
      `The web server answered ${response.status} ${response.statusText || ''}`.trim() +
        ' instead of a result.',
    );
  }

  function deliver(channel: string, payload: unknown): void {
    for (const listener of [...(listeners.get(channel) ?? [])]) {
      try {
        listener(payload);
      } catch (error) {
        console.error(`listener of ${channel} failed`, error);
      }
    }
  }

  function announceConnected(): void {
    const info = { reconnect: openedBefore };
    openedBefore = true;
    for (const listener of [...connectedListeners]) {
      try {
        listener(info);
      } catch (error) {
        console.error('a connection listener failed', error);
      }
    }
  }

  function scheduleReconnect(): void {
    if (closed || reconnectTimer !== null) return;
    const delay = reconnectDelayMs(failures, env.random);
    failures += 1;
    reconnectTimer = env.setTimeout(() => {
      reconnectTimer = null;
      connect();
    }, delay);
  }

  function connect(): void {
    if (closed || socket || !token) return;
    const scheme = env.location.protocol === 'https:' ? 'wss:' : 'ws:';
    let current: WebSocketLike;
    try {
      current = env.createWebSocket(`${scheme}//${env.location.host}/events`, [
        EVENTS_PROTOCOL,
        `${TOKEN_PROTOCOL_PREFIX}${token}`,
      ]);
    } catch {
      scheduleReconnect();
      return;
    }
    socket = current;
    current.onopen = () => {
      failures = 0;
      if (!closed) announceConnected();
    };
    current.onmessage = (event) => {
      if (typeof event.data !== 'string') return;
      let message: unknown;
      try {
        message = JSON.parse(event.data);
      } catch {
        return;
      }
      const { channel, payload } = (message ?? {}) as { channel?: unknown; payload?: unknown };
      if (typeof channel === 'string') deliver(channel, payload);
    };
    // A refused or dropped socket ends in `close` (after `error`, when there is one).
    current.onerror = () => undefined;
    current.onclose = () => {
      if (socket !== current) return;
      socket = null;
      scheduleReconnect();
    };
  }

  function subscribe(channel: string, listener: (payload: unknown) => void): () => void {
    if (typeof listener !== 'function') throw new TypeError('listener must be a function');
    let set = listeners.get(channel);
    if (!set) {
      set = new Set();
      listeners.set(channel, set);
    }
    set.add(listener);
    connect();
    return () => {
      set.delete(listener);
    };
  }

  const domains = new Map<string, object>();
  const domainProxy = (domain: string): object =>
    new Proxy(
      {},
      {
        get(_target, member) {
          if (typeof member !== 'string' || member === 'then') return undefined;
          const eventMatch = /^on([A-Z])(.*)$/.exec(member);
          if (eventMatch) {
            const channel = `${domain}:${(eventMatch[1] ?? '').toLowerCase()}${eventMatch[2] ?? ''}`;
            return (listener: (payload: unknown) => void) => subscribe(channel, listener);
          }
          return (input?: unknown, meta?: CallMeta) => invoke(`${domain}:${member}`, input, meta);
        },
      },
    );

  const api = new Proxy(
    {},
    {
      get(_target, domain) {
        if (typeof domain !== 'string' || domain === 'then') return undefined;
        let proxy = domains.get(domain);
        if (!proxy) {
          proxy = domainProxy(domain);
          domains.set(domain, proxy);
        }
        return proxy;
      },
    },
  ) as RendererApi;

  return {
    api,
    onConnected(listener) {
      connectedListeners.add(listener);
      return () => {
        connectedListeners.delete(listener);
      };
    },
    close() {
      closed = true;
      if (reconnectTimer !== null) env.clearTimeout(reconnectTimer);
      reconnectTimer = null;
      const current = socket;
      socket = null;
      current?.close();
    },
  };
}
