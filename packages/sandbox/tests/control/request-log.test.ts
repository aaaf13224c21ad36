import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { RequestLog, redactKeyParam } from '../../src/control/request-log';
import { DEMO_KEY, TestSandbox, TEST_START_TIME } from '../../src/testing';
import { probeModule } from '../support/probe-module';

describe('request log (GET/DELETE /requests)', () => {
  let sandbox: TestSandbox;

  beforeAll(async () => {
    sandbox = await TestSandbox.start({ extraModules: [probeModule] });
  });
  afterAll(() => sandbox.close());
  beforeEach(async () => {
    expect((await sandbox.control('DELETE', '/requests')).status).toBe(204);
    await sandbox.control('DELETE', '/faults');
  });

  it('records each API request, oldest first, with sandbox time, method, path, status', async () => {
    await sandbox.request('GET', '/v1/__probe/public?x=1');
    await sandbox.request('POST', '/v1/__probe/counter');
    await sandbox.request('GET', '/v1/__probe/nowhere');
    const at = await sandbox.now();
    expect(await sandbox.requests()).toEqual([
      { at, method: 'GET', path: '/api/v1/v1/__probe/public?x=1', idempotencyKey: null, status: 200 },
      { at, method: 'POST', path: '/api/v1/v1/__probe/counter', idempotencyKey: null, status: 201 },
      { at, method: 'GET', path: '/api/v1/v1/__probe/nowhere', idempotencyKey: null, status: 404 },
    ]);
  });

  it('stamps entries with the sandbox clock, not the wall clock', async () => {
    const now = await sandbox.advance(60);
    await sandbox.request('GET', '/v1/__probe/public');
    expect((await sandbox.requests())[0]?.at).toBe(now);
    expect(now).not.toBe(TEST_START_TIME);
  });

  it('records the Idempotency-Key header', async () => {
    await sandbox.request('POST', '/v1/__probe/echo', { headers: { 'Idempotency-Key': 'intent-42' } });
    expect((await sandbox.requests())[0]?.idempotencyKey).toBe('intent-42');
  });

  it('replaces the key query value by REDACTED and never holds the key anywhere', async () => {
    await sandbox.request('GET', `/v1/__probe/link/a?format=text&key=${DEMO_KEY}`, { key: null });
    await sandbox.request('GET', `/v1/__probe/link/b?%6Bey=${DEMO_KEY}`, { key: null });
    await sandbox.request('GET', '/v1/__probe/private');
    const log = await sandbox.requests();
    expect(log.map((entry) => [entry.path, entry.status])).toEqual([
      ['/api/v1/v1/__probe/link/a?format=text&key=REDACTED', 200],
      ['/api/v1/v1/__probe/link/b?%6Bey=REDACTED', 200],
      ['/api/v1/v1/__probe/private', 200],
    ]);
    expect(JSON.stringify(log)).not.toContain(DEMO_KEY);
  });

  it('records the injected fault status, and status 0 for a dropped connection', async () => {
    await sandbox.fault({ match: '__probe/public', status: 503 });
    await sandbox.request('GET', '/v1/__probe/public');
    await sandbox.fault({ match: '__probe/public', dropConnection: true });
    await sandbox.request('GET', '/v1/__probe/public').catch(() => undefined);
    expect((await sandbox.requests()).map((entry) => entry.status)).toEqual([503, 0]);
  });

  it('does not record control requests', async () => {
    await sandbox.control('GET', '/clock');
    expect(await sandbox.requests()).toEqual([]);
  });

  it('DELETE /requests empties the log', async () => {
    await sandbox.request('GET', '/v1/__probe/public');
    await sandbox.control('DELETE', '/requests');
    expect(await sandbox.requests()).toEqual([]);
  });
});

describe('RequestLog', () => {
  it('keeps only the newest entries up to its capacity', () => {
    const log = new RequestLog(3);
    for (let i = 1; i <= 5; i += 1) {
      log.record({ at: '', method: 'GET', path: `/${i}`, idempotencyKey: null, status: 200 });
    }
    expect(log.list().map((entry) => entry.path)).toEqual(['/3', '/4', '/5']);
  });
});

describe('redactKeyParam', () => {
  it.each([
    ['/p?key=abc', '/p?key=REDACTED'],
    ['/p?a=1&key=abc&b=2', '/p?a=1&key=REDACTED&b=2'],
    ['/p?key=abc&key=def', '/p?key=REDACTED&key=REDACTED'],
    ['/p?%6bey=abc', '/p?%6bey=REDACTED'],
    ['/p?key=abc#frag', '/p?key=REDACTED#frag'],
    ['/p?monkey=abc&keys=1', '/p?monkey=abc&keys=1'],
    ['/p?key', '/p?key'],
    ['/p', '/p'],
    ['/p?%zz=1&key=x', '/p?%zz=1&key=REDACTED'],
  ])('%s -> %s', (input, expected) => {
    expect(redactKeyParam(input)).toBe(expected);
  });
});
