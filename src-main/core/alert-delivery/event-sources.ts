import { createHash } from 'node:crypto';
import type { EventChannel, EventPayload } from '../../../src-shared/contract';
import type { DeliveryEvent, DeliveryEventType } from '../../../src-shared/contract/alert-routing-events';
import type { TopUpNotice } from '../topups/topup-watcher';

/**
 * A stable event id from what identifies the happening (`eventId('port.down', profileId, portId,
 * since)`): the same happening published twice, or by a restarted process, gets the same id, and
 * the queue sends it at most once per channel. Health checks (issue 32) use it too.
 */
export function eventId(type: DeliveryEventType, ...parts: readonly string[]): string {
  const digest = createHash('sha256')
    .update([type, ...parts].join('\u0000'))
    .digest('hex');
  return `evt_${digest.slice(0, 32)}`;
}

/** What `publish` takes: an event without its timestamp (the clock's) or id (derived when absent). */
export type PublishedEvent = {
  [T in DeliveryEvent['type']]: Omit<Extract<DeliveryEvent, { type: T }>, 'timestamp' | 'id'> & {
    id?: string;
    timestamp?: string;
  };
}[DeliveryEvent['type']];

/** The thresholds before an expiry that each send one `*.expiring` event: 3 days, 1 day, 6 hours, 1 hour. */
const EXPIRY_WARNING_HOURS = [72, 24, 6, 1] as const;
/** A schedule is reported as failing at this many failed runs in a row (once per streak). */
const SCHEDULE_FAILING_RUNS = 3;
const HOUR_MS = 3_600_000;
/** A local proxy failing the same way is reported again after this long at the earliest. */
const LOCAL_PROXY_REPEAT_MS = 30 * 60_000;

interface Expiring {
  kind: 'port' | 'subscription';
  profileId: string;
  id: string;
  label: string | null;
  expiresAt: number;
  autoRenew: boolean;
}

interface EventSourceOptions {
  publish: (event: PublishedEvent) => void;
  now: () => number;
  /** Only the owner of the background jobs turns the app's events into deliveries (else both processes would). */
  ownsJobs: () => boolean;
}

const TRAFFIC_REASONS = {
  traffic_low: 'below_threshold',
  traffic_runs_out: 'runs_out_soon',
  sub_user_cap_80: 'sub_user_cap_80',
  sub_user_cap_100: 'sub_user_cap_100',
} as const;

const TOP_UP_TYPES = {
  credited: 'topup.credited',
  expired: 'topup.expired',
  rejected: 'topup.rejected',
  purchase_failed: 'purchase.failed',
} as const;

/** A health check's change of a target's status (`HealthStatusChange`, flattened). */
export interface PortHealthChange {
  profileId: string;
  kind: 'port' | 'subscription' | 'localProxy';
  id: string;
  previous: 'up' | 'down' | 'unknown';
  status: 'up' | 'down' | 'unknown';
  /** Epoch ms of the check that set it. */
  since: number | null;
  failuresInARow: number;
  /** The last check's failure in the gateway's words. */
  error: string | null;
}

/**
 * The adapter from what the app already announces to delivery events: usage alerts
 * (`alerts:raised`), rotations (`ports:rotation` receipts: same IP, or an IP seen recently),
 * the ports' service status (`ports:changed`: down when it leaves `active`), expiries (from the
 * ports and subscriptions main reads, at each of `EXPIRY_WARNING_HOURS`), failing schedules
 * (`schedules:changed`), failing local proxies (`localProxies:changed`) and top-up outcomes (the
 * watcher's notices). It builds each payload field by field from those, so nothing else (a
 * password, a rotation link) can be carried along.
 */
export class DeliveryEventSources {
  private readonly portStatus = new Map<string, { down: boolean; since: string }>();
  /** Ports whose health checks have said up or down: their word, not the service's status, counts. */
  private readonly checkedPorts = new Set<string>();
  private readonly healthDownSince = new Map<string, string>();
  private readonly expiring = new Map<string, Expiring>();
  private readonly proxyErrors = new Map<string, string>();
  /** Per local proxy and failure kind: when it was last published (a failing upstream fails every connection). */
  private readonly proxyPublished = new Map<string, number>();
  /** Expiry events this process published (the queue drops a repeat anyway; this saves the write). */
  private readonly expiryIds = new Set<string>();

  constructor(private readonly options: EventSourceOptions) {}

  /** Subscribes to the bus; returns the unsubscribe function. */
  listen(events: {
    on<E extends EventChannel>(channel: E, listener: (payload: EventPayload<E>) => void): () => void;
  }): () => void {
    const stops = [
      events.on('alerts:raised', ({ alert }) => this.whenOwner(() => this.fromAlert(alert))),
      events.on('ports:rotation', (event) => this.whenOwner(() => this.fromRotation(event))),
      events.on('ports:changed', (event) => this.fromPorts(event)),
      events.on('subscriptions:changed', (event) => this.fromSubscriptions(event)),
      events.on('schedules:changed', (view) => this.whenOwner(() => this.fromSchedules(view))),
      events.on('localProxies:changed', (view) => this.whenOwner(() => this.fromLocalProxies(view))),
    ];
    return () => {
      for (const stop of stops) stop();
    };
  }

  /** A top-up watcher notice (credited, rejected, expired, purchase failed). */
  readonly topUp = (notice: TopUpNotice): void => {
    if (notice.kind === 'purchase_completed') return;
    const type = TOP_UP_TYPES[notice.kind];
    this.whenOwner(() =>
      this.options.publish({
        id: eventId(type, notice.profileId, notice.topUpId),
        type,
        data: { profileId: notice.profileId, topUpId: notice.topUpId, summary: notice.body.slice(0, 1000) },
      }),
    );
  };

  /**
   * Publishes the expiry thresholds crossed by now: for each port and subscription that does not
   * renew itself, the nearest threshold passed (one event each; after a long sleep only the
   * nearest, not every one missed), and `*.expired` once it has. Ids come from the subject, its
   * expiry and the threshold, so a restart sends none twice.
   */
  checkExpiries(): void {
    if (!this.options.ownsJobs()) return;
    const now = this.options.now();
    for (const item of this.expiring.values()) {
      if (item.autoRenew) continue;
      const expiresAt = new Date(item.expiresAt).toISOString();
      const subject = item.kind === 'port' ? { portId: item.id } : { subscriptionId: item.id };
      if (now >= item.expiresAt) {
        const type = item.kind === 'port' ? 'port.expired' : 'subscription.expired';
        const id = eventId(type, item.profileId, item.id, expiresAt);
        if (this.expiryIds.has(id)) continue;
        this.expiryIds.add(id);
        this.options.publish({
          id,
          type,
          data: { profileId: item.profileId, ...subject, label: item.label, expiredAt: expiresAt },
        } as PublishedEvent);
        continue;
      }
      const hoursLeft = (item.expiresAt - now) / HOUR_MS;
      const threshold = [...EXPIRY_WARNING_HOURS].sort((a, b) => a - b).find((hours) => hoursLeft <= hours);
      if (threshold === undefined) continue;
      const type = item.kind === 'port' ? 'port.expiring' : 'subscription.expiring';
      const id = eventId(type, item.profileId, item.id, expiresAt, String(threshold));
      if (this.expiryIds.has(id)) continue;
      this.expiryIds.add(id);
      this.options.publish({
        id,
        type,
        data: {
          profileId: item.profileId,
          ...subject,
          label: item.label,
          expiresAt,
          thresholdHours: threshold,
          hoursLeft: Math.round(hoursLeft * 10) / 10,
        },
      } as PublishedEvent);
    }
  }

  /** When the next expiry threshold is crossed (epoch ms), for the job's deadline. */
  nextExpiryCheck(): number | null {
    let next: number | null = null;
    const now = this.options.now();
    for (const item of this.expiring.values()) {
      if (item.autoRenew) continue;
      for (const at of [item.expiresAt, ...EXPIRY_WARNING_HOURS.map((h) => item.expiresAt - h * HOUR_MS)])
        if (at > now) next = next === null ? at : Math.min(next, at);
    }
    return next;
  }

  private whenOwner(work: () => void): void {
    if (this.options.ownsJobs()) work();
  }

  private fromAlert(alert: EventPayload<'alerts:raised'>['alert']): void {
    // Expiries are sent from the hours list (`checkExpiries`), not from the alert's days.
    if (!(alert.kind in TRAFFIC_REASONS)) return;
    const [subscriptionId = alert.subjectId, subUserId = null] = alert.subjectId.split('/');
    this.options.publish({
      id: eventId('traffic.below_threshold', alert.id),
      type: 'traffic.below_threshold',
      data: {
        profileId: alert.profileId,
        subscriptionId,
        subUserId,
        reason: TRAFFIC_REASONS[alert.kind as keyof typeof TRAFFIC_REASONS],
        message: alert.message.slice(0, 1000),
      },
    });
  }

  private fromRotation(event: EventPayload<'ports:rotation'>): void {
    const receipt = event.receipt;
    if (event.phase !== 'finished' || !receipt) return;
    const subject = { profileId: event.profileId, portId: event.portId, label: null };
    // The verdict (a check through the port after the service answered) where there is one.
    const verdict = receipt.verdict?.kind;
    if (verdict === 'unchanged' || (verdict === undefined && receipt.sameIp))
      this.options.publish({
        id: eventId('rotation.unchanged', receipt.id),
        type: 'rotation.unchanged',
        data: { ...subject, ip: receipt.verdict?.exitIp ?? receipt.ip },
      });
    else if (verdict === 'repeat' || (receipt.untilNew && !receipt.untilNew.reachedNewIp))
      this.options.publish({
        id: eventId('rotation.repeated', receipt.id),
        type: 'rotation.repeated',
        data: {
          ...subject,
          ip: receipt.verdict?.exitIp ?? receipt.ip,
          seenAt: receipt.verdict?.seenBefore?.at ?? null,
        },
      });
  }

  private fromPorts({ profileId, changed, removed }: EventPayload<'ports:changed'>): void {
    for (const id of removed ?? []) this.expiring.delete(`port:${profileId}:${id}`);
    for (const port of changed) {
      this.expiring.set(`port:${profileId}:${port.id}`, {
        kind: 'port',
        profileId,
        id: port.id,
        label: port.label || null,
        expiresAt: Date.parse(port.expiresAt),
        autoRenew: port.autoRenew,
      });
      this.fromPortStatus(profileId, port.id, port.label || null, port.status);
    }
    this.checkExpiries();
  }

  /**
   * A port's health checks changed its status (down after failures in a row, up after successes):
   * from then on they, not the service's status, say when it is down.
   */
  readonly portHealth = (change: PortHealthChange): void => {
    if (change.kind !== 'port') return;
    const key = `${change.profileId}:${change.id}`;
    this.checkedPorts.add(key);
    const since = new Date(change.since ?? this.options.now()).toISOString();
    const subject = { profileId: change.profileId, portId: change.id, label: null };
    if (change.status === 'down' && change.previous !== 'down') {
      this.healthDownSince.set(key, since);
      this.whenOwner(() =>
        this.options.publish({
          id: eventId('port.down', change.profileId, change.id, since),
          type: 'port.down',
          data: {
            ...subject,
            reason: (change.error ?? `${change.failuresInARow} health checks in a row failed.`).slice(0, 500),
            since,
          },
        }),
      );
    } else if (change.status === 'up' && change.previous === 'down') {
      const downSince = this.healthDownSince.get(key) ?? null;
      this.healthDownSince.delete(key);
      this.whenOwner(() =>
        this.options.publish({
          id: eventId('port.up', change.profileId, change.id, since),
          type: 'port.up',
          data: { ...subject, downSince },
        }),
      );
    }
  };

  /** The service's status, where no health check says more: `active` is up, `provisioning` neither. */
  private fromPortStatus(profileId: string, portId: string, label: string | null, status: string): void {
    if (status === 'provisioning') return;
    const key = `${profileId}:${portId}`;
    if (this.checkedPorts.has(key)) return;
    const known = this.portStatus.get(key);
    const down = status !== 'active';
    if (!known) {
      this.portStatus.set(key, { down, since: new Date(this.options.now()).toISOString() });
      return;
    }
    if (known.down === down) return;
    const since = new Date(this.options.now()).toISOString();
    this.portStatus.set(key, { down, since });
    if (!this.options.ownsJobs()) return;
    const subject = { profileId, portId, label };
    if (down)
      this.options.publish({
        id: eventId('port.down', profileId, portId, since),
        type: 'port.down',
        data: { ...subject, reason: `The service reports it as ${status}.`, since },
      });
    else
      this.options.publish({
        id: eventId('port.up', profileId, portId, since),
        type: 'port.up',
        data: { ...subject, downSince: known.since },
      });
  }

  private fromSubscriptions({ profileId, changed, removed }: EventPayload<'subscriptions:changed'>): void {
    for (const id of removed ?? []) this.expiring.delete(`subscription:${profileId}:${id}`);
    for (const subscription of changed) {
      if (!subscription.expiresAt) {
        this.expiring.delete(`subscription:${profileId}:${subscription.id}`);
        continue;
      }
      this.expiring.set(`subscription:${profileId}:${subscription.id}`, {
        kind: 'subscription',
        profileId,
        id: subscription.id,
        label: subscription.label || null,
        expiresAt: Date.parse(subscription.expiresAt),
        autoRenew: subscription.autoRenew,
      });
    }
    this.checkExpiries();
  }

  private fromSchedules(view: EventPayload<'schedules:changed'>): void {
    for (const schedule of view.schedules) {
      const last = schedule.lastRuns[0];
      if (schedule.consecutiveFailures !== SCHEDULE_FAILING_RUNS || !last) continue;
      this.options.publish({
        id: eventId('schedule.failing', schedule.profileId, schedule.portId, last.at),
        type: 'schedule.failing',
        data: {
          profileId: schedule.profileId,
          portId: schedule.portId,
          label: null,
          consecutiveFailures: schedule.consecutiveFailures,
          lastError: last.error ? last.error.slice(0, 1000) : null,
          lastRunAt: last.at,
        },
      });
    }
  }

  private fromLocalProxies({ proxies }: EventPayload<'localProxies:changed'>): void {
    for (const proxy of proxies) {
      const failure = proxy.listenError
        ? { kind: 'listen', message: proxy.listenError, at: null }
        : proxy.lastError
          ? { kind: proxy.lastError.kind, message: proxy.lastError.message, at: proxy.lastError.at }
          : null;
      const mark = failure ? `${failure.kind}|${failure.at ?? failure.message}` : '';
      if (this.proxyErrors.get(proxy.id) === mark) continue;
      this.proxyErrors.set(proxy.id, mark);
      if (!failure) continue;
      const now = this.options.now();
      const key = `${proxy.id}|${failure.kind}`;
      const last = this.proxyPublished.get(key);
      if (last !== undefined && now - last < LOCAL_PROXY_REPEAT_MS) continue;
      this.proxyPublished.set(key, now);
      const at = failure.at ?? new Date(now).toISOString();
      this.options.publish({
        id: eventId('local_proxy.failing', proxy.id, failure.kind, at),
        type: 'local_proxy.failing',
        data: {
          profileId: proxy.profileId,
          localProxyId: proxy.id,
          label: proxy.label || null,
          kind: failure.kind,
          message: failure.message.slice(0, 1000),
          at,
        },
      });
    }
  }
}
