import type { LocalProxiesView, LocalProxyUpstream, LocalProxyView } from '../../../src-shared/contract';
import { type CommandContext, type CommandSpec, UsageError } from '../command-spec';
import { bytes, details, table } from '../output';
import type { CustomParser } from '../schema-fields';

/**
 * `proxy-manager local-proxy …`: local proxies (a loopback address that adds a port's or a
 * subscription's credentials itself). `list`, `add`, `set`, `rm`, `start` and `stop` are the
 * `localProxies:*` calls, made where the local proxies run (the desktop app or web mode) or, when
 * neither runs, saved for them; `run` listens in this process, in the foreground (`local-proxy-run.ts`).
 */

/** A local password never on the command line (other users see it in `ps`): the variable that holds it. */
export const passwordFromEnvironment: CustomParser = (name) => {
  const value = process.env[name];
  if (value === undefined || value === '') {
    throw new UsageError(`--password-env: the environment variable ${name} is not set`);
  }
  return value;
};

export function describeUpstream(upstream: LocalProxyUpstream): string {
  if (upstream.kind === 'port') return `port ${upstream.portId}`;
  const targeting = Object.entries(upstream.targeting ?? {})
    .map(([name, value]) => `${name}=${String(value)}`)
    .join(' ');
  return [
    `subscription ${upstream.subscriptionId}`,
    upstream.subUserId ? `sub-user ${upstream.subUserId}` : '',
    targeting,
  ]
    .filter(Boolean)
    .join(' ');
}

function renderList(view: LocalProxiesView, context: CommandContext): string {
  const rows = table(context.out, view.proxies, [
    { header: 'ID', value: (proxy) => proxy.id },
    { header: 'NAME', value: (proxy) => proxy.label },
    { header: 'URL', value: (proxy) => proxy.url },
    {
      header: 'STATE',
      value: (proxy) => (proxy.enabled && proxy.state === 'elsewhere' ? 'enabled' : proxy.state),
    },
    // What the health checks through its own address say (blank before the first one).
    { header: 'HEALTH', value: (proxy) => proxy.health?.status ?? '' },
    { header: 'UPSTREAM', value: (proxy) => describeUpstream(proxy.upstream) },
    { header: 'CONN', value: (proxy) => proxy.stats.openConnections, right: true },
    { header: 'REQUESTS', value: (proxy) => proxy.stats.requests, right: true },
    { header: 'UP', value: (proxy) => bytes(proxy.stats.bytesUp), right: true },
    { header: 'DOWN', value: (proxy) => bytes(proxy.stats.bytesDown), right: true },
    {
      header: 'LAST ERROR',
      value: (proxy) => (proxy.lastError ? `${proxy.lastError.at} ${proxy.lastError.message}` : ''),
    },
  ]);
  return view.message ? `${rows}\n${view.message}` : rows;
}

function renderOne(proxy: LocalProxyView, context: CommandContext): string {
  const summary = [
    `${proxy.label} (${proxy.id}): ${proxy.url} -> ${describeUpstream(proxy.upstream)}`,
    `state ${proxy.state}${proxy.listenError ? `: ${proxy.listenError}` : ''}`,
  ].join('\n');
  return `${summary}\n${details(context.out, proxy, ['listen', 'auth', 'closeOnRotation', 'enabled'])}`;
}

/** The flags of an upstream, shared by `add` and `set` (a port, or a subscription with targeting). */
const upstreamFields = {
  rename: {
    'upstream.portId': 'port-id',
    'upstream.subscriptionId': 'subscription-id',
    'upstream.subUserId': 'sub-user',
    listenPort: 'listen-port',
    bindAddress: 'bind',
    'auth.username': 'username',
    'auth.password': 'password-env',
  },
  describe: {
    label: 'a name (default: the port’s or subscription’s label)',
    'upstream.targeting.country': 'targeting: two-letter country code, e.g. US',
    'upstream.targeting.state': 'targeting: a state id from the catalog, e.g. california',
    'upstream.targeting.city': 'targeting: a city id from the catalog',
    'upstream.targeting.asn': 'targeting: an ASN of the country',
    'upstream.targeting.zip': 'targeting: a 5-digit US ZIP code',
    'upstream.targeting.session': 'a sticky session id',
    start: 'listen at once (where the local proxies run)',
    'upstream.portId': 'forward to this mobile port',
    'upstream.subscriptionId': 'forward to this traffic subscription (its main user unless --sub-user)',
    'upstream.subUserId': 'with this sub-user’s credentials',
    listenPort: 'the local port tools use (default: the first free one from 24000)',
    allowNetwork: 'let other computers use it (with --username and --password-env)',
    'auth.username': 'the user name tools must send',
    closeOnRotation: 'close open connections when the port rotates',
  },
  custom: {
    bindAddress: {
      parse: (address: string) => address,
      help: 'the address to listen on (default 127.0.0.1); another one needs --allow-network and a login',
      placeholder: 'address',
    },
    'auth.password': {
      parse: passwordFromEnvironment,
      help: 'the environment variable holding the local password tools must send (8-128 characters)',
      placeholder: 'VAR',
    },
  },
};

const byId = {
  args: ['id'],
  describe: { id: 'the local proxy’s id, from `local-proxy list`' },
};

export const localProxyCommands = {
  list: {
    path: ['local-proxy', 'list'],
    channel: 'localProxies:list',
    summary: 'List the local proxies with their address, state, traffic and last upstream error',
    examples: ['proxy-manager local-proxy list', 'proxy-manager local-proxy list --json'],
    render: renderList,
  },
  add: {
    path: ['local-proxy', 'add'],
    channel: 'localProxies:add',
    summary:
      'Add a local proxy (http://127.0.0.1:PORT, SOCKS5 on the same port) for a port or a subscription',
    examples: [
      'proxy-manager local-proxy add --port-id port_1 --listen-port 24001',
      'proxy-manager local-proxy add --subscription-id sub_1 --country US --state california',
      'proxy-manager local-proxy add --subscription-id sub_1 --sub-user su_1 --session s1 --no-start',
    ],
    fields: upstreamFields,
    render: renderOne,
  },
  set: {
    path: ['local-proxy', 'set'],
    channel: 'localProxies:update',
    summary: 'Change a local proxy: its name, port, upstream (its address stays) or options',
    examples: [
      'proxy-manager local-proxy set lp-1a2b3c4d --port-id port_2',
      'proxy-manager local-proxy set lp-1a2b3c4d --listen-port 24010 --close-on-rotation',
      'LP_PASS=… proxy-manager local-proxy set lp-1a2b3c4d --bind 0.0.0.0 --allow-network --username tool --password-env LP_PASS',
    ],
    fields: {
      ...upstreamFields,
      args: byId.args,
      describe: { ...upstreamFields.describe, ...byId.describe },
    },
    render: renderOne,
  },
  rm: {
    path: ['local-proxy', 'rm'],
    channel: 'localProxies:remove',
    summary: 'Remove a local proxy (tools using its address stop working)',
    examples: ['proxy-manager local-proxy rm lp-1a2b3c4d'],
    fields: byId,
    render: () => 'Removed.',
  },
  start: {
    path: ['local-proxy', 'start'],
    channel: 'localProxies:start',
    summary: 'Start a local proxy (it listens whenever the desktop app or web mode runs)',
    examples: ['proxy-manager local-proxy start lp-1a2b3c4d'],
    fields: byId,
    render: renderOne,
  },
  stop: {
    path: ['local-proxy', 'stop'],
    channel: 'localProxies:stop',
    summary: 'Stop a local proxy (its address refuses connections until started again)',
    examples: ['proxy-manager local-proxy stop lp-1a2b3c4d'],
    fields: byId,
    render: renderOne,
  },
  run: {
    path: ['local-proxy', 'run'],
    summary:
      'Run a local proxy in the foreground, in this process, until Ctrl-C: a saved one by id, or one for --port-id / --subscription-id',
    examples: [
      'proxy-manager local-proxy run lp-1a2b3c4d',
      'proxy-manager local-proxy run --port-id port_1 --listen-port 24001',
      'proxy-manager --demo local-proxy run --subscription-id sub_1 --country US --state california',
    ],
    arguments: [{ name: 'id', help: 'a saved local proxy’s id (or give an upstream below)', optional: true }],
    extra: [
      { flags: '--port-id <id>', help: 'forward to this mobile port' },
      { flags: '--subscription-id <id>', help: 'forward to this traffic subscription' },
      { flags: '--sub-user <id>', help: 'with this sub-user’s credentials' },
      { flags: '--country <cc>', help: 'targeting: two-letter country code, e.g. US' },
      { flags: '--state <id>', help: 'targeting: a state id from the catalog, e.g. california' },
      { flags: '--city <id>', help: 'targeting: a city id from the catalog' },
      { flags: '--asn <n>', help: 'targeting: an ASN' },
      { flags: '--zip <zip>', help: 'targeting: a 5-digit US ZIP code' },
      { flags: '--session <id>', help: 'a sticky session id' },
      {
        flags: '--listen-port <n>',
        help: 'the local port (default: the saved one, else the first free from 24000)',
      },
      { flags: '--bind <address>', help: 'the address to listen on (default 127.0.0.1)' },
      { flags: '--allow-network', help: 'allow an address other computers reach (with a login)' },
      { flags: '--username <name>', help: 'the user name tools must send' },
      { flags: '--password-env <VAR>', help: 'the environment variable holding the local password' },
    ],
  },
} satisfies Record<string, CommandSpec>;
