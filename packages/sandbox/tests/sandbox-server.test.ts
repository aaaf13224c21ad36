import { request as httpRequest, Agent } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../src';
import type { SandboxModule } from '../src/sandbox-world';
import { TestSandbox, TEST_START_TIME } from '../src/testing';
import { probeModule } from './support/probe-module';

const MiB = 1024 * 1024;

describe('sandbox server over HTTP', () => {
  let sandbox: TestSandbox;
  const errors: string[] = [];
  const settledAt: number[] = [];
  const settleProbe = (): SandboxModule => ({
    name: 'settle-probe',
    routes: [],
    settle: (now) => settledAt.push(now),
  });

  beforeAll(async () => {
    sandbox = await TestSandbox.start({
      extraModules: [probeModule, settleProbe],
      logError: (message) => errors.push(message),
    });
  });
  afterAll(() => sandbox.close());

  describe('routing', () => {
    it('answers 404 not_found for an unknown path under the API prefix', async () => {
      const answer = await sandbox.request('GET', '/v1/__probe/nowhere');
      expect(answer.status).toBe(404);
      expect(answer.json).toEqual({ error: { code: 'not_found', message: expect.any(String) } });
    });

    it('answers 404 not_found outside /api/v1 and names the prefix', async () => {
      const response = await fetch(`${sandbox.baseUrl.replace('/api/v1', '')}/v1/mobile`);
      const body = (await response.json()) as { error: { code: string; message: string } };
      expect(response.status).toBe(404);
      expect(body.error.code).toBe('not_found');
      expect(body.error.message).toContain('/api/v1');
    });

    it('joins paths literally: the spec path goes after /api/v1', async () => {
      expect(sandbox.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/v1$/);
      const response = await fetch(`${sandbox.baseUrl}/v1/__probe/public`);
      expect(response.status).toBe(200);
      const withoutVersion = await fetch(`${sandbox.baseUrl}/__probe/public`);
      expect(withoutVersion.status).toBe(404);
    });

    it('answers 405 method_not_allowed with an Allow header listing the methods of that path', async () => {
      const answer = await sandbox.request('DELETE', '/v1/__probe/counter');
      expect(answer.status).toBe(405);
      expect(answer.json.error.code).toBe('method_not_allowed');
      expect(answer.headers.get('allow')).toBe('GET, POST');
    });

    it('treats a request target starting with // as a path, not as a host', async () => {
      const status = await rawStatus(sandbox.baseUrl, '//api/v1/v1/__probe/public');
      expect(status).toBe(404);
    });

    it('answers JSON that is never cached', async () => {
      const answer = await sandbox.request('GET', '/v1/__probe/public');
      expect(answer.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(answer.headers.get('cache-control')).toBe('no-store');
    });
  });

  describe('authentication', () => {
    it('answers 401 unauthorized with WWW-Authenticate: Bearer when the key is missing', async () => {
      const answer = await sandbox.request('GET', '/v1/__probe/private', { key: null });
      expect(answer.status).toBe(401);
      expect(answer.json.error.code).toBe('unauthorized');
      expect(answer.headers.get('www-authenticate')).toBe('Bearer');
    });

    it('answers 401 unauthorized for an unknown key', async () => {
      const answer = await sandbox.request('GET', '/v1/__probe/private', { key: 'not-a-key' });
      expect(answer.status).toBe(401);
      expect(answer.json.error.code).toBe('unauthorized');
      expect(answer.headers.get('www-authenticate')).toBe('Bearer error="invalid_token"');
    });

    it('answers 401 for another scheme than Bearer', async () => {
      const answer = await sandbox.request('GET', '/v1/__probe/private', {
        key: null,
        headers: { Authorization: 'Basic c2FuZGJveC1kZW1vLWtleTo=' },
      });
      expect(answer.status).toBe(401);
    });

    it('accepts the scheme name in any case', async () => {
      const answer = await sandbox.request('GET', '/v1/__probe/private', {
        key: null,
        headers: { Authorization: 'bearer sandbox-demo-key' },
      });
      expect(answer.status).toBe(200);
    });

    it('accepts a key without scopes on a route that needs none', async () => {
      const answer = await sandbox.request('GET', '/v1/__probe/private', { key: 'readonly-key' });
      expect(answer.status).toBe(200);
      expect(answer.json.scopes).toEqual([]);
    });

    it('answers 403 insufficient_scope when the key lacks the route scope', async () => {
      const answer = await sandbox.request('GET', '/v1/__probe/scoped', { key: 'readonly-key' });
      expect(answer.status).toBe(403);
      expect(answer.json.error.code).toBe('insufficient_scope');
      expect(answer.headers.get('www-authenticate')).toContain('scope="proxies"');
      const allowed = await sandbox.request('GET', '/v1/__probe/scoped');
      expect(allowed.status).toBe(200);
    });

    it('needs no key on a public route', async () => {
      expect((await sandbox.request('GET', '/v1/__probe/public', { key: null })).status).toBe(200);
    });

    it('reads the key from the query on a query-key route, with its scope', async () => {
      const path = '/v1/__probe/link/world';
      const missing = await sandbox.request('GET', path, { key: null });
      expect([missing.status, missing.json.error.code]).toEqual([401, 'unauthorized']);
      const unknown = await sandbox.request('GET', `${path}?key=nope`, { key: null });
      expect([unknown.status, unknown.json.error.code]).toEqual([401, 'unauthorized']);
      const noScope = await sandbox.request('GET', `${path}?key=readonly-key`, { key: null });
      expect([noScope.status, noScope.json.error.code]).toEqual([403, 'insufficient_scope']);
      const ok = await sandbox.request('GET', `${path}?key=sandbox-demo-key`, { key: null });
      expect([ok.status, ok.text]).toEqual([200, 'hello world']);
      expect(ok.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    });

    it('does not take a bearer header as the key of a query-key route', async () => {
      const answer = await sandbox.request('GET', '/v1/__probe/link/x');
      expect(answer.status).toBe(401);
    });
  });

  describe('bodies', () => {
    it('answers 400 invalid_json for a malformed body', async () => {
      const answer = await sandbox.request('POST', '/v1/__probe/echo', { rawBody: '{"label": ' });
      expect(answer.status).toBe(400);
      expect(answer.json.error.code).toBe('invalid_json');
    });

    it('checks the key before the body', async () => {
      const answer = await sandbox.request('POST', '/v1/__probe/echo', { rawBody: '{', key: null });
      expect(answer.status).toBe(401);
    });

    it('passes an absent body as undefined and a JSON body as parsed', async () => {
      expect((await sandbox.request('POST', '/v1/__probe/echo')).json.body).toBeNull();
      const answer = await sandbox.request('POST', '/v1/__probe/echo', { body: { a: [1, '2'] } });
      expect(answer.json.body).toEqual({ a: [1, '2'] });
    });

    it('answers 413 payload_too_large for a declared body over 1 MiB, and closes the connection', async () => {
      const rawBody = JSON.stringify({ big: 'x'.repeat(MiB) });
      const answer = await sandbox.request('POST', '/v1/__probe/echo', { rawBody });
      expect(answer.status).toBe(413);
      expect(answer.json.error.code).toBe('payload_too_large');
      expect(answer.headers.get('connection')).toBe('close');
    });

    it('answers 413 for a streamed (chunked) body that grows over 1 MiB', async () => {
      const chunk = new TextEncoder().encode('y'.repeat(64 * 1024));
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          for (let i = 0; i < 20; i += 1) controller.enqueue(chunk);
          controller.close();
        },
      });
      const response = await fetch(`${sandbox.baseUrl}/v1/__probe/echo`, {
        method: 'POST',
        body,
        headers: { Authorization: 'Bearer sandbox-demo-key', 'Content-Type': 'application/json' },
        duplex: 'half',
      });
      expect(response.status).toBe(413);
    });

    it('accepts a body of exactly 1 MiB', async () => {
      const rawBody = JSON.stringify({ big: 'x'.repeat(MiB - 10) });
      expect(Buffer.byteLength(rawBody)).toBe(MiB);
      const answer = await sandbox.request('POST', '/v1/__probe/echo', { rawBody });
      expect(answer.status).toBe(200);
    });
  });

  describe('request screening (cross-site requests)', () => {
    const balance = async () =>
      (await sandbox.control<{ balanceUsd: string }>('GET', '/account')).json.balanceUsd;
    const post = (url: string, body: string, headers: Record<string, string>) =>
      fetch(url, { method: 'POST', body, headers });

    it('refuses a text/plain control call from a foreign page, and changes nothing', async () => {
      const before = await balance();
      const response = await post(`${sandbox.controlUrl}/account`, '{"balanceUsd":"999999.00"}', {
        'Content-Type': 'text/plain',
        Origin: 'http://evil.example',
      });
      expect(response.status).toBe(403);
      expect(((await response.json()) as { error: { code: string } }).error.code).toBe('origin_not_allowed');
      expect(await balance()).toBe(before);
    });

    it('refuses a foreign, null or rebound Origin even with a JSON body, on the API and control API', async () => {
      const host = new URL(sandbox.baseUrl).host;
      for (const origin of ['http://evil.example', 'null', `https://${host}`, 'http://localhost:1']) {
        const control = await post(`${sandbox.controlUrl}/clock`, '{"advanceSeconds":1}', {
          'Content-Type': 'application/json',
          Origin: origin,
        });
        expect(control.status, origin).toBe(403);
        const api = await fetch(`${sandbox.baseUrl}/v1/__probe/echo`, {
          method: 'POST',
          body: '{}',
          headers: {
            Authorization: 'Bearer sandbox-demo-key',
            'Content-Type': 'application/json',
            Origin: origin,
          },
        });
        expect(api.status, origin).toBe(403);
      }
      // A DNS name pointed at the sandbox names itself in both Host and Origin: still refused.
      const rebound = await rawAnswer(sandbox.baseUrl, {
        method: 'GET',
        path: '/api/v1/v1/__probe/public',
        headers: { Host: 'rebind.example', Origin: 'http://rebind.example' },
      });
      expect(rebound).toBe(403);
    });

    it('accepts requests without an Origin or from its own origin', async () => {
      const own = new URL(sandbox.baseUrl).origin;
      const answer = await fetch(`${sandbox.baseUrl}/v1/__probe/echo`, {
        method: 'POST',
        body: '{"a":1}',
        headers: {
          Authorization: 'Bearer sandbox-demo-key',
          'Content-Type': 'application/json',
          Origin: own,
        },
      });
      expect(answer.status).toBe(200);
      const control = await post(`${sandbox.controlUrl}/clock`, '{"advanceSeconds":0}', {
        'Content-Type': 'application/json; charset=utf-8',
      });
      expect(control.status).toBe(200);
    });

    it('answers 415 unsupported_media_type to a body not declared as JSON, and changes nothing', async () => {
      const before = await balance();
      for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'application/jsonfoo', '']) {
        const response = await post(`${sandbox.controlUrl}/account`, '{"balanceUsd":"999999.00"}', {
          'Content-Type': type,
        });
        expect(response.status, type).toBe(415);
        expect(((await response.json()) as { error: { code: string } }).error.code).toBe(
          'unsupported_media_type',
        );
      }
      const api = await post(`${sandbox.baseUrl}/v1/__probe/echo`, '{}', {
        Authorization: 'Bearer sandbox-demo-key',
        'Content-Type': 'text/plain',
      });
      expect(api.status).toBe(415);
      expect(await balance()).toBe(before);
    });

    it('takes a body-less POST without a Content-Type', async () => {
      expect((await sandbox.request('POST', '/v1/__probe/echo')).status).toBe(200);
    });
  });

  describe('validation errors', () => {
    it('answers 422 validation_error with one fields entry per bad field, prefixed inside an object', async () => {
      const answer = await sandbox.request('POST', '/v1/__probe/validate', {
        body: { label: 'x'.repeat(61), count: -1, purchase: { quantity: 0 } },
      });
      expect(answer.status).toBe(422);
      expect(answer.json.error.code).toBe('validation_error');
      expect(answer.json.error.message).toEqual(expect.any(String));
      expect(answer.json.error.fields).toEqual([
        { field: 'label', code: 'too_long', message: expect.any(String) },
        { field: 'count', code: 'too_small', message: expect.any(String) },
        { field: 'purchase.planId', code: 'required', message: expect.any(String) },
        { field: 'purchase.quantity', code: 'too_small', message: expect.any(String) },
      ]);
    });

    it('names the field in the message when only one is bad', async () => {
      const answer = await sandbox.request('POST', '/v1/__probe/validate', { body: {} });
      expect(answer.json.error.fields).toHaveLength(1);
      expect(answer.json.error.message).toBe('label: is required');
    });

    it('ignores unknown members of the body', async () => {
      const answer = await sandbox.request('POST', '/v1/__probe/validate', {
        body: { label: 'ok', surprise: { deep: true } },
      });
      expect(answer.status).toBe(200);
      expect(answer.json.label).toBe('ok');
    });

    it('reports a body that is not an object on the field body', async () => {
      const answer = await sandbox.request('POST', '/v1/__probe/validate', { body: [1, 2] });
      expect(answer.status).toBe(422);
      expect(answer.json.error.fields).toEqual([
        { field: 'body', code: 'invalid_type', message: expect.any(String) },
      ]);
    });
  });

  describe('unexpected errors', () => {
    it('answers 500 internal_error without details and logs the error with the key redacted', async () => {
      errors.length = 0;
      const answer = await sandbox.request('GET', '/v1/__probe/boom?key=secret-value');
      expect(answer.status).toBe(500);
      expect(answer.json).toEqual({ error: { code: 'internal_error', message: 'Unexpected sandbox error' } });
      expect(errors).toHaveLength(1);
      expect(errors[0]).toContain('probe exploded');
      expect(errors[0]).toContain('key=REDACTED');
      expect(errors[0]).not.toContain('secret-value');
    });
  });

  describe('time', () => {
    it('settles every module to the sandbox time before each request', async () => {
      settledAt.length = 0;
      await sandbox.request('GET', '/v1/__probe/public');
      expect(settledAt.at(-1)).toBe(Date.parse(await sandbox.now()));
      const advanced = await sandbox.advance(3600);
      // The clock change itself settles, and the next request settles at the new time.
      expect(settledAt.at(-1)).toBe(Date.parse(advanced));
      settledAt.length = 0;
      await sandbox.request('GET', '/v1/__probe/public');
      expect(settledAt).toEqual([Date.parse(advanced)]);
    });

    it('does not settle for a request refused before routing', async () => {
      settledAt.length = 0;
      await sandbox.request('GET', '/v1/__probe/private', { key: null });
      expect(settledAt).toEqual([]);
    });
  });
});

describe('sandbox server options and lifecycle', () => {
  it('starts the clock at startTime in manual mode', async () => {
    const sandbox = await TestSandbox.start();
    try {
      expect(await sandbox.now()).toBe(TEST_START_TIME);
    } finally {
      await sandbox.close();
    }
  });

  it('waits 5-15 s of (injected) real time in simulated delays with realistic latency, none when fast', async () => {
    const slept: number[] = [];
    const sleep = (ms: number) => {
      slept.push(ms);
      return Promise.resolve();
    };
    const realistic = await TestSandbox.start({ extraModules: [probeModule], latency: 'realistic', sleep });
    const fast = await TestSandbox.start({ extraModules: [probeModule], latency: 'fast', sleep });
    try {
      for (let i = 0; i < 5; i += 1) await realistic.request('POST', '/v1/__probe/slow');
      expect(slept).toHaveLength(5);
      for (const ms of slept) {
        expect(ms).toBeGreaterThanOrEqual(5_000);
        expect(ms).toBeLessThanOrEqual(15_000);
      }
      slept.length = 0;
      expect((await fast.request('POST', '/v1/__probe/slow')).status).toBe(200);
      expect(slept).toEqual([]);
    } finally {
      await Promise.all([realistic.close(), fast.close()]);
    }
  });

  it('gives the same data with realistic and fast latency (delays draw from their own sequence)', async () => {
    const instant = () => Promise.resolve();
    const realistic = await TestSandbox.start({ latency: 'realistic', sleep: instant });
    const fast = await TestSandbox.start({ latency: 'fast' });
    try {
      // A rotation waits a drawn delay; a password reset then draws from the seeded random.
      const run = async (sandbox: TestSandbox) => {
        const ports = (await sandbox.request('GET', '/v1/mobile')).json.data as { id: string }[];
        const results: unknown[] = [];
        for (const port of ports) {
          results.push((await sandbox.request('POST', `/v1/mobile/${port.id}/rotate`)).json);
          const reset = await sandbox.request('POST', `/v1/mobile/${port.id}/reset-password`);
          results.push(reset.json.password);
        }
        return results;
      };
      const [slow, quick] = [await run(realistic), await run(fast)];
      expect(slow.length).toBeGreaterThan(0);
      expect(slow).toEqual(quick);
    } finally {
      await Promise.all([realistic.close(), fast.close()]);
    }
  });

  it('logs nothing when a client goes away in the middle of its body, and records status 0', async () => {
    const errors: string[] = [];
    const sandbox = await TestSandbox.start({ extraModules: [probeModule], logError: (m) => errors.push(m) });
    try {
      const { hostname, port } = new URL(sandbox.baseUrl);
      await new Promise<void>((resolve) => {
        const req = httpRequest({
          hostname,
          port,
          method: 'POST',
          path: '/api/v1/v1/__probe/echo',
          headers: {
            'Content-Length': '100',
            'Content-Type': 'application/json',
            Authorization: 'Bearer sandbox-demo-key',
          },
        });
        req.on('error', () => resolve());
        req.write('{"half":', () => setImmediate(() => req.destroy()));
        req.on('close', () => resolve());
      });
      // The server sees the close asynchronously; the request log shows when it has.
      let log: { status: number }[] = [];
      for (let i = 0; i < 50 && log.length === 0; i += 1) {
        log = await sandbox.requests();
        if (log.length === 0) await new Promise((resolve) => setImmediate(resolve));
      }
      expect(log.map((entry) => entry.status)).toEqual([0]);
      expect(errors).toEqual([]);
    } finally {
      await sandbox.close();
    }
  });

  it('refuses to start on a port in use, with a clear message', async () => {
    const first = await TestSandbox.start();
    try {
      const port = Number(new URL(first.baseUrl).port);
      await expect(startSandbox({ port, clock: 'manual' })).rejects.toThrow(
        `port ${port} on 127.0.0.1 is already in use`,
      );
    } finally {
      await first.close();
    }
  });

  it('closes idle keep-alive connections on close()', async () => {
    const sandbox = await TestSandbox.start();
    const agent = new Agent({ keepAlive: true });
    try {
      // Wrapped in an object: resolving with a bare promise would wait for the socket to close.
      const { socketClosed } = await new Promise<{ socketClosed: Promise<void> }>((resolve, reject) => {
        const req = httpRequest(`${sandbox.controlUrl}/clock`, { agent }, (res) => {
          res.resume();
          res.on('end', () => {
            const socket = req.socket;
            if (!socket) throw new Error('no socket');
            resolve({ socketClosed: new Promise<void>((closed) => socket.once('close', () => closed())) });
          });
        });
        req.on('error', reject);
        req.end();
      });
      await sandbox.close();
      await socketClosed;
    } finally {
      agent.destroy();
    }
  });

  it('lets a request in progress finish on close() and tells the client the connection closes', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let sleeping!: () => void;
    const started = new Promise<void>((resolve) => (sleeping = resolve));
    const sandbox = await TestSandbox.start({
      extraModules: [probeModule],
      latency: 'realistic',
      sleep: () => {
        sleeping();
        return gate;
      },
    });
    const pending = sandbox.request('POST', '/v1/__probe/slow');
    await started;
    const closed = sandbox.close();
    release();
    const answer = await pending;
    await closed;
    expect(answer.status).toBe(200);
    expect(answer.json).toEqual({ done: true });
    expect(answer.headers.get('connection')).toBe('close');
  });

  it('cuts a request still in progress when the grace period is over', async () => {
    let sleeping!: () => void;
    const started = new Promise<void>((resolve) => (sleeping = resolve));
    const sandbox = await TestSandbox.start({
      extraModules: [probeModule],
      latency: 'realistic',
      closeGraceMs: 0,
      sleep: () => {
        sleeping();
        return new Promise<void>(() => undefined);
      },
    });
    const pending = sandbox.request('POST', '/v1/__probe/slow');
    await started;
    await sandbox.close();
    await expect(pending).rejects.toThrow();
  });

  it('names loopback in its URLs when it listens on every interface', async () => {
    const sandbox = await TestSandbox.start({ host: '0.0.0.0' });
    try {
      expect(sandbox.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/v1$/);
      expect((await sandbox.control('GET', '/clock')).status).toBe(200);
    } finally {
      await sandbox.close();
    }
  });

  it('stops listening once closed', async () => {
    const sandbox = await TestSandbox.start();
    const url = `${sandbox.controlUrl}/clock`;
    await sandbox.close();
    await expect(fetch(url)).rejects.toThrow();
  });

  it('mounts extra modules next to the domain routes', async () => {
    const plain = await TestSandbox.start();
    try {
      expect((await plain.request('GET', '/v1/__probe/public')).status).toBe(404);
    } finally {
      await plain.close();
    }
  });
});

/** Status of a request sent with a raw request target (fetch would normalise it). */
/** Raw HTTP, because fetch will not let a test forge Host. */
function rawAnswer(
  baseUrl: string,
  options: { method: string; path: string; headers: Record<string, string> },
): Promise<number> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ hostname, port, ...options }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.end();
  });
}

function rawStatus(baseUrl: string, target: string): Promise<number> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ hostname, port, path: target, method: 'GET' }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.end();
  });
}
