import { z } from 'zod';

/**
 * The events that alert delivery sends away from this desktop (webhooks, Telegram, ntfy, Slack,
 * Discord, email): each has a stable `type` and a documented `data` payload (docs/user-guide.md,
 * "Alerts away from this desktop"). These schemas are that documentation in code: the sender
 * checks every event against them before it is queued, so no field outside them (never a password,
 * key, token or rotation link) can reach a receiver.
 *
 * A webhook's body is the envelope `{ id, type, timestamp, data }`; `id` is also the
 * `webhook-id` header, so a receiver de-duplicates by it.
 */

const iso = z.iso.datetime();
const id = z.string().min(1).max(200);
const label = z.string().max(200).nullable();
const sentence = z.string().max(1000);

const portSubject = { profileId: id, portId: id, label };

export const DELIVERY_EVENT_SCHEMAS = {
  /** A port stopped answering (a health check, or the service's status left `active`). */
  'port.down': z.strictObject({ ...portSubject, reason: sentence, since: iso }),
  /** A port that was down answers again. */
  'port.up': z.strictObject({ ...portSubject, downSince: iso.nullable() }),
  /** A rotation ended with the same exit IP as before. */
  'rotation.unchanged': z.strictObject({ ...portSubject, ip: z.string().max(64).nullable() }),
  /** A rotation gave an IP the port had recently (`seenAt`: when it last had it). */
  'rotation.repeated': z.strictObject({
    ...portSubject,
    ip: z.string().max(64),
    seenAt: iso.nullable(),
  }),
  /** A subscription's (or a sub-user's) traffic fell below the threshold set in Settings → Alerts. */
  'traffic.below_threshold': z.strictObject({
    profileId: id,
    subscriptionId: id,
    subUserId: id.nullable(),
    reason: z.enum(['below_threshold', 'runs_out_soon', 'sub_user_cap_80', 'sub_user_cap_100']),
    message: sentence,
  }),
  /** A subscription that does not renew itself expires within `hoursLeft` hours (one event per threshold). */
  'subscription.expiring': z.strictObject({
    profileId: id,
    subscriptionId: id,
    label,
    expiresAt: iso,
    thresholdHours: z.number().int().positive(),
    hoursLeft: z.number().nonnegative(),
  }),
  /** A port that does not renew itself expires within `hoursLeft` hours (one event per threshold). */
  'port.expiring': z.strictObject({
    ...portSubject,
    expiresAt: iso,
    thresholdHours: z.number().int().positive(),
    hoursLeft: z.number().nonnegative(),
  }),
  'subscription.expired': z.strictObject({ profileId: id, subscriptionId: id, label, expiredAt: iso }),
  'port.expired': z.strictObject({ ...portSubject, expiredAt: iso }),
  /** A crypto top-up was credited to the balance. */
  'topup.credited': z.strictObject({ profileId: id, topUpId: id, summary: sentence }),
  'topup.expired': z.strictObject({ profileId: id, topUpId: id, summary: sentence }),
  'topup.rejected': z.strictObject({ profileId: id, topUpId: id, summary: sentence }),
  /** The order a credited top-up paid for failed (the funds stay on the balance). */
  'purchase.failed': z.strictObject({ profileId: id, topUpId: id, summary: sentence }),
  /** A rotation schedule failed `consecutiveFailures` runs in a row. */
  'schedule.failing': z.strictObject({
    ...portSubject,
    consecutiveFailures: z.number().int().positive(),
    lastError: sentence.nullable(),
    lastRunAt: iso,
  }),
  /** A local proxy (127.0.0.1 address) failed to listen or to reach its upstream. */
  'local_proxy.failing': z.strictObject({
    profileId: id,
    localProxyId: id,
    label,
    kind: z.string().max(64),
    message: sentence,
    at: iso,
  }),
  /** Sent by the Test button; nothing happened. */
  'channel.test': z.strictObject({ channelId: id, channelName: z.string().max(200) }),
} as const;

export type DeliveryEventType = keyof typeof DELIVERY_EVENT_SCHEMAS;
const DELIVERY_EVENT_TYPES = Object.keys(DELIVERY_EVENT_SCHEMAS) as DeliveryEventType[];
/** The types a rule can route (the Test button's event always goes to the channel tested). */
export const ROUTABLE_EVENT_TYPES = DELIVERY_EVENT_TYPES.filter((type) => type !== 'channel.test');

type DeliveryEventData<T extends DeliveryEventType> = z.infer<(typeof DELIVERY_EVENT_SCHEMAS)[T]>;

/** One event as published: its id is the webhook id (stable: the same happening gives the same id). */
export type DeliveryEvent = {
  [T in DeliveryEventType]: { id: string; type: T; timestamp: string; data: DeliveryEventData<T> };
}[DeliveryEventType];

/** A digest (Settings: one message per N minutes) carries the events gathered, oldest first. */
interface DigestEnvelope {
  id: string;
  type: 'digest';
  timestamp: string;
  data: { events: DeliveryEvent[] };
}

/** What a webhook receives as its body. */
export type DeliveryEnvelope = DeliveryEvent | DigestEnvelope;

/** Webhook ids (and so event ids): short, printable, no separators a header or a path would mind. */
export const DELIVERY_EVENT_ID_PATTERN = /^[A-Za-z0-9_-]{1,100}$/;
