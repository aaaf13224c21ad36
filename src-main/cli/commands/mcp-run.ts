import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { AuditLog } from '../../core/automation/audit-log';
import { TokenStore } from '../../core/automation/token-store';
import { systemClock } from '../../core/runtime/clock';
import { createMcpServer } from '../../mcp/mcp-server';
import type { Toolset } from '../../mcp/mcp-tools';
import type { AutomationTokenView, Scope } from '../../../src-shared/contract';
import { type ProfileSelection, sessionBackend } from '../cli-backend';
import { EXIT, type ExitCode } from '../command-spec';
import type { Output } from '../output';
import { nextSignal } from './local-proxy-run';

export interface SessionRunOptions {
  out: Output;
  dataDir: string;
  selection: ProfileSelection;
  demoLatency: 'fast' | 'realistic';
  verbose: boolean;
  version: string;
}

/**
 * `proxy-manager mcp`: the MCP server on stdin and stdout (JSON-RPC only: nothing else is written to
 * stdout; `--verbose` log lines go to stderr) until the client closes stdin or a signal comes. Calls
 * go to the running app when it owns the jobs, else to a core of this process (`sessionBackend`).
 */
export async function runMcp(
  options: SessionRunOptions & {
    grant: ReadonlySet<Scope>;
    token?: string;
    toolsets?: readonly Toolset[];
    readOnly?: boolean;
    outputSchemas?: boolean;
  },
): Promise<ExitCode> {
  const log = options.verbose ? (line: string) => options.out.note(line) : () => undefined;
  // With a token: its scopes (narrowed by --scopes when given), its name in the audit log.
  const tokens = new TokenStore({ dataDir: options.dataDir, now: () => systemClock.now(), log });
  let token: AutomationTokenView | null = null;
  let grant = options.grant;
  if (options.token !== undefined) {
    token = await tokens.verify(options.token);
    if (!token) {
      options.out.error('--token-env: not a token of this data folder (revoked, or made elsewhere)');
      return EXIT.failed;
    }
    const held = new Set(token.scopes);
    grant = new Set([...options.grant].filter((scope) => held.has(scope)));
  }
  const secret = options.token ?? null;
  const backend = sessionBackend({
    origin: 'mcp',
    dataDir: options.dataDir,
    selection: options.selection,
    demoLatency: options.demoLatency,
    log,
  });
  const audit = new AuditLog({ dataDir: options.dataDir, log });
  const server = createMcpServer({
    grant,
    ...(options.toolsets ? { toolsets: options.toolsets } : {}),
    readOnly: options.readOnly === true,
    outputSchemas: options.outputSchemas !== false,
    call: (channel, input) => backend.call(channel, input, grant),
    ...(token
      ? {
          caller: { kind: 'token' as const, tokenId: token.id, name: token.name },
          stillAllowed: async () =>
            (await tokens.verify(secret))
              ? null
              : { code: 'token_invalid', message: 'The token of this MCP session was revoked.' },
        }
      : {}),
    now: () => systemClock.now(),
    audit: (entry) => audit.record(entry),
    version: options.version,
    log,
  });
  const transport = new StdioServerTransport();
  const ended = new Promise<void>((resolve) => {
    process.stdin.once('end', () => resolve());
    process.stdin.once('close', () => resolve());
    transport.onclose = () => resolve();
  });
  await server.connect(transport);
  log(`[mcp] serving ${[...grant].join(',')} on stdio`);
  await Promise.race([ended, nextSignal()]);
  await server.close().catch(() => undefined);
  await backend.close();
  return EXIT.done;
}
