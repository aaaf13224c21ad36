import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FaultInjector } from '../../src/control/fault-injector';
import { TestSandbox } from '../../src/testing';
import { probeModule } from '../support/probe-module';

describe('faults (POST/GET/DELETE /faults)', () => {
  let sandbox: TestSandbox;
  const slept: number[] = [];

  beforeAll(async () => {
    sandbox = await TestSandbox.start({
      extraModules: [probeModule],
      sleep: (ms) => {
        slept.push(ms);
        return Promise.resolve();
      },
    });
  });
  afterAll(() => sandbox.close());
  beforeEach(async () => {
    await sandbox.control('DELETE', '/faults');
    slept.length = 0;
  });

  const count = async (): Promise<number> => (await sandbox.request('GET', '/v1/__probe/counter')).json.count;

  it('answers the next matching request with the status and an error body, without running the handler', async () => {
    const before = await count();
    const armed = await sandbox.control('POST', '/faults', { match: '/v1/__probe/counter', status: 503 });
    expect(armed.status).toBe(201);
    const answer = await sandbox.request('POST', '/v1/__probe/counter');
    expect(answer.status).toBe(503);
    expect(answer.json.error).toEqual({ code: 'sandbox_fault', message: expect.any(String) });
    expect(await count()).toBe(before);
    expect((await sandbox.request('POST', '/v1/__probe/counter')).status).toBe(201);
  });

  it('counts `times` down, lists what is left, and forgets a fault once used up', async () => {
    await sandbox.fault({ match: '__probe/public', status: 500, times: 2 });
    expect((await sandbox.request('GET', '/v1/__probe/public')).status).toBe(500);
    const listed = await sandbox.control('GET', '/faults');
    expect(listed.json.faults).toEqual([expect.objectContaining({ match: '__probe/public', remaining: 1 })]);
    expect((await sandbox.request('GET', '/v1/__probe/public')).status).toBe(500);
    expect((await sandbox.control('GET', '/faults')).json.faults).toEqual([]);
    expect((await sandbox.request('GET', '/v1/__probe/public')).status).toBe(200);
  });

  it('leaves requests whose path does not contain `match` alone', async () => {
    await sandbox.fault({ match: '/v1/__probe/scoped', status: 500 });
    expect((await sandbox.request('GET', '/v1/__probe/public')).status).toBe(200);
    expect((await sandbox.request('GET', '/v1/__probe/scoped')).status).toBe(500);
  });

  it('matches against the query string too', async () => {
    await sandbox.fault({ match: 'page=3', status: 502 });
    expect((await sandbox.request('GET', '/v1/__probe/items?page=2')).status).toBe(200);
    expect((await sandbox.request('GET', '/v1/__probe/items?page=3')).status).toBe(502);
  });

  it('sends Retry-After given as seconds', async () => {
    await sandbox.fault({ match: '__probe/public', status: 429, headers: { 'Retry-After': '7' } });
    const answer = await sandbox.request('GET', '/v1/__probe/public');
    expect(answer.status).toBe(429);
    expect(answer.headers.get('retry-after')).toBe('7');
  });

  it('sends Retry-After given as an HTTP date', async () => {
    const date = 'Tue, 10 Mar 2026 12:00:30 GMT';
    await sandbox.fault({ match: '__probe/public', status: 503, headers: { 'Retry-After': date } });
    const answer = await sandbox.request('GET', '/v1/__probe/public');
    expect(answer.status).toBe(503);
    expect(answer.headers.get('retry-after')).toBe(date);
  });

  it('adds Retry-After: 1 to a 429 that names none', async () => {
    await sandbox.fault({ match: '__probe/public', status: 429 });
    expect((await sandbox.request('GET', '/v1/__probe/public')).headers.get('retry-after')).toBe('1');
  });

  it('delays by delayMs (through the injected sleep) and then answers normally', async () => {
    await sandbox.fault({ match: '__probe/public', delayMs: 2500 });
    const answer = await sandbox.request('GET', '/v1/__probe/public');
    expect(answer.status).toBe(200);
    expect(slept).toEqual([2500]);
  });

  it('delays and then answers with the status when both are given', async () => {
    await sandbox.fault({ match: '__probe/public', delayMs: 100, status: 504 });
    expect((await sandbox.request('GET', '/v1/__probe/public')).status).toBe(504);
    expect(slept).toEqual([100]);
  });

  it('drops the connection without an answer', async () => {
    const before = await count();
    await sandbox.fault({ match: '/v1/__probe/counter', dropConnection: true });
    await expect(sandbox.request('POST', '/v1/__probe/counter')).rejects.toThrow();
    expect(await count()).toBe(before);
  });

  it('answers a body that is not JSON with malformedBody', async () => {
    await sandbox.fault({ match: '__probe/public', malformedBody: true });
    const answer = await sandbox.request('GET', '/v1/__probe/public');
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toContain('application/json');
    expect(() => JSON.parse(answer.text) as unknown).toThrow();
  });

  it('with phase after, runs the handler (state changes) and then replaces its answer', async () => {
    const before = await count();
    await sandbox.fault({ match: '/v1/__probe/counter', status: 500, phase: 'after' });
    const answer = await sandbox.request('POST', '/v1/__probe/counter');
    expect(answer.status).toBe(500);
    expect(answer.json.error.code).toBe('sandbox_fault');
    expect(await count()).toBe(before + 1);
  });

  it('with phase after and dropConnection, runs the handler and then drops the connection', async () => {
    const before = await count();
    await sandbox.fault({ match: '/v1/__probe/counter', dropConnection: true, phase: 'after' });
    await expect(sandbox.request('POST', '/v1/__probe/counter')).rejects.toThrow();
    expect(await count()).toBe(before + 1);
  });

  it('never applies to the control API', async () => {
    await sandbox.fault({ match: '/', status: 500 });
    expect((await sandbox.control('GET', '/clock')).status).toBe(200);
    expect((await sandbox.control('GET', '/faults')).json.faults).toHaveLength(1);
  });

  it('DELETE /faults clears every fault', async () => {
    await sandbox.fault({ match: '__probe', status: 500, times: 10 });
    expect((await sandbox.control('DELETE', '/faults')).status).toBe(204);
    expect((await sandbox.control('GET', '/faults')).json.faults).toEqual([]);
    expect((await sandbox.request('GET', '/v1/__probe/public')).status).toBe(200);
  });

  it('refuses an invalid fault with one 422 field error per bad field and arms nothing', async () => {
    const answer = await sandbox.control('POST', '/faults', {
      status: 99,
      times: 0,
      phase: 'during',
      headers: { 'Bad Header': 'x', 'X-Ok': 5, 'X-Crlf': 'a\r\nInjected: 1' },
    });
    expect(answer.status).toBe(422);
    expect(answer.json.error.fields.map((f: { field: string; code: string }) => [f.field, f.code])).toEqual([
      ['match', 'required'],
      ['status', 'too_small'],
      ['times', 'too_small'],
      ['phase', 'invalid_value'],
      ['headers.Bad Header', 'invalid_format'],
      ['headers.X-Ok', 'invalid_type'],
      ['headers.X-Crlf', 'invalid_format'],
    ]);
    expect((await sandbox.control('GET', '/faults')).json.faults).toEqual([]);
  });

  it.each([
    ['no effect at all', { match: '/v1' }],
    ['only a zero delay', { match: '/v1', delayMs: 0 }],
    ['only false flags', { match: '/v1', dropConnection: false, malformedBody: false }],
  ])('refuses a fault with %s (it would change nothing)', async (_name, body) => {
    const answer = await sandbox.control('POST', '/faults', body);
    expect(answer.status).toBe(422);
    expect(answer.json.error.fields).toEqual([
      { field: 'status', code: 'required', message: expect.stringContaining('at least one') },
    ]);
  });
});

describe('FaultInjector', () => {
  it('takes the first matching fault in the order they were added', () => {
    const faults = new FaultInjector();
    faults.add(FaultInjector.parse({ match: '/v1/mobile', status: 500 }));
    faults.add(FaultInjector.parse({ match: '/v1', status: 502 }));
    expect(faults.take('/api/v1/v1/mobile/port_1')?.status).toBe(500);
    expect(faults.take('/api/v1/v1/mobile/port_1')?.status).toBe(502);
    expect(faults.take('/api/v1/v1/mobile/port_1')).toBeNull();
  });

  it('defaults to one use in phase before', () => {
    expect(FaultInjector.parse({ match: 'x', status: 500 })).toEqual({
      match: 'x',
      status: 500,
      phase: 'before',
      remaining: 1,
    });
  });
});
