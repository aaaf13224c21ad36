import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestSandbox } from '@proxy-manager/sandbox/testing';
import { ANSWER_MAX_BYTES, PAGE_LIMIT_MAX } from '../../src-main/mcp/agent-answers';
import { SANDBOX_ECHO_URL } from '../../src-main/core/proxy-test/proxy-test-service';
import { dataDirWith, type McpSession, startMcp } from './support/mcp-session';

// The MCP server at a power user's size (1,000 ports, 300 top-ups): every answer an agent gets stays
// under the bound, and a list too long for one answer is paged rather than refused.

let sandbox: TestSandbox;
let client: McpSession;
/** A session whose proxy tests ask the default https echo, which the sandbox gateway cannot carry. */
let failing: McpSession;

beforeAll(async () => {
  sandbox = await TestSandbox.start({ scale: { ports: 1000, topUps: 300 } });
  const scopes = ['--scopes', 'read,rotate'];
  // Proxy tests ask the sandbox gateway's own echo (it answers plain http only), as the demo does.
  const echoing = await dataDirWith((draft) => {
    draft.proxyTest.ipEchoUrl = SANDBOX_ECHO_URL;
  });
  client = await startMcp(sandbox, { args: scopes, dataDir: echoing });
  failing = await startMcp(sandbox, { args: scopes });
}, 60_000);

afterAll(async () => {
  await client.close();
  await failing.close();
  await sandbox.close();
});

async function call(name: string, args: Record<string, unknown>, session = client) {
  const result = (await session.client.callTool({ name, arguments: args })) as {
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

  it('tests 200 ports in one proxy_test call and answers every result (concise), under the bound', async () => {
    const ports = (await call('ports_list', { limit: 200 })).value.items as { id: string }[];
    const answer = await call('proxy_test', {
      targets: ports.map((port) => ({ kind: 'port', portId: port.id })),
    });
    expect(answer.isError, JSON.stringify(answer.value)).toBe(false);
    expect(answer.bytes).toBeLessThanOrEqual(ANSWER_MAX_BYTES);
    expect(answer.value.results).toHaveLength(200);
    expect(answer.value.results.every((result: { ok: boolean }) => result.ok)).toBe(true);
    expect(new Set(answer.value.results.map((result: any) => result.exit.ip)).size).toBe(200);
    const whole = await call('proxy_test', {
      targets: ports.slice(0, 20).map((port) => ({ kind: 'port', portId: port.id })),
      response_format: 'detailed',
    });
    expect(Object.keys(whole.value.results[0])).toContain('echoUrl');
  }, 120_000);

  it('answers 200 failed tests concise when their detailed results would be over the bound', async () => {
    const ports = (await call('ports_list', { limit: 200 })).value.items as { id: string }[];
    const answer = await call(
      'proxy_test',
      { targets: ports.map((port) => ({ kind: 'port', portId: port.id })), response_format: 'detailed' },
      failing,
    );
    expect(answer.isError, JSON.stringify(answer.value)).toBe(false);
    expect(answer.bytes).toBeLessThanOrEqual(ANSWER_MAX_BYTES);
    expect(answer.value.results).toHaveLength(200);
    expect(answer.value.results[0]).toMatchObject({ ok: false, failure: { kind: 'tls' } });
    // Concise: the tests ran and spent traffic, so their results come, without the detailed members.
    expect(Object.keys(answer.value.results[0]).sort()).toEqual([
      'exit',
      'failure',
      'ok',
      'target',
      'timings',
    ]);
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
