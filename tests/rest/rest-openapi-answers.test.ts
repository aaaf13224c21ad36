import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { TestSandbox } from '@proxy-manager/sandbox/testing';
import { createToken, readyUrl, restEnv, spawnServe, stopServe } from './support/serve-process';

// Every route's OpenAPI answer schema is exact (no schema that takes anything), and what a real
// `proxy-manager serve` against the test sandbox sends is what it says: every GET route, and the main
// writes (rotate, relocate, sub-user create, top-up create, and a few more; schedules set: see
// rest-schedules.test.ts, where the owner of the background jobs answers it).

let sandbox: TestSandbox;
let server: ChildProcess;
let url: string;
let everything: string;
let reader: string;
let doc: OpenApi;

interface Operation {
  'x-contract-channel': string;
  parameters?: { name: string; in: string; required: boolean }[];
  responses: Record<string, { content?: Record<string, { schema: Record<string, unknown> }> }>;
}
interface OpenApi {
  paths: Record<string, Record<string, Operation>>;
}

interface Answer {
  status: number;
  headers: Headers;
  body: any;
}

async function call(token: string, method: string, path: string, body?: unknown): Promise<Answer> {
  const response = await fetch(`${url}${path}`, {
    method,
    headers: {
      Authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : null };
}

beforeAll(async () => {
  sandbox = await TestSandbox.start();
  const env = restEnv(sandbox);
  everything = await createToken(env, 'everything', 'read,rotate,manage,spend,secrets');
  reader = await createToken(env, 'reader', 'read');
  server = spawnServe(env);
  url = await readyUrl(server);
  doc = (await call(reader, 'GET', '/openapi.json')).body as OpenApi;
}, 60_000);

afterAll(async () => {
  await stopServe(server);
  await sandbox.close();
});

const answerSchemaOf = (template: string, method: string): Record<string, unknown> => {
  const operation = doc.paths[template]?.[method];
  const schema = operation?.responses['200']?.content?.['application/json']?.schema;
  if (!schema) throw new Error(`${method.toUpperCase()} ${template}: no 200 answer schema`);
  return schema;
};

/**
 * Where a schema takes anything: `{}`, an object without properties (and no schema for the extra
 * ones), an array without items. A loose object with properties is fine (the service may add members).
 */
function looseSpots(schema: unknown, at: string): string[] {
  if (Array.isArray(schema)) return schema.flatMap((item, index) => looseSpots(item, `${at}[${index}]`));
  if (schema === null || typeof schema !== 'object') return [];
  const node = schema as Record<string, unknown>;
  // A value the service defines and the app passes on as it is (its spec shows no shape), said so.
  if (node['x-free-form'] === true) return [];
  const own = Object.keys(node).filter((key) => !['description', 'x-list-key', 'default'].includes(key));
  const spots: string[] = [];
  if (own.length === 0) spots.push(`${at}: takes anything`);
  const types = [node.type].flat();
  const extra = node.additionalProperties;
  const extraIsSchema =
    extra !== undefined &&
    extra !== true &&
    !(typeof extra === 'object' && Object.keys(extra ?? {}).length === 0);
  if (types.includes('object') && node.properties === undefined && !extraIsSchema)
    spots.push(`${at}: an object with no properties`);
  if (types.includes('array') && node.items === undefined) spots.push(`${at}: an array with no items`);
  for (const [key, value] of Object.entries(node)) {
    if ((key === 'additionalProperties' && !extraIsSchema) || key === 'default') continue;
    if (key === 'properties' && value !== null && typeof value === 'object') {
      for (const [name, property] of Object.entries(value))
        spots.push(...looseSpots(property, `${at}.${name}`));
    } else if (typeof value === 'object') spots.push(...looseSpots(value, `${at}/${key}`));
  }
  return spots;
}

function expectMatches(template: string, method: string, answer: Answer): void {
  expect(answer.status, `${method.toUpperCase()} ${template}: ${JSON.stringify(answer.body)}`).toBe(200);
  const checked = z.fromJSONSchema(answerSchemaOf(template, method)).safeParse(answer.body);
  expect(checked.success ? [] : checked.error.issues, `${method.toUpperCase()} ${template}`).toEqual([]);
}

describe('the OpenAPI document’s answer schemas', () => {
  it('gives every route an exact 200 answer schema: none missing, none that takes anything', () => {
    const operations = Object.entries(doc.paths).flatMap(([template, methods]) =>
      Object.keys(methods).map((method) => [template, method] as const),
    );
    expect(operations.length).toBeGreaterThan(50);
    const findings = operations.flatMap(([template, method]) => {
      const operation = doc.paths[template]?.[method];
      const schema = operation?.responses['200']?.content?.['application/json']?.schema;
      if (!schema) return [`${method} ${template}: missing`];
      return looseSpots(schema, `${method} ${template}`);
    });
    expect(findings).toEqual([]);
  });

  it('catches a loose schema (the check above can fail)', () => {
    expect(looseSpots({}, 'x')).toEqual(['x: takes anything']);
    expect(looseSpots({ type: 'object', additionalProperties: {} }, 'x')).toEqual([
      'x: an object with no properties',
    ]);
    expect(looseSpots({ type: 'array' }, 'x')).toEqual(['x: an array with no items']);
    expect(looseSpots({ type: 'object', properties: { a: {} } }, 'x')).toEqual(['x.a: takes anything']);
    expect(looseSpots({ 'x-free-form': true }, 'x')).toEqual([]);
  });

  it('describes what serve sends: every GET route and the main writes, on real data', async () => {
    const ports = (await call(reader, 'GET', '/v1/ports')).body as { id: string }[];
    const portId = ports[0]!.id;
    const otherPortId = ports[1]!.id;
    const subscriptions = (await call(reader, 'GET', '/v1/subscriptions')).body as { id: string }[];
    const subscriptionId = subscriptions[0]!.id;

    // The main writes, each checked against its schema; they also give the reads something to show.
    const rotated = await call(everything, 'POST', `/v1/ports/${portId}/rotate`, {});
    expectMatches('/v1/ports/{portId}/rotate', 'post', rotated);
    expect(rotated.body.trigger).toBe('rest');
    const many = await call(everything, 'POST', '/v1/ports/rotate-many', { portIds: [portId, otherPortId] });
    expectMatches('/v1/ports/rotate-many', 'post', many);
    expect(many.body.some((outcome: { ok: boolean }) => !outcome.ok)).toBe(true);

    const carriers = (await call(reader, 'GET', '/v1/catalog/carriers?countryCode=US')).body as {
      id: string;
      available: boolean;
    }[];
    const relocated = await call(everything, 'POST', `/v1/ports/${ports[2]!.id}/relocate`, {
      country: 'US',
      carrier: carriers.find((carrier) => carrier.available)!.id,
    });
    expectMatches('/v1/ports/{portId}/relocate', 'post', relocated);

    // `schedules set` is answered by the owner of the background jobs (tests/rest/rest-schedules.test.ts).

    const subUser = await call(everything, 'POST', `/v1/subscriptions/${subscriptionId}/sub-user`, {
      label: 'openapi check',
      trafficLimit: { amount: '1.5', unit: 'GB' },
    });
    expectMatches('/v1/subscriptions/{subscriptionId}/sub-user', 'post', subUser);

    const topUp = await call(everything, 'POST', '/v1/topups', {
      amountUsd: '25.00',
      coin: 'USDT',
      network: 'tron',
      attemptId: randomUUID(),
    });
    expectMatches('/v1/topups', 'post', topUp);

    const updated = await call(everything, 'PATCH', `/v1/ports/${portId}`, { label: 'Checked' });
    expectMatches('/v1/ports/{portId}', 'patch', updated);
    const added = await call(everything, 'POST', '/v1/local-proxies', {
      upstream: { kind: 'port', portId },
      start: false,
    });
    expectMatches('/v1/local-proxies', 'post', added);
    const tested = await call(everything, 'POST', '/v1/proxy/test', { target: { kind: 'port', portId } });
    expectMatches('/v1/proxy/test', 'post', tested);
    const strings = await call(everything, 'POST', `/v1/subscriptions/${subscriptionId}/build-proxy-string`, {
      targeting: { country: 'US' },
      format: 'http_url',
      protocol: 'http',
    });
    expectMatches('/v1/subscriptions/{subscriptionId}/build-proxy-string', 'post', strings);

    // Every GET route, filled in with real ids and its required query parameters.
    const ids: Record<string, string> = { portId, subscriptionId, topUpId: topUp.body.id, id: added.body.id };
    const queryValues: Record<string, string> = { countryCode: 'US', page: '1', perPage: '50' };
    const reads = Object.entries(doc.paths).filter(([, methods]) => methods.get !== undefined);
    expect(reads.length).toBeGreaterThan(30);
    for (const [template, methods] of reads) {
      const operation = methods.get!;
      const path = template.replace(/\{(\w+)\}/g, (_, name: string) => {
        const value = ids[name];
        if (value === undefined) throw new Error(`${template}: no id for {${name}} in this test`);
        return encodeURIComponent(value);
      });
      const query = new URLSearchParams();
      for (const parameter of operation.parameters ?? []) {
        if (parameter.in !== 'query' || !parameter.required) continue;
        const value = queryValues[parameter.name];
        if (value === undefined) throw new Error(`${template}: no value for its query ${parameter.name}`);
        query.set(parameter.name, value);
      }
      const target = query.size > 0 ? `${path}?${query.toString()}` : path;
      for (const token of [everything, reader])
        expectMatches(template, 'get', await call(token, 'GET', target));
    }
  }, 60_000);
});
