import type { PublishedEvent } from '../../../../src-main/core/alert-delivery/event-sources';

const port = { profileId: 'prof_1', portId: 'mp_7', label: 'Berlin 5G' };
const at = '2026-01-01T00:00:00.000Z';

/** One event of every routable type, with the documented payload. */
export const SAMPLE_EVENTS: PublishedEvent[] = [
  { type: 'port.down', data: { ...port, reason: 'The service reports it as offline.', since: at } },
  { type: 'port.up', data: { ...port, downSince: at } },
  { type: 'rotation.unchanged', data: { ...port, ip: '203.0.113.7' } },
  { type: 'rotation.repeated', data: { ...port, ip: '203.0.113.8', seenAt: null } },
  {
    type: 'traffic.below_threshold',
    data: {
      profileId: 'prof_1',
      subscriptionId: 'sub_1',
      subUserId: null,
      reason: 'below_threshold',
      message: '1.2 GB left of 50 GB (2 %).',
    },
  },
  {
    type: 'subscription.expiring',
    data: {
      profileId: 'prof_1',
      subscriptionId: 'sub_1',
      label: 'Residential 50 GB',
      expiresAt: '2026-01-02T00:00:00.000Z',
      thresholdHours: 24,
      hoursLeft: 23.5,
    },
  },
  {
    type: 'port.expiring',
    data: { ...port, expiresAt: '2026-01-01T06:00:00.000Z', thresholdHours: 6, hoursLeft: 5.9 },
  },
  {
    type: 'subscription.expired',
    data: { profileId: 'prof_1', subscriptionId: 'sub_2', label: null, expiredAt: at },
  },
  { type: 'port.expired', data: { ...port, expiredAt: at } },
  { type: 'topup.credited', data: { profileId: 'prof_1', topUpId: 'tu_1', summary: '$50.00 credited.' } },
  { type: 'topup.expired', data: { profileId: 'prof_1', topUpId: 'tu_2', summary: 'No payment arrived.' } },
  {
    type: 'topup.rejected',
    data: { profileId: 'prof_1', topUpId: 'tu_3', summary: 'Rejected: wrong network.' },
  },
  { type: 'purchase.failed', data: { profileId: 'prof_1', topUpId: 'tu_4', summary: 'Plan sold out.' } },
  {
    type: 'schedule.failing',
    data: { ...port, consecutiveFailures: 3, lastError: 'The service did not answer.', lastRunAt: at },
  },
  {
    type: 'local_proxy.failing',
    data: {
      profileId: 'prof_1',
      localProxyId: 'lp_1',
      label: 'Chrome',
      kind: 'upstream_refused',
      message: 'The gateway refused the connection.',
      at,
    },
  },
];
