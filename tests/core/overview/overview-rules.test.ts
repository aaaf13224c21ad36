import { describe, expect, it } from 'vitest';
import type { LocalProxyView } from '../../../src-shared/contract';
import { attentionItems } from '../../../src-main/core/overview/overview-rules';

/* The overview's rules for local proxies: what a tool would trip over, and nothing a past record says. */

const NOW = Date.parse('2026-03-10T12:00:00.000Z');
const MINUTE = 60_000;

const localProxy = (overrides: Partial<LocalProxyView> = {}): LocalProxyView => ({
  id: 'lp-1',
  label: 'Berlin price monitor',
  profileId: 'prof_work',
  url: 'http://127.0.0.1:24001',
  listen: { host: '127.0.0.1', port: 24001 },
  allowNetwork: false,
  auth: null,
  upstream: { kind: 'port', portId: 'mp_1' },
  upstreamEndpoint: { host: 'gw.example.com', port: 8080 },
  closeOnRotation: false,
  enabled: true,
  state: 'running',
  listenError: null,
  stats: { openConnections: 0, requests: 4, bytesUp: 0, bytesDown: 0, failures: 1, rejectedConnections: 0 },
  lastError: null,
  health: null,
  createdAt: '2026-03-01T12:00:00.000Z',
  ...overrides,
});

const refused = (minutesAgo: number): LocalProxyView['lastError'] => ({
  at: new Date(NOW - minutesAgo * MINUTE).toISOString(),
  kind: 'credentials',
  status: 407,
  message: 'The gateway refused the port’s credentials.',
  detail: null,
});

const itemsFor = (localProxies: LocalProxyView[]) =>
  attentionItems({
    profileId: 'prof_work',
    now: NOW,
    policy: { traffic: { percent: 10 }, trafficBySubscription: {}, expiryWarningDays: 3 },
    ports: [],
    subscriptions: [],
    topUps: [],
    schedules: [],
    proxyTests: [],
    alerts: [],
    localProxies,
  });

describe('the overview’s local proxy items', () => {
  it('says a local proxy that cannot listen first, as an error with its reason and the way to it', () => {
    const [item] = itemsFor([
      localProxy({ state: 'failed', listenError: '127.0.0.1:24001 is already in use by another program.' }),
    ]);
    expect(item).toMatchObject({
      kind: 'local_proxy_failing',
      level: 'error',
      title: 'Local proxy “Berlin price monitor” is not listening',
      detail: '127.0.0.1:24001 is already in use by another program.',
      subject: { type: 'local_proxy', id: 'lp-1' },
      action: { kind: 'open' },
      route: '/local-proxies',
    });
  });

  it('warns of an upstream error of the last quarter hour, and forgets an older one', () => {
    expect(itemsFor([localProxy({ lastError: refused(5) })])).toEqual([
      expect.objectContaining({
        level: 'warning',
        title: 'Local proxy “Berlin price monitor” could not reach its upstream',
        detail: 'The gateway refused the port’s credentials.',
      }),
    ]);
    expect(itemsFor([localProxy({ lastError: refused(16) })])).toEqual([]);
  });

  it('leaves out stopped ones and those another process runs', () => {
    expect(
      itemsFor([
        localProxy({ state: 'stopped', lastError: refused(1) }),
        localProxy({ state: 'elsewhere', lastError: refused(1) }),
      ]),
    ).toEqual([]);
  });
});
