import { Agent, errors as undiciErrors } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import {
  ApiError,
  CancelledError,
  isOutcomeUnknown,
  NetworkError,
  TimeoutError,
} from '../../src-main/api/api-errors';
import type { MobilePort } from '../../src-shared/api-types';
import type { ProxyServiceClient } from '../../src-main/api/proxy-service-client';
import { DEMO_KEY, TEST_START_TIME, TestSandbox } from '@proxy-manager/sandbox/testing';
import {
  addFault,
  captureLog,
  clearRequestLog,
  FakeClock,
  HeldSleep,
  recordingSleep,
  requestLog,
  sandboxClient,
  startLocalServer,
} from './support/api-test-kit';

// Resilience over real HTTP against the sandbox, driven by its fault injector and request log. The
// client's sleep is recorded, never waited; the sandbox's delay faults are held by the test.

const NOW = Date.parse(TEST_START_TIME);
const cleanups: Array<() => Promise<void> | void> = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function startSandbox(held?: HeldSleep): Promise<TestSandbox> {
  const sandbox = await TestSandbox.start(held ? { sleep: held.sleep } : {});
  cleanups.push(() => sandbox.close());
  if (held) cleanups.push(() => held.releaseAll());
  return sandbox;
}

function track(client: ProxyServiceClient): ProxyServiceClient {
  cleanups.push(() => client.close());
  return client;
}

async function activePort(client: ProxyServiceClient): Promise<MobilePort> {
  const port = (await client.listMobilePorts()).find(
    (p) => p.status === 'active' && p.rotation.mode === 'manual',
  );
  if (!port) throw new Error('no active manual port in the seeded account');
  return port;
}

async function waitFor(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !condition(); i += 1) await new Promise((resolve) => setTimeout(resolve, 5));
  if (!condition()) throw new Error('condition not reached');
}

describe('retries of reads', () => {
  it('retries a GET after 5xx with jittered exponential backoff, then succeeds', async () => {
    const sandbox = await startSandbox();
    const { sleep, waits } = recordingSleep();
    const log = captureLog();
    const client = track(
      sandboxClient(sandbox, { sleep, random: () => 0.5, logger: log.logger, now: () => NOW }),
    );
    await addFault(sandbox, { match: '/api/v1/v1/mobile', status: 503, times: 2 });

    const ports = await client.listMobilePorts();

    expect(ports.length).toBeGreaterThan(0);
    // Equal jitter: half of each step fixed, half random (0.5 here): 300 ms step -> 225, 600 ms -> 450.
    expect(waits).toEqual([225, 450]);
    const calls = (await requestLog(sandbox)).filter((r) => r.path === '/api/v1/v1/mobile');
    expect(calls.map((r) => r.status)).toEqual([503, 503, 200]);
    expect(log.entries.map((e) => [e.attempt, e.status, e.retryInMs])).toEqual([
      [1, 503, 225],
      [2, 503, 450],
      [3, 200, null],
    ]);
    expect(log.lines[0]).toBe(
      'GET /api/v1/v1/mobile -> 503 sandbox_fault in 0 ms (attempt 1); retrying in 225 ms',
    );
  });

  it('gives up after maxAttempts with the last error', async () => {
    const sandbox = await startSandbox();
    const { sleep, waits } = recordingSleep();
    const client = track(
      sandboxClient(sandbox, { sleep, random: () => 1, retry: { maxAttempts: 4, baseDelayMs: 100 } }),
    );
    await addFault(sandbox, { match: '/catalog/coins', status: 500, times: 10 });

    const error = (await client.listCoins().catch((e: unknown) => e)) as ApiError;

    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 500, attempts: 4, outcomeUnknown: false, affects: null });
    expect(waits).toEqual([100, 200, 400]);
  });

  it('retries a GET after a dropped connection and after a malformed 5xx page', async () => {
    const sandbox = await startSandbox();
    const client = track(sandboxClient(sandbox));
    await addFault(sandbox, { match: '/catalog/countries', dropConnection: true, times: 1 });
    await addFault(sandbox, { match: '/catalog/countries', status: 502, malformedBody: true, times: 1 });

    expect((await client.listCountries()).length).toBeGreaterThan(0);
    const calls = (await requestLog(sandbox)).filter((r) => r.path.includes('/catalog/countries'));
    expect(calls).toHaveLength(3);
  });

  it('does not retry a 4xx', async () => {
    const sandbox = await startSandbox();
    const { sleep, waits } = recordingSleep();
    const client = track(sandboxClient(sandbox, { sleep }));
    await expect(client.getTopUp('top_missing')).rejects.toMatchObject({ status: 404, attempts: 1 });
    expect(waits).toEqual([]);
  });
});

describe('writes that must not be repeated', () => {
  it('a 5xx after a rotation is not retried: one rotate in the log, outcome unknown, re-read shows it', async () => {
    const sandbox = await startSandbox();
    const client = track(sandboxClient(sandbox));
    const port = await activePort(client);
    await clearRequestLog(sandbox);
    await addFault(sandbox, { match: '/rotate', status: 500, phase: 'after', times: 5 });

    const error = await client.rotateMobilePort(port.id).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      status: 500,
      attempts: 1,
      outcomeUnknown: true,
      affects: { kind: 'mobilePort', portId: port.id },
      endpoint: 'POST /v1/mobile/{portId}/rotate',
    });
    expect((error as Error).message).toMatch(/may or may not have taken effect/);
    expect((await requestLog(sandbox)).filter((r) => r.path.endsWith('/rotate'))).toHaveLength(1);

    if (!isOutcomeUnknown(error)) throw new Error('expected an unknown outcome');
    const fresh = await client.reread(error.affects);
    if (fresh.kind !== 'mobilePort') throw new Error('expected a port');
    // The rotation did happen behind the 500: the re-read state shows it.
    expect(Date.parse(fresh.port.ipChangedAt)).toBeGreaterThan(Date.parse(port.ipChangedAt));
  });

  it('a dropped connection on rotate is a NetworkError with an unknown outcome, sent once', async () => {
    const sandbox = await startSandbox();
    const client = track(sandboxClient(sandbox));
    const port = await activePort(client);
    await clearRequestLog(sandbox);
    await addFault(sandbox, { match: '/rotate', dropConnection: true, phase: 'after', times: 5 });

    const error = await client.rotateMobilePort(port.id).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(NetworkError);
    expect(error).toMatchObject({ phase: 'exchange', outcomeUnknown: true, attempts: 1 });
    expect((await requestLog(sandbox)).filter((r) => r.path.endsWith('/rotate'))).toHaveLength(1);
  });

  it.each([
    [
      'relocate',
      (c: ProxyServiceClient, id: string) => c.relocateMobilePort(id, { country: 'DE', carrier: 'x' }),
    ],
    ['reset-password', (c: ProxyServiceClient, id: string) => c.resetMobilePortPassword(id)],
    ['PATCH', (c: ProxyServiceClient, id: string) => c.updateMobilePort(id, { label: 'x' })],
    ['GET rotate link (it rotates)', (c: ProxyServiceClient, id: string) => c.rotateMobilePortViaLink(id)],
  ])('%s is sent once on 503', async (_name, call) => {
    const sandbox = await startSandbox();
    const client = track(sandboxClient(sandbox));
    const port = await activePort(client);
    await clearRequestLog(sandbox);
    await addFault(sandbox, { match: `/v1/mobile/${port.id}`, status: 503, times: 5 });

    await expect(call(client, port.id)).rejects.toMatchObject({
      status: 503,
      attempts: 1,
      outcomeUnknown: true,
    });
    expect(await requestLog(sandbox)).toHaveLength(1);
  });

  it('sub-user writes are sent once on 502', async () => {
    const sandbox = await startSandbox();
    const client = track(sandboxClient(sandbox));
    const [subscription] = await client.listSubscriptions();
    await clearRequestLog(sandbox);
    await addFault(sandbox, { match: '/sub-users', status: 502, times: 5 });

    const error = await client.createSubUser(subscription!.id, { label: 'x' }).catch((e: unknown) => e);
    expect(error).toMatchObject({ attempts: 1, outcomeUnknown: true, affects: { kind: 'subUsers' } });
    await expect(client.deleteSubUser(subscription!.id, 'sub_x')).rejects.toMatchObject({ attempts: 1 });
    expect(await requestLog(sandbox)).toHaveLength(2);
  });

  it('a 4xx on a write has a known outcome', async () => {
    const sandbox = await startSandbox();
    const client = track(sandboxClient(sandbox));
    const error = await client.resetMobilePortPassword('port_missing').catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 404, outcomeUnknown: false });
    expect(isOutcomeUnknown(error)).toBe(false);
  });
});

describe('POST /v1/topups with an Idempotency-Key', () => {
  it('retries a 503 with the same generated key', async () => {
    const sandbox = await startSandbox();
    let made = 0;
    const client = track(sandboxClient(sandbox, { newIdempotencyKey: () => `intent-${(made += 1)}` }));
    await addFault(sandbox, { match: '/api/v1/v1/topups', status: 503, times: 1 });

    const topUp = await client.createTopUp({ amountUsd: '25.00', coin: 'BTC', network: 'bitcoin' });

    expect(topUp.status).toBe('awaiting_payment');
    const posts = (await requestLog(sandbox)).filter(
      (r) => r.method === 'POST' && r.path === '/api/v1/v1/topups',
    );
    expect(posts.map((r) => [r.status, r.idempotencyKey])).toEqual([
      [503, 'intent-1'],
      [201, 'intent-1'],
    ]);
    expect(made).toBe(1);
  });

  it('a connection dropped after creation is retried with the same key and yields one top-up', async () => {
    const sandbox = await startSandbox();
    const client = track(sandboxClient(sandbox));
    await addFault(sandbox, { match: '/api/v1/v1/topups', dropConnection: true, phase: 'after', times: 1 });

    const topUp = await client.createTopUp(
      { amountUsd: '40.00', coin: 'ETH', network: 'ethereum' },
      { idempotencyKey: 'user-intent-42' },
    );

    const posts = (await requestLog(sandbox)).filter(
      (r) => r.method === 'POST' && r.path === '/api/v1/v1/topups',
    );
    expect(posts.map((r) => r.idempotencyKey)).toEqual(['user-intent-42', 'user-intent-42']);
    const all = await client.listTopUps({ perPage: 100 });
    expect(all.data.filter((t) => t.amountUsd === '40.00' && t.coin === 'ETH').map((t) => t.id)).toEqual([
      topUp.id,
    ]);
  });

  it('when every attempt fails, the error carries the key; calling again with it is safe', async () => {
    const sandbox = await startSandbox();
    const client = track(sandboxClient(sandbox, { retry: { maxAttempts: 2 } }));
    const before = new Set((await client.listTopUps({ perPage: 100 })).data.map((t) => t.id));
    await addFault(sandbox, { match: '/api/v1/v1/topups', status: 504, phase: 'after', times: 2 });
    const input = { amountUsd: '50.00', coin: 'SOL', network: 'solana' };

    const error = (await client.createTopUp(input).catch((e: unknown) => e)) as ApiError;

    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      status: 504,
      attempts: 2,
      outcomeUnknown: true,
      affects: { kind: 'topUps' },
    });
    expect(error.idempotencyKey).toEqual(expect.any(String));
    const again = await client.createTopUp(input, { idempotencyKey: error.idempotencyKey! });
    const again2 = await client.createTopUp(input, { idempotencyKey: error.idempotencyKey! });
    expect(again2.id).toBe(again.id);
    const created = (await client.listTopUps({ perPage: 100 })).data.filter((t) => !before.has(t.id));
    expect(created.map((t) => t.id)).toEqual([again.id]);
  });
});

describe('429 and Retry-After', () => {
  it('waits Retry-After given in seconds before retrying a GET', async () => {
    const sandbox = await startSandbox();
    const { sleep, waits } = recordingSleep();
    const client = track(sandboxClient(sandbox, { sleep, now: () => NOW }));
    await addFault(sandbox, {
      match: '/api/v1/v1/mobile',
      status: 429,
      headers: { 'Retry-After': '7' },
      times: 1,
    });

    await client.listMobilePorts();
    expect(waits).toEqual([7000]);
  });

  it('waits Retry-After given as an HTTP date, read against the injected clock', async () => {
    const sandbox = await startSandbox();
    const { sleep, waits } = recordingSleep();
    const client = track(sandboxClient(sandbox, { sleep, now: () => NOW }));
    const at = new Date(NOW + 12_000).toUTCString();
    await addFault(sandbox, {
      match: '/catalog/coins',
      status: 429,
      headers: { 'Retry-After': at },
      times: 1,
    });

    await client.listCoins();
    expect(waits).toEqual([12_000]);
  });

  it('a Retry-After beyond maxRetryAfterMs ends the call with retryAfterMs instead of hanging', async () => {
    const sandbox = await startSandbox();
    const { sleep, waits } = recordingSleep();
    const client = track(
      sandboxClient(sandbox, { sleep, now: () => NOW, retry: { maxRetryAfterMs: 10_000 } }),
    );
    await addFault(sandbox, {
      match: '/api/v1/v1/mobile',
      status: 429,
      headers: { 'Retry-After': '120' },
      times: 1,
    });

    await expect(client.listMobilePorts()).rejects.toMatchObject({
      status: 429,
      retryAfterMs: 120_000,
      attempts: 1,
    });
    expect(waits).toEqual([]);
  });

  it('a 503 with Retry-After is honoured too', async () => {
    const sandbox = await startSandbox();
    const { sleep, waits } = recordingSleep();
    const client = track(sandboxClient(sandbox, { sleep }));
    await addFault(sandbox, {
      match: '/catalog/countries',
      status: 503,
      headers: { 'Retry-After': '2' },
      times: 1,
    });
    await client.listCountries();
    expect(waits).toEqual([2000]);
  });

  it('a 429 on rotate is surfaced with retryAfterMs and not retried', async () => {
    const sandbox = await startSandbox();
    const { sleep, waits } = recordingSleep();
    const client = track(sandboxClient(sandbox, { sleep }));
    const port = await activePort(client);
    await addFault(sandbox, { match: '/rotate', status: 429, headers: { 'Retry-After': '3' }, times: 1 });

    await expect(client.rotateMobilePort(port.id)).rejects.toMatchObject({
      status: 429,
      retryAfterMs: 3000,
      outcomeUnknown: false,
    });
    expect(waits).toEqual([]);
  });
});

describe('timeouts', () => {
  // The client's timers run on a fake clock moved only once the sandbox holds the request, so a busy
  // machine cannot fire a deadline before the request has arrived.
  it('a slow answer is a TimeoutError (headers) and a GET is retried', async () => {
    const held = new HeldSleep();
    const sandbox = await startSandbox(held);
    const clock = new FakeClock();
    const client = track(
      sandboxClient(sandbox, {
        clock,
        sleep: clock.sleep,
        timeouts: { headersMs: 40 },
        retry: { maxAttempts: 2 },
      }),
    );
    await addFault(sandbox, { match: '/catalog/coins', delayMs: 60_000, times: 2 });

    const call = client.listCoins().catch((e: unknown) => e);
    await waitFor(() => held.count === 1);
    clock.advance(40);
    await waitFor(() => clock.sleeping === 1);
    clock.advance(clock.nextAt()! - clock.now());
    await waitFor(() => held.count === 2);
    clock.advance(40);
    const error = await call;

    expect(error).toBeInstanceOf(TimeoutError);
    expect(error).toMatchObject({ phase: 'headers', attempts: 2, outcomeUnknown: false });
    expect((error as Error).message).toContain('did not answer within 40 ms');
    expect(held.count).toBe(2);
  });

  it('a timeout on rotate is sent once with an unknown outcome', async () => {
    const held = new HeldSleep();
    const sandbox = await startSandbox(held);
    const clock = new FakeClock();
    const client = track(sandboxClient(sandbox, { clock, timeouts: { headersMs: 40 } }));
    const port = await activePort(client);
    await addFault(sandbox, { match: '/rotate', delayMs: 60_000, times: 3 });

    const call = client.rotateMobilePort(port.id).catch((e: unknown) => e);
    await waitFor(() => held.count === 1);
    clock.advance(40);
    const error = await call;

    expect(error).toMatchObject({ kind: 'timeout', phase: 'headers', attempts: 1, outcomeUnknown: true });
    expect(held.count).toBe(1);
  });

  it('a stalled body is a TimeoutError (body)', async () => {
    const server = await startLocalServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"data": [');
    });
    cleanups.push(() => server.close());
    const client = track(
      sandboxClient(
        { baseUrl: `${server.origin}/api/v1` },
        {
          timeouts: { bodyMs: 40 },
          retry: { maxAttempts: 1 },
        },
      ),
    );
    await expect(client.listCountries()).rejects.toMatchObject({ kind: 'timeout', phase: 'body' });
  });

  it('a connect timeout is a TimeoutError (connect) with a known outcome, even on rotate', async () => {
    const dispatcher = new Agent({
      connect: (_options, callback) => {
        callback(new undiciErrors.ConnectTimeoutError(), null);
      },
    });
    cleanups.push(() => dispatcher.close());
    const client = track(
      sandboxClient({ baseUrl: 'http://127.0.0.1:9/api/v1' }, { dispatcher, timeouts: { connectMs: 25 } }),
    );
    const error = await client.rotateMobilePort('port_1').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error).toMatchObject({ phase: 'connect', outcomeUnknown: false, timeoutMs: 25 });
  });
});

describe('network errors', () => {
  it('a refused connection is a NetworkError (connect); reads are retried, writes have a known outcome', async () => {
    const server = await startLocalServer(() => undefined);
    const origin = server.origin;
    await server.close();
    const log = captureLog();
    const client = track(sandboxClient({ baseUrl: `${origin}/api/v1` }, { logger: log.logger }));

    const read = await client.listMobilePorts().catch((e: unknown) => e);
    expect(read).toBeInstanceOf(NetworkError);
    expect(read).toMatchObject({ code: 'ECONNREFUSED', phase: 'connect', attempts: 3 });
    expect((read as Error).message).toContain('connection was refused');
    expect(log.entries.map((e) => e.outcome)).toEqual(['network_error', 'network_error', 'network_error']);

    const write = await client.rotateMobilePort('port_1').catch((e: unknown) => e);
    expect(write).toMatchObject({ kind: 'network', attempts: 1, outcomeUnknown: false });
  });
});

describe('concurrency limit', () => {
  it('keeps at most maxConcurrent requests in flight across calls', async () => {
    const held = new HeldSleep();
    const sandbox = await startSandbox(held);
    const client = track(sandboxClient(sandbox, { maxConcurrent: 2 }));
    await addFault(sandbox, { match: '/catalog/countries', delayMs: 1, times: 5 });

    const calls = Array.from({ length: 5 }, () => client.listCountries());
    await waitFor(() => held.count === 2);
    // Give any request that slipped past the limit time to arrive.
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(held.count).toBe(2);
    expect(client.load).toEqual({ active: 2, queued: 3, limit: 2, reading: 0 });

    held.releaseAll();
    await waitFor(() => held.count === 2);
    expect(client.load).toMatchObject({ active: 2, queued: 1 });
    held.releaseAll();
    await waitFor(() => held.count === 1);
    held.releaseAll();
    const results = await Promise.all(calls);
    expect(results.every((r) => r.length > 0)).toBe(true);
    expect(client.load).toEqual({ active: 0, queued: 0, limit: 2, reading: 0 });
  });

  it('defaults to 6', async () => {
    const sandbox = await startSandbox();
    expect(track(sandboxClient(sandbox)).load.limit).toBe(6);
  });
});

describe('cancellation', () => {
  it('an abort while waiting for the answer or for a slot is a CancelledError', async () => {
    const held = new HeldSleep();
    const sandbox = await startSandbox(held);
    const client = track(sandboxClient(sandbox, { maxConcurrent: 1 }));
    const port = await activePort(client);
    await addFault(sandbox, { match: '/rotate', delayMs: 1, times: 1 });

    const inFlight = new AbortController();
    const queued = new AbortController();
    const rotate = client.rotateMobilePort(port.id, { signal: inFlight.signal }).catch((e: unknown) => e);
    await waitFor(() => held.count === 1);
    const waiting = client.getMobilePort(port.id, { signal: queued.signal }).catch((e: unknown) => e);
    queued.abort();
    inFlight.abort();

    expect(await waiting).toBeInstanceOf(CancelledError);
    expect(await waiting).toMatchObject({ outcomeUnknown: false });
    // The rotate had reached the service: whether it happened is unknown.
    expect(await rotate).toMatchObject({ kind: 'cancelled', outcomeUnknown: true });
  });
});

describe('redaction', () => {
  it('log lines and errors never carry the key, passwords or rotation links, even for failures', async () => {
    const sandbox = await startSandbox();
    const log = captureLog();
    const client = track(sandboxClient(sandbox, { logger: log.logger, retry: { maxAttempts: 2 } }));
    const port = await activePort(client);
    const errors: unknown[] = [];

    await client.rotateMobilePortViaLink(port.id, { format: 'text' });
    await sandbox.advance(30);
    await addFault(sandbox, { match: '/rotate', status: 500, times: 1 });
    errors.push(await client.testRotationLink(port.rotationLink).catch((e: unknown) => e));
    await addFault(sandbox, { match: '/rotate', dropConnection: true, times: 1 });
    errors.push(await client.rotateMobilePortViaLink(port.id).catch((e: unknown) => e));
    const wrong = track(sandboxClient(sandbox, { apiKey: 'not-the-key-77', logger: log.logger }));
    errors.push(await wrong.listMobilePorts().catch((e: unknown) => e));
    errors.push(await wrong.rotateMobilePortViaLink(port.id).catch((e: unknown) => e));
    const subscription = (await client.listSubscriptions())[0]!;
    errors.push(
      await client
        .createSubUser(subscription.id, { label: 'x', password: 'bad pass word' })
        .catch((e: unknown) => e),
    );

    expect(errors.every((e) => e instanceof Error)).toBe(true);
    const text = [
      ...log.lines,
      ...log.entries.map((e) => JSON.stringify(e)),
      ...errors.map((e) => `${String(e)} ${JSON.stringify(e)} ${(e as Error).stack ?? ''}`),
    ].join('\n');
    for (const secret of [DEMO_KEY, 'not-the-key-77', port.password, port.rotationLink, 'bad pass word']) {
      expect(text).not.toContain(secret);
    }
    expect(log.lines.some((line) => line.includes('/rotate?key=[REDACTED]&format=text -> 200'))).toBe(true);
    expect(log.lines.length).toBeGreaterThanOrEqual(6);
  });
});
