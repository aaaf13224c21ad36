import type { CommandSpec } from './command-spec';
import { alertRoutingCommands } from './commands/alert-routing-commands';
import { appCommands } from './commands/app-commands';
import { automationCommands } from './commands/automation-commands';
import { catalogCommands } from './commands/catalog-commands';
import { localProxyCommands } from './commands/local-proxy-commands';
import { portsCommands } from './commands/ports-commands';
import { subscriptionsCommands } from './commands/subscriptions-commands';
import { topUpsCommands } from './commands/topups-commands';
import { updateCommands } from './commands/update-commands';

/** Descriptions of the groups (`proxy-manager ports`, `proxy-manager ports schedule`). */
export const GROUPS: Record<string, string> = {
  ports: 'Dedicated 4G/5G mobile ports: list, rotate, history, usage, relocate, schedules',
  'ports schedule': 'Rotation schedules (run by the desktop app or web mode)',
  subs: 'Traffic subscriptions: usage, sub-users and proxy strings',
  'subs subusers': 'Sub-users of a subscription, each with its own credentials and cap',
  topups: 'Crypto top-ups of your balance',
  catalog: 'The public catalog: countries, states, cities, ASNs, carriers, coins',
  alerts: 'Alerts raised by the app',
  'alerts channels':
    'Where alerts go away from this desktop: webhooks, Telegram, ntfy, Slack, Discord, email',
  profiles: 'Profiles (an account: a base URL and an API key)',
  test: 'Proxy tests: one request through a port or a subscription',
  token: 'Tokens for the local REST API (and the MCP server): named, scoped, revocable',
  'local-proxy': 'Local proxies: 127.0.0.1 addresses that add a port’s or subscription’s credentials',
  update: 'Signed updates: check the feed, download and verify a release',
};

export const COMPLETION_SHELLS = ['bash', 'zsh', 'fish'] as const;

/** `completion <shell>`: built by `completion.ts` from this very tree. */
const completionCommand: CommandSpec = {
  path: ['completion'],
  summary: 'Print a shell completion script (bash, zsh or fish)',
  examples: [
    'proxy-manager completion bash > ~/.local/share/bash-completion/completions/proxy-manager',
    'proxy-manager completion zsh > "${fpath[1]}/_proxy-manager"',
    'proxy-manager completion fish > ~/.config/fish/completions/proxy-manager.fish',
  ],
  arguments: [{ name: 'shell', help: 'the shell to complete in', choices: COMPLETION_SHELLS }],
};

/** Every command, in the order help lists them. */
export const COMMANDS: readonly CommandSpec[] = [
  ...Object.values(portsCommands),
  ...Object.values(subscriptionsCommands),
  ...Object.values(topUpsCommands),
  ...Object.values(catalogCommands),
  ...Object.values(localProxyCommands),
  appCommands.health,
  appCommands.alertsList,
  ...Object.values(alertRoutingCommands),
  appCommands.testPort,
  appCommands.testSubscription,
  appCommands.profilesList,
  appCommands.profilesAdd,
  appCommands.profilesUse,
  automationCommands.mcp,
  automationCommands.serve,
  automationCommands.tokenCreate,
  automationCommands.tokenList,
  automationCommands.tokenRevoke,
  automationCommands.audit,
  ...Object.values(updateCommands),
  completionCommand,
];

/** Options every command takes. */
export const GLOBAL_OPTIONS = [
  {
    flags: '--json [fields]',
    help: 'print the result as one JSON document; with fields, only those (e.g. --json id,label,currentIp)',
  },
  { flags: '--profile <name>', help: 'use this saved profile instead of the active one' },
  { flags: '--demo', help: 'run against the embedded sandbox (demo mode)' },
  {
    flags: '--demo-latency <speed>',
    help: 'with --demo: how long the sandbox takes (fast, or realistic: rotations take 5-15 s)',
    choices: ['fast', 'realistic'],
  },
  {
    flags: '--scopes <list>',
    help: 'narrow this run’s grant, e.g. read,rotate (read, rotate, manage, spend, secrets, admin; default all)',
  },
  { flags: '--no-color', help: 'no colour, even on a terminal' },
  { flags: '--verbose', help: 'print the app’s log lines on stderr' },
] as const;
