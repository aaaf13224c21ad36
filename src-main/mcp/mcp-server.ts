import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { AuditEntry, IpcError, Scope } from '../../src-shared/contract';
import { buildTools, type ContractCall, type McpTool, type Toolset, type ToolOutcome } from './mcp-tools';
import { TopUpQuotes } from './topup-quotes';

export interface McpServerOptions {
  /** The session's scopes: only their tools are listed, and every call runs with this grant. */
  grant: ReadonlySet<Scope>;
  /** `--toolsets`: only these groups of tools (default all). */
  toolsets?: readonly Toolset[];
  /** `--read-only`: only the tools that change nothing. */
  readOnly?: boolean;
  /**
   * `--no-output-schemas` (false): `tools/list` without them, for a client that shows the whole list to
   * its model. Default true: clients validate answers with them and keep them out of the model's context.
   */
  outputSchemas?: boolean;
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
  'Start with health_snapshot for what needs attention, ports_list and subscriptions_list for ids. Lists are paged (limit, cursor) and concise unless response_format is detailed. ' +
  'A refused call is a tool error with a code, a sentence and what to do next; a cooldown answers waitSeconds. ' +
  'A top-up takes two steps: topups_quote, then topups_confirm with its token.';

/** What an agent can do about an error: the next step, by its code. */
export function nextStep(error: IpcError, toolName: string): string {
  const { code } = error;
  if (code === 'answer_too_large')
    return `Call ${toolName} again for less: a smaller limit or perPage, or one item by its id.`;
  if (code === 'scope_denied')
    return `Ask the user to restart the MCP server with --scopes including ${error.scope ?? 'the needed scope'}; do not retry.`;
  if (code === 'invalid_input' || code === 'confirmation_invalid')
    return `Fix the arguments named in fields and call ${toolName} again.`;
  if (error.retryAfterMs !== undefined)
    return `Wait ${Math.max(1, Math.ceil(error.retryAfterMs / 1000))} s, then call ${toolName} again.`;
  if (code === 'not_found' || code.endsWith('_not_found'))
    return 'Check the id: list them with ports_list, subscriptions_list, sub_users_list or topups_read.';
  if (code === 'unknown_tool' || code === 'tool_not_offered')
    return 'Call tools/list for the tools this session has.';
  if (code === 'token_invalid') return 'The session’s token was revoked: ask the user for a new one.';
  if (code === 'idempotency_mismatch') return 'Ask for a new quote with topups_quote.';
  if (
    error.upstreamStatus !== undefined ||
    ['network_error', 'timeout', 'protocol_error', 'not_api_answer'].includes(code)
  )
    return 'The proxy service failed or did not answer: try again in a minute, and tell the user if it persists.';
  if (code === 'internal_error') return 'Tell the user: the app’s log has the details.';
  return 'Tell the user what the message says; retrying the same call will fail the same way.';
}

function errorResult(error: IpcError, toolName: string) {
  const text = JSON.stringify({ error: { ...error, next: nextStep(error, toolName) } });
  return { isError: true, content: [{ type: 'text' as const, text }] };
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
  const { listed: tools, every } = buildTools(
    {
      grant: options.grant,
      ...(options.toolsets ? { toolsets: options.toolsets } : {}),
      ...(options.readOnly ? { readOnly: true } : {}),
    },
    context,
  );
  const everyTool = new Map(every.map((tool) => [tool.name, tool]));
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
      ...(options.outputSchemas === false ? {} : { outputSchema: tool.outputSchema }),
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
      if (!options.grant.has(known.scope)) {
        return {
          ok: false,
          error: {
            code: 'scope_denied',
            message: `This session may not call ${name}: it needs the "${known.scope}" scope (start the server with --scopes).`,
            scope: known.scope,
          },
        };
      }
      return {
        ok: false,
        error: {
          code: 'tool_not_offered',
          message: `${name} is not offered in this session (--toolsets or --read-only left it out).`,
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
    if (!outcome.ok) return errorResult(outcome.error, name);
    // The same answer as text (for clients without structured content) and as the output schema's object.
    const value = outcome.value as Record<string, unknown>;
    return { content: [{ type: 'text' as const, text: JSON.stringify(value) }], structuredContent: value };
  });

  return {
    connect: (transport) => server.connect(transport),
    close: () => server.close(),
  };
}
