import { z } from 'zod';
import { ROUTABLE_EVENT_TYPES, type DeliveryEventType } from './alert-routing-events';
import { call, type DomainCalls } from './define';
import { noInput, resourceId } from './shared-inputs';

/**
 * Alert routing: channels that carry alerts away from this desktop (signed webhooks, Telegram,
 * ntfy, Slack, Discord, email), the rule of each (which events, quiet periods, a digest), and the
 * delivery log with its dead letters. A channel's secret (signing secret, bot token, incoming
 * webhook URL, SMTP password, ntfy token) lives in the OS keychain and no call reads it back; only
 * a webhook's signing secret is answered once, when the channel is made.
 */

const ALERT_CHANNEL_KINDS = ['webhook', 'telegram', 'ntfy', 'slack', 'discord', 'email'] as const;
export type AlertChannelKind = (typeof ALERT_CHANNEL_KINDS)[number];

/** What a channel sends, how often, and to whom; stored with the channel. */
export interface AlertChannelRule {
  events: DeliveryEventType[];
  /** Per event type: after one is sent about a subject (a port, a subscription), others of that type and subject are held back this long. */
  quietMinutes: Partial<Record<DeliveryEventType, number>>;
  /** Null: each event at once; N: one message per N minutes with the events gathered. */
  digestMinutes: number | null;
}

/** A channel as listed: where it sends (never its secret). */
export interface AlertChannelView {
  id: string;
  kind: AlertChannelKind;
  name: string;
  /** Where it goes, without secrets: a webhook's URL, `chat 1234 via https://api.telegram.org`, an ntfy topic, `smtp.example.com:587 → ops@example.com`. Slack and Discord: their host only (the URL is the secret). */
  destination: string;
  /** True when its secret is in the keychain (or this run's memory when there is no keychain). */
  hasSecret: boolean;
  /** Sends through this local proxy (its id), e.g. where Telegram is blocked; null: directly. */
  localProxyId: string | null;
  /** Or through this mobile port (of `profileId`), with its credentials; null: not through a port. */
  viaPort: { profileId: string; portId: string } | null;
  rule: AlertChannelRule;
  createdAt: string;
  health: AlertChannelHealth;
}

/** How a channel has fared: the overview shows one that keeps failing. */
interface AlertChannelHealth {
  /** Attempts that failed since the last one that went through. */
  consecutiveFailures: number;
  lastSuccessAt: string | null;
  lastFailureAt: string | null;
  lastError: string | null;
  /** Deliveries waiting (first tries and retries). */
  pending: number;
  deadLetters: number;
  /** True when it has failed 3 times in a row or has dead letters: it needs the user. */
  failing: boolean;
}

export type DeliveryStatus = 'pending' | 'sent' | 'dead' | 'suppressed' | 'in_digest';

/** One line of the delivery log: an event for one channel. */
export interface DeliveryLogEntry {
  eventId: string;
  eventType: DeliveryEventType | 'digest';
  channelId: string;
  channelName: string;
  channelKind: AlertChannelKind;
  status: DeliveryStatus;
  attempts: number;
  /** ISO 8601: when it was queued. */
  queuedAt: string;
  lastAttemptAt: string | null;
  /** When it goes next (pending only). */
  nextAttemptAt: string | null;
  sentAt: string | null;
  /** The last failure in one sentence (never a secret); a suppression's reason. */
  lastError: string | null;
  /** For an event sent inside a digest: the digest's id. */
  digestId: string | null;
}

export interface DeliveryLogView {
  entries: DeliveryLogEntry[];
  /** Whether this process sends (it owns the background jobs); others queue for it. */
  sendsHere: boolean;
}

export interface AddedAlertChannel {
  channel: AlertChannelView;
  /** Webhooks only: `whsec_…`, shown this once (it stays in the keychain for signing). */
  signingSecret: string | null;
}

export interface ChannelTestResult {
  ok: boolean;
  /** The failure in one sentence (never a secret). */
  error: string | null;
  entry: DeliveryLogEntry;
}

/** One message the local test receiver got (Settings → Alert channels → "Try it offline"). */
export interface ReceivedAlertView {
  at: string;
  kind: 'webhook' | 'telegram' | 'ntfy' | 'slack' | 'discord';
  eventId: string | null;
  eventType: string | null;
  /** The webhook's body, or the chat message's text. */
  text: string;
  /** Webhooks: checked with the signing secrets of the channels that post here. */
  signature: 'valid' | 'invalid' | 'unsigned';
}

export interface LocalReceiverView {
  /** `http://127.0.0.1:PORT` while it runs; null before it is started. */
  url: string | null;
  /** Newest first (the last 50). */
  messages: ReceivedAlertView[];
}

const CHANNEL_NAME_MAX = 60;
const URL_MAX = 2000;
const QUIET_MINUTES_MAX = 7 * 24 * 60;
const DIGEST_MINUTES_MAX = 24 * 60;
const DELIVERY_LOG_MAX = 500;

const channelId = z
  .string()
  .regex(/^ach_[a-z0-9]{1,40}$/, 'Not a channel id (ach_…, from `alerts channels list`)');

const httpUrl = (what: string) =>
  z
    .string()
    .trim()
    .max(URL_MAX, `At most ${URL_MAX} characters`)
    .refine((value) => {
      try {
        const url = new URL(value);
        return url.protocol === 'https:' || url.protocol === 'http:';
      } catch {
        return false;
      }
    }, `Enter ${what} (https://…)`);

const eventTypes = z
  .array(z.enum(ROUTABLE_EVENT_TYPES as [DeliveryEventType, ...DeliveryEventType[]]))
  .min(1, 'Choose at least one event')
  .max(ROUTABLE_EVENT_TYPES.length);

const ruleFields = {
  /** Default: every event. */
  events: eventTypes.optional(),
  /** One quiet period (minutes) for every event type of this channel; 0: none. */
  quietMinutes: z.number().int().min(0).max(QUIET_MINUTES_MAX).optional(),
  /** One message per N minutes; absent or 0: each event at once. */
  digestMinutes: z.number().int().min(0).max(DIGEST_MINUTES_MAX).optional(),
};

const visibleText = (max: number, empty: string) =>
  z
    .string()
    .trim()
    .min(1, empty)
    .max(max, `At most ${max} characters`)
    .regex(/^[^\p{Cc}]*$/u, 'No control characters');

const addChannelInput = z
  .strictObject({
    kind: z.enum(ALERT_CHANNEL_KINDS),
    name: visibleText(CHANNEL_NAME_MAX, 'Give the channel a name'),
    /** Webhook: where to POST. Slack, Discord: the incoming-webhook URL (kept in the keychain). */
    url: httpUrl('a URL').optional(),
    /** Telegram: the bot token (keychain). ntfy: an access token (optional, keychain). */
    token: visibleText(500, 'Paste the token').optional(),
    /** Telegram: the chat id (a number, or @channelname). */
    chatId: visibleText(100, 'Enter the chat id').optional(),
    /** Telegram: the Bot API's address (default https://api.telegram.org; a stand-in for tests). ntfy: the server (default https://ntfy.sh). */
    serverUrl: httpUrl('the server’s address').optional(),
    /** ntfy: the topic. */
    topic: z
      .string()
      .regex(/^[A-Za-z0-9_-]{1,64}$/, 'A topic is 1-64 letters, digits, - or _')
      .optional(),
    /** Email: the SMTP server. */
    host: visibleText(253, 'Enter the SMTP server').optional(),
    port: z.number().int().min(1).max(65_535).optional(),
    /** Email: TLS from the start (port 465); otherwise STARTTLS when the server offers it. */
    secure: z.boolean().optional(),
    username: visibleText(200, 'Enter the user name').optional(),
    /** Email: the SMTP password (keychain). */
    password: z.string().min(1).max(500).optional(),
    from: z.email('Enter an email address').optional(),
    to: z.email('Enter an email address').optional(),
    /** Send through this local proxy (Settings → Local proxies), e.g. where Telegram is blocked. */
    localProxyId: z.string().min(1).max(100).optional(),
    /** Or through this mobile port of the active profile (its gateway, with its credentials). */
    portId: resourceId('Choose a port').optional(),
    ...ruleFields,
  })
  .superRefine((input, context) => {
    const need = (field: keyof typeof input, message: string): void => {
      if (input[field] === undefined) context.addIssue({ code: 'custom', path: [field], message });
    };
    if (input.kind === 'webhook') need('url', 'Enter the URL to POST to');
    if (input.kind === 'slack' || input.kind === 'discord') need('url', 'Paste the incoming-webhook URL');
    if (input.kind === 'telegram') {
      need('token', 'Paste the bot token from @BotFather');
      need('chatId', 'Enter the chat id');
    }
    if (input.kind === 'ntfy') need('topic', 'Enter the topic');
    if (input.localProxyId !== undefined && input.portId !== undefined)
      context.addIssue({
        code: 'custom',
        path: ['portId'],
        message: 'Choose a local proxy or a port, not both',
      });
    if (input.kind === 'email') {
      need('host', 'Enter the SMTP server');
      need('from', 'Enter the sender address');
      need('to', 'Enter the recipient address');
    }
  });
export type AddAlertChannelInput = z.output<typeof addChannelInput>;

export const alertRoutingCalls = {
  /** The channels, their rules and health (never a secret). */
  'alertRouting:channels': call<AlertChannelView[]>('read')(noInput),
  /** Adds a channel; its secret goes to the keychain. A webhook's signing secret is answered once. */
  'alertRouting:addChannel': call<AddedAlertChannel>('admin')(addChannelInput),
  /** Removes a channel, its secret and its queued deliveries (the log keeps what was sent). */
  'alertRouting:removeChannel': call<{ removed: boolean }>('admin')(z.strictObject({ channelId })),
  /** Changes which events a channel gets, its quiet period and its digest. */
  'alertRouting:setRule': call<AlertChannelView>('manage')(
    z.strictObject({
      channelId,
      ...ruleFields,
      /** A quiet period per event type (minutes; 0: none), over `quietMinutes` for those types. */
      quietByEvent: z
        .partialRecord(
          z.enum(ROUTABLE_EVENT_TYPES as [DeliveryEventType, ...DeliveryEventType[]]),
          z.number().int().min(0).max(QUIET_MINUTES_MAX),
        )
        .optional(),
    }),
  ),
  /** Sends a `channel.test` event now, straight away (not queued), and logs the outcome. */
  'alertRouting:testChannel': call<ChannelTestResult>('manage')(z.strictObject({ channelId })),
  /** The delivery log, newest first: time, event, channel, outcome, attempts; dead letters included. */
  'alertRouting:deliveries': call<DeliveryLogView>('read')(
    z
      .strictObject({
        limit: z.number().int().min(1).max(DELIVERY_LOG_MAX).optional(),
        /** Only dead letters (deliveries given up after 24 h or refused for good). */
        deadOnly: z.boolean().optional(),
      })
      .optional(),
  ),
  /** Queues the dead letters of a channel (or all) again, as new first tries. */
  'alertRouting:retryDead': call<{ requeued: number }>('manage')(
    z.strictObject({ channelId: channelId.optional() }).optional(),
  ),
  /**
   * A receiver on 127.0.0.1 (webhook, Telegram Bot API, ntfy, Slack, Discord) to try delivery
   * offline, e.g. in the demo: `start` starts it; the answer has its address and what it got.
   */
  'alertRouting:localReceiver': call<LocalReceiverView>('manage')(
    z.strictObject({ start: z.boolean().optional() }).optional(),
  ),
} as const satisfies DomainCalls<'alertRouting'>;
