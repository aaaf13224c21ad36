import type { ChildProcess } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { manualPort, TestSandbox } from '@proxy-manager/sandbox/testing';
import type { PortHealth, PortHealthHistory } from '../../src-shared/contract';
import { createToken, readyUrl, restEnv, spawnServe, stopServe } from './support/serve-process';

/*
 * The health routes of the local REST API (`ports:health`, `ports:healthHistory`) from
 * `proxy-manager serve` in the foreground against a test sandbox: as its OpenAPI document declares
 * them, within the token's scopes, 404 for a port the account does not have, 400 with the fields
 * for bad input.
 */

let sandbox: TestSandbox;
let server: ChildProcess;
let port: number;
let reader: string;
let rotatorOnly: string;
let portId: string;
let doc: {
  paths: Record<string, Record<string, { parameters?: unknown[]; 'x-scope': string; responses: any }>>;
};

interface Answer {
  status: number;
  body: any;
}

function get(path: string, token: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port,
        method: 'GET',
        path,
        headers: { Host: `127.0.0.1:${port}`, Authorization: `Bearer ${token}` },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) as unknown }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

beforeAll(async () => {
  sandbox = await TestSandbox.start();
  await sandbox.advance(60);
  portId = (await manualPort(sandbox)).id;
  const env = restEnv(sandbox);
  reader = await createToken(env, 'reader', 'read');
  rotatorOnly = await createToken(env, 'rotator', 'rotate');
  server = spawnServe(env);
  const url = await readyUrl(server);
  port = Number(new URL(url).port);
  doc = (await get('/openapi.json', reader)).body;
}, 60_000);

afterAll(async () => {
  await stopServe(server);
  await sandbox.close();
});

const HEALTH_KEYS = [
  'checks24h',
  'checks30d',
  'drift30d',
  'failuresInARow',
  'lastCheck',
  'lastVerdict',
  'latency24h',
  'portId',
  'repeated30d',
  'rotations30d',
  'status',
  'statusSince',
  'unchanged30d',
  'uniqueIpRatio30d',
  'uptime24h',
  'uptime30d',
].sort();

/** The answer checked against the 200 schema its route declares. */
function matchesDoc(template: string, body: unknown): void {
  const schema = doc.paths[template]?.get?.responses['200'].content['application/json'].schema;
  expect(schema, template).toBeDefined();
  const checked = z.fromJSONSchema(schema).safeParse(body);
  expect(checked.success ? [] : checked.error.issues, template).toEqual([]);
}

describe('REST: port health', () => {
  it('declares both routes in the OpenAPI document: GET, scope read, their parameters and errors', () => {
    const list = doc.paths['/v1/ports/health']?.get;
    expect(list).toMatchObject({ 'x-contract-channel': 'ports:health', 'x-scope': 'read' });
    expect(list?.parameters).toEqual([
      { name: 'portId', in: 'query', required: false, schema: expect.objectContaining({ type: 'string' }) },
    ]);
    const history = doc.paths['/v1/ports/{portId}/health-history']?.get;
    expect(history).toMatchObject({ 'x-contract-channel': 'ports:healthHistory', 'x-scope': 'read' });
    expect(history?.parameters).toEqual([
      expect.objectContaining({ name: 'portId', in: 'path', required: true }),
      {
        name: 'range',
        in: 'query',
        required: false,
        schema: expect.objectContaining({ enum: ['24h', '30d'], default: '24h' }),
      },
    ]);
    for (const operation of [list, history]) {
      expect(Object.keys(operation?.responses ?? {})).toEqual(
        expect.arrayContaining(['200', '400', '401', '403', '404']),
      );
    }
  });

  it('answers every port’s scores and one port’s, in the contract’s shape', async () => {
    const all = await get('/v1/ports/health', reader);
    expect(all.status).toBe(200);
    matchesDoc('/v1/ports/health', all.body);
    const scores = all.body as PortHealth[];
    const listed = (await sandbox.request('GET', '/v1/mobile')).json.data as { id: string }[];
    expect(scores.map((entry) => entry.portId)).toEqual(listed.map((entry) => entry.id));
    for (const entry of scores) expect(Object.keys(entry).sort()).toEqual(HEALTH_KEYS);

    const one = await get(`/v1/ports/health?portId=${portId}`, reader);
    expect(one.status).toBe(200);
    expect(one.body).toHaveLength(1);
    // No check has run yet in this short-lived server (the first waits a minute): nothing to say.
    expect(one.body[0]).toMatchObject({
      portId,
      status: 'unknown',
      statusSince: null,
      uptime24h: null,
      checks24h: 0,
      lastCheck: null,
      latency24h: { firstByteP50: null, firstByteP95: null },
    });
  });

  it('answers a port’s uptime bar: 96 quarter hours or 30 days', async () => {
    const day = await get(`/v1/ports/${portId}/health-history`, reader);
    expect(day.status).toBe(200);
    matchesDoc('/v1/ports/{portId}/health-history', day.body);
    const history = day.body as PortHealthHistory;
    expect(history).toMatchObject({ portId, range: '24h', recent: [] });
    expect(history.segments).toHaveLength(96);
    expect(Object.keys(history.segments[0] ?? {}).sort()).toEqual(
      ['checks', 'failures', 'firstByteP50', 'firstByteP95', 'start'].sort(),
    );
    const month = await get(`/v1/ports/${portId}/health-history?range=30d`, reader);
    expect(month.status).toBe(200);
    expect(month.body.segments).toHaveLength(30);
  });

  it('refuses a token without the read scope (403), and a request without a token (401)', async () => {
    for (const path of ['/v1/ports/health', `/v1/ports/${portId}/health-history`]) {
      const denied = await get(path, rotatorOnly);
      expect(denied.status, path).toBe(403);
      expect(denied.body.error).toMatchObject({ code: 'scope_denied', scope: 'read' });
      expect((await get(path, `pmt_${'x'.repeat(43)}`)).status, path).toBe(401);
    }
  });

  it('answers 404 for a port the account does not have', async () => {
    for (const path of ['/v1/ports/health?portId=no_such_port', '/v1/ports/no_such_port/health-history']) {
      const missing = await get(path, reader);
      expect(missing.status, path).toBe(404);
      expect(missing.body.error).toMatchObject({
        code: 'port_not_found',
        fields: [{ field: 'portId', message: 'Unknown port.' }],
      });
    }
  });

  it('answers bad input with 400 and its fields', async () => {
    const range = await get(`/v1/ports/${portId}/health-history?range=7d`, reader);
    expect(range.status).toBe(400);
    expect(range.body.error.fields).toEqual([expect.objectContaining({ field: 'range' })]);
    const unknown = await get('/v1/ports/health?verbose=true', reader);
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.code).toBe('invalid_input');
    const empty = await get('/v1/ports/health?portId=', reader);
    expect(empty.status).toBe(400);
    expect(empty.body.error.fields).toEqual([expect.objectContaining({ field: 'portId' })]);
  });
});
