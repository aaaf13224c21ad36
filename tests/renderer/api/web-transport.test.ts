import { describe, expect, it } from 'vitest';
import {
  createWebTransport,
  reconnectDelayMs,
  TOKEN_STORAGE_KEY,
  WEB_TOKEN_MISSING,
  WEB_TOKEN_REJECTED,
  type WebSocketLike,
  type WebTransportEnvironment,
} from '../../../src-renderer/src/api/web-transport';
import { appState } from '../support/fixtures';

const TOKEN = 'f00dfeed'.repeat(8);

class FakeSocket implements WebSocketLike {
  onopen: ((event: unknown) => void) | null = null;
  onclose: ((event: unknown) => void) | null = null;
  onerror: ((event: unknown) => void) | null = null;
  onmessage: ((event: { data: unknown }) => void) | null = null;
  closed = false;
  constructor(
    readonly url: string,
    readonly protocols: string[],
  ) {}
  open() {
    this.onopen?.({});
  }
  receive(data: unknown) {
    this.onmessage?.({ data });
  }
  drop() {
    this.onerror?.({});
    this.onclose?.({});
  }
  close() {
    this.closed = true;
  }
}

interface FetchCall {
  url: string;
  init: RequestInit;
}

function jsonResponse(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

/** A browser around the transport: location, history, storage, fetch, sockets and timers, all fake. */
function fakeBrowser(options: { hash?: string; stored?: string | null } = {}) {
  const storage = new Map<string, string>();
  if (options.stored) storage.set(TOKEN_STORAGE_KEY, options.stored);
  const replaced: string[] = [];
  const fetches: FetchCall[] = [];
  const sockets: FakeSocket[] = [];
  const timers: { callback: () => void; ms: number; cleared: boolean }[] = [];
  let answer: (call: FetchCall) => Promise<Response> = () =>
    Promise.resolve(jsonResponse(200, { ok: true, value: null }));
  const location = {
    hash: options.hash ?? '',
    host: '127.0.0.1:4020',
    protocol: 'http:',
    pathname: '/',
    search: '?x=1',
  };
  const env: WebTransportEnvironment = {
    location,
    history: {
      state: null,
      replaceState: (_state: unknown, _unused: string, url?: string | URL | null) => {
        replaced.push(String(url));
        location.hash = '';
      },
    },
    sessionStorage: {
      getItem: (key) => storage.get(key) ?? null,
      setItem: (key, value) => void storage.set(key, value),
    },
    fetch: (url, init) => {
      const call = { url, init };
      fetches.push(call);
      return answer(call);
    },
    createWebSocket: (url, protocols) => {
      const socket = new FakeSocket(url, protocols);
      sockets.push(socket);
      return socket;
    },
    setTimeout: (callback, ms) => {
      timers.push({ callback, ms, cleared: false });
      return timers.length - 1;
    },
    clearTimeout: (handle) => {
      const timer = timers[handle as number];
      if (timer) timer.cleared = true;
    },
    random: () => 0.5,
  };
  return {
    env,
    storage,
    replaced,
    fetches,
    sockets,
    timers,
    answerWith: (next: (call: FetchCall) => Promise<Response>) => {
      answer = next;
    },
    /** Fires the last pending timer, as the browser would once its delay passed. */
    fireTimer: () => {
      const timer = timers.filter((t) => !t.cleared).pop();
      if (!timer) throw new Error('no pending timer');
      timer.cleared = true;
      timer.callback();
    },
  };
}

const flush = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

describe('web transport: the token', () => {
  it('takes the token from the #token= fragment, keeps it in sessionStorage and removes it from the address bar', () => {
    const browser = fakeBrowser({ hash: `#token=${TOKEN}` });
    createWebTransport(browser.env);
    expect(browser.storage.get(TOKEN_STORAGE_KEY)).toBe(TOKEN);
    expect(browser.replaced).toEqual(['/?x=1']);
    expect(browser.env.location.hash).toBe('');
  });

  it('reads the token from sessionStorage after a reload (no fragment any more)', async () => {
    const browser = fakeBrowser({ stored: TOKEN });
    const { api } = createWebTransport(browser.env);
    await api.app.getState();
    expect(browser.replaced).toEqual([]);
    expect(new Headers(browser.fetches[0]?.init.headers).get('Authorization')).toBe(`Bearer ${TOKEN}`);
  });

  it('prefers a new fragment over an older stored token', () => {
    const browser = fakeBrowser({ hash: `#token=${TOKEN}`, stored: 'old-token' });
    createWebTransport(browser.env);
    expect(browser.storage.get(TOKEN_STORAGE_KEY)).toBe(TOKEN);
  });

  it('without any token, answers web_token_missing and sends nothing', async () => {
    const browser = fakeBrowser();
    const { api } = createWebTransport(browser.env);
    const result = await api.app.getState();
    expect(result).toMatchObject({ ok: false, error: { code: WEB_TOKEN_MISSING } });
    expect(!result.ok && result.error.message).toMatch(/npm run web/);
    expect(browser.fetches).toEqual([]);
  });
});

describe('web transport: calls', () => {
  it('POSTs /rpc/<channel> with the bearer token, a JSON content type and the input in an envelope', async () => {
    const browser = fakeBrowser({ hash: `#token=${TOKEN}` });
    browser.answerWith(() => Promise.resolve(jsonResponse(200, { ok: true, value: [{ code: 'US' }] })));
    const { api } = createWebTransport(browser.env);
    const result = await api.catalog.countries({ product: 'mobile' });
    expect(result).toEqual({ ok: true, value: [{ code: 'US' }] });
    const [call] = browser.fetches;
    expect(call?.url).toBe('/rpc/catalog%3Acountries');
    expect(call?.init.method).toBe('POST');
    const headers = new Headers(call?.init.headers);
    expect(headers.get('Authorization')).toBe(`Bearer ${TOKEN}`);
    expect(headers.get('Content-Type')).toBe('application/json');
    expect(JSON.parse(call?.init.body as string)).toEqual({ input: { product: 'mobile' } });
  });

  it('sends an empty envelope for calls without input', async () => {
    const browser = fakeBrowser({ hash: `#token=${TOKEN}` });
    const { api } = createWebTransport(browser.env);
    await api.catalog.coins();
    expect(JSON.parse(browser.fetches[0]?.init.body as string)).toEqual({});
  });

  it('passes application errors through unchanged', async () => {
    const browser = fakeBrowser({ hash: `#token=${TOKEN}` });
    const error = {
      code: 'invalid_input',
      message: 'Bad',
      fields: [{ field: 'baseUrl', message: 'Enter a URL' }],
    };
    browser.answerWith(() => Promise.resolve(jsonResponse(200, { ok: false, error })));
    const { api } = createWebTransport(browser.env);
    expect(await api.connection.test({ baseUrl: 'x', apiKey: 'y' })).toEqual({ ok: false, error });
  });

  it('turns a 401 into web_token_rejected that tells the user to open the printed URL', async () => {
    const browser = fakeBrowser({ hash: `#token=${TOKEN}` });
    browser.answerWith(() => Promise.resolve(new Response('Missing or wrong token', { status: 401 })));
    const { api } = createWebTransport(browser.env);
    const result = await api.app.getState();
    expect(result).toMatchObject({ ok: false, error: { code: WEB_TOKEN_REJECTED } });
    expect(!result.ok && result.error.message).toMatch(/URL that `npm run web` printed/);
  });

  it('answers web_unreachable when the server is gone, and web_bad_response for a non-result body', async () => {
    const browser = fakeBrowser({ hash: `#token=${TOKEN}` });
    const { api } = createWebTransport(browser.env);
    browser.answerWith(() => Promise.reject(new TypeError('Failed to fetch')));
    expect(await api.app.getState()).toMatchObject({ ok: false, error: { code: 'web_unreachable' } });
    browser.answerWith(() => Promise.resolve(new Response('Internal error', { status: 500 })));
    const result = await api.app.getState();
    expect(result).toMatchObject({ ok: false, error: { code: 'web_bad_response' } });
    expect(!result.ok && result.error.message).toMatch(/500/);
    browser.answerWith(() => Promise.resolve(jsonResponse(200, { hello: 'world' })));
    expect(await api.app.getState()).toMatchObject({ ok: false, error: { code: 'web_bad_response' } });
  });

  it('is not mistaken for a promise (no `then` member)', async () => {
    const browser = fakeBrowser({ hash: `#token=${TOKEN}` });
    const { api } = createWebTransport(browser.env);
    expect(await Promise.resolve(api)).toBe(api);
    expect((api.app as unknown as { then?: unknown }).then).toBeUndefined();
  });
});

describe('web transport: events', () => {
  it('opens ws://host/events with the protocol and the token as subprotocols, and delivers messages', async () => {
    const browser = fakeBrowser({ hash: `#token=${TOKEN}` });
    const { api } = createWebTransport(browser.env);
    const received: unknown[] = [];
    const unsubscribe = api.app.onStateChanged((state) => received.push(state));
    const [socket] = browser.sockets;
    expect(socket?.url).toBe('ws://127.0.0.1:4020/events');
    expect(socket?.protocols).toEqual(['proxy-manager.v1', `token.${TOKEN}`]);

    const state = appState();
    socket?.receive(JSON.stringify({ channel: 'app:stateChanged', payload: state }));
    socket?.receive('not json');
    socket?.receive(JSON.stringify({ channel: 'other:event', payload: 1 }));
    expect(received).toEqual([state]);

    unsubscribe();
    socket?.receive(JSON.stringify({ channel: 'app:stateChanged', payload: state }));
    expect(received).toHaveLength(1);
    await flush();
  });

  it('shares one socket between listeners', () => {
    const browser = fakeBrowser({ hash: `#token=${TOKEN}` });
    const { api } = createWebTransport(browser.env);
    api.app.onStateChanged(() => undefined);
    api.app.onStateChanged(() => undefined);
    expect(browser.sockets).toHaveLength(1);
  });

  it('reconnects with growing delays after drops, then tells its connection listeners (and re-reads nothing itself)', async () => {
    const browser = fakeBrowser({ hash: `#token=${TOKEN}` });
    const transport = createWebTransport(browser.env);
    const connections: unknown[] = [];
    transport.onConnected((info) => connections.push(info));
    transport.api.app.onStateChanged(() => undefined);

    browser.sockets[0]?.drop();
    expect(browser.timers.map((t) => t.ms)).toEqual([500]);
    browser.fireTimer();
    expect(browser.sockets).toHaveLength(2);
    browser.sockets[1]?.drop();
    browser.fireTimer();
    browser.sockets[2]?.drop();
    expect(browser.timers.map((t) => t.ms)).toEqual([500, 1000, 2000]);
    expect(connections).toEqual([]);

    browser.fireTimer();
    browser.sockets[3]?.open();
    expect(connections).toEqual([{ reconnect: false }]);

    // A successful open resets the backoff.
    browser.sockets[3]?.drop();
    expect(browser.timers.at(-1)?.ms).toBe(500);
    browser.fireTimer();
    browser.sockets[4]?.open();
    expect(connections).toEqual([{ reconnect: false }, { reconnect: true }]);
    await flush();
    // Reading again is the event bridge's job (one place), not the transport's.
    expect(browser.fetches).toEqual([]);
  });

  it('stops telling a connection listener once it unsubscribed', () => {
    const browser = fakeBrowser({ hash: `#token=${TOKEN}` });
    const transport = createWebTransport(browser.env);
    const connections: unknown[] = [];
    const stop = transport.onConnected((info) => connections.push(info));
    transport.api.app.onStateChanged(() => undefined);
    browser.sockets[0]?.open();
    stop();
    browser.sockets[0]?.drop();
    browser.fireTimer();
    browser.sockets[1]?.open();
    expect(connections).toEqual([{ reconnect: false }]);
  });

  it('caps the delay and adds jitter', () => {
    expect(reconnectDelayMs(0, () => 0)).toBe(400);
    expect(reconnectDelayMs(0, () => 0.999)).toBe(600);
    expect(reconnectDelayMs(30, () => 0.5)).toBe(15_000);
  });

  it('stops reconnecting once closed', () => {
    const browser = fakeBrowser({ hash: `#token=${TOKEN}` });
    const transport = createWebTransport(browser.env);
    transport.api.app.onStateChanged(() => undefined);
    browser.sockets[0]?.drop();
    transport.close();
    expect(browser.timers.every((t) => t.cleared)).toBe(true);
    expect(browser.sockets).toHaveLength(1);
  });

  it('opens no socket without a token', () => {
    const browser = fakeBrowser();
    const { api } = createWebTransport(browser.env);
    api.app.onStateChanged(() => undefined);
    expect(browser.sockets).toEqual([]);
  });
});
