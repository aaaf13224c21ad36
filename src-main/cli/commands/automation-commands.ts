import type { AuditEntry, AutomationTokenView, CreatedAutomationToken } from '../../../src-shared/contract';
import type { CommandContext, CommandSpec } from '../command-spec';
import { localTime, table } from '../output';

function renderTokens(tokens: AutomationTokenView[], context: CommandContext): string {
  return table(context.out, tokens, [
    { header: 'ID', value: (t) => t.id },
    { header: 'NAME', value: (t) => t.name },
    { header: 'SCOPES', value: (t) => t.scopes.join(',') },
    { header: 'CREATED', value: (t) => localTime(t.createdAt) },
    { header: 'LAST USED', value: (t) => (t.lastUsedAt ? localTime(t.lastUsedAt) : 'never') },
  ]);
}

function renderAudit(entries: AuditEntry[], context: CommandContext): string {
  return table(context.out, entries, [
    { header: 'TIME', value: (e) => localTime(e.at) },
    { header: 'VIA', value: (e) => e.surface },
    {
      header: 'CALLER',
      value: (e) =>
        e.caller.kind === 'mcp'
          ? 'mcp'
          : e.caller.kind === 'anonymous'
            ? `${e.caller.name}${e.remoteAddress ? ` from ${e.remoteAddress}` : ''}`
            : `${e.caller.name} (${e.caller.tokenId})`,
    },
    { header: 'CHANNEL', value: (e) => e.channel },
    { header: 'OUTCOME', value: (e) => e.outcome },
    { header: 'MS', value: (e) => String(e.durationMs), right: true },
  ]);
}

export const automationCommands = {
  tokenCreate: {
    path: ['token', 'create'],
    channel: 'automation:createToken',
    summary: 'Create a token for the local REST API: named, scoped, shown once (only its hash is kept)',
    examples: ['proxy-manager token create --name cron-rotations --scopes read,rotate'],
    // `--scopes` here names the token's scopes (this run itself needs `admin`).
    scopesAreInput: true,
    fields: {
      hide: ['scopes'],
      describe: { name: 'a name to recognise it by in Settings and the audit log' },
    },
    render: (created: CreatedAutomationToken) =>
      `${created.secret}\nToken "${created.token.name}" (${created.token.id}) with scopes ${created.token.scopes.join(',')}. ` +
      'It is shown only now: store it where your script reads it. Revoke it with `proxy-manager token revoke ' +
      `${created.token.id}\`.`,
  },
  tokenList: {
    path: ['token', 'list'],
    channel: 'automation:tokens',
    summary: 'List the tokens: name, scopes, created and last used (never their values)',
    examples: ['proxy-manager token list'],
    render: renderTokens,
  },
  tokenRevoke: {
    path: ['token', 'revoke'],
    channel: 'automation:revokeToken',
    summary: 'Revoke a token: it stops working at once',
    examples: ['proxy-manager token revoke tok_0123456789ab'],
    fields: { args: ['tokenId'], describe: { tokenId: 'the token’s id, from `token list`' } },
    render: (value: { revoked: boolean }) =>
      value.revoked ? 'Revoked.' : 'No such token (already revoked?).',
  },
  audit: {
    path: ['audit'],
    channel: 'automation:audit',
    summary: 'The audit log of MCP and REST calls, newest first (no inputs, no secrets)',
    examples: ['proxy-manager audit --limit 20'],
    fields: { describe: { limit: 'how many entries (default: all kept, up to 1,000)' } },
    render: renderAudit,
  },
  mcp: {
    path: ['mcp'],
    summary: 'Run the MCP server on stdio for an AI agent (default scopes: read only; more with --scopes)',
    examples: [
      'proxy-manager mcp',
      'proxy-manager mcp --scopes read,rotate --profile Work',
      'PM_TOKEN=pmt_… proxy-manager mcp --token-env PM_TOKEN',
      'proxy-manager mcp --scopes read,rotate --toolsets ports,health',
    ],
    extra: [
      {
        flags: '--token-env <var>',
        help: 'take the scopes from a token (the variable holding it), named in the audit log; revoking it ends the session',
      },
      {
        flags: '--toolsets <list>',
        help: 'only these groups of tools, e.g. ports,subscriptions (ports, subscriptions, topups, catalog, local_proxies, schedules, tests, health; default all)',
      },
      { flags: '--read-only', help: 'only the tools that change nothing, whatever the scopes' },
      {
        flags: '--no-output-schemas',
        help: 'leave the output schemas out of tools/list, for a client that shows them to its model (answers keep their structured content)',
      },
    ],
  },
  serve: {
    path: ['serve'],
    summary:
      'Serve the local REST API on 127.0.0.1 in the foreground until Ctrl-C (tokens from `token create`)',
    examples: ['proxy-manager serve --port 24080'],
    extra: [
      {
        flags: '--port <port>',
        help: 'the port on 127.0.0.1 (1024-65535; 0 takes a free one)',
        default: '24080',
      },
    ],
  },
} satisfies Record<string, CommandSpec>;
