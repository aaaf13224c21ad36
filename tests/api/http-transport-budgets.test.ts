import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import {
  CancelledError,
  NotApiAnswerError,
  ProtocolError,
  type ProxyServiceError,
  TimeoutError,
} from '../../src-main/api/api-errors';
import type { SlowCallInfo } from '../../src-main/api/call-budget';
import {
  EMPTY_ANSWER,
  type ProxyServiceClient,
  type ProxyServiceClientOptions,
  WEB_PAGE_ANSWER,
} from '../../src-main/api/proxy-service-client';
import {
  captureLog,
  FakeClock,
  type LocalServer,
  sandboxClient,
  sendJson,
  startLocalServer,
} from './support/api-test-kit';

// Budgets, deadlines, the limiter's lanes and Cancel, over real sockets to a local server that
// trickles, hangs or answers. Time is a FakeClock moved by the test: no test waits for real seconds,
// yet every deadline below is the production default unless the test says otherwise.

const cleanups: Array<() => Promise<void> | void> = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

type Route = (req: IncomingMessage, res: ServerResponse) => void;

/** Two bytes every few ms, forever: the body never ends and is never silent for long. */
const trickle: Route = (_req, res) => {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.write('{"data": [');
  const timer = setInterval(() => res.write('  '), 3);
  res.once('close', () => clearInterval(timer));
};

/** Accepts the request and never answers. */
const hang: Route = () => undefined;

const countries = {
  data: [
    { code: 'DE', name: 'Germany', region: 'Europe', products: ['mobile'], cities: 3, asns: 2, carriers: 1 },
  ],
};
const answerCountries: Route = (_req, res) => sendJson(res, 200, countries);

async function server(route: Route): Promise<LocalServer> {
  const local = await startLocalServer((req, res) => route(req, res));
  cleanups.push(() => local.close());
  return local;
}

function client(
  local: LocalServer,
  clock: FakeClock,
  options: Partial<ProxyServiceClientOptions> = {},
): ProxyServiceClient {
  const made = sandboxClient(
    { baseUrl: `${local.origin}/api/v1` },
    { clock, sleep: clock.sleep, now: clock.now, ...options },
  );
  // Closed after the servers (cleanups run in reverse), once they have cut every open request.
  cleanups.unshift(() => made.close());
  return made;
}

const flush = () => new Promise<void>((resolve) => setImmediate(resolve));

async function waitFor(condition: () => boolean, what = 'condition'): Promise<void> {
  for (let i = 0; i < 400 && !condition(); i += 1) await new Promise((resolve) => setTimeout(resolve, 2));
  if (!condition()) throw new Error(`${what} not reached`);
}

interface Settled<T> {
  value?: T;
  error?: ProxyServiceError;
  /** Fake time at which the call settled. */
  at: number;
}

/**
 * Moves the fake clock from timer to timer until `call` settles, each time only once the client is
 * quiet: every request it has in flight has reached the server (and, for a server that starts
 * answering at once, has its headers), or it is pausing before a retry.
 */
async function settle<T>(
  call: Promise<T>,
  clock: FakeClock,
  local: LocalServer,
  api: ProxyServiceClient,
  answersAtOnce = false,
): Promise<Settled<T>> {
  let settled: Settled<T> | null = null;
  call.then(
    (value) => (settled = { value, at: clock.now() }),
    (error: ProxyServiceError) => (settled = { error, at: clock.now() }),
  );
  const quiet = () => {
    const { active, reading } = api.load;
    if (clock.sleeping > 0 || active === 0) return true;
    return local.open >= active && (!answersAtOnce || reading === active);
  };
  while (settled === null) {
    await flush();
    await waitFor(() => settled !== null || (quiet() && clock.pending > 0), 'a quiet client');
    if (settled !== null) break;
    clock.advance(clock.nextAt()! - clock.now());
  }
  return settled;
}

describe('a deadline for every attempt, a budget for every call', () => {
  it('a trickling answer ends: an interactive read settles at 20 s, each attempt cut at 8 s, body included', async () => {
    const local = await server(trickle);
    const clock = new FakeClock();
    const log = captureLog();
    const api = client(local, clock, { logger: log.logger });

    const result = await settle(api.listCountries(), clock, local, api, true);

    expect(result.error).toBeInstanceOf(TimeoutError);
    expect(result.error).toMatchObject({ phase: 'body', attempts: 3, outcomeUnknown: false });
    expect(result.at).toBe(20_000);
    expect(result.error!.message).toMatch(
      /did not finish its answer within 3\.3 s \(attempt 3; 20 s in all\)\.$/,
    );
    // 8 s, pause 225 ms, 8 s, pause 450 ms, and the 3.3 s left of the budget.
    expect(clock.waits).toEqual([225, 450]);
    expect(log.entries.map((e) => [e.durationMs, e.errorCode, e.retryInMs])).toEqual([
      [8_000, 'timeout_body', 225],
      [8_000, 'timeout_body', 450],
      [3_325, 'timeout_body', null],
    ]);
    expect(local.requests).toHaveLength(3);
    await waitFor(() => local.open === 0, 'every trickling socket closed');
  });

  it('a hung server costs at most the budget: three attempts in 20 s, not 3 x 30 s', async () => {
    const local = await server(hang);
    const clock = new FakeClock();
    const api = client(local, clock);

    const result = await settle(api.getMobilePort('port_1'), clock, local, api);

    expect(result.error).toMatchObject({ kind: 'timeout', phase: 'headers', attempts: 3 });
    expect(result.at).toBe(20_000);
    expect(result.error!.message).toContain('did not answer within');
    expect(local.requests).toHaveLength(3);
  });

  it('a rotation keeps its longer budget: one attempt, open until 40 s, outcome unknown', async () => {
    const local = await server(hang);
    const clock = new FakeClock();
    const api = client(local, clock);

    const result = await settle(api.rotateMobilePort('port_1'), clock, local, api);

    expect(result.at).toBe(40_000);
    expect(result.error).toMatchObject({
      kind: 'timeout',
      phase: 'headers',
      timeoutMs: 40_000,
      attempts: 1,
      outcomeUnknown: true,
      affects: { kind: 'mobilePort', portId: 'port_1' },
    });
    expect(local.requests.map((r) => r.method)).toEqual(['POST']);
    expect(api.budgetFor('rotation')).toMatchObject({ totalMs: 45_000, attemptMs: 40_000 });
  });

  it('a background call is more patient, and still bounded', async () => {
    const local = await server(hang);
    const clock = new FakeClock();
    const api = client(local, clock);

    const result = await settle(api.listCountries({}, { priority: 'background' }), clock, local, api);

    expect(result.error).toMatchObject({ kind: 'timeout', attempts: 4 });
    expect(result.at).toBe(120_000);
    expect(clock.waits).toEqual([225, 450, 900]);
  });

  it('a retry is made only when it fits: a Retry-After longer than the budget ends the call at once', async () => {
    let calls = 0;
    const local = await server((_req, res) => {
      calls += 1;
      if (calls === 1) sendJson(res, 503, { error: { message: 'busy' } }, { 'Retry-After': '15' });
      else if (calls === 2) sendJson(res, 503, { error: { message: 'busy' } }, { 'Retry-After': '19' });
      else answerCountries(_req, res);
    });
    const clock = new FakeClock();
    const api = client(local, clock);

    // 15 s fits in 20 s with room for an attempt: waited, then retried.
    const first = await settle(api.listCountries(), clock, local, api);
    // The second call starts afresh; 19 s would leave under a second: it fails now with retryAfterMs.
    const second = await settle(api.listCountries(), clock, local, api);

    expect(clock.waits).toEqual([15_000]);
    expect(first.error).toMatchObject({ status: 503, attempts: 2, retryAfterMs: 19_000 });
    expect(first.at).toBe(15_000);
    expect(second.value).toEqual(countries.data);
  });

  it('the wait for a slot counts against the budget: a queued read times out at 20 s, unsent', async () => {
    const local = await server(hang);
    const clock = new FakeClock();
    const api = client(local, clock, { maxConcurrent: 1 });
    const rotation = new AbortController();
    const rotate = api.rotateMobilePort('port_1', { signal: rotation.signal }).catch((e: unknown) => e);
    await waitFor(() => local.open === 1);

    const result = await settle(api.getMobilePort('port_1'), clock, local, api);

    expect(result.at).toBe(20_000);
    expect(result.error).toMatchObject({
      kind: 'timeout',
      phase: 'queue',
      attempts: 1,
      outcomeUnknown: false,
    });
    expect(result.error!.message).toMatch(/^No request slot became free within 20 s/);
    expect(local.requests).toHaveLength(1);
    rotation.abort();
    expect(await rotate).toBeInstanceOf(CancelledError);
  });
});

describe('on the system clock', () => {
  it('small budgets given as options hold with real timers too (about 0.15 s of real time)', async () => {
    // The one place real time passes: it checks that the default clock arms the same deadlines.
    const local = await server(hang);
    const api = sandboxClient(
      { baseUrl: `${local.origin}/api/v1` },
      {
        budgets: { interactive: { totalMs: 150, attemptMs: 60 } },
        retry: { baseDelayMs: 10 },
        sleep: undefined,
      },
    );
    cleanups.unshift(() => api.close());
    const started = performance.now();

    const error = await api.listCountries().catch((e: unknown) => e);

    const elapsed = performance.now() - started;
    // 60 ms, a real 8 ms pause, 60 ms; a third attempt would not get the 30 ms it needs after its pause.
    // (How many requests reached the server is not checked: on a busy machine a 60 ms real deadline
    // may pass before a request arrives.)
    expect(error).toMatchObject({ kind: 'timeout', phase: 'headers', attempts: 2 });
    expect(elapsed).toBeGreaterThanOrEqual(120);
    expect(elapsed).toBeLessThan(1_000);
  });
});

describe('the limiter keeps room for the user', () => {
  const usageOrCatalog: Route = (req, res) =>
    (req.url ?? '').includes('/catalog/') ? answerCountries(req, res) : trickle(req, res);

  it.each([
    ['six slow background calls', 'background' as const],
    ['six slow interactive calls to one endpoint', 'interactive' as const],
  ])('%s: an unrelated catalog call is answered while they stay open', async (_name, priority) => {
    const local = await server(usageOrCatalog);
    const clock = new FakeClock();
    const api = client(local, clock);
    const controllers = Array.from({ length: 6 }, () => new AbortController());
    const slow = controllers.map((c, i) =>
      api.getMobilePortUsage(`port_${i}`, {}, { signal: c.signal, priority }).catch((e: unknown) => e),
    );
    // Four of the six slots are theirs; two wait behind them.
    await waitFor(() => local.open === 4, 'four slow calls in flight');
    expect(api.load).toMatchObject({ active: 4, queued: 2, limit: 6 });

    // No fake time passes: the answer comes while every slow call is still open.
    expect(await api.listCountries()).toEqual(countries.data);
    expect(local.open).toBe(4);

    for (const c of controllers) c.abort();
    for (const outcome of await Promise.all(slow)) expect(outcome).toBeInstanceOf(CancelledError);
    await waitFor(() => local.open === 0, 'slow sockets closed');
    expect(api.load).toEqual({ active: 0, queued: 0, limit: 6, reading: 0 });
  });
});

describe('Cancel', () => {
  it('aborts the socket while waiting for the answer, and is never retried', async () => {
    const local = await server(hang);
    const clock = new FakeClock();
    const api = client(local, clock);
    const cancel = new AbortController();
    const call = api.listCountries({}, { signal: cancel.signal }).catch((e: unknown) => e);
    await waitFor(() => local.open === 1);

    cancel.abort();

    const error = await call;
    expect(error).toBeInstanceOf(CancelledError);
    expect(error).toMatchObject({ kind: 'cancelled', attempts: 1, outcomeUnknown: false });
    await waitFor(() => local.closedConnections === 1, 'the server to see the connection close');
    expect(local.requests).toHaveLength(1);
  });

  it('aborts the socket in the middle of a trickling body', async () => {
    const local = await server(trickle);
    const clock = new FakeClock();
    const api = client(local, clock);
    const cancel = new AbortController();
    const call = api.listCountries({}, { signal: cancel.signal }).catch((e: unknown) => e);
    await waitFor(() => local.open === 1);
    await new Promise((resolve) => setTimeout(resolve, 10)); // a few chunks in

    cancel.abort();

    expect(await call).toBeInstanceOf(CancelledError);
    await waitFor(() => local.closedConnections === 1, 'the server to see the connection close');
  });

  it('ends the pause before a retry without another attempt (the default sleep runs on the clock)', async () => {
    const local = await server((_req, res) => sendJson(res, 503, { error: { message: 'busy' } }));
    const clock = new FakeClock();
    const api = client(local, clock, { sleep: undefined });
    const cancel = new AbortController();
    const call = api.listCountries({}, { signal: cancel.signal }).catch((e: unknown) => e);
    await waitFor(() => local.requests.length === 1 && api.load.active === 0 && clock.pending > 0);

    cancel.abort();

    expect(await call).toMatchObject({ kind: 'cancelled', attempts: 1 });
    clock.advance(60_000);
    await flush();
    expect(local.requests).toHaveLength(1);
  });

  it('a cancelled rotation that reached the service is outcome-unknown', async () => {
    const local = await server(hang);
    const clock = new FakeClock();
    const api = client(local, clock);
    const cancel = new AbortController();
    const call = api.rotateMobilePort('port_1', { signal: cancel.signal }).catch((e: unknown) => e);
    await waitFor(() => local.open === 1);
    cancel.abort();
    expect(await call).toMatchObject({ kind: 'cancelled', outcomeUnknown: true, attempts: 1 });
  });
});

describe('still waiting', () => {
  it('onSlow is called once after 3 s of an interactive call, with what the UI needs', async () => {
    const local = await server(hang);
    const clock = new FakeClock();
    const api = client(local, clock);
    const slow: SlowCallInfo[] = [];

    const result = await settle(
      api.listCountries({}, { onSlow: (info) => slow.push({ ...info, elapsedMs: clock.now() }) }),
      clock,
      local,
      api,
    );

    expect(result.error).toBeInstanceOf(TimeoutError);
    expect(slow).toEqual([
      {
        endpoint: 'GET /v1/catalog/countries',
        budget: 'interactive',
        elapsedMs: 3_000,
        budgetMs: 20_000,
        attempt: 1,
      },
    ]);
  });

  it('is not called for a call that answers in time, nor after it', async () => {
    const local = await server(answerCountries);
    const clock = new FakeClock();
    const api = client(local, clock);
    const slow: SlowCallInfo[] = [];
    await api.listCountries({}, { onSlow: (info) => slow.push(info) });
    expect(clock.pending).toBe(0);
    clock.advance(60_000);
    expect(slow).toEqual([]);
  });

  it('a rotation says "still waiting" only after the 15 s the spec allows', async () => {
    const local = await server(hang);
    const clock = new FakeClock();
    const api = client(local, clock);
    const at: number[] = [];
    await settle(api.rotateMobilePort('port_1', { onSlow: () => at.push(clock.now()) }), clock, local, api);
    expect(at).toEqual([16_000]);
  });
});

describe('an answer that is not from the API', () => {
  it.each([
    [
      'a web page with status 200',
      (res: ServerResponse) => {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        res.end('<!doctype html><title>Sign in to the hotel Wi-Fi</title>');
      },
      WEB_PAGE_ANSWER,
    ],
    [
      'markup without a content type',
      (res: ServerResponse) => {
        res.writeHead(200, {});
        res.end('  <html><body>Proxy authentication</body></html>');
      },
      WEB_PAGE_ANSWER,
    ],
    [
      'an empty body with status 200',
      (res: ServerResponse) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end();
      },
      EMPTY_ANSWER,
    ],
  ])('%s says what it likely is, and is not retried', async (_name, answer, sentence) => {
    const local = await server((_req, res) => answer(res));
    const api = client(local, new FakeClock());

    const error = await api.listCountries().catch((e: unknown) => e);

    expect(error).toBeInstanceOf(NotApiAnswerError);
    expect(error).toBeInstanceOf(ProtocolError);
    expect((error as Error).message).toBe(sentence);
    expect((error as NotApiAnswerError).toJSON()).toMatchObject({
      kind: 'protocol',
      code: 'not_api_answer',
      attempts: 1,
    });
    expect(local.requests).toHaveLength(1);
  });

  it('a captive portal answering a text rotation link is named too', async () => {
    const local = await server((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<html>Log in</html>');
    });
    const api = client(local, new FakeClock());
    const error = await api.rotateMobilePortViaLink('port_1', { format: 'text' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotApiAnswerError);
    expect(error).toMatchObject({ outcomeUnknown: true });
  });

  it('JSON that breaks the schema is still a plain protocol error naming the field', async () => {
    const local = await server((_req, res) => sendJson(res, 200, { data: [{ code: 1 }] }));
    const api = client(local, new FakeClock());
    const error = await api.listCountries().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProtocolError);
    expect(error).not.toBeInstanceOf(NotApiAnswerError);
    expect((error as ProtocolError).field).toBe('data[0].code');
  });
});
