import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AuditLog } from '../../src-main/core/automation/audit-log';
import { TokenStore } from '../../src-main/core/automation/token-store';
import { FakeClock } from '../../src-main/core/runtime/fake-clock';
import type { JobsOwnership } from '../../src-main/core/runtime/background-jobs';
import { createIpcHandlers } from '../../src-main/dispatch/handler-table';
import { type OwnedRest, serveRestWhileOwner } from '../../src-main/rest/rest-while-owner';
import { DEMO_KEY, TestSandbox } from '@proxy-manager/sandbox/testing';
import { createHarness, type Harness } from '../core/support/core-harness';

// The REST API of the process that owns the background jobs (the app or web mode, where schedules
// run): `GET /v1/schedules` on real schedules, set through REST, is an array of objects keyed by
// `portId` with the next run, its other members in headers, and what the OpenAPI document says.

const NOW = Date.parse('2026-03-10T12:00:00.000Z');

let sandbox: TestSandbox;
let harness: Harness;
let rest: OwnedRest;
let url: string;
let rotator: string;
let reader: string;
let doc: { paths: Record<string, Record<string, any>> };

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

const owner: JobsOwnership = {
  status: () => ({ owner: true, message: null }),
  onChange: () => () => undefined,
};

beforeAll(async () => {
  sandbox = await TestSandbox.start();
  const dataDir = mkdtempSync(join(tmpdir(), 'pm-rest-schedules-'));
  harness = await createHarness(sandbox, {
    dataDir,
    automation: {
      tokens: new TokenStore({ dataDir, now: () => NOW, log: () => undefined }),
      audit: new AuditLog({ dataDir, log: () => undefined }),
    },
    clock: new FakeClock(NOW),
    random: () => 0,
    jobsOwnership: owner,
  });
  await harness.call('profiles:create', {
    name: 'Work',
    baseUrl: sandbox.baseUrl,
    pathStyle: 'literal',
    apiKey: DEMO_KEY,
    storage: 'session',
    duplicate: 'refuse',
  });
  await harness.core.start();
  const handlers = createIpcHandlers(harness.core);
  rotator = (await handlers['automation:createToken']({ name: 'rotator', scopes: ['read', 'rotate'] }))
    .secret;
  reader = (await handlers['automation:createToken']({ name: 'reader', scopes: ['read'] })).secret;
  rest = serveRestWhileOwner({ core: harness.core, version: 'test', log: () => undefined });
  const on = await handlers['automation:setRest']({ enabled: true, port: await freePort() });
  await rest.settled();
  url = on.url ?? '';
  doc = (await (
    await fetch(`${url}/openapi.json`, { headers: { Authorization: `Bearer ${reader}` } })
  ).json()) as typeof doc;
}, 60_000);

afterAll(async () => {
  await rest?.close();
  await harness?.core.dispose();
  await sandbox?.close();
});

async function call(token: string, method: string, path: string, body?: unknown) {
  const response = await fetch(`${url}${path}`, {
    method,
    headers: {
      Authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, headers: response.headers, body: await response.json() };
}

function expectAsDocumented(template: string, method: string, body: unknown): void {
  const schema = doc.paths[template]?.[method]?.responses['200'].content['application/json'].schema;
  const checked = z.fromJSONSchema(schema).safeParse(body);
  expect(checked.success ? [] : checked.error.issues, `${method} ${template}`).toEqual([]);
}

describe('GET /v1/schedules on real schedules', () => {
  it('answers an array of objects keyed by portId, with the next run, paused in a header', async () => {
    const ports = (await call(reader, 'GET', '/v1/ports')).body as { id: string }[];
    const chosen = ports.slice(0, 3).map((port) => port.id);
    const set = await call(rotator, 'POST', '/v1/schedules/set', {
      portIds: chosen,
      cadence: { kind: 'every', seconds: 600 },
      staggerSeconds: 60,
    });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    expectAsDocumented('/v1/schedules/set', 'post', set.body);
    const cron = await call(rotator, 'POST', '/v1/schedules/set', {
      portIds: [ports[3]!.id],
      cadence: { kind: 'cron', expression: '30 * * * *', timezone: 'Europe/Paris' },
    });
    expect(cron.status).toBe(200);

    const listed = await call(reader, 'GET', '/v1/schedules');
    expect(listed.status).toBe(200);
    expectAsDocumented('/v1/schedules', 'get', listed.body);
    expect(listed.headers.get('x-schedules-paused')).toBe('false');
    expect(listed.headers.get('x-schedules-profile-id')).toEqual(expect.any(String));
    // Not paged: one array of every schedule, no Link.
    expect(listed.headers.get('link')).toBeNull();
    const byPort = new Map((listed.body as { portId: string }[]).map((item) => [item.portId, item] as const));
    expect([...byPort.keys()].sort()).toEqual([...chosen, ports[3]!.id].sort());
    chosen.forEach((portId, index) => {
      expect(byPort.get(portId)).toEqual({
        profileId: listed.headers.get('x-schedules-profile-id'),
        portId,
        cadence: { kind: 'every', seconds: 600 },
        jitterSeconds: 0,
        staggerSeconds: 60,
        offsetSeconds: index * 60,
        nextRunAt: new Date(NOW + 600_000 + index * 60_000).toISOString(),
        consecutiveFailures: 0,
        lastRuns: [],
      });
    });
    expect(byPort.get(ports[3]!.id)).toMatchObject({
      cadence: { kind: 'cron', expression: '30 * * * *', timezone: 'Europe/Paris' },
      nextRunAt: '2026-03-10T12:30:00.000Z',
    });

    // Paused: in the header, and no next run.
    const paused = await call(rotator, 'POST', '/v1/schedules/pause', { paused: true });
    expect(paused.status).toBe(200);
    const whilePaused = await call(reader, 'GET', '/v1/schedules');
    expect(whilePaused.headers.get('x-schedules-paused')).toBe('true');
    expect(whilePaused.body.map((item: { nextRunAt: string | null }) => item.nextRunAt)).toEqual(
      whilePaused.body.map(() => null),
    );
    expectAsDocumented('/v1/schedules', 'get', whilePaused.body);

    const runs = await call(reader, 'GET', `/v1/schedules/${encodeURIComponent(chosen[0]!)}/runs`);
    expect(runs.status).toBe(200);
    expectAsDocumented('/v1/schedules/{portId}/runs', 'get', runs.body);

    const removed = await call(rotator, 'DELETE', '/v1/schedules', { portIds: chosen });
    expect(removed.status).toBe(200);
    expectAsDocumented('/v1/schedules', 'delete', removed.body);
    const after = await call(reader, 'GET', '/v1/schedules');
    expect(after.body.map((item: { portId: string }) => item.portId)).toEqual([ports[3]!.id]);
  });
});
