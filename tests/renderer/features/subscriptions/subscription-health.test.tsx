import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { connectEventBridge } from '../../../../src-renderer/src/app/event-bridge';
import { SubscriptionsScreen } from '../../../../src-renderer/src/features/subscriptions/SubscriptionsScreen';
import { useSubscriptionsStore } from '../../../../src-renderer/src/features/subscriptions/subscriptions-store';
import type { PortHealthChanged, SubscriptionHealth } from '../../../../src-shared/contract';
import { ok } from '../../support/fake-api';
import { appState, subscription } from '../../support/fixtures';
import { settle, useFakeApi } from '../../support/renderer-test-kit';
import { choiceTexts, openFilter, openPopover } from '../../support/table-popovers';

/*
 * Subscriptions' health checks (through each main user) on screen: the list's Health cell and
 * filter, the page's health summary, and `ports:healthChanged` of kind `subscription` changing both
 * through the one event bridge without reading the scores again.
 */

const failedCheck = {
  at: '2026-03-10T11:55:00.000Z',
  ok: false,
  status: 502,
  connectMs: 4,
  firstByteMs: null,
  exitIp: null,
  asn: null,
  country: null,
  errorKind: 'unavailable',
  error: 'Upstream pool exhausted: no exit available.',
};

const goodCheck = {
  ...failedCheck,
  at: '2026-03-10T12:05:00.000Z',
  ok: true,
  status: 200,
  firstByteMs: 140,
  exitIp: '203.0.113.9',
  errorKind: null,
  error: null,
};

const scores = (subscriptionId: string, overrides: Partial<SubscriptionHealth> = {}): SubscriptionHealth => ({
  subscriptionId,
  status: 'up',
  statusSince: '2026-03-10T08:00:00.000Z',
  failuresInARow: 0,
  lastCheck: goodCheck,
  uptime24h: 0.9875,
  uptime30d: 0.995,
  checks24h: 80,
  checks30d: 2400,
  latency24h: { connectP50: 3, connectP95: 9, firstByteP50: 120, firstByteP95: 480, firstByteMax: 900 },
  ...overrides,
});

const unchecked = (subscriptionId: string): SubscriptionHealth =>
  scores(subscriptionId, {
    status: 'unknown',
    statusSince: null,
    lastCheck: null,
    uptime24h: null,
    uptime30d: null,
    checks24h: 0,
    checks30d: 0,
    latency24h: {
      connectP50: null,
      connectP95: null,
      firstByteP50: null,
      firstByteP95: null,
      firstByteMax: null,
    },
  });

const down = (overrides: Partial<PortHealthChanged> = {}): PortHealthChanged => ({
  profileId: 'prof_work',
  kind: 'subscription',
  id: 'sub_1',
  previous: 'up',
  status: 'down',
  statusSince: '2026-03-10T11:55:00.000Z',
  failuresInARow: 3,
  lastCheck: failedCheck,
  ...overrides,
});

describe('subscriptions’ health on screen', () => {
  const all = [
    scores('sub_1'),
    scores('sub_2', { status: 'down', failuresInARow: 4, lastCheck: failedCheck, uptime24h: 0.5 }),
    unchecked('sub_3'),
  ];
  const fake = useFakeApi(() => ({
    'app:getState': () => ok(appState()),
    'subscriptions:list': () =>
      ok([
        subscription({ id: 'sub_1', label: 'Alpha' }),
        subscription({ id: 'sub_2', label: 'Beta' }),
        subscription({ id: 'sub_3', label: 'Gamma' }),
      ]),
    'subscriptions:get': (input) => ok(subscription({ id: input.subscriptionId, label: 'Alpha' })),
    'subscriptions:health': (input) =>
      ok(all.filter((entry) => !input?.subscriptionId || entry.subscriptionId === input.subscriptionId)),
    'subscriptions:usage': (input) =>
      ok({
        from: input.from ?? '',
        to: input.to ?? '',
        totalBytes: 0,
        totalRequests: 0,
        points: [],
        byCountry: [],
      }),
    'subscriptions:buildProxyString': () =>
      ok({ lines: ['http://u:p@gw.example.com:8000'], host: 'gw.example.com', port: 8000, password: 'p' }),
    'alerts:list': () => ok([]),
  }));

  const healthCells = () => {
    const table = screen.getByRole('table', { name: 'Traffic subscriptions' });
    const at = within(table)
      .getAllByRole('columnheader')
      .findIndex((header) => header.textContent?.includes('Health'));
    expect(at).toBeGreaterThan(-1);
    return within(table)
      .getAllByRole('row')
      .filter((row) => row.getAttribute('aria-hidden') !== 'true')
      .slice(1)
      .map((row) => row.querySelectorAll('th, td')[at] as HTMLElement);
  };
  const words = () => healthCells().map((cell) => cell.querySelector('.badge')?.firstChild?.textContent);

  // The column is in the chooser, hidden until asked for (the checks are off by default).
  const showHealthColumn = () => {
    expect(screen.queryByRole('columnheader', { name: /Health/ })).toBeNull();
    const chooser = openPopover('Choose the columns of traffic subscriptions');
    fireEvent.click(within(chooser).getByRole('checkbox', { name: 'Health' }));
  };

  const openList = async () => {
    window.location.hash = '#/subscriptions';
    render(<SubscriptionsScreen />);
    await screen.findByRole('table', { name: 'Traffic subscriptions' });
    await settle();
    showHealthColumn();
    await settle();
  };

  it('shows a Health cell per row: the word, with the last error and the 24 h uptime in its tooltip and label', async () => {
    await openList();
    expect(words()).toEqual(['Checks pass', 'Down', 'Not checked']);
    const [alpha, beta, gamma] = healthCells().map((cell) => cell.querySelector('.badge') as HTMLElement);
    expect(alpha?.getAttribute('title')).toBe('uptime 24 h 98.75 %');
    expect(beta?.getAttribute('title')).toBe(
      '4 checks in a row failed: Upstream pool exhausted: no exit available.; uptime 24 h 50.00 %',
    );
    // Screen readers hear the same detail as the tooltip.
    expect(beta?.textContent).toBe(
      'Down: 4 checks in a row failed: Upstream pool exhausted: no exit available.; uptime 24 h 50.00 %',
    );
    expect(gamma?.getAttribute('title')).toBe('no health check through its main user yet');
    // One read for the whole list.
    expect(fake.current.callsTo('subscriptions:health')).toEqual([undefined]);
  });

  it('reads the scores again after a reconnect (changes may have been missed) and forgets them on an account switch', async () => {
    await openList();
    expect(fake.current.callsTo('subscriptions:health')).toEqual([undefined]);
    await act(() => useSubscriptionsStore.getState().reloadLoaded());
    expect(fake.current.callsTo('subscriptions:health')).toEqual([undefined, undefined]);
    act(() => useSubscriptionsStore.getState().reset());
    expect(useSubscriptionsStore.getState().health).toEqual({});
  });

  it('filters by health, each choice with its count', async () => {
    await openList();
    const group = openFilter('Health');
    expect(choiceTexts(group)).toEqual(['Checks pass1', 'Down1', 'Not checked1']);
    act(() => within(group).getByRole('checkbox', { name: /Down/ }).click());
    expect(words()).toEqual(['Down']);
  });

  it('shows a health summary on the subscription’s page: status, since, uptime, latency, the last check', async () => {
    window.location.hash = '#/subscriptions/sub_2';
    fake.current.handle('subscriptions:get', () => ok(subscription({ id: 'sub_2', label: 'Beta' })));
    render(<SubscriptionsScreen />);
    const summary = await screen.findByRole('region', { name: 'Health' });
    await settle();
    expect(fake.current.callsTo('subscriptions:health')).toEqual([{ subscriptionId: 'sub_2' }]);
    expect(within(summary).getByRole('status').textContent).toMatch(
      /^Down since .+ · 4 failed check\(s\) in a row$/,
    );
    expect(within(summary).getByText(/Upstream pool exhausted: no exit available\./).textContent).toMatch(
      /^Last check /,
    );
    expect([...summary.querySelectorAll('dl dd')].map((dd) => dd.textContent)).toEqual([
      '50.00 % (80 checks)',
      '99.50 % (2400 checks)',
      'p50 120 ms · p95 480 ms · max 900 ms',
      'p50 3 ms · p95 9 ms',
    ]);
    // The page's Refresh reads its scores again (a live change patches only the status).
    fireEvent.click(screen.getByRole('button', { name: /^Refresh/ }));
    await settle();
    expect(fake.current.callsTo('subscriptions:health')).toEqual([
      { subscriptionId: 'sub_2' },
      { subscriptionId: 'sub_2' },
    ]);
  });

  it('says how to turn the checks on when the subscription was never checked', async () => {
    window.location.hash = '#/subscriptions/sub_3';
    fake.current.handle('subscriptions:get', () => ok(subscription({ id: 'sub_3', label: 'Gamma' })));
    render(<SubscriptionsScreen />);
    const summary = await screen.findByRole('region', { name: 'Health' });
    await settle();
    expect(summary.textContent).toContain('Not checked yet');
    expect(within(summary).getByRole('link', { name: 'Settings → Health checks' }).getAttribute('href')).toBe(
      '#/settings/health-checks',
    );
  });

  it('changes the list’s cell and the page’s summary at once when the checks move a subscription, reading nothing again', async () => {
    const disconnect = connectEventBridge({ onConnected: null });
    await settle();
    await openList();
    // The page of sub_1 too, from the same store (its own read).
    window.location.hash = '#/subscriptions/sub_1';
    await act(async () => {
      window.dispatchEvent(new HashChangeEvent('hashchange'));
      await settle();
    });
    const summary = await screen.findByRole('region', { name: 'Health' });
    await settle();
    expect(within(summary).getByRole('status').textContent).toMatch(/^Checks pass/);
    expect(
      within(summary).getByText(/good \(HTTP 200, first byte 140 ms, exit IP 203\.0\.113\.9\)/),
    ).toBeTruthy();
    const reads = fake.current.callsTo('subscriptions:health').length;

    act(() => fake.current.emit('ports:healthChanged', down()));
    expect(within(summary).getByRole('status').textContent).toMatch(
      /^Down since .+ · 3 failed check\(s\) in a row$/,
    );
    expect(within(summary).getByText(/Upstream pool exhausted/)).toBeTruthy();

    // Another profile's, a port's or a malformed change leave the subscriptions as they are.
    act(() => {
      fake.current.emit('ports:healthChanged', down({ id: 'sub_3', profileId: 'prof_other' }));
      fake.current.emit('ports:healthChanged', down({ id: 'sub_3', kind: 'port' }));
      fake.current.emit('ports:healthChanged', { kind: 'subscription', id: 'sub_3', status: 'down' });
    });

    window.location.hash = '#/subscriptions';
    await act(async () => {
      window.dispatchEvent(new HashChangeEvent('hashchange'));
      await settle();
    });
    showHealthColumn();
    expect(words()).toEqual(['Down', 'Down', 'Not checked']);

    act(() =>
      fake.current.emit(
        'ports:healthChanged',
        down({ previous: 'down', status: 'up', failuresInARow: 0, lastCheck: goodCheck }),
      ),
    );
    expect(words()).toEqual(['Checks pass', 'Down', 'Not checked']);
    expect(fake.current.callsTo('subscriptions:health')).toHaveLength(reads);
    disconnect();
  });
});
