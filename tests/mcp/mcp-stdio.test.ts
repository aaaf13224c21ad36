import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { TestSandbox } from '@proxy-manager/sandbox/testing';
import { runCapture } from '../cli/support/cli-harness';
import { SIDE_EFFECTS, TOOLSETS } from '../../src-main/mcp/mcp-tools';
import { SCOPES, type Scope } from '../../src-shared/contract/scopes';
import { type McpSession as Session, startMcp } from './support/mcp-session';

// `proxy-manager mcp` as an agent sees it (support/mcp-session.ts): a child process on stdio, driven
// by the MCP SDK's own client, against a test sandbox given by the environment.

/** tools/list with every scope and every output schema (about 80,000 characters; docs/automation.md). */
const OUTPUT_SCHEMAS_BOUND = 85_000;

let sandbox: TestSandbox;
let portIds: string[];

beforeAll(async () => {
  sandbox = await TestSandbox.start();
  portIds = (await sandbox.request('GET', '/v1/mobile')).json.data.map((port: { id: string }) => port.id);
});

afterAll(async () => {
  await sandbox.close();
});

/** The server with these scopes (null: the default), on a data folder of its own unless given one. */
const connect = (
  scopes: string | null,
  extra: { args?: string[]; env?: Record<string, string>; dataDir?: string } = {},
): Promise<Session> =>
  startMcp(sandbox, {
    ...extra,
    args: [...(scopes === null ? [] : ['--scopes', scopes]), ...(extra.args ?? [])],
  });

interface TextResult {
  isError?: boolean;
  content: { type: string; text: string }[];
}

async function callJson(session: Session, name: string, args: Record<string, unknown> = {}) {
  const result = (await session.client.callTool({ name, arguments: args })) as TextResult;
  const text = result.content[0]?.text ?? 'null';
  expect(Buffer.byteLength(text)).toBeLessThan(80_000);
  return { isError: result.isError === true, value: JSON.parse(text) as Record<string, any> };
}

/** Every property of a JSON Schema, at any depth, by its path. */
function properties(schema: unknown, path = ''): [string, Record<string, unknown>][] {
  if (schema === null || typeof schema !== 'object') return [];
  if (Array.isArray(schema)) return schema.flatMap((item) => properties(item, path));
  const record = schema as Record<string, unknown>;
  const own = Object.entries((record.properties ?? {}) as Record<string, Record<string, unknown>>).flatMap(
    ([name, property]): [string, Record<string, unknown>][] => [
      [`${path}.${name}`, property],
      ...properties(property, `${path}.${name}`),
    ],
  );
  const nested = ['items', 'oneOf', 'anyOf', 'allOf'].flatMap((key) => properties(record[key], path));
  return [...own, ...nested];
}

describe('proxy-manager mcp --scopes with every scope: a small toolset', () => {
  let session: Session;
  beforeAll(async () => {
    session = await connect(SCOPES.join(','));
  }, 60_000);
  afterAll(async () => {
    await session.close();
  });

  it('lists at most 25 tools, every property described, with output schemas', async () => {
    const listed = await session.client.listTools();
    const { tools } = listed;
    expect(tools.length).toBeLessThanOrEqual(25);
    const undescribed = tools.flatMap((tool) =>
      properties(tool.inputSchema, tool.name)
        .filter(([, property]) => typeof property.description !== 'string' || property.description === '')
        .map(([path]) => path),
    );
    expect(undescribed).toEqual([]);
    for (const tool of tools) {
      expect(tool.outputSchema?.type).toBe('object');
      expect(tool.inputSchema.type).toBe('object');
    }
    // One name per concept: a country is `countryCode` in every tool, never `country`.
    expect(JSON.stringify(tools)).not.toMatch(/"country"/);
    const names = tools.map((tool) => tool.name);
    // The near-duplicates are one tool each.
    for (const gone of ['ports_rotate_many', 'rotate_until_new', 'proxy_test_many', 'topups_create'])
      expect(names).not.toContain(gone);
    expect(names).toEqual(
      expect.arrayContaining([
        'ports_rotate',
        'proxy_test',
        'local_proxies',
        'topups_read',
        'health_snapshot',
      ]),
    );
  });

  it('ends each description with the side-effect line of its scope', async () => {
    const { tools } = await session.client.listTools();
    const lines = new Set(Object.values(SIDE_EFFECTS));
    for (const tool of tools) {
      const last = [...lines].find((line) => tool.description?.endsWith(line));
      expect(last, tool.name).toBeDefined();
      const scope = (Object.keys(SIDE_EFFECTS) as Scope[]).find((key) => SIDE_EFFECTS[key] === last);
      // The annotations agree with the line: read and secrets tools are read-only, the others not.
      expect(tool.annotations?.readOnlyHint === true, tool.name).toBe(
        scope === 'read' || scope === 'secrets',
      );
    }
    const byName = new Map(tools.map((tool) => [tool.name, tool]));
    expect(byName.get('schedules')?.description).toMatch(/spends no money\.$/);
    expect(byName.get('topups_declare_paid')?.description).not.toMatch(/Spends the account/);
    expect(byName.get('topups_quote')?.description).toMatch(/^Step 1 of 2.*Creates nothing/);
    expect(byName.get('topups_confirm')?.description).toMatch(/^Step 2 of 2/);
  });

  it('pages ports_list as objects, concise unless detailed, with structured content', async () => {
    const first = (await session.client.callTool({ name: 'ports_list', arguments: { limit: 1 } })) as {
      structuredContent?: { items: Record<string, unknown>[]; total: number; nextCursor: string | null };
    };
    expect(first.structuredContent?.items).toHaveLength(1);
    expect(first.structuredContent?.total).toBe(portIds.length);
    expect(Object.keys(first.structuredContent?.items[0] ?? {})).toEqual([
      'id',
      'label',
      'status',
      'countryCode',
      'currentIp',
      'expiresAt',
    ]);
    const next = await callJson(session, 'ports_list', {
      limit: 1,
      cursor: first.structuredContent?.nextCursor,
    });
    expect(next.value.items[0].id).not.toBe(first.structuredContent?.items[0]?.id);
    const detailed = await callJson(session, 'ports_list', { response_format: 'detailed' });
    expect(detailed.value.items.map((port: { id: string }) => port.id)).toEqual(portIds.slice(0, 50));
    expect(detailed.value.items[0]).toHaveProperty('rotationMode');
    expect(JSON.stringify(detailed.value)).not.toMatch(/password|rotationLink/);
  });

  it('reads the catalog with countryCode, and a sub-users list without passwords', async () => {
    const cities = await callJson(session, 'catalog', { list: 'cities', countryCode: 'US', limit: 2 });
    expect(cities.isError).toBe(false);
    expect(cities.value.items.length).toBeGreaterThan(0);
    const subscriptions = await callJson(session, 'subscriptions_list', {
      productId: 'residential',
      response_format: 'detailed',
    });
    const withSubUsers = subscriptions.value.items.find(
      (subscription: { subUserCount: number }) => subscription.subUserCount > 1,
    );
    const subUsers = await callJson(session, 'sub_users_list', { subscriptionId: withSubUsers.id, limit: 1 });
    expect(subUsers.value.items).toHaveLength(1);
    expect(subUsers.value.total).toBe(withSubUsers.subUserCount);
    expect(JSON.stringify(subUsers.value)).not.toMatch(/password/i);
    // A country nested in targeting is `countryCode` too, and reaches the contract as its `country`.
    const strings = await callJson(session, 'proxy_strings', {
      subscriptionId: withSubUsers.id,
      targeting: { countryCode: 'US' },
      format: 'http_url',
      protocol: 'http',
    });
    expect(strings.isError, JSON.stringify(strings.value)).toBe(false);
    expect(strings.value.lines[0]).toMatch(/-country-us\b/);
  });

  it('rotates one or many ports in one tool; a cooldown answers waitSeconds', async () => {
    const port = portIds[0];
    const rotated = await callJson(session, 'ports_rotate', { portIds: [port] });
    expect(rotated.isError).toBe(false);
    expect(rotated.value.results[0]).toMatchObject({ portId: port, status: 'rotated' });
    expect(typeof rotated.value.results[0].receipt.ip).toBe('string');
    expect(rotated.value.results[0].receipt.trigger).toBe('mcp');
    const both = await callJson(session, 'ports_rotate', {
      portIds: [port, portIds[2]],
      untilNew: { lastN: 1, maxTries: 1 },
    });
    expect(both.value.results.map((result: { status: string }) => result.status)).toEqual([
      'wait',
      'rotated',
    ]);
    expect(both.value.results[0].waitSeconds).toBeGreaterThan(0);
    expect(both.value.results[0].waitSeconds).toBeLessThanOrEqual(30);
  }, 60_000);

  it('answers errors that say what to do next, and keeps serving', async () => {
    const bad = await callJson(session, 'ports_get', { portId: '' });
    expect(bad.isError).toBe(true);
    expect(bad.value.error).toMatchObject({ code: 'invalid_input' });
    expect(bad.value.error.fields[0].field).toBe('portId');
    expect(bad.value.error.next).toMatch(/^Fix the arguments named in fields and call ports_get again/);
    const unknownArgument = await callJson(session, 'ports_get', { portId: portIds[0], country: 'US' });
    expect(unknownArgument.value.error.message).toMatch(/takes no argument "country"/);
    const missing = await callJson(session, 'ports_get', { portId: 'port_nope' });
    expect(missing.value.error.next).toMatch(/ports_list/);
    const unknown = await callJson(session, 'no_such_tool');
    expect(unknown.value.error).toMatchObject({
      code: 'unknown_tool',
      next: expect.stringMatching(/tools\/list/),
    });
    expect((await callJson(session, 'ports_get', { portId: portIds[0] })).value.id).toBe(portIds[0]);
  });

  it('quotes a top-up and creates nothing until topups_confirm, which creates it once', async () => {
    const count = async () =>
      (await sandbox.request('GET', '/v1/topups?perPage=100')).json.pagination.total as number;
    const before = await count();
    const quote = await callJson(session, 'topups_quote', {
      amountUsd: '25.00',
      coin: 'USDT',
      network: 'tron',
    });
    expect(quote.isError).toBe(false);
    expect(quote.value.quote).toMatchObject({ amountUsd: '25.00', coin: 'USDT', network: 'tron' });
    expect(typeof quote.value.confirmationToken).toBe('string');
    expect(await count()).toBe(before);
    const wrongToken = await callJson(session, 'topups_confirm', { confirmationToken: 'quote_nope' });
    expect(wrongToken.value.error.code).toBe('confirmation_invalid');
    const created = await callJson(session, 'topups_confirm', {
      confirmationToken: quote.value.confirmationToken,
    });
    expect(created.isError).toBe(false);
    expect(typeof created.value.amountCrypto).toBe('string');
    expect(await count()).toBe(before + 1);
    const again = await callJson(session, 'topups_confirm', {
      confirmationToken: quote.value.confirmationToken,
    });
    expect(again.value.id).toBe(created.value.id);
    const read = await callJson(session, 'topups_read', { topUpId: created.value.id });
    expect(read.value).toMatchObject({
      id: created.value.id,
      payment: { depositAddress: expect.any(String) },
    });
    expect(await count()).toBe(before + 1);
  }, 60_000);

  it('manages local proxies in one tool, the id named localProxyId as every id is named after its kind', async () => {
    const added = await callJson(session, 'local_proxies', {
      action: 'add',
      upstream: { kind: 'port', portId: portIds[1] },
      label: 'Agent proxy',
      start: false,
    });
    expect(added.isError, JSON.stringify(added.value)).toBe(false);
    const localProxyId = added.value.id as string;
    const renamed = await callJson(session, 'local_proxies', {
      action: 'update',
      localProxyId,
      label: 'Renamed',
    });
    expect(renamed.value).toMatchObject({ id: localProxyId, label: 'Renamed' });
    const listed = await callJson(session, 'local_proxies', { action: 'list' });
    expect(listed.value.proxies.map((proxy: { id: string }) => proxy.id)).toContain(localProxyId);
    const byId = await callJson(session, 'local_proxies', { action: 'remove', id: localProxyId });
    expect(byId.value.error.message).toMatch(/takes no argument "id"/);
    const removed = await callJson(session, 'local_proxies', { action: 'remove', localProxyId });
    expect(removed.isError).toBe(false);
  });

  it('passes the Overview through health_snapshot: what to act on, every part with detailed', async () => {
    const health = await callJson(session, 'health_snapshot');
    expect(health.isError).toBe(false);
    expect(Object.keys(health.value).sort()).toEqual(
      ['allGood', 'counts', 'generatedAt', 'items', 'sources', 'totals'].sort(),
    );
    const detailed = await callJson(session, 'health_snapshot', { response_format: 'detailed' });
    expect(detailed.value).toHaveProperty('cards');
    expect(detailed.value).toHaveProperty('badges');
    expect(detailed.value.items.length).toBe(health.value.items.length);
    expect(health.value.items.length).toBeGreaterThan(0);
    expect(Object.keys(health.value.items[0]).sort()).toEqual(
      [
        'detail',
        'dueAt',
        'dueIn',
        'dueIsForecast',
        'id',
        'kind',
        'level',
        'levelWord',
        'subject',
        'title',
      ].sort(),
    );
    expect(detailed.value.items[0]).toMatchObject(health.value.items[0]);
    expect(detailed.value.items[0]).toHaveProperty('action');
    const wrong = await callJson(session, 'health_snapshot', { response_format: 'verbose' });
    expect(wrong.isError).toBe(true);
  });

  it('answers every tool and every action exactly as its output schema says, no member undeclared', async () => {
    const { tools } = await session.client.listTools();
    const subscriptionId = (await sandbox.request('GET', '/v1/residential/subscriptions')).json.data[0].id;
    const [port, , cooling, moved] = [portIds[0], portIds[1], portIds[3], portIds.at(-1)];
    const made: Record<string, string> = {};
    const remember = (key: string) => (value: Record<string, any>) => {
      made[key] = value.id ?? value.confirmationToken;
    };
    // In order: later steps use what earlier ones made. A tool, or an action, with no step fails below.
    const steps: {
      tool: string;
      args: () => Record<string, unknown>;
      then?: (value: any) => void;
      /** The error a step answers here: with no app running, schedules change only in their owner. */
      refused?: string;
    }[] = [
      { tool: 'health_snapshot', args: () => ({}) },
      { tool: 'health_snapshot', args: () => ({ response_format: 'detailed' }) },
      { tool: 'ports_health', args: () => ({}) },
      { tool: 'ports_health', args: () => ({ response_format: 'detailed' }) },
      { tool: 'ports_health', args: () => ({ portId: port, range: '30d' }) },
      { tool: 'alert_deliveries', args: () => ({}) },
      { tool: 'ports_list', args: () => ({}) },
      { tool: 'ports_list', args: () => ({ response_format: 'detailed' }) },
      { tool: 'ports_get', args: () => ({ portId: port }) },
      { tool: 'ports_history', args: () => ({ portId: port, page: 1, perPage: 5 }) },
      { tool: 'ports_usage', args: () => ({ portId: port }) },
      { tool: 'ports_update', args: () => ({ portId: port, label: 'Schema check' }) },
      { tool: 'ports_rotate', args: () => ({ portIds: [cooling] }) },
      // A port in its cooldown (wait) and one that does not exist (failed), in one call.
      { tool: 'ports_rotate', args: () => ({ portIds: [cooling, 'port_nope'] }) },
      { tool: 'ports_relocate', args: () => ({ portId: moved, countryCode: 'US', carrier: 'verizon' }) },
      { tool: 'proxy_test', args: () => ({ targets: [{ kind: 'port', portId: port }] }) },
      {
        tool: 'proxy_test',
        args: () => ({ targets: [{ kind: 'port', portId: port }], response_format: 'detailed' }),
      },
      { tool: 'subscriptions_list', args: () => ({}) },
      { tool: 'subscriptions_list', args: () => ({ response_format: 'detailed' }) },
      { tool: 'subscriptions_get', args: () => ({ subscriptionId }) },
      { tool: 'subscriptions_update', args: () => ({ subscriptionId, label: 'Schema check' }) },
      { tool: 'subscriptions_usage', args: () => ({ subscriptionId }) },
      { tool: 'sub_users_list', args: () => ({ subscriptionId }) },
      { tool: 'sub_users_list', args: () => ({ subscriptionId, response_format: 'detailed' }) },
      {
        tool: 'sub_users_change',
        args: () => ({ action: 'create', subscriptionId, label: 'schema-one' }),
        then: remember('subUser'),
      },
      {
        tool: 'sub_users_change',
        args: () => ({ action: 'create', subscriptionId, count: 2, labelPrefix: 'schema-many-' }),
      },
      {
        tool: 'sub_users_change',
        args: () => ({ action: 'update', subscriptionId, subUserId: made.subUser, enabled: false }),
      },
      {
        tool: 'sub_users_change',
        args: () => ({ action: 'delete', subscriptionId, subUserId: made.subUser }),
      },
      {
        tool: 'proxy_strings',
        args: () => ({ subscriptionId, targeting: {}, format: 'http_url', protocol: 'http', count: 2 }),
      },
      {
        tool: 'topups_quote',
        args: () => ({
          amountUsd: '25.00',
          coin: 'USDT',
          network: 'tron',
          purchase: { planId: 'res_10gb', quantity: 1 },
        }),
      },
      {
        tool: 'topups_quote',
        args: () => ({ amountUsd: '30.00', coin: 'USDT', network: 'tron' }),
        then: remember('token'),
      },
      { tool: 'topups_confirm', args: () => ({ confirmationToken: made.token }), then: remember('topUp') },
      { tool: 'topups_read', args: () => ({}) },
      { tool: 'topups_read', args: () => ({ topUpId: made.topUp }) },
      { tool: 'topups_declare_paid', args: () => ({ topUpId: made.topUp }) },
      ...['countries', 'states', 'cities', 'asns', 'carriers', 'coins'].flatMap((list) =>
        [{}, { response_format: 'detailed' }].map((format) => ({
          tool: 'catalog',
          args: () => ({ list, countryCode: 'US', ...format }),
        })),
      ),
      {
        tool: 'local_proxies',
        args: () => ({ action: 'add', upstream: { kind: 'port', portId: port }, start: false }),
        then: remember('localProxy'),
      },
      { tool: 'local_proxies', args: () => ({ action: 'list' }) },
      {
        tool: 'local_proxies',
        args: () => ({ action: 'update', localProxyId: made.localProxy, label: 'L' }),
      },
      { tool: 'local_proxies', args: () => ({ action: 'start', localProxyId: made.localProxy }) },
      { tool: 'local_proxies', args: () => ({ action: 'stop', localProxyId: made.localProxy }) },
      { tool: 'local_proxies', args: () => ({ action: 'remove', localProxyId: made.localProxy }) },
      { tool: 'schedules', args: () => ({ action: 'list' }) },
      // Every action answers the schedules as `list` does (one schema, checked at compile time);
      // the changes need the process that runs the schedules, which this test does not start.
      {
        tool: 'schedules',
        args: () => ({ action: 'set', portIds: [port], cadence: { kind: 'every', seconds: 3600 } }),
        refused: 'not_job_owner',
      },
      { tool: 'schedules', args: () => ({ action: 'pause' }), refused: 'not_job_owner' },
      { tool: 'schedules', args: () => ({ action: 'resume' }), refused: 'not_job_owner' },
      {
        tool: 'schedules',
        args: () => ({ action: 'remove', portIds: [port] }),
        refused: 'not_job_owner',
      },
    ];
    // Every tool listed with every scope, and every action of an action tool, has a step.
    expect([...new Set(steps.map((step) => step.tool))].sort()).toEqual(
      tools.map((tool) => tool.name).sort(),
    );
    for (const tool of tools) {
      const actions = (tool.inputSchema.properties?.action as { enum?: string[] } | undefined)?.enum ?? [];
      const stepped = steps.filter((step) => step.tool === tool.name).map((step) => step.args().action);
      for (const action of actions) expect(stepped, `${tool.name} action ${action}`).toContain(action);
    }
    const validators = new Map(
      tools.map((tool) => [tool.name, z.fromJSONSchema(closed(tool.outputSchema) as never)]),
    );
    const answers = new Map<string, unknown>();
    for (const step of steps) {
      const args = step.args();
      const result = (await session.client.callTool({ name: step.tool, arguments: args })) as {
        isError?: boolean;
        structuredContent?: unknown;
        content: { text: string }[];
      };
      const what = `${step.tool} ${JSON.stringify(args)}`;
      if (step.refused) {
        expect(result.isError, what).toBe(true);
        expect(JSON.parse(result.content[0]?.text ?? '{}').error.code, what).toBe(step.refused);
        continue;
      }
      expect(result.isError, `${what}: ${result.content[0]?.text}`).not.toBe(true);
      const checked = validators.get(step.tool)?.safeParse(result.structuredContent);
      expect(checked?.success ? [] : checked?.error.issues, what).toEqual([]);
      step.then?.(result.structuredContent);
      answers.set(step.tool, result.structuredContent);
    }
    // The check is not vacuous: an undeclared member, or a missing one, is refused.
    const port0 = answers.get('ports_get') as Record<string, unknown>;
    expect(validators.get('ports_get')?.safeParse({ ...port0, extra: 1 }).success).toBe(false);
    const { currentIp: _ip, ...withoutIp } = port0;
    expect(validators.get('ports_get')?.safeParse(withoutIp).success).toBe(false);
  }, 120_000);

  it('keeps what an agent reads under 20,000 characters; output schemas are exact, not in that budget', async () => {
    const { tools } = await session.client.listTools();
    // What clients pass to the model (Claude Code, opencode): name, description and input schema.
    const modelVisible = tools.map(({ name, description, inputSchema, annotations }) => ({
      name,
      description,
      inputSchema,
      annotations,
    }));
    expect(JSON.stringify({ tools: modelVisible }).length).toBeLessThan(20_000);
    // The whole list, with every output schema, stays bounded (docs/automation.md gives the figure).
    expect(JSON.stringify({ tools }).length).toBeLessThan(OUTPUT_SCHEMAS_BOUND);
    const outputs = JSON.stringify(tools.map((tool) => tool.outputSchema));
    // Nothing that only lengthens the list: the date-time expression, ±2^53 bounds, descriptions.
    expect(outputs).not.toContain('9007199254740991');
    expect(outputs).not.toContain('"description"');
    expect(outputs).not.toMatch(/"format":"date-time","pattern"/);
  });
});

/** A schema with every object closed: a member no schema declares is refused. */
function closed(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(closed);
  if (schema === null || typeof schema !== 'object') return schema;
  const record = Object.fromEntries(
    Object.entries(schema as Record<string, unknown>).map(([key, value]) => [
      key,
      key === 'properties'
        ? Object.fromEntries(Object.entries(value as object).map(([name, member]) => [name, closed(member)]))
        : closed(value),
    ]),
  );
  return 'properties' in record && !('additionalProperties' in record)
    ? { ...record, additionalProperties: false }
    : record;
}

describe('proxy-manager mcp (the default: read)', () => {
  it('lists only read tools and refuses the others as a scope error', async () => {
    const session = await connect(null);
    try {
      const { tools } = await session.client.listTools();
      expect(tools.every((tool) => tool.annotations?.readOnlyHint === true)).toBe(true);
      expect(tools.map((tool) => tool.name)).not.toContain('proxy_strings');
      const refused = await callJson(session, 'ports_rotate', { portIds: [portIds[0]] });
      expect(refused.value.error).toMatchObject({ code: 'scope_denied', scope: 'rotate' });
      // A proxy test sends traffic: it needs `rotate`, not `read`.
      const test = await callJson(session, 'proxy_test', { targets: [{ kind: 'port', portId: portIds[0] }] });
      expect(test.value.error).toMatchObject({ code: 'scope_denied', scope: 'rotate' });
      const lines = readFileSync(join(session.dataDir, 'automation-audit.jsonl'), 'utf8').trim().split('\n');
      const entries = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
      expect(
        entries.some((entry) => entry.channel === 'ports:rotate' && entry.outcome === 'scope_denied'),
      ).toBe(true);
      expect(lines.join('\n')).not.toContain(portIds[0] ?? '\u0000');
    } finally {
      await session.close();
    }
  }, 60_000);
});

describe('proxy-manager mcp --read-only and --toolsets', () => {
  it('--read-only lists only read tools whatever the scopes; --toolsets only those groups', async () => {
    const readOnly = await connect(SCOPES.join(','), { args: ['--read-only'] });
    try {
      const { tools } = await readOnly.client.listTools();
      expect(tools.length).toBeGreaterThan(5);
      expect(tools.every((tool) => tool.annotations?.readOnlyHint === true)).toBe(true);
      expect(tools.map((tool) => tool.name)).toContain('proxy_strings');
      const refused = await callJson(readOnly, 'ports_rotate', { portIds: [portIds[0]] });
      expect(refused.value.error.code).toBe('tool_not_offered');
    } finally {
      await readOnly.close();
    }
    const some = await connect(SCOPES.join(','), { args: ['--toolsets', 'health,catalog'] });
    try {
      const names = (await some.client.listTools()).tools.map((tool) => tool.name).sort();
      expect(names).toEqual(['alert_deliveries', 'catalog', 'health_snapshot', 'ports_health']);
    } finally {
      await some.close();
    }
    const bad = await runCapture(['mcp', '--toolsets', 'ports,nope'], {});
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^error: --toolsets: unknown toolset "nope" \(the toolsets: (.+)\)$/m);
    expect(/the toolsets: (.+)\)/.exec(bad.stderr)?.[1]).toBe(TOOLSETS.join(', '));
  }, 60_000);
  it('--no-output-schemas: the whole tools/list under 20,000 characters, answers still structured', async () => {
    const session = await connect(SCOPES.join(','), { args: ['--no-output-schemas'] });
    try {
      const listed = await session.client.listTools();
      expect(listed.tools).toHaveLength(25);
      expect(listed.tools.some((tool) => tool.outputSchema !== undefined)).toBe(false);
      expect(JSON.stringify(listed).length).toBeLessThan(20_000);
      const result = (await session.client.callTool({
        name: 'ports_get',
        arguments: { portId: portIds[0] },
      })) as { structuredContent?: { id?: string } };
      expect(result.structuredContent?.id).toBe(portIds[0]);
    } finally {
      await session.close();
    }
  });
});

describe('proxy-manager mcp --token-env VAR', () => {
  it('takes its scopes from the token, names it in the audit log, and stops when it is revoked', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'pm-mcp-'));
    const env = { PROXY_MANAGER_DATA_DIR: dataDir };
    const created = await runCapture(
      ['token', 'create', '--name', 'agent', '--scopes', 'read,rotate', '--json'],
      env,
    );
    const { token, secret } = created.json<{ token: { id: string }; secret: string }>();
    const session = await connect(null, {
      args: ['--token-env', 'PM_TOKEN'],
      env: { PM_TOKEN: secret },
      dataDir,
    });
    try {
      const names = (await session.client.listTools()).tools.map((tool) => tool.name);
      expect(names).toContain('ports_rotate');
      expect(names).not.toContain('topups_quote');
      expect((await callJson(session, 'ports_get', { portId: portIds[0] })).isError).toBe(false);
      expect((await runCapture(['token', 'revoke', token.id], env)).code).toBe(0);
      const refused = await callJson(session, 'ports_get', { portId: portIds[0] });
      expect(refused.value.error.code).toBe('token_invalid');
      const audit = (await runCapture(['audit', '--json'], env)).json<
        { caller: { kind: string; name?: string } }[]
      >();
      expect(audit.every((entry) => entry.caller.kind === 'token' && entry.caller.name === 'agent')).toBe(
        true,
      );
    } finally {
      await session.close();
    }
  }, 60_000);
});
