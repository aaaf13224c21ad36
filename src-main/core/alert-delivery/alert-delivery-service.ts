import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import type {
  AddedAlertChannel,
  AlertChannelRule,
  AlertChannelView,
  ChannelTestResult,
  DomainHandlers,
} from '../../../src-shared/contract';
import type { AddAlertChannelInput } from '../../../src-shared/contract/alert-routing';
import {
  DELIVERY_EVENT_ID_PATTERN,
  DELIVERY_EVENT_SCHEMAS,
  type DeliveryEvent,
  ROUTABLE_EVENT_TYPES,
} from '../../../src-shared/contract/alert-routing-events';
import type { DomainService } from '../domain-service';
import { AppError } from '../errors';
import type { BackgroundJob } from '../runtime/background-jobs';
import type { Clock } from '../runtime/clock';
import { DeadlineJob } from '../runtime/deadline-job';
import type { SecretStore } from '../secrets/secret-store';
import { DeliveryFailure } from './alert-channel';
import {
  buildChannel,
  channelSecretAccount,
  destinationOf,
  type LocalProxyRoute,
  proxyContext,
  splitChannelInput,
} from './channel-factory';
import { DeliverySender } from './delivery-sender';
import type { DeliveryStore, StoredChannel } from './delivery-store';
import { eventId, type PublishedEvent } from './event-sources';
import { LocalAlertReceiver } from './local-receiver';
import { toMessage } from './message-text';

/** A channel "keeps failing" (the overview shows it) after this many failed attempts in a row. */
const FAILING_AFTER_ATTEMPTS = 3;
/** A process that does not send still queues; the sender looks for such rows this often. */
const QUEUE_LOOK_MS = 30_000;

export interface AlertDeliveryOptions {
  store: DeliveryStore;
  clock: Clock;
  /** The keychain, or this run's memory when there is none. */
  secrets: () => SecretStore;
  /** A local proxy's address and local credentials, to send through it; null when it is gone. */
  localProxy?: (localProxyId: string) => Promise<LocalProxyRoute | null>;
  /** A mobile port's gateway and credentials, to send through it; null when it is gone. */
  portRoute?: (profileId: string, portId: string) => Promise<LocalProxyRoute | null>;
  /** The profile a new channel's `portId` belongs to. */
  activeProfileId?: () => string | null;
  ownsJobs: () => boolean;
  /** A one-shot command's process: a secret kept only in its memory would be gone when it ends. */
  oneShot?: boolean;
  /** More deadlines to wake for (the expiry thresholds) and work to do at each wake-up. */
  onWake?: { next: () => number | null; run: () => void };
  random?: () => number;
  log?: (line: string) => void;
}

/**
 * Alert delivery: the channels and their rules (`alertRouting:*`), `publish` (the one way in for
 * an event: the adapter from the app's own events, and health checks), and the background job
 * that sends the durable queue, in the process that owns the jobs only.
 */
export class AlertDeliveryService implements DomainService<'alertRouting'> {
  private readonly sender: DeliverySender;
  private readonly deadline: DeadlineJob;
  private readonly receiver: LocalAlertReceiver;
  readonly job: BackgroundJob;

  constructor(private readonly options: AlertDeliveryOptions) {
    const log = options.log ?? (() => undefined);
    this.sender = new DeliverySender({
      store: options.store,
      clock: options.clock,
      open: (channel) => this.open(channel),
      ...(options.random ? { random: options.random } : {}),
      log,
    });
    this.deadline = new DeadlineJob({
      name: 'alert-delivery',
      clock: options.clock,
      nextDeadline: () => {
        // With channels, look for rows another process queued now and then; with none, nothing can be sent.
        const look = options.store.channels().length > 0 ? options.clock.now() + QUEUE_LOOK_MS : null;
        const candidates = [this.sender.nextDue(), options.onWake?.next() ?? null, look].filter(
          (at): at is number => at !== null,
        );
        return candidates.length > 0 ? Math.min(...candidates) : null;
      },
      run: async () => {
        options.onWake?.run();
        options.store.prune(options.clock.now());
        await this.sender.sendDue();
      },
      log,
      retryAfterErrorMs: 10_000,
    });
    this.receiver = new LocalAlertReceiver(
      (headers, body) => this.checkLocalSignature(headers, body),
      () => options.clock.now(),
    );
    this.job = {
      name: 'alert delivery',
      start: (reason) => this.deadline.start(reason),
      stop: (reason) => this.deadline.stop(reason),
    };
  }

  /**
   * The entry point for an event: checked against its documented payload (a field outside it
   * is refused, so no secret can ride along), queued for every channel whose rule takes it, and
   * sent by the owner of the background jobs. The id is the webhook id: publish the same
   * happening with the same id (`eventId`) and it is queued once. Returns false when that id
   * was queued before. Safe to call from any process: the queue is shared through the data folder.
   */
  publish(event: PublishedEvent): boolean {
    const now = this.options.clock.now();
    const full = {
      ...event,
      id: event.id ?? eventId(event.type, JSON.stringify(event.data)),
      timestamp: event.timestamp ?? new Date(now).toISOString(),
    };
    if (!DELIVERY_EVENT_ID_PATTERN.test(full.id)) throw new Error(`Not an event id: ${full.id.slice(0, 40)}`);
    const data = DELIVERY_EVENT_SCHEMAS[full.type].parse(full.data);
    const checked = { id: full.id, type: full.type, timestamp: full.timestamp, data } as DeliveryEvent;
    const queued = this.options.store.enqueue(checked, subjectOf(checked), now);
    if (queued) this.deadline.trigger('event');
    return queued;
  }

  /** Channels that keep failing, for the overview (3 failed attempts in a row, or dead letters). */
  failingChannels(): AlertChannelView[] {
    return this.listChannels().filter((channel) => channel.health.failing);
  }

  /** Sends what is due now (tests drive this with a fake clock; the job calls it in the app). */
  sendDue(): Promise<void> {
    return this.sender.sendDue();
  }

  nextDue(): number | null {
    return this.sender.nextDue();
  }

  handlers(): DomainHandlers<'alertRouting'> {
    return {
      'alertRouting:channels': () => Promise.resolve(this.listChannels()),
      'alertRouting:addChannel': (input) => this.addChannel(input),
      'alertRouting:removeChannel': (input) => this.removeChannel(input.channelId),
      'alertRouting:setRule': (input) => Promise.resolve(this.setRule(input.channelId, input)),
      'alertRouting:testChannel': (input) => this.testChannel(input.channelId),
      'alertRouting:deliveries': (input) =>
        Promise.resolve({
          entries: this.options.store.log(input?.limit ?? 100, input?.deadOnly ?? false),
          sendsHere: this.options.ownsJobs(),
        }),
      'alertRouting:localReceiver': async (input) => {
        if (input?.start) await this.receiver.start();
        return { url: this.receiver.url, messages: this.receiver.messages() };
      },
      'alertRouting:retryDead': (input) => {
        const requeued = this.options.store.retryDead(input?.channelId ?? null, this.options.clock.now());
        this.deadline.trigger('retry');
        return Promise.resolve({ requeued });
      },
    };
  }

  /** Closes the local test receiver, if it was started. */
  stop(): Promise<void> {
    return this.receiver.close();
  }

  /** The local receiver's check: the signing secret of any webhook channel that posts to it. */
  private async checkLocalSignature(
    headers: Record<string, string>,
    body: string,
  ): Promise<'valid' | 'invalid'> {
    const base = this.receiver.url;
    for (const channel of this.options.store.channels()) {
      if (channel.kind !== 'webhook' || !base || !channel.config.url?.startsWith(base)) continue;
      const secret = await this.options.secrets().get(channelSecretAccount(channel.id));
      if (!secret) continue;
      try {
        new Webhook(secret).verify(body, headers);
        return 'valid';
      } catch {
        // Another channel's secret may match.
      }
    }
    return 'invalid';
  }

  private listChannels(): AlertChannelView[] {
    return this.options.store.channels().map((channel) => this.toView(channel));
  }

  private toView(channel: StoredChannel): AlertChannelView {
    const state = this.options.store.channelState(channel.id);
    const iso = (at: number | null) => (at === null ? null : new Date(at).toISOString());
    return {
      id: channel.id,
      kind: channel.kind,
      name: channel.name,
      destination: destinationOf(channel),
      hasSecret: channel.config.hasSecret === true,
      localProxyId: channel.localProxyId,
      viaPort: channel.config.viaPort ?? null,
      rule: channel.rule,
      createdAt: new Date(channel.createdAt).toISOString(),
      health: {
        consecutiveFailures: state.consecutiveFailures,
        lastSuccessAt: iso(state.lastSuccessAt),
        lastFailureAt: iso(state.lastFailureAt),
        lastError: state.lastError,
        pending: state.pending,
        deadLetters: state.deadLetters,
        failing: state.consecutiveFailures >= FAILING_AFTER_ATTEMPTS || state.deadLetters > 0,
      },
    };
  }

  private async addChannel(input: AddAlertChannelInput): Promise<AddedAlertChannel> {
    const id = `ach_${randomBytes(8).toString('hex')}`;
    const split = splitChannelInput(input);
    const { secret } = split;
    let config = split.config;
    if (input.portId !== undefined) {
      const profileId = this.options.activeProfileId?.() ?? null;
      if (!profileId)
        throw new AppError('invalid_input', 'Sending through a port needs an active profile.', [
          { field: 'portId', message: 'No active profile' },
        ]);
      config = { ...config, viaPort: { profileId, portId: input.portId } };
    }
    if (secret !== null && this.options.oneShot && this.options.secrets().kind === 'session')
      throw new AppError(
        'invalid_input',
        'There is no OS keychain here, so this channel’s secret would be lost when the command ends: add it in the app (Settings → Alerts) or with the app running.',
      );
    if (secret !== null) await this.options.secrets().set(channelSecretAccount(id), secret);
    const channel: StoredChannel = {
      id,
      kind: input.kind,
      name: input.name,
      config,
      localProxyId: input.localProxyId ?? null,
      rule: ruleOf(input),
      createdAt: this.options.clock.now(),
    };
    this.options.store.addChannel(channel);
    return { channel: this.toView(channel), signingSecret: input.kind === 'webhook' ? secret : null };
  }

  private async removeChannel(channelId: string): Promise<{ removed: boolean }> {
    const removed = this.options.store.removeChannel(channelId);
    await this.options.secrets().delete(channelSecretAccount(channelId));
    return { removed };
  }

  private setRule(channelId: string, input: Parameters<typeof ruleOf>[0]): AlertChannelView {
    const channel = this.stored(channelId);
    const rule = ruleOf(input, channel.rule);
    this.options.store.setRule(channelId, rule);
    return this.toView({ ...channel, rule });
  }

  private async testChannel(channelId: string): Promise<ChannelTestResult> {
    const channel = this.stored(channelId);
    const now = this.options.clock.now();
    const event: DeliveryEvent = {
      id: `test_${randomBytes(8).toString('hex')}`,
      type: 'channel.test',
      timestamp: new Date(now).toISOString(),
      data: { channelId: channel.id, channelName: channel.name },
    };
    let error: string | null = null;
    try {
      const opened = await this.open(channel);
      await opened.channel.send(toMessage(event), { ...opened.context, now });
    } catch (failure) {
      error = failure instanceof DeliveryFailure ? failure.message : 'The test failed.';
    }
    const entry = this.options.store.recordDirect(event, channel, { at: this.options.clock.now(), error });
    return { ok: error === null, error, entry };
  }

  private stored(channelId: string): StoredChannel {
    const channel = this.options.store.channel(channelId);
    if (!channel)
      throw new AppError('invalid_input', 'No such channel: see `alerts channels list`.', [
        { field: 'channelId', message: 'No such channel' },
      ]);
    return channel;
  }

  private async open(channel: StoredChannel) {
    const secret = await this.options.secrets().get(channelSecretAccount(channel.id));
    const built = buildChannel(channel, secret);
    const viaPort = channel.config.viaPort;
    if (viaPort) {
      const route = await this.options.portRoute?.(viaPort.profileId, viaPort.portId);
      if (!route) throw new DeliveryFailure('The port it sends through could not be read.');
      return { channel: built, context: proxyContext(route) };
    }
    if (!channel.localProxyId) return { channel: built, context: {} };
    const route = await this.options.localProxy?.(channel.localProxyId);
    if (!route) throw new DeliveryFailure('The local proxy it sends through is not running.');
    return { channel: built, context: proxyContext(route) };
  }
}

function ruleOf(
  input: {
    events?: AlertChannelRule['events'] | undefined;
    quietMinutes?: number | undefined;
    quietByEvent?: AlertChannelRule['quietMinutes'] | undefined;
    digestMinutes?: number | undefined;
  },
  previous?: AlertChannelRule,
): AlertChannelRule {
  const events = input.events ?? previous?.events ?? [...ROUTABLE_EVENT_TYPES];
  const base =
    input.quietMinutes === undefined
      ? (previous?.quietMinutes ?? {})
      : Object.fromEntries(events.map((type) => [type, input.quietMinutes]));
  // Per event type over the channel-wide period; 0 or absent means none.
  const quietMinutes = Object.fromEntries(
    Object.entries({ ...base, ...input.quietByEvent }).filter(([, minutes]) => (minutes ?? 0) > 0),
  ) as AlertChannelRule['quietMinutes'];
  const digestMinutes =
    input.digestMinutes === undefined ? (previous?.digestMinutes ?? null) : input.digestMinutes || null;
  return { events, quietMinutes, digestMinutes };
}

/** What a quiet period is kept per: the port, subscription, top-up, local proxy or channel the event is about. */
function subjectOf(event: DeliveryEvent): string {
  const data = event.data as Record<string, unknown>;
  for (const key of ['portId', 'subscriptionId', 'topUpId', 'localProxyId', 'channelId'])
    if (typeof data[key] === 'string')
      return `${typeof data.profileId === 'string' ? data.profileId : ''}:${data[key]}`;
  return event.type;
}
