import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { AuditEntry, IpcError, Scope } from '../../src-shared/contract';
import { SCOPES } from '../../src-shared/contract';
import { buildTools, type ContractCall, type McpTool, type ToolOutcome } from './mcp-tools';
import { TopUpQuotes } from './topup-quotes';

export interface McpServerOptions {
  /** The session's scopes: only their tools are listed, and every call runs with this grant. */
  grant: ReadonlySet<Scope>;
  /** A contract call through the guarded dispatcher with `grant` (the owner's, or a core here). */
  call: ContractCall;
  /** Wall time (epoch ms): quotes' 5 minutes and the audit log's times. */
  now: () => number;
  /** Who the audit log names: the MCP server, or the token the session was started with. */
  caller?: AuditEntry['caller'];
  /** Checked before each call (a revoked token ends what its session may do); null: go on. */
  stillAllowed?: () => Promise<IpcError | null>;
  /** Where each tool call is recorded (no inputs, no answers). */
  audit?: (entry: AuditEntry) => Promise<void>;
  version: string;
  log?: (line: string) => void;
}

const INSTRUCTIONS =
  'Proxy Manager: mobile 4G/5G ports (rotate their IPs), traffic subscriptions, the catalog and crypto top-ups of one proxy-service account. ' +
  'Start with health_snapshot for what needs attention, ports_list and subscriptions_list for ids. Lists are paged (limit, cursor). ' +
  'A refused call is a tool error with a code and a sentence; a cooldown answers retryAfterMs or wait_seconds. ' +
  'Money moves only through topups_create (a quote) then topups_confirm (with its token).';

function errorResult(error: IpcError) {
  return { isError: true, content: [{ type: 'text' as const, text: JSON.stringify({ error }) }] };
}

/**
 * The MCP server of a session: the contract's tools for its grant, over the official SDK's
 * low-level `Server` (the tools and their JSON Schemas are generated from the contract, so the
 * high-level `McpServer`'s own zod handling is not used). Every tool call runs through `call`,
 * whose guarded dispatcher checks the grant and the input again; a refusal or a bad input is a tool
 * error (`isError`), never a protocol error or a crash.
 */
export function createMcpServer(options: McpServerOptions): {
  connect(transport: Transport): Promise<void>;
  close(): Promise<void>;
} {
  const quotes = new TopUpQuotes(options.now);
  const context = { call: options.call, quotes };
  const tools = buildTools(options.grant, context);
  const everyTool = new Map(buildTools(new Set(SCOPES), context).map((tool) => [tool.name, tool]));
  const listed = new Map(tools.map((tool) => [tool.name, tool]));
  const server = new Server(
    { name: 'proxy-manager', version: options.version },
    { capabilities: { tools: {} }, instructions: INSTRUCTIONS },
  );

  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: tools.map((tool) => ({
      name: tool.name,
      description: tool.description,
      inputSchema: tool.inputSchema,
      annotations: tool.annotations,
    })),
  }));

  const runTool = async (
    name: string,
    tool: McpTool | undefined,
    args: Record<string, unknown>,
  ): Promise<ToolOutcome> => {
    if (!tool) {
      const known = everyTool.get(name);
      if (!known) return { ok: false, error: { code: 'unknown_tool', message: `No tool named ${name}.` } };
      return {
        ok: false,
        error: {
          code: 'scope_denied',
          message: `This session may not call ${name}: it needs the "${known.scope}" scope (start the server with --scopes).`,
          scope: known.scope,
        },
      };
    }
    const refusal = await options.stillAllowed?.();
    if (refusal) return { ok: false, error: refusal };
    try {
      return await tool.run(args);
    } catch (error) {
      options.log?.(`[mcp] ${name} failed: ${error instanceof Error ? error.message : String(error)}`);
      return {
        ok: false,
        error: { code: 'internal_error', message: 'The tool failed; see the server’s log.' },
      };
    }
  };

  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const { name } = request.params;
    const args = request.params.arguments ?? {};
    const tool = listed.get(name);
    const started = options.now();
    const outcome = await runTool(name, tool, args);
    await options.audit?.({
      at: new Date(started).toISOString(),
      surface: 'mcp',
      caller: options.caller ?? { kind: 'mcp' },
      channel: (tool ?? everyTool.get(name))?.audited ?? 'unknown',
      outcome: outcome.ok ? 'ok' : outcome.error.code,
      durationMs: Math.max(0, options.now() - started),
    });
    if (!outcome.ok) return errorResult(outcome.error);
    return { content: [{ type: 'text' as const, text: JSON.stringify(outcome.value) }] };
  });

  return {
    connect: (transport) => server.connect(transport),
    close: () => server.close(),
  };
}
