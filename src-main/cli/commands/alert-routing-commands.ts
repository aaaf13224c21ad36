import type {
  AddedAlertChannel,
  AlertChannelView,
  ChannelTestResult,
  DeliveryLogView,
} from '../../../src-shared/contract';
import { type CommandContext, type CommandSpec, UsageError } from '../command-spec';
import { table } from '../output';
import type { CustomParser } from '../schema-fields';

/**
 * `proxy-manager alerts channels …` and `alerts deliveries`: where alerts go when the user is
 * away from this desktop (the `alertRouting:*` calls). Secrets (a bot token, an SMTP password)
 * are read from an environment variable, never from the command line, where `ps` shows them.
 */

const fromEnvironment =
  (flag: string): CustomParser =>
  (name) => {
    const value = process.env[name];
    if (value === undefined || value === '')
      throw new UsageError(`${flag}: the environment variable ${name} is not set`);
    return value;
  };

function renderChannels(channels: AlertChannelView[], context: CommandContext): string {
  return table(context.out, channels, [
    { header: 'ID', value: (c) => c.id },
    { header: 'NAME', value: (c) => c.name },
    { header: 'KIND', value: (c) => c.kind },
    { header: 'TO', value: (c) => c.destination },
    { header: 'EVENTS', value: (c) => String(c.rule.events.length) },
    { header: 'DIGEST', value: (c) => (c.rule.digestMinutes ? `${c.rule.digestMinutes} min` : '-') },
    { header: 'PENDING', value: (c) => String(c.health.pending), right: true },
    { header: 'DEAD', value: (c) => String(c.health.deadLetters), right: true },
    { header: 'STATE', value: (c) => (c.health.failing ? `failing: ${c.health.lastError ?? ''}` : 'ok') },
  ]);
}

function renderDeliveries(view: DeliveryLogView, context: CommandContext): string {
  const rows = table(context.out, view.entries, [
    { header: 'TIME', value: (e) => e.sentAt ?? e.lastAttemptAt ?? e.queuedAt },
    { header: 'EVENT', value: (e) => e.eventType },
    { header: 'ID', value: (e) => e.eventId },
    { header: 'CHANNEL', value: (e) => e.channelName },
    { header: 'OUTCOME', value: (e) => e.status },
    { header: 'ATTEMPTS', value: (e) => String(e.attempts), right: true },
    { header: 'ERROR', value: (e) => e.lastError ?? '' },
  ]);
  return view.sendsHere
    ? rows
    : `${rows}\nThe desktop app or web mode sends these (it runs the background jobs); nothing is sent from here.`;
}

/** `--events port.down,port.up`: the event types, comma-separated. */
const eventsFlag = {
  parse: (text: string) =>
    text
      .split(',')
      .map((type) => type.trim())
      .filter(Boolean),
  help: 'only these event types, comma-separated (default: all), e.g. port.down,port.up',
  placeholder: 'types',
};

const byChannel = {
  args: ['channelId'],
  describe: { channelId: 'the channel’s id, from `alerts channels list`' },
};

export const alertRoutingCommands = {
  channelsList: {
    path: ['alerts', 'channels', 'list'],
    channel: 'alertRouting:channels',
    summary:
      'List the channels alerts are sent to (webhook, Telegram, ntfy, Slack, Discord, email), never their secrets',
    examples: ['proxy-manager alerts channels list', 'proxy-manager alerts channels list --json'],
    render: renderChannels,
  },
  channelsAdd: {
    path: ['alerts', 'channels', 'add'],
    channel: 'alertRouting:addChannel',
    summary: 'Add a channel; a webhook’s signing secret is printed once (it stays in the OS keychain)',
    examples: [
      'proxy-manager alerts channels add --kind webhook --name Ops --url https://ops.example.com/hooks/proxy',
      'TG_TOKEN=123:abc proxy-manager alerts channels add --kind telegram --name Phone --token-env TG_TOKEN --chat-id 12345678',
      'proxy-manager alerts channels add --kind ntfy --name Phone --topic my-proxy-alerts --events port.down,port.up',
      'SMTP_PASS=… proxy-manager alerts channels add --kind email --name Mail --host smtp.example.com --port 587 --username me --password-env SMTP_PASS --from me@example.com --to me@example.com --digest-minutes 60',
    ],
    fields: {
      rename: { token: 'token-env', password: 'password-env' },
      describe: {
        kind: 'webhook, telegram, ntfy, slack, discord or email',
        name: 'a name to recognise it by',
        url: 'webhook: where to POST; slack, discord: the incoming-webhook URL (kept in the keychain)',
        chatId: 'telegram: the chat id',
        serverUrl:
          'telegram: the Bot API address (default https://api.telegram.org); ntfy: the server (default https://ntfy.sh)',
        topic: 'ntfy: the topic',
        host: 'email: the SMTP server',
        port: 'email: the SMTP port (default 587, or 465 with --secure)',
        secure: 'email: TLS from the start (port 465)',
        username: 'email: the SMTP user name',
        from: 'email: the sender',
        to: 'email: the recipient',
        localProxyId:
          'send through this local proxy (from `local-proxy list`), e.g. where Telegram is blocked',
        quietMinutes:
          'after an event about a port or subscription, hold back the same event about it for this long',
        digestMinutes: 'one message per this many minutes with the events gathered (default: each at once)',
      },
      custom: {
        events: eventsFlag,
        token: {
          parse: fromEnvironment('--token-env'),
          help: 'telegram: the variable holding the bot token; ntfy: an access token (optional)',
          placeholder: 'VAR',
        },
        password: {
          parse: fromEnvironment('--password-env'),
          help: 'email: the variable holding the SMTP password',
          placeholder: 'VAR',
        },
      },
    },
    render: (added: AddedAlertChannel) =>
      added.signingSecret
        ? `${added.signingSecret}\nChannel "${added.channel.name}" (${added.channel.id}) added. This signing secret is shown only now: give it to the receiver to verify the webhook-signature header.`
        : `Channel "${added.channel.name}" (${added.channel.id}) added: ${added.channel.destination}.`,
  },
  channelsSet: {
    path: ['alerts', 'channels', 'set'],
    channel: 'alertRouting:setRule',
    summary: 'Change which events a channel gets, its quiet period and its digest',
    examples: [
      'proxy-manager alerts channels set ach_0123456789abcdef --events port.down,port.up --quiet-minutes 30',
      'proxy-manager alerts channels set ach_0123456789abcdef --digest-minutes 0',
    ],
    fields: {
      ...byChannel,
      hide: ['quietByEvent'],
      describe: {
        ...byChannel.describe,
        quietMinutes: 'hold back the same event about the same port or subscription for this long (0: none)',
        digestMinutes: 'one message per this many minutes (0: each event at once)',
      },
      custom: { events: eventsFlag },
    },
    render: (channel: AlertChannelView, context: CommandContext) => renderChannels([channel], context),
  },
  channelsTest: {
    path: ['alerts', 'channels', 'test'],
    channel: 'alertRouting:testChannel',
    summary: 'Send a test message through a channel now and print the outcome',
    examples: ['proxy-manager alerts channels test ach_0123456789abcdef'],
    fields: byChannel,
    render: (result: ChannelTestResult) => (result.ok ? 'Sent.' : `Not sent: ${result.error ?? 'failed'}`),
  },
  channelsRemove: {
    path: ['alerts', 'channels', 'rm'],
    channel: 'alertRouting:removeChannel',
    summary: 'Remove a channel, its secret and what it still had to send',
    examples: ['proxy-manager alerts channels rm ach_0123456789abcdef'],
    fields: byChannel,
    render: (value: { removed: boolean }) => (value.removed ? 'Removed.' : 'No such channel.'),
  },
  deliveries: {
    path: ['alerts', 'deliveries'],
    channel: 'alertRouting:deliveries',
    summary:
      'The delivery log, newest first: time, event, channel, outcome, attempts (dead letters with --dead-only)',
    examples: ['proxy-manager alerts deliveries', 'proxy-manager alerts deliveries --dead-only --json'],
    fields: { describe: { limit: 'how many lines (default 100)', deadOnly: 'only the dead letters' } },
    render: renderDeliveries,
  },
} satisfies Record<string, CommandSpec>;
