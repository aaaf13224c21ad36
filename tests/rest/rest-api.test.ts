import { type ChildProcess, execFile } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import { connect, type Socket } from 'node:net';
import { promisify } from 'node:util';
import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { TestSandbox } from '@proxy-manager/sandbox/testing';
import { PORT_ROW_COLUMNS } from '../../src-shared/contract/ports';
import { runCapture } from '../cli/support/cli-harness';
import { createToken, readyUrl, restEnv, spawnServe, stopServe } from './support/serve-process';

// `proxy-manager serve` in the foreground against a test sandbox, reached as a script would: with
// curl, and with raw requests for what a browser would send (foreign Host, Origin, form posts).

const run = promisify(execFile);

let sandbox: TestSandbox;
let server: ChildProcess;
let url: string;
let port: number;
let env: Record<string, string>;
let reader: string;
let rotator: string;
let portIds: string[];

beforeAll(async () => {
  sandbox = await TestSandbox.start();
  portIds = (await sandbox.request('GET', '/v1/mobile')).json.data.map((p: { id: string }) => p.id);
  env = restEnv(sandbox);
  reader = await createToken(env, 'reader', 'read');
  rotator = await createToken(env, 'rotator', 'read,rotate');
  server = spawnServe(env);
  url = await readyUrl(server);
  port = Number(new URL(url).port);
}, 60_000);

afterAll(async () => {
  await stopServe(server);
  await sandbox.close();
});

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: any;
}

/** A raw request: any Host, Origin or body, as a browser or another program might send. */
function raw(
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: string,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: '127.0.0.1', port, method, path, headers: { Host: `127.0.0.1:${port}`, ...headers } },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => {
          let parsed: unknown = text;
          try {
            parsed = JSON.parse(text);
          } catch {
            // not JSON
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: parsed });
        });
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

async function curl(args: string[]): Promise<{ status: number; body: any; headers: string }> {
  const { stdout } = await run('curl', ['-sS', '-D', '-', ...args]);
  const [head = '', ...rest] = stdout.split('\r\n\r\n');
  const status = Number(/^HTTP\/[\d.]+ (\d+)/.exec(head)?.[1]);
  return { status, headers: head, body: JSON.parse(rest.join('\r\n\r\n')) };
}

describe('proxy-manager serve', () => {
  it('serves an OpenAPI 3.1 document that validates, with a route per offered channel', async () => {
    const answer = await raw('GET', '/openapi.json', bearer(reader));
    expect(answer.status).toBe(200);
    expect(answer.body.openapi).toBe('3.1.0');
    const result = await new Validator().validate(answer.body);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(answer.body.paths['/v1/ports/{portId}/rotate'].post['x-scope']).toBe('rotate');
    expect(answer.body.paths['/v1/ports'].get.operationId).toBe('ports_list');
    // The list routes' answers are described as sent: arrays of objects with their fields.
    const ports = answer.body.paths['/v1/ports'].get.responses['200'].content['application/json'].schema;
    expect(ports.type).toBe('array');
    expect(Object.keys(ports.items.properties)).toEqual([...PORT_ROW_COLUMNS]);
    const subUsers =
      answer.body.paths['/v1/subscriptions/{subscriptionId}/sub-users'].get.responses['200'].content[
        'application/json'
      ].schema;
    expect(subUsers.items.required).toContain('username');
  });

  it('sends what its OpenAPI document says: answers checked against their 200 schemas', async () => {
    const doc = (await raw('GET', '/openapi.json', bearer(reader))).body;
    const subscriptionId = (await sandbox.request('GET', '/v1/residential/subscriptions')).json.data[0].id;
    const topUpId = (
      await sandbox.request('POST', '/v1/topups', {
        body: { amountUsd: '30.00', coin: 'USDT', network: 'tron' },
      })
    ).json.id;
    const routes: [string, string][] = [
      ['/v1/ports', '/v1/ports'],
      ['/v1/ports/{portId}/usage', `/v1/ports/${portIds[1]}/usage`],
      ['/v1/subscriptions', '/v1/subscriptions?productId=residential'],
      ['/v1/subscriptions/{subscriptionId}', `/v1/subscriptions/${subscriptionId}`],
      ['/v1/subscriptions/{subscriptionId}/sub-users', `/v1/subscriptions/${subscriptionId}/sub-users`],
      ['/v1/topups', '/v1/topups'],
      ['/v1/ports/{portId}/ip-history', `/v1/ports/${portIds[1]}/ip-history?page=1&perPage=50`],
      ['/v1/schedules', '/v1/schedules'],
      ['/v1/local-proxies', '/v1/local-proxies'],
      ['/v1/topups/{topUpId}', `/v1/topups/${topUpId}`],
      ['/v1/catalog/countries', '/v1/catalog/countries'],
      ['/v1/catalog/coins', '/v1/catalog/coins'],
    ];
    for (const [template, path] of routes) {
      const schema = doc.paths[template].get.responses['200'].content['application/json'].schema;
      expect(Object.keys(schema).length, template).toBeGreaterThan(0);
      const answer = await raw('GET', path, bearer(reader));
      expect(answer.status, path).toBe(200);
      const checked = z.fromJSONSchema(schema).safeParse(answer.body);
      expect(checked.success ? [] : checked.error.issues, path).toEqual([]);
    }
    // Without the secrets scope a password is null, and the schema says so.
    const subscription = await raw('GET', `/v1/subscriptions/${subscriptionId}`, bearer(reader));
    expect(subscription.body.password).toBeNull();
  });

  it('answers the sub-users of a subscription as an array of objects, as sent by the schema', async () => {
    const subscriptionId = (await sandbox.request('GET', '/v1/residential/subscriptions')).json.data[0].id;
    const list = await curl([
      '-H',
      `Authorization: Bearer ${reader}`,
      `${url}/v1/subscriptions/${subscriptionId}/sub-users`,
    ]);
    expect(list.status).toBe(200);
    expect(Array.isArray(list.body)).toBe(true);
    expect(list.body[0].id).toEqual(expect.any(String));
    expect(Object.keys(list.body[0])).toEqual([
      'id',
      'label',
      'username',
      'trafficLimitBytes',
      'trafficUsedBytes',
      'enabled',
      'createdAt',
    ]);
  });

  it('answers every list route as an array of objects, its paging in Link and X-Total-Count', async () => {
    const doc = (await raw('GET', '/openapi.json', bearer(reader))).body;
    const schemaOf = (template: string) =>
      z.fromJSONSchema(doc.paths[template].get.responses['200'].content['application/json'].schema);
    for (let made = 0; made < 3; made += 1)
      await sandbox.request('POST', '/v1/topups', {
        body: { amountUsd: '30.00', coin: 'USDT', network: 'tron' },
      });
    const manager = await createToken(env, 'list-manager', 'read,manage');
    const added = await raw(
      'POST',
      '/v1/local-proxies',
      { ...bearer(manager), 'Content-Type': 'application/json' },
      JSON.stringify({ upstream: { kind: 'port', portId: portIds[0] }, start: false }),
    );
    expect(added.status).toBe(200);

    // Top-ups, paged by the service: page 1 of 2 a page, then the page its Link calls next.
    const first = await raw('GET', '/v1/topups?perPage=2', bearer(reader));
    expect(first.status).toBe(200);
    expect(Array.isArray(first.body)).toBe(true);
    expect(first.body).toHaveLength(2);
    expect(first.body[0].id).toEqual(expect.any(String));
    expect(Number(first.headers['x-total-count'])).toBeGreaterThanOrEqual(3);
    const next = /<([^>]+)>; rel="next"/.exec(String(first.headers.link))?.[1] ?? '';
    expect(new URL(next).searchParams.get('page')).toBe('2');
    expect(new URL(next).searchParams.get('perPage')).toBe('2');
    expect(String(first.headers.link)).toContain('rel="first"');
    const second = await raw('GET', next.replace(url, ''), bearer(reader));
    expect(second.status).toBe(200);
    expect(second.body[0].id).toEqual(expect.any(String));
    expect(second.body[0].id).not.toBe(first.body[0].id);
    expect(String(second.headers.link)).toContain('rel="prev"');
    for (const page of [first, second]) {
      const checked = schemaOf('/v1/topups').safeParse(page.body);
      expect(checked.success ? [] : checked.error.issues).toEqual([]);
    }

    // A port's IP history: its items have no id; their key is `ip`.
    const history = await curl([
      '-H',
      `Authorization: Bearer ${reader}`,
      `${url}/v1/ports/${portIds[0]}/ip-history?page=1&perPage=50`,
    ]);
    expect(history.status).toBe(200);
    expect(history.body[0].ip).toMatch(/^\d+\.\d+\.\d+\.\d+$/);
    expect(history.headers).toMatch(/^x-total-count: \d+$/im);
    expect(history.headers).toMatch(/^link: <[^>]+[?&]page=2[^>]*>; rel="next", /im);

    // Schedules: their key is `portId` (none here: they are set where the background jobs run);
    // "paused" is in X-Schedules-Paused.
    const schedules = await curl(['-H', `Authorization: Bearer ${reader}`, `${url}/v1/schedules`]);
    expect(schedules.status).toBe(200);
    expect(schedules.body).toEqual([]);
    expect(schedules.headers).toMatch(/^x-schedules-paused: false$/im);

    // Local proxies: `.[0].id`; whether this process runs them is in X-Local-Proxies-Runs-Here.
    const proxies = await curl(['-H', `Authorization: Bearer ${reader}`, `${url}/v1/local-proxies`]);
    expect(proxies.status).toBe(200);
    expect(proxies.body[0].id).toBe(added.body.id);
    expect(proxies.headers).toMatch(/^x-local-proxies-runs-here: (true|false)$/im);

    const deliveries = await raw('GET', '/v1/alert-routing/deliveries', bearer(reader));
    expect(deliveries.status).toBe(200);
    expect(Array.isArray(deliveries.body)).toBe(true);

    // What was sent is what the OpenAPI document says.
    for (const [template, answer] of [
      ['/v1/ports/{portId}/ip-history', history],
      ['/v1/schedules', schedules],
      ['/v1/local-proxies', proxies],
      ['/v1/alert-routing/deliveries', deliveries],
    ] as const) {
      const checked = schemaOf(template).safeParse(answer.body);
      expect(checked.success ? [] : checked.error.issues, template).toEqual([]);
    }
    const headers = doc.paths['/v1/topups'].get.responses['200'].headers;
    expect(Object.keys(headers)).toEqual(['Link', 'X-Total-Count']);
    expect(Object.keys(doc.paths['/v1/schedules'].get.responses['200'].headers)).toContain(
      'X-Schedules-Paused',
    );
  });

  it('refuses a request without a token, or with a wrong one (401)', async () => {
    const none = await raw('GET', '/v1/ports');
    expect(none.status).toBe(401);
    expect(none.headers['www-authenticate']).toBe('Bearer');
    expect(none.body.error.code).toBe('token_invalid');
    const wrong = await raw('GET', '/v1/ports', bearer(`pmt_${'x'.repeat(43)}`));
    expect(wrong.status).toBe(401);
  });

  it('refuses a call outside the token’s scopes (403)', async () => {
    const answer = await raw('POST', `/v1/ports/${portIds[1]}/rotate`, bearer(reader));
    expect(answer.status).toBe(403);
    expect(answer.body.error).toMatchObject({ code: 'scope_denied', scope: 'rotate' });
  });

  it('refuses a foreign Host or Origin, and a cross-site form post; never sends CORS headers', async () => {
    const host = await raw('GET', '/v1/ports', { ...bearer(reader), Host: `localhost:${port}` });
    expect(host.status).toBe(403);
    const rebound = await raw('GET', '/v1/ports', { ...bearer(reader), Host: `evil.example:${port}` });
    expect(rebound.status).toBe(403);
    const origin = await raw('GET', '/v1/ports', { ...bearer(reader), Origin: 'https://evil.example' });
    expect(origin.status).toBe(403);
    // What a page elsewhere can send without a preflight: a form post (no token, a foreign Origin).
    const form = await raw(
      'POST',
      `/v1/ports/${portIds[1]}/rotate`,
      { Origin: 'https://evil.example', 'Content-Type': 'application/x-www-form-urlencoded' },
      'portId=x',
    );
    expect(form.status).toBe(403);
    // Even with a token and no Origin, a body that is not JSON is refused.
    const notJson = await raw(
      'POST',
      `/v1/ports/${portIds[1]}/rotate`,
      { ...bearer(rotator), 'Content-Type': 'text/plain' },
      '{}',
    );
    expect(notJson.status).toBe(415);
    const preflight = await raw('OPTIONS', '/v1/ports', {
      Origin: 'https://evil.example',
      'Access-Control-Request-Method': 'GET',
    });
    expect(preflight.status).toBe(403);
    for (const answer of [host, origin, form, notJson, preflight]) {
      expect(Object.keys(answer.headers).filter((name) => name.startsWith('access-control-'))).toEqual([]);
    }
  });

  it('answers bad input with 400 and its fields, an unknown route with 404, a large body with 413', async () => {
    const bad = await raw('GET', '/v1/topups?perPage=1000', bearer(reader));
    expect(bad.status).toBe(400);
    expect(bad.body.error.fields[0].field).toBe('perPage');
    const notJson = await raw(
      'POST',
      `/v1/ports/${portIds[1]}/rotate`,
      { ...bearer(rotator), 'Content-Type': 'application/json' },
      '{nope',
    );
    expect(notJson.status).toBe(400);
    expect((await raw('GET', '/v1/nothing-here', bearer(reader))).status).toBe(404);
    expect((await raw('GET', '/v1/ports', { ...bearer(reader), Accept: 'text/html' })).status).toBe(406);
    expect((await raw('GET', '/v1/ports/no_such_port', bearer(reader))).status).toBe(404);
    const large = await raw(
      'POST',
      '/v1/ports/rotate-many',
      { ...bearer(rotator), 'Content-Type': 'application/json' },
      JSON.stringify({ portIds: ['x'.repeat(2 * 1024 * 1024)] }),
    ).catch(() => ({ status: 413 }) as Answer);
    expect(large.status).toBe(413);
  });

  it('reads and rotates with curl; a second rotation is 429 with Retry-After', async () => {
    const list = await curl(['-H', `Authorization: Bearer ${reader}`, `${url}/v1/ports`]);
    expect(list.status).toBe(200);
    // As the CLI's --json prints it: an array of objects (`.[0].id`), never the window's table.
    expect(list.body.map((p: { id: string }) => p.id)).toEqual(portIds);
    const one = await curl(['-H', `Authorization: Bearer ${reader}`, `${url}/v1/ports/${portIds[0]}`]);
    expect(one.body.id).toBe(portIds[0]);
    const rotated = await curl([
      '-X',
      'POST',
      '-H',
      `Authorization: Bearer ${rotator}`,
      `${url}/v1/ports/${portIds[0]}/rotate`,
    ]);
    expect(rotated.status).toBe(200);
    expect(rotated.body).toMatchObject({ portId: portIds[0], trigger: 'rest' });
    expect(typeof rotated.body.ip).toBe('string');
    const again = await curl([
      '-X',
      'POST',
      '-H',
      `Authorization: Bearer ${rotator}`,
      `${url}/v1/ports/${portIds[0]}/rotate`,
    ]);
    expect(again.status).toBe(429);
    expect(again.headers).toMatch(/^Retry-After: \d+$/im);
  }, 60_000);

  it('keeps a hash of each token, its last use, and an audit log without secrets', async () => {
    const tokens = await runCapture(['token', 'list', '--json'], env);
    const listed = tokens.json<{ name: string; lastUsedAt: string | null }[]>();
    expect(listed.map((token) => token.name)).toEqual(['reader', 'rotator', 'list-manager']);
    expect(listed.every((token) => token.lastUsedAt !== null)).toBe(true);
    expect(tokens.stdout).not.toContain(reader);
    const audit = await runCapture(['audit', '--json'], env);
    const entries =
      audit.json<{ surface: string; channel: string; outcome: string; caller: { name: string } }[]>();
    expect(
      entries.some((e) => e.channel === 'ports:rotate' && e.outcome === 'ok' && e.caller.name === 'rotator'),
    ).toBe(true);
    expect(entries.some((e) => e.channel === 'ports:rotate' && e.outcome === 'scope_denied')).toBe(true);
    expect(audit.stdout).not.toContain(reader);
    expect(audit.stdout).not.toContain(rotator);
  });

  it('stops accepting a revoked token at once', async () => {
    const listed = (await runCapture(['token', 'list', '--json'], env)).json<
      { id: string; name: string }[]
    >();
    const id = listed.find((token) => token.name === 'reader')?.id ?? '';
    expect((await runCapture(['token', 'revoke', id], env)).code).toBe(0);
    expect((await raw('GET', '/v1/ports', bearer(reader))).status).toBe(401);
  });
});

describe('proxy-manager serve tells the truth about failures', () => {
  let spender: string;
  beforeAll(async () => {
    spender = await createToken(env, 'spender', 'read,spend');
  });

  const usage = () => raw('GET', `/v1/ports/${portIds[1]}/usage`, bearer(spender));
  const clearFaults = async () => {
    const answer = await fetch(`${sandbox.controlUrl}/faults`, { method: 'DELETE' });
    expect(answer.ok).toBe(true);
  };

  it('answers the service’s 500, 502 and 503 and a dropped connection as 502/503, never 4xx', async () => {
    for (const status of [500, 502, 503]) {
      // Enough for every retry the client makes of a read.
      await sandbox.fault({ match: '/usage', status, times: 5 });
      const answer = await usage();
      expect(answer.status).toBe(502);
      expect(answer.body.error.upstreamStatus).toBe(status);
      await clearFaults();
    }
    await sandbox.fault({ match: '/usage', dropConnection: true, times: 5 });
    const dropped = await usage();
    expect(dropped.status).toBe(502);
    expect(dropped.body.error.code).toBe('network_error');
    await clearFaults();
    // The service said when to come back: 503 with its Retry-After (longer than the client waits).
    await sandbox.fault({ match: '/usage', status: 503, headers: { 'Retry-After': '120' }, times: 5 });
    const later = await usage();
    expect(later.status).toBe(503);
    expect(later.headers['retry-after']).toBe('120');
    await clearFaults();
    expect((await usage()).status).toBe(200);
  }, 60_000);

  it('refuses an attemptId reused with another amount (409 naming it) and creates nothing', async () => {
    const attemptId = '2f1c3a4b-5d6e-4f70-8a9b-0c1d2e3f4a5b';
    const create = (amountUsd: string) =>
      raw(
        'POST',
        '/v1/topups',
        { ...bearer(spender), 'Content-Type': 'application/json' },
        JSON.stringify({ amountUsd, coin: 'USDT', network: 'tron', attemptId }),
      );
    const first = await create('25.00');
    expect(first.status).toBe(200);
    const count = async () => (await sandbox.request('GET', '/v1/topups?perPage=1')).json.total as number;
    const before = await count();
    const again = await create('25.00');
    expect(again.status).toBe(200);
    expect(again.body.id).toBe(first.body.id);
    const other = await create('30.00');
    expect(other.status).toBe(409);
    expect(other.body.error).toMatchObject({ code: 'idempotency_mismatch' });
    expect(other.body.error.message).toContain('amountUsd');
    expect(other.body.error.fields).toEqual([
      { field: 'amountUsd', message: 'This attempt was made with amountUsd "25.00", not "30.00".' },
    ]);
    expect(await count()).toBe(before);
  });

  it('audits every refused request, with its remote address and never the token sent', async () => {
    const wrongToken = 'pmt_this-is-not-a-token-0123456789';
    expect((await raw('GET', '/v1/ports', bearer(wrongToken))).status).toBe(401);
    expect((await raw('GET', '/v1/ports', { Origin: 'http://evil.example' })).status).toBe(403);
    const json = { ...bearer(spender), 'Content-Type': 'application/json' };
    expect((await raw('POST', '/v1/topups', json, '{not json')).status).toBe(400);
    expect(
      (await raw('POST', '/v1/topups', { ...bearer(spender), 'Content-Type': 'text/plain' }, 'x')).status,
    ).toBe(415);
    const large = await raw(
      'POST',
      '/v1/topups',
      json,
      JSON.stringify({ pad: 'x'.repeat(2 * 1024 * 1024) }),
    ).catch(() => ({ status: 413 }) as Answer);
    expect(large.status).toBe(413);
    // A body too large may be cut off before its audit line is written: wait for the line.
    type Entry = {
      channel: string;
      outcome: string;
      caller: { kind: string; name?: string };
      remoteAddress?: string;
    };
    let entries: Entry[] = [];
    for (let tries = 0; tries < 50; tries += 1) {
      entries = (await runCapture(['audit', '--json'], env)).json<Entry[]>();
      if (entries[0]?.outcome === 'body_too_large') break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const outcomes = entries.slice(0, 5).map((entry) => entry.outcome);
    expect(outcomes).toEqual([
      'body_too_large',
      'unsupported_media_type',
      'bad_json',
      'forbidden_origin',
      'unauthorized',
    ]);
    expect(entries[4]).toMatchObject({
      caller: { kind: 'anonymous', name: 'unknown token' },
      channel: 'GET /v1/ports',
      remoteAddress: '127.0.0.1',
    });
    expect(entries[2]).toMatchObject({
      channel: 'topups:create',
      caller: { kind: 'token', name: 'spender' },
    });
    expect(JSON.stringify(entries)).not.toContain(wrongToken);
  });

  it('answers a connection past the cap with 503 and Retry-After instead of resetting it', async () => {
    const held = await Promise.all(
      Array.from(
        { length: 64 },
        () =>
          new Promise<Socket>((resolve, reject) => {
            const socket = connect(port, '127.0.0.1', () => resolve(socket));
            socket.once('error', reject);
          }),
      ),
    );
    try {
      const answer = await raw('GET', '/v1/ports', bearer(spender));
      expect(answer.status).toBe(503);
      expect(answer.headers['retry-after']).toBe('1');
      expect(answer.body.error.code).toBe('over_capacity');
    } finally {
      for (const socket of held) socket.destroy();
    }
  });
});
