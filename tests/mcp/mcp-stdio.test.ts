import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_KEY, TestSandbox } from '@proxy-manager/sandbox/testing';
import { runCapture } from '../cli/support/cli-harness';

// `proxy-manager mcp` as an agent sees it: a child process on stdio, driven by the MCP SDK's own
// client, against a test sandbox given by the environment (no app runs on the temp data folder, so
// the server keeps a core of its own).

const ROOT = join(__dirname, '..', '..');
const BIN = join(ROOT, 'bin', 'proxy-manager.mjs');

let sandbox: TestSandbox;
let portIds: string[];

beforeAll(async () => {
  sandbox = await TestSandbox.start();
  portIds = (await sandbox.request('GET', '/v1/mobile')).json.data.map((port: { id: string }) => port.id);
});

afterAll(async () => {
  await sandbox.close();
});

interface Session {
  client: Client;
  dataDir: string;
  close(): Promise<void>;
}

async function connect(
  scopes: string | null,
  extra: { args?: string[]; env?: Record<string, string>; dataDir?: string } = {},
): Promise<Session> {
  const dataDir = extra.dataDir ?? mkdtempSync(join(tmpdir(), 'pm-mcp-'));
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, 'mcp', ...(scopes === null ? [] : ['--scopes', scopes]), ...(extra.args ?? [])],
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? dataDir,
      PROXY_MANAGER_DATA_DIR: dataDir,
      PROXY_MANAGER_API_KEY: DEMO_KEY,
      PROXY_MANAGER_BASE_URL: sandbox.baseUrl,
      DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent',
      ...extra.env,
    },
    stderr: 'pipe',
  });
  const client = new Client({ name: 'mcp-test', version: '1.0.0' });
  await client.connect(transport);
  return { client, dataDir, close: () => client.close() };
}

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

describe('proxy-manager mcp (read only, the default)', () => {
  let session: Session;
  beforeAll(async () => {
    session = await connect(null);
  }, 60_000);
  afterAll(async () => {
    await session.close();
  });

  it('lists the read tools of the contract, with JSON Schemas and read-only annotations', async () => {
    const { tools } = await session.client.listTools();
    const names = tools.map((tool) => tool.name);
    expect(names).toEqual(
      expect.arrayContaining(['ports_list', 'ports_get', 'subscriptions_list', 'health_snapshot']),
    );
    for (const absent of [
      'ports_rotate',
      'rotate_until_new',
      'topups_create',
      'topups_confirm',
      'subscriptions_build_proxy_string',
      'ports_reveal_rotation_link',
      'subscriptions_delete_sub_user',
    ]) {
      expect(names).not.toContain(absent);
    }
    for (const tool of tools) {
      expect(tool.inputSchema.type).toBe('object');
      expect(tool.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false });
      expect(tool.description?.length).toBeGreaterThan(20);
    }
    const getPort = tools.find((tool) => tool.name === 'ports_get');
    expect(getPort?.inputSchema.required).toEqual(['portId']);
  });

  it('pages ports_list with a limit and a cursor', async () => {
    expect(portIds.length).toBeGreaterThan(1);
    const first = await callJson(session, 'ports_list', { limit: 1 });
    expect(first.isError).toBe(false);
    expect(first.value.items).toHaveLength(1);
    expect(first.value.total).toBe(portIds.length);
    expect(typeof first.value.nextCursor).toBe('string');
    const second = await callJson(session, 'ports_list', { limit: 1, cursor: first.value.nextCursor });
    expect(second.value.items[0].id).not.toBe(first.value.items[0].id);
    const all = await callJson(session, 'ports_list');
    expect(all.value.items.map((port: { id: string }) => port.id)).toEqual(portIds.slice(0, 50));
    // The list's items are the public objects (never the window's table), without credentials.
    expect(all.value).not.toHaveProperty('rows');
    expect(all.value.items[0]).toMatchObject({ id: portIds[0], rotationMode: expect.any(String) });
    expect(all.value.items.every((port: object) => !('password' in port))).toBe(true);
  });

  it('pages subscriptions_sub_users as objects, without passwords', async () => {
    const subscriptions = await callJson(session, 'subscriptions_list', { productId: 'residential' });
    const withSubUsers = subscriptions.value.items.find(
      (subscription: { subUserCount: number }) => subscription.subUserCount > 1,
    );
    expect(withSubUsers).toBeDefined();
    const first = await callJson(session, 'subscriptions_sub_users', {
      subscriptionId: withSubUsers.id,
      limit: 1,
    });
    expect(first.isError).toBe(false);
    expect(first.value.items).toHaveLength(1);
    expect(first.value.total).toBe(withSubUsers.subUserCount);
    expect(first.value).not.toHaveProperty('rows');
    expect(Object.keys(first.value.items[0]).sort()).toEqual(
      ['createdAt', 'enabled', 'id', 'label', 'trafficLimitBytes', 'trafficUsedBytes', 'username'].sort(),
    );
    const all = await callJson(session, 'subscriptions_sub_users', { subscriptionId: withSubUsers.id });
    expect(JSON.stringify(all.value)).not.toMatch(/password/i);
  });

  it('answers a refused scope, an unknown tool and a bad input as tool errors, and keeps serving', async () => {
    const refused = await callJson(session, 'ports_rotate', { portId: portIds[0] });
    expect(refused.isError).toBe(true);
    expect(refused.value.error).toMatchObject({ code: 'scope_denied', scope: 'rotate' });
    const unknown = await callJson(session, 'no_such_tool');
    expect(unknown.value.error.code).toBe('unknown_tool');
    const bad = await callJson(session, 'ports_get', { portId: '' });
    expect(bad.isError).toBe(true);
    expect(bad.value.error.code).toBe('invalid_input');
    expect(bad.value.error.fields[0].field).toBe('portId');
    const badCursor = await callJson(session, 'ports_list', { cursor: 'nonsense' });
    expect(badCursor.value.error.code).toBe('invalid_input');
    const again = await callJson(session, 'ports_get', { portId: portIds[0] });
    expect(again.value.id).toBe(portIds[0]);
  });

  it('health_snapshot answers only what needs attention', async () => {
    const health = await callJson(session, 'health_snapshot');
    expect(health.isError).toBe(false);
    expect(health.value).toHaveProperty('allGood');
    expect(Array.isArray(health.value.items)).toBe(true);
    for (const item of health.value.items) {
      expect(Object.keys(item).sort()).toEqual(['detail', 'dueAt', 'kind', 'level', 'subject', 'title']);
    }
  });

  it('writes an audit entry per call, without inputs', () => {
    const lines = readFileSync(join(session.dataDir, 'automation-audit.jsonl'), 'utf8').trim().split('\n');
    const entries = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(
      entries.some((entry) => entry.channel === 'ports:rotate' && entry.outcome === 'scope_denied'),
    ).toBe(true);
    expect(entries.every((entry) => entry.surface === 'mcp')).toBe(true);
    expect(lines.join('\n')).not.toContain(portIds[0] ?? '\u0000');
  });
});

describe('proxy-manager mcp --scopes read,rotate,spend', () => {
  let session: Session;
  beforeAll(async () => {
    session = await connect('read,rotate,spend');
  }, 60_000);
  afterAll(async () => {
    await session.close();
  });

  it('lists the rotate and spend tools with their annotations, and no secrets tools', async () => {
    const { tools } = await session.client.listTools();
    const byName = new Map(tools.map((tool) => [tool.name, tool]));
    expect(byName.get('ports_rotate')?.annotations).toMatchObject({
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: false,
    });
    expect(byName.get('topups_confirm')?.annotations).toMatchObject({ readOnlyHint: false });
    expect(byName.has('rotate_until_new')).toBe(true);
    expect(byName.has('topups_create')).toBe(true);
    expect(byName.has('subscriptions_build_proxy_string')).toBe(false);
    expect(byName.has('ports_reveal_rotation_link')).toBe(false);
  });

  it('a rotation answers a receipt; rotate_until_new in the cooldown answers wait_seconds', async () => {
    const port = portIds[0];
    const rotated = await callJson(session, 'ports_rotate', { portId: port });
    expect(rotated.isError).toBe(false);
    expect(rotated.value).toMatchObject({ portId: port, confirmedBy: 'answer' });
    expect(typeof rotated.value.ip).toBe('string');
    expect(typeof rotated.value.previousIp).toBe('string');
    const wait = await callJson(session, 'rotate_until_new', { portId: port });
    expect(wait.isError).toBe(false);
    expect(wait.value.status).toBe('wait');
    expect(wait.value.wait_seconds).toBeGreaterThan(0);
    expect(wait.value.wait_seconds).toBeLessThanOrEqual(30);
  }, 60_000);

  it('topups_create answers a quote and creates nothing until topups_confirm, which creates it once', async () => {
    const count = async () =>
      (await sandbox.request('GET', '/v1/topups?perPage=100')).json.pagination.total as number;
    const before = await count();
    const quote = await callJson(session, 'topups_create', {
      amountUsd: '25.00',
      coin: 'USDT',
      network: 'tron',
    });
    expect(quote.isError).toBe(false);
    expect(quote.value.quote).toMatchObject({ amountUsd: '25.00', coin: 'USDT', network: 'tron' });
    expect(typeof quote.value.quote.depositAddress).toBe('string');
    expect(quote.value.quote.buys.kind).toBe('balance');
    expect(typeof quote.value.confirmationToken).toBe('string');
    expect(await count()).toBe(before);

    const bad = await callJson(session, 'topups_create', {
      amountUsd: '25.001',
      coin: 'USDT',
      network: 'tron',
    });
    expect(bad.isError).toBe(true);
    expect(bad.value.error.fields[0].field).toBe('amountUsd');
    const wrongToken = await callJson(session, 'topups_confirm', { confirmationToken: 'quote_nope' });
    expect(wrongToken.value.error.code).toBe('confirmation_invalid');
    expect(await count()).toBe(before);

    const created = await callJson(session, 'topups_confirm', {
      confirmationToken: quote.value.confirmationToken,
    });
    expect(created.isError).toBe(false);
    expect(created.value).toMatchObject({ amountUsd: '25.00', coin: 'USDT', network: 'tron' });
    expect(typeof created.value.amountCrypto).toBe('string');
    expect(await count()).toBe(before + 1);
    const again = await callJson(session, 'topups_confirm', {
      confirmationToken: quote.value.confirmationToken,
    });
    expect(again.value.id).toBe(created.value.id);
    expect(await count()).toBe(before + 1);
  }, 60_000);
});

describe('proxy-manager mcp --scopes read,secrets', () => {
  it('offers the secrets tools only with the scope', async () => {
    const session = await connect('read,secrets');
    try {
      const names = (await session.client.listTools()).tools.map((tool) => tool.name);
      expect(names).toContain('subscriptions_build_proxy_string');
      expect(names).toContain('ports_reveal_rotation_link');
      expect(names).not.toContain('ports_rotate');
    } finally {
      await session.close();
    }
  }, 60_000);
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
      expect(names).toContain('rotate_until_new');
      expect(names).not.toContain('topups_create');
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
