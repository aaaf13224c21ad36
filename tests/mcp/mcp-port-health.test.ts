import { buildTools } from '../../src-main/mcp/mcp-tools';
import { TopUpQuotes } from '../../src-main/mcp/topup-quotes';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualPort, TestSandbox } from '@proxy-manager/sandbox/testing';
import { dataDirWith, type McpSession, startMcp } from './support/mcp-session';

// The rotation verdicts and the ports' health as an agent sees them: `proxy-manager mcp` on stdio,
// driven by the MCP SDK's client, against a test sandbox whose gateway answers the checks.

let sandbox: TestSandbox;
let session: McpSession;

interface TextResult {
  isError?: boolean;
  content: { type: string; text: string }[];
}

async function callJson(name: string, args: Record<string, unknown>): Promise<any> {
  const result = (await session.client.callTool({ name, arguments: args })) as TextResult;
  expect(result.isError ?? false).toBe(false);
  return JSON.parse(result.content[0]?.text ?? 'null');
}

beforeAll(async () => {
  sandbox = await TestSandbox.start();
  await sandbox.advance(60);
  // The check target: the gateway answers any plain-http URL itself (loopback passes the https rule).
  const dataDir = await dataDirWith((draft) => {
    draft.proxyTest.ipEchoUrl = 'http://127.0.0.1:9/ip';
  });
  session = await startMcp(sandbox, { args: ['--scopes', 'read,rotate'], dataDir });
}, 60_000);

afterAll(async () => {
  await session.close();
  await sandbox.close();
});

describe('proxy-manager mcp: rotation verdicts and ports_health', () => {
  it('answers each rotation’s verdict and counts them in ports_health', async () => {
    const port = await manualPort(sandbox);
    const rotate = async () => {
      const answer = await callJson('ports_rotate', { portIds: [port.id] });
      await sandbox.advance(30);
      expect(answer.results[0]).toMatchObject({ portId: port.id, status: 'rotated' });
      return answer.results[0].receipt;
    };
    await sandbox.control('POST', '/mobile/same-ip', { portId: port.id });
    expect((await rotate()).verdict).toMatchObject({ kind: 'unchanged' });
    expect((await rotate()).verdict).toMatchObject({ kind: 'clean' });
    await sandbox.control('POST', '/mobile/network', { portId: port.id, asn: 65002 });
    expect((await rotate()).verdict).toMatchObject({ kind: 'drift', asn: 65002 });
    await sandbox.control('POST', '/mobile/repeat-ip', { portId: port.id });
    expect((await rotate()).verdict).toMatchObject({ kind: 'repeat' });

    const { tools } = await session.client.listTools();
    expect(tools.map((tool) => tool.name)).toContain('ports_health');
    const health = await callJson('ports_health', { portId: port.id });
    expect(health.ports).toHaveLength(1);
    expect(health.ports[0]).toMatchObject({
      portId: port.id,
      rotations30d: 4,
      unchanged30d: 1,
      repeated30d: 1,
      drift30d: 1,
      lastVerdict: { kind: 'repeat' },
    });
    // Concise unless asked: no raw last check, no connect times; detailed has every score.
    expect(health.ports[0]).not.toHaveProperty('lastCheck');
    const detailed = await callJson('ports_health', { portId: port.id, response_format: 'detailed' });
    const { firstByteP50, firstByteP95, ...scores } = health.ports[0];
    expect(detailed.ports[0]).toMatchObject(scores);
    expect(detailed.ports[0].latency24h).toMatchObject({ firstByteP50, firstByteP95 });
    expect(detailed.ports[0]).toHaveProperty('lastCheck');
    expect(detailed.ports[0].latency24h).toHaveProperty('connectP50');
    const history = await callJson('ports_health', { portId: port.id, range: '24h' });
    expect(history.history.segments).toHaveLength(96);
  });

  it('passes untilUnique on to the rotation (the rotation service’s loop is tested with the CLI)', async () => {
    const sent: unknown[] = [];
    const { listed } = buildTools(
      { grant: new Set(['read', 'rotate']) },
      {
        call: (channel, input) => {
          sent.push({ channel, input });
          return Promise.resolve({ ok: true, value: { id: 'rcpt_1', verdict: { kind: 'clean' } } });
        },
        quotes: new TopUpQuotes(() => 0),
      },
    );
    const rotate = listed.find((candidate) => candidate.name === 'ports_rotate');
    const outcome = await rotate!.run({ portIds: ['port_1'], untilUnique: 3 });
    expect(outcome.ok).toBe(true);
    expect(sent).toEqual([{ channel: 'ports:rotate', input: { portId: 'port_1', untilUnique: 3 } }]);
    expect((await rotate!.run({ portIds: ['port_1'], untilUnique: 99 })).ok).toBe(false);
  });
});
