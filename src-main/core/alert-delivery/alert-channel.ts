import { type Dispatcher, request } from 'undici';
import type { AlertChannelKind } from '../../../src-shared/contract';
import type { DeliveryEnvelope } from '../../../src-shared/contract/alert-routing-events';

/** One message for one channel: the envelope (a webhook's body) and its text for people. */
export interface OutgoingMessage {
  envelope: DeliveryEnvelope;
  /** The envelope as JSON, exactly as signed and sent. */
  body: string;
  title: string;
  text: string;
}

export interface SendContext {
  /** Epoch ms of this attempt (the `webhook-timestamp`). */
  now: number;
  /** Through a local proxy when the channel asks for one; the default agent otherwise. */
  dispatcher?: Dispatcher | undefined;
  /** The same proxy as a URL (with its local credentials), for SMTP, which does not use undici. */
  proxyUrl?: string | undefined;
}

/**
 * One way out (webhook, Telegram, ntfy, Slack, Discord, email): a channel is a small file that
 * turns a message into one request. It throws `DeliveryFailure` for an answer that is not a
 * success, so that the sender can retry, wait out a 429, or give up on a refusal for good.
 */
export interface AlertChannel {
  readonly kind: AlertChannelKind;
  /** Least time between two messages (Telegram: 1 message per second per chat). */
  readonly minIntervalMs: number;
  send(message: OutgoingMessage, context: SendContext): Promise<void>;
}

/** A send that did not go through. The message is one sentence and never holds a secret. */
export class DeliveryFailure extends Error {
  constructor(
    message: string,
    /** True when trying again cannot help (a 400, 401, 403, 404 or 410): straight to the dead letters. */
    readonly permanent = false,
    /** The receiver's `Retry-After`, when it gave one. */
    readonly retryAfterMs: number | null = null,
  ) {
    super(message);
    this.name = 'DeliveryFailure';
  }
}

const PERMANENT_STATUSES = new Set([400, 401, 403, 404, 410, 413, 422]);
const SEND_TIMEOUT_MS = 15_000;

function retryAfterOf(header: string | string[] | undefined, bodyHint: number | null): number | null {
  const value = Array.isArray(header) ? header[0] : header;
  const seconds = value !== undefined && /^\d+$/.test(value) ? Number(value) : bodyHint;
  return seconds === null ? null : Math.min(seconds, 3600) * 1000;
}

/**
 * POSTs and checks the status. `what` names the receiver in the error ("the webhook"); the URL
 * is never in an error, as Slack's, Discord's and Telegram's carry their secret.
 */
export async function postForStatus(
  url: string,
  init: { headers: Record<string, string>; body: string; what: string },
  context: SendContext,
): Promise<string> {
  let answer: Dispatcher.ResponseData;
  try {
    answer = await request(url, {
      method: 'POST',
      headers: init.headers,
      body: init.body,
      ...(context.dispatcher ? { dispatcher: context.dispatcher } : {}),
      signal: AbortSignal.timeout(SEND_TIMEOUT_MS),
    });
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    const reason = typeof code === 'string' ? code : error instanceof Error ? error.name : 'error';
    throw new DeliveryFailure(`Could not reach ${init.what} (${reason}).`);
  }
  const text = await answer.body.text().catch(() => '');
  if (answer.statusCode >= 200 && answer.statusCode < 300) return text;
  let hint: number | null = null;
  try {
    // Telegram says how long to wait in its body (`parameters.retry_after`).
    const parsed = JSON.parse(text) as { parameters?: { retry_after?: unknown } };
    if (typeof parsed.parameters?.retry_after === 'number') hint = parsed.parameters.retry_after;
  } catch {
    hint = null;
  }
  throw new DeliveryFailure(
    `${init.what.charAt(0).toUpperCase()}${init.what.slice(1)} answered HTTP ${answer.statusCode}.`,
    PERMANENT_STATUSES.has(answer.statusCode),
    answer.statusCode === 429 || answer.statusCode === 503
      ? retryAfterOf(answer.headers['retry-after'], hint)
      : null,
  );
}
