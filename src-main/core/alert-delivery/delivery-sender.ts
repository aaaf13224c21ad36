import type { Clock } from '../runtime/clock';
import { type AlertChannel, DeliveryFailure, type SendContext } from './alert-channel';
import type { DeliveryStore, HeadDelivery, StoredChannel } from './delivery-store';
import { toMessage } from './message-text';

/** A delivery is tried for this long after it was queued, then it is a dead letter. */
const RETRY_FOR_MS = 24 * 3_600_000;
const FIRST_RETRY_MS = 10_000;
const LONGEST_RETRY_MS = 15 * 60_000;

/**
 * Exponential back-off with jitter: 10 s, 20 s, 40 s … up to 15 minutes, each drawn between half
 * and all of that (so many channels failing together do not retry in step).
 */
function retryDelayMs(attempts: number, random: () => number): number {
  const ceiling = Math.min(LONGEST_RETRY_MS, FIRST_RETRY_MS * 2 ** Math.max(0, attempts - 1));
  return Math.round(ceiling / 2 + (ceiling / 2) * random());
}

/** What a channel needs to go out: built from the stored settings and the keychain, per attempt. */
type ChannelOpener = (
  channel: StoredChannel,
) => Promise<{ channel: AlertChannel; context: Omit<SendContext, 'now'> }>;

export interface DeliverySenderOptions {
  store: DeliveryStore;
  clock: Pick<Clock, 'now'>;
  open: ChannelOpener;
  /** Jitter's randomness (tests pass a fixed one). */
  random?: () => number;
  log?: (line: string) => void;
}

/**
 * Sends what is due, channel by channel, oldest first: a channel sends only its oldest pending
 * delivery, so a receiver that is down gets everything in order once it is back. Each attempt
 * is counted in the store before the request; a success is stored at once after it. A process
 * killed between the receiver's answer and that write sends that one delivery again after the
 * restart, with the same `webhook-id` for the receiver to drop (at most once per event id and
 * channel in our queue; exactly once for receivers that de-duplicate).
 */
export class DeliverySender {
  private readonly random: () => number;
  private readonly log: (line: string) => void;
  private running: Promise<void> | null = null;

  constructor(private readonly options: DeliverySenderOptions) {
    this.random = options.random ?? Math.random;
    this.log = options.log ?? (() => undefined);
  }

  /** Sends everything due now; one run at a time (a call during a run waits for it and runs again). */
  async sendDue(): Promise<void> {
    while (this.running) await this.running;
    const run = this.sendAll().finally(() => {
      this.running = null;
    });
    this.running = run;
    await run;
  }

  /** When the next delivery is due (epoch ms), or null when nothing waits. */
  nextDue(): number | null {
    let next: number | null = null;
    for (const channel of this.options.store.channels()) {
      const head = this.options.store.head(channel.id);
      if (!head) continue;
      const due = Math.max(head.nextAt, this.options.store.channelState(channel.id).nextAllowedAt);
      next = next === null ? due : Math.min(next, due);
    }
    return next;
  }

  private async sendAll(): Promise<void> {
    await Promise.all(this.options.store.channels().map((channel) => this.sendChannel(channel)));
  }

  private async sendChannel(stored: StoredChannel): Promise<void> {
    const { store, clock } = this.options;
    let opened: Awaited<ReturnType<ChannelOpener>> | null = null;
    for (;;) {
      const head = store.head(stored.id);
      const now = clock.now();
      if (!head || head.nextAt > now || store.channelState(stored.id).nextAllowedAt > now) return;
      if (now - head.queuedAt >= RETRY_FOR_MS) {
        store.markFailed(head, now, 'Given up: not delivered within 24 hours.', null);
        continue;
      }
      store.markAttempt(head.seq, now);
      try {
        opened ??= await this.options.open(stored);
        await opened.channel.send(toMessage(head.envelope), { ...opened.context, now });
        store.markSent(head, clock.now(), opened.channel.minIntervalMs);
      } catch (error) {
        const failure = error instanceof DeliveryFailure ? error : new DeliveryFailure(messageOf(error));
        this.fail(head, stored, clock.now(), failure);
        return;
      }
    }
  }

  private fail(head: HeadDelivery, channel: StoredChannel, now: number, failure: DeliveryFailure): void {
    const attempts = head.attempts + 1;
    const wait = Math.max(retryDelayMs(attempts, this.random), failure.retryAfterMs ?? 0);
    const giveUp = failure.permanent || now + wait - head.queuedAt >= RETRY_FOR_MS;
    this.options.store.markFailed(head, now, failure.message, giveUp ? null : now + wait);
    if (failure.retryAfterMs !== null) this.options.store.holdChannel(channel.id, now + failure.retryAfterMs);
    this.log(
      `[alert-delivery] ${channel.kind} ${channel.id}: ${head.envelope.type} ${head.eventId} attempt ${attempts} failed: ${failure.message}${giveUp ? ' (dead letter)' : ''}`,
    );
  }
}

/** An unexpected error's message without anything that could be a URL (Slack's and Telegram's carry secrets). */
function messageOf(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.replace(/\b[a-z][a-z0-9+.-]*:\/\/\S+/gi, '<url>').slice(0, 300);
}
