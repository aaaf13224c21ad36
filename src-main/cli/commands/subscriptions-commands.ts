import type { SubUser, Subscription } from '../../../src-shared/api-types';
import type {
  ProxyStringResult,
  SubUserRow,
  SubUsersListView,
  TextExport,
} from '../../../src-shared/contract';
import { rowObjectsOf } from '../../dispatch/public-answers';
import {
  type CommandContext,
  type CommandSpec,
  EXIT,
  type ExitCode,
  printValue,
  UsageError,
} from '../command-spec';
import { bytes, details, localTime, table } from '../output';
import { renderUsage, usagePlaces } from './ports-commands';

/** `--limit 1.5GB`, `--limit 500MB`, `--limit none` as the contract's `{amount, unit}` or null. */
function parseTrafficLimit(text: string): unknown {
  const trimmed = text.trim();
  if (/^(none|unlimited)$/i.test(trimmed)) return null;
  const match = /^(.*?)\s*(MB|GB)$/i.exec(trimmed);
  if (!match?.[1] || !match[2]) throw new UsageError('--limit: a size such as 1.5GB or 500MB, or none');
  return { amount: match[1], unit: match[2].toUpperCase() };
}

const trafficLimitField = {
  trafficLimit: {
    parse: parseTrafficLimit,
    help: 'traffic cap, e.g. 1.5GB or 500MB (decimal units, as billed), or none',
    placeholder: 'size',
  },
};

const subscriptionArg = {
  args: ['subscriptionId'],
  rename: { subscriptionId: 'subscription-id' },
  describe: { subscriptionId: 'the subscription’s id, from `subs list`' },
};
const subUserArgs = {
  args: ['subscriptionId', 'subUserId'],
  rename: { subscriptionId: 'subscription-id', subUserId: 'sub-user-id' },
  describe: { ...subscriptionArg.describe, subUserId: 'the sub-user’s id, from `subs subusers list`' },
};

function renderSubscriptions(subscriptions: Subscription[], context: CommandContext): string {
  return table(context.out, subscriptions, [
    { header: 'ID', value: (s) => s.id },
    { header: 'LABEL', value: (s) => s.label },
    { header: 'PRODUCT', value: (s) => s.productId },
    { header: 'STATUS', value: (s) => s.status },
    { header: 'USED', value: (s) => bytes(s.trafficUsedBytes), right: true },
    { header: 'LEFT', value: (s) => bytes(s.trafficRemainingBytes), right: true },
    { header: 'EXPIRES', value: (s) => localTime(s.expiresAt) },
    { header: 'SUB-USERS', value: (s) => s.subUserCount, right: true },
  ]);
}

function renderSubUsers(subUsers: SubUserRow[], context: CommandContext): string {
  return table(context.out, subUsers, [
    { header: 'ID', value: (u) => u.id },
    { header: 'LABEL', value: (u) => u.label },
    { header: 'USERNAME', value: (u) => u.username },
    { header: 'ENABLED', value: (u) => (u.enabled ? 'yes' : 'no') },
    { header: 'USED', value: (u) => bytes(u.trafficUsedBytes), right: true },
    {
      header: 'LIMIT',
      value: (u) => (u.trafficLimitBytes === null ? 'none' : bytes(u.trafficLimitBytes)),
      right: true,
    },
  ]);
}

/** `subs usage`: the report, or with `--csv` the same range as CSV (`subscriptions:exportUsage`). */
async function usage(context: CommandContext, input: unknown): Promise<ExitCode> {
  if (context.options.csv !== true) {
    await printValue(context, subscriptionsCommands.usage, await context.call('subscriptions:usage', input));
    return EXIT.done;
  }
  const exported: TextExport = await context.call('subscriptions:exportUsage', input);
  if (context.json) context.out.json(exported);
  else context.out.out(exported.text);
  return EXIT.done;
}

export const subscriptionsCommands = {
  list: {
    path: ['subs', 'list'],
    channel: 'subscriptions:list',
    summary: 'List your traffic subscriptions',
    examples: ['proxy-manager subs list', 'proxy-manager subs list --product-id residential --json'],
    render: renderSubscriptions,
  },
  show: {
    path: ['subs', 'show'],
    channel: 'subscriptions:get',
    summary: 'Show one traffic subscription',
    examples: ['proxy-manager subs show sub_1'],
    fields: subscriptionArg,
    render: (subscription: Subscription, context) => details(context.out, subscription),
  },
  usage: {
    path: ['subs', 'usage'],
    channel: 'subscriptions:usage',
    places: usagePlaces,
    also: ['subscriptions:exportUsage'],
    summary: 'Show the daily traffic of a subscription (or of one sub-user)',
    examples: [
      'proxy-manager subs usage sub_1 --from 2026-03-01 --to 2026-03-10',
      'proxy-manager subs usage sub_1 --sub-user su_1 --csv > usage.csv',
    ],
    fields: { ...subscriptionArg, rename: { ...subscriptionArg.rename, subUserId: 'sub-user' } },
    extra: [{ flags: '--csv', help: 'the report as CSV (days, then countries)' }],
    run: usage,
    render: renderUsage,
  },
  subUsersList: {
    path: ['subs', 'subusers', 'list'],
    channel: 'subscriptions:subUsers',
    summary: 'List the sub-users of a subscription',
    examples: ['proxy-manager subs subusers list sub_1'],
    fields: subscriptionArg,
    render: (view: SubUsersListView, context) =>
      `${renderSubUsers(rowObjectsOf(view), context)}${view.limit !== null ? `\n\n${view.rows.length} of at most ${view.limit}` : ''}`,
  },
  subUsersAdd: {
    path: ['subs', 'subusers', 'add'],
    channel: 'subscriptions:createSubUser',
    summary: 'Add a sub-user (its password is generated unless you give one)',
    examples: ["proxy-manager subs subusers add sub_1 --label 'Scraper 1' --limit 5GB"],
    fields: {
      ...subscriptionArg,
      custom: trafficLimitField,
      rename: { ...subscriptionArg.rename, trafficLimit: 'limit' },
    },
    render: (subUser: SubUser, context) => details(context.out, subUser),
  },
  subUsersSet: {
    path: ['subs', 'subusers', 'set'],
    channel: 'subscriptions:updateSubUser',
    summary: 'Change a sub-user: label, cap, enabled, or a new password',
    examples: [
      'proxy-manager subs subusers set sub_1 su_1 --limit none',
      'proxy-manager subs subusers set sub_1 su_1 --no-enabled',
    ],
    fields: {
      ...subUserArgs,
      custom: trafficLimitField,
      rename: { ...subUserArgs.rename, trafficLimit: 'limit' },
      describe: {
        ...subUserArgs.describe,
        enabled: 'let the sub-user use the proxy (--no-enabled stops it)',
      },
    },
    render: (subUser: SubUser, context) => details(context.out, subUser),
  },
  subUsersRemove: {
    path: ['subs', 'subusers', 'rm'],
    channel: 'subscriptions:deleteSubUser',
    summary: 'Delete a sub-user',
    examples: ['proxy-manager subs subusers rm sub_1 su_1'],
    fields: subUserArgs,
    render: () => 'Deleted.',
  },
  string: {
    path: ['subs', 'string'],
    channel: 'subscriptions:buildProxyString',
    summary: 'Build proxy strings with targeting (country, state, city, ASN, ZIP, sticky sessions)',
    examples: [
      'proxy-manager subs string sub_1 --country US --state california',
      'proxy-manager subs string sub_1 --sub-user su_1 --country DE --count 10 --format host_port_user_pass',
    ],
    fields: {
      ...subscriptionArg,
      rename: { ...subscriptionArg.rename, subUserId: 'sub-user' },
      describe: {
        ...subscriptionArg.describe,
        subUserId: 'a sub-user instead of the main user',
        'targeting.state': 'a state id from `catalog states`',
        'targeting.city': 'a city id from `catalog cities`',
        'targeting.asn': 'an ASN from `catalog asns`',
        'targeting.zip': 'a 5-digit US ZIP code',
        'targeting.session': 'a sticky session id',
        count: 'this many lines, each with its own numbered sticky session',
        sessionPrefix: 'with --count: the sessions’ prefix',
      },
      defaults: { targeting: {}, format: 'http_url', protocol: 'http' },
    },
    render: (result: ProxyStringResult) => result.lines.join('\n'),
  },
} satisfies Record<string, CommandSpec>;
