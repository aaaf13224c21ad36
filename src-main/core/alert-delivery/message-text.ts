import type { DeliveryEnvelope, DeliveryEvent } from '../../../src-shared/contract/alert-routing-events';
import type { OutgoingMessage } from './alert-channel';

const portName = (data: { portId: string; label: string | null }): string =>
  data.label ? `${data.label} (${data.portId})` : data.portId;

/** One line for people: what happened. Only fields of the documented payload, so never a secret. */
function headline(event: DeliveryEvent): string {
  switch (event.type) {
    case 'port.down':
      return `Port ${portName(event.data)} is down: ${event.data.reason}`;
    case 'port.up':
      return `Port ${portName(event.data)} is up again`;
    case 'rotation.unchanged':
      return `Rotation of ${portName(event.data)} kept the same IP${event.data.ip ? ` (${event.data.ip})` : ''}`;
    case 'rotation.repeated':
      return `Rotation of ${portName(event.data)} gave a recent IP again (${event.data.ip})`;
    case 'traffic.below_threshold':
      return `Traffic of ${event.data.subUserId ? `sub-user ${event.data.subUserId} of ` : ''}subscription ${event.data.subscriptionId}: ${event.data.message}`;
    case 'subscription.expiring':
      return `Subscription ${event.data.label ?? event.data.subscriptionId} expires in ${Math.round(event.data.hoursLeft)} h (${event.data.expiresAt})`;
    case 'port.expiring':
      return `Port ${portName(event.data)} expires in ${Math.round(event.data.hoursLeft)} h (${event.data.expiresAt})`;
    case 'subscription.expired':
      return `Subscription ${event.data.label ?? event.data.subscriptionId} expired at ${event.data.expiredAt}`;
    case 'port.expired':
      return `Port ${portName(event.data)} expired at ${event.data.expiredAt}`;
    case 'topup.credited':
    case 'topup.expired':
    case 'topup.rejected':
    case 'purchase.failed':
      return `Top-up ${event.data.topUpId}: ${event.data.summary}`;
    case 'schedule.failing':
      return `Rotation schedule of ${portName(event.data)} failed ${event.data.consecutiveFailures} times in a row${event.data.lastError ? `: ${event.data.lastError}` : ''}`;
    case 'local_proxy.failing':
      return `Local proxy ${event.data.label ?? event.data.localProxyId}: ${event.data.message}`;
    case 'channel.test':
      return `Test message for channel “${event.data.channelName}”: delivery works.`;
  }
}

const TITLES: Record<DeliveryEvent['type'], string> = {
  'port.down': 'Port down',
  'port.up': 'Port up',
  'rotation.unchanged': 'Rotation kept the same IP',
  'rotation.repeated': 'Rotation repeated an IP',
  'traffic.below_threshold': 'Traffic running low',
  'subscription.expiring': 'Subscription expiring',
  'port.expiring': 'Port expiring',
  'subscription.expired': 'Subscription expired',
  'port.expired': 'Port expired',
  'topup.credited': 'Top-up credited',
  'topup.expired': 'Top-up expired',
  'topup.rejected': 'Top-up rejected',
  'purchase.failed': 'Purchase failed',
  'schedule.failing': 'Rotation schedule failing',
  'local_proxy.failing': 'Local proxy failing',
  'channel.test': 'Test',
};

/** The envelope as it goes out: the JSON body (signed as is) and its text for chat and email. */
export function toMessage(envelope: DeliveryEnvelope): OutgoingMessage {
  const body = JSON.stringify(envelope);
  if (envelope.type === 'digest') {
    const lines = envelope.data.events.map((event) => `• ${headline(event)}  [${event.type} ${event.id}]`);
    return {
      envelope,
      body,
      title: `Proxy Manager: ${envelope.data.events.length} alerts`,
      text: `${lines.join('\n')}\n\nevent digest · id ${envelope.id}`,
    };
  }
  return {
    envelope,
    body,
    title: `Proxy Manager: ${TITLES[envelope.type]}`,
    // The last line names the event, so a chat message can be matched to the log and the webhook id.
    text: `${headline(envelope)}\n\nevent ${envelope.type} · id ${envelope.id} · ${envelope.timestamp}`,
  };
}
