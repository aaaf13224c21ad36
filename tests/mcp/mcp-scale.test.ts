import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_KEY, TestSandbox } from '@proxy-manager/sandbox/testing';
import { ANSWER_MAX_BYTES, PAGE_LIMIT_MAX } from '../../src-main/mcp/agent-answers';

// The MCP server at a power user's size (1,000 ports, 300 top-ups): every answer an agent gets stays
// under the bound, and a list too long for one answer is paged rather than refused.

const BIN = join(__dirname, '..', '..', 'bin', 'proxy-manager.mjs');

let sandbox: TestSandbox;
let client: Client;

beforeAll(async () => {
  sandbox = await TestSandbox.start({ scale: { ports: 1000, topUps: 300 } });
  const dataDir = mkdtempSync(join(tmpdir(), 'pm-mcp-scale-'));
  client = new Client({ name: 'mcp-scale-test', version: '1.0.0' });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [BIN, 'mcp', '--scopes', 'read'],
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? dataDir,
        PROXY_MANAGER_DATA_DIR: dataDir,
        PROXY_MANAGER_API_KEY: DEMO_KEY,
        PROXY_MANAGER_BASE_URL: sandbox.baseUrl,
        DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent',
      },
      stderr: 'pipe',
    }),
  );
  await client.listTools();
}, 60_000);

afterAll(async () => {
  await client.close();
  await sandbox.close();
});

async function call(name: string, args: Record<string, unknown>) {
  const result = (await client.callTool({ name, arguments: args })) as {
    isError?: boolean;
    content: { text: string }[];
  };
  const text = result.content[0]?.text ?? '';
  return { isError: result.isError === true, bytes: Buffer.byteLength(text), value: JSON.parse(text) };
}

describe('proxy-manager mcp with 1,000 ports', () => {
  it('answers every read tool that grows with the account under the bound', async () => {
    for (const [name, args] of [
      ['health_snapshot', {}],
      ['health_snapshot', { response_format: 'detailed' }],
      ['ports_health', {}],
      ['ports_health', { response_format: 'detailed', limit: PAGE_LIMIT_MAX }],
      ['ports_list', { response_format: 'detailed', limit: PAGE_LIMIT_MAX }],
      ['topups_read', { perPage: 100 }],
    ] as const) {
      const answer = await call(name, args);
      expect(answer.isError, `${name} ${JSON.stringify(args)}: ${JSON.stringify(answer.value)}`).toBe(false);
      expect(answer.bytes).toBeLessThanOrEqual(ANSWER_MAX_BYTES);
    }
  }, 120_000);

  it('pages every port’s health: the pages hold each port once', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page = await call('ports_health', {
        response_format: 'detailed',
        limit: PAGE_LIMIT_MAX,
        ...(cursor ? { cursor } : {}),
      });
      expect(page.isError, JSON.stringify(page.value)).toBe(false);
      expect(page.value.total).toBe(1000);
      seen.push(...page.value.ports.map((port: { portId: string }) => port.portId));
      cursor = page.value.nextCursor;
      pages += 1;
    } while (cursor !== null && pages < 50);
    expect(seen).toHaveLength(1000);
    expect(new Set(seen).size).toBe(1000);
    // 500 detailed scores are more than one answer holds: the server gave fewer, and went on from there.
    expect(pages).toBeGreaterThan(2);
  }, 120_000);
});
