import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AttentionItem, HealthSnapshot } from '../../../../src-shared/contract';
import { connectEventBridge } from '../../../../src-renderer/src/app/event-bridge';
import { useAppStore } from '../../../../src-renderer/src/features/app/app-store';
import {
  accountSummary,
  OverviewScreen,
} from '../../../../src-renderer/src/features/overview/OverviewScreen';
import { REFRESH_DELAY_MS } from '../../../../src-renderer/src/features/overview/overview-store';
import { useTopUpWizardStore } from '../../../../src-renderer/src/features/topups/topup-wizard-store';
import { fail, ok } from '../../support/fake-api';
import { appState, port } from '../../support/fixtures';
import { settle, useFakeApi } from '../../support/renderer-test-kit';

const item = (overrides: Partial<AttentionItem> = {}): AttentionItem => ({
  id: 'port_expiring:port_1',
  kind: 'port_expiring',
  level: 'warning',
  title: 'Port “Social QA” expires within a day',
  detail: 'Auto-renew is off: it stops working when it expires.',
  subject: { type: 'port', id: 'port_1', label: 'Social QA' },
  dueAt: '2026-03-11T08:00:00.000Z',
  action: { kind: 'enable_auto_renew', label: 'Turn on auto-renew', target: 'port', id: 'port_1' },
  route: '/ports/port_1',
  levelWord: ({ error: 'Now', warning: 'Soon', info: 'FYI' } as const)[overrides.level ?? 'warning'],
  dueIsForecast: false,
  dueIn: 'within a day',
  screen: 'ports',
  alertKey: 'port_expiring:prof_work:port_1',
  ...overrides,
});

const snapshot = (overrides: Partial<HealthSnapshot> = {}): HealthSnapshot => {
  const items = overrides.items ?? [item()];
  return {
    profileId: 'prof_work',
    generatedAt: '2026-03-10T12:00:00.000Z',
    expiryWarningDays: 3,
    items,
    counts: { error: 0, warning: items.length, info: 0 },
    totals: { ports: 4, subscriptions: 3, pendingTopUps: 0, schedules: 0 },
    badges: { ports: 0, subscriptions: 0, topups: 0, 'local-proxies': 0, settings: 0 },
    cards: items.map((entry) => ({ type: 'item' as const, itemId: entry.id })),
    sources: {
      ports: { state: 'held', readAt: '2026-03-10T12:00:00.000Z' },
      subscriptions: { state: 'held', readAt: '2026-03-10T12:00:00.000Z' },
      topups: { state: 'held', readAt: '2026-03-10T12:00:00.000Z' },
    },
    allGood: items.every((entry) => entry.level === 'info'),
    ...overrides,
  };
};

describe('Overview screen', () => {
  let current: HealthSnapshot = snapshot();
  const fake = useFakeApi(() => ({
    'app:getState': () => ok(appState()),
    'overview:get': () => ok(current),
    'ports:update': () => ok(port({ autoRenew: true })),
    'alerts:dismiss': () => ok({ dismissed: true }),
  }));
  beforeEach(() => {
    current = snapshot();
  });
  afterEach(() => vi.useRealTimers());

  it('lists each item with its level in words, its deadline and its one-click action', async () => {
    current = snapshot({
      items: [
        item({
          id: 'proxy_test_failed:port_2',
          kind: 'proxy_test_failed',
          level: 'error',
          title: 'The last proxy test of “Berlin” failed',
          detail: 'The proxy refused the credentials.',
          subject: { type: 'port', id: 'port_2', label: 'Berlin' },
          dueAt: null,
          action: { kind: 'test_again', label: 'Test again', portId: 'port_2', protocol: 'http' },
          route: '/ports/port_2',
        }),
        item(),
      ],
    });
    render(<OverviewScreen />);
    await settle();
    const list = screen.getByRole('list', { name: 'Needs attention' });
    const rows = within(list).getAllByRole('listitem');
    expect(rows.map((row) => row.querySelector('h2')?.textContent)).toEqual([
      'The last proxy test of “Berlin” failed',
      'Port “Social QA” expires within a day',
    ]);
    expect(within(rows[0]!).getByText('Now')).toBeTruthy();
    expect(within(rows[1]!).getByText('Soon')).toBeTruthy();
    expect(rows[1]!.textContent).toContain('Expires');
    expect(within(rows[1]!).getByRole('button', { name: 'Turn on auto-renew: Social QA' })).toBeTruthy();
    expect(within(rows[1]!).getByRole('link', { name: 'Open: Social QA' }).getAttribute('href')).toBe(
      '#/ports/port_1',
    );
    expect(screen.queryByText('All good')).toBeNull();
  });

  it('turns auto-renew on in one click and reads the overview again', async () => {
    render(<OverviewScreen />);
    await settle();
    const before = fake.current.callsTo('overview:get').length;
    current = snapshot({ items: [] });
    fireEvent.click(screen.getByRole('button', { name: 'Turn on auto-renew: Social QA' }));
    await settle();
    await settle();
    expect(fake.current.callsTo('ports:update')).toEqual([{ portId: 'port_1', autoRenew: true }]);
    expect(fake.current.callsTo('overview:get').length).toBe(before + 1);
    expect(screen.getByRole('status').textContent).toContain('All good');
  });

  it('Refresh asks main to read the lists again', async () => {
    render(<OverviewScreen />);
    await settle();
    fireEvent.click(screen.getByRole('button', { name: 'Refresh overview' }));
    await settle();
    expect(fake.current.callsTo('overview:get').at(-1)).toEqual({ refresh: true });
    // Opening the screen does not: main answers from what it holds.
    expect(fake.current.callsTo('overview:get')[0]).toBeUndefined();
  });

  it('says why an action failed beside its item', async () => {
    fake.current.handle('ports:update', () => fail('network', 'The service did not answer.'));
    render(<OverviewScreen />);
    await settle();
    fireEvent.click(screen.getByRole('button', { name: 'Turn on auto-renew: Social QA' }));
    await settle();
    expect(screen.getByRole('alert').textContent).toBe(
      'Could not turn on auto-renew: The service did not answer.',
    );
  });

  it('continues a top-up in the wizard from its item', async () => {
    const openTopUpById = vi.fn(() => Promise.resolve(fail('x', 'y')));
    useTopUpWizardStore.setState({ openTopUpById });
    current = snapshot({
      items: [
        item({
          id: 'topup_awaiting_payment:tu_1',
          kind: 'topup_awaiting_payment',
          title: 'Top-up of 50.00 USD is waiting for your payment',
          subject: { type: 'topup', id: 'tu_1', label: 'Top-up of 50.00 USD' },
          dueAt: new Date(Date.now() + 600_000).toISOString(),
          action: { kind: 'continue_top_up', label: 'Continue', topUpId: 'tu_1' },
          route: '/topups/tu_1',
        }),
      ],
    });
    render(<OverviewScreen />);
    await settle();
    expect(screen.getByRole('timer').textContent).toMatch(/^Rate lock ends in (10:00|9:59)$/);
    fireEvent.click(screen.getByRole('button', { name: 'Continue: Top-up of 50.00 USD' }));
    expect(window.location.hash).toBe('#/topups');
    expect(openTopUpById).toHaveBeenCalledWith('tu_1');
  });

  it('is short and friendly when nothing needs attention', async () => {
    current = snapshot({ items: [] });
    render(<OverviewScreen />);
    await settle();
    const good = screen.getByRole('status');
    expect(good.textContent).toContain('All good');
    expect(good.textContent).toContain(
      'Nothing needs your attention right now: 4 ports, 3 subscriptions and no payment in progress.',
    );
    expect(screen.queryByRole('list', { name: 'Needs attention' })).toBeNull();
  });

  it('is still all good with what is only worth knowing, listed under “Coming up”', async () => {
    current = snapshot({
      items: [
        item({
          level: 'info',
          title: 'Port “Berlin” renews in 2 days',
          action: { kind: 'open', label: 'Open port' },
          subject: { type: 'port', id: 'port_2', label: 'Berlin' },
          route: '/ports/port_2',
        }),
      ],
    });
    render(<OverviewScreen />);
    await settle();
    expect(screen.getByRole('heading', { level: 2, name: 'All good' })).toBeTruthy();
    const comingUp = screen.getByRole('list', { name: 'Coming up' });
    expect(within(comingUp).getByText('FYI')).toBeTruthy();
    expect(within(comingUp).getByRole('link', { name: 'Open port: Berlin' }).getAttribute('href')).toBe(
      '#/ports/port_2',
    );
    expect(screen.queryByRole('list', { name: 'Needs attention' })).toBeNull();
  });

  it('says the due time with the model’s relative words, and a traffic forecast as a forecast', async () => {
    current = snapshot({
      items: [
        item({ dueIn: 'in 2 days', title: 'Subscription “SEO” expires in 2 days' }),
        item({
          id: 'subscription_traffic_low:sub_1',
          kind: 'subscription_traffic_low',
          title: 'Subscription “Social accounts” is running out of traffic',
          subject: { type: 'subscription', id: 'sub_1', label: 'Social accounts' },
          dueAt: '2026-03-12T12:00:00.000Z',
          dueIsForecast: true,
          dueIn: 'in 2 days',
          action: { kind: 'top_up', label: 'Top up…' },
          route: '/subscriptions/sub_1',
          screen: 'subscriptions',
        }),
      ],
    });
    render(<OverviewScreen />);
    await settle();
    const list = screen.getByRole('list', { name: 'Needs attention' });
    const dues = [...list.querySelectorAll('.attention__due')].map((due) => due.textContent);
    expect(dues[0]).toMatch(/^Expires .+ \(in 2 days\)$/);
    expect(dues[1]).toMatch(/^Runs out about .+ \(forecast: in 2 days\)$/);
  });

  it('Top up… opens the wizard with the plan of the item’s subscription', async () => {
    current = snapshot({
      items: [
        item({
          id: 'subscription_expired:sub_1',
          kind: 'subscription_expired',
          level: 'error',
          title: 'Subscription “Social accounts” expired 2 days ago',
          subject: { type: 'subscription', id: 'sub_1', label: 'Social accounts' },
          action: { kind: 'top_up', label: 'Top up…' },
          route: '/subscriptions/sub_1',
          screen: 'subscriptions',
        }),
      ],
    });
    const startForItem = vi.fn(() =>
      Promise.resolve({
        ok: true as const,
        value: { source: 'subscription' as const, id: 'sub_1', label: 'Social accounts', planId: 'plan_5gb' },
      }),
    );
    useTopUpWizardStore.setState({ startForItem });
    render(<OverviewScreen />);
    await settle();
    fireEvent.click(screen.getByRole('button', { name: 'Top up…: Social accounts' }));
    expect(startForItem).toHaveBeenCalledWith({ source: 'subscription', id: 'sub_1' });
    expect(window.location.hash).toBe('#/topups');
  });

  it('never says all good when a list could not be read', async () => {
    current = snapshot({
      items: [],
      allGood: false,
      sources: {
        ports: { state: 'failed', message: 'The service did not answer.', lastReadAt: null },
        subscriptions: { state: 'held', readAt: '2026-03-10T12:00:00.000Z' },
        topups: {
          state: 'failed',
          message: 'The service did not answer.',
          lastReadAt: '2026-03-10T11:50:00.000Z',
        },
      },
    });
    render(<OverviewScreen />);
    await settle();
    expect(screen.queryByText('All good')).toBeNull();
    const problems = screen.getByRole('alert').textContent;
    expect(problems).toContain(
      'Not known: could not read the ports (last read never): The service did not answer.',
    );
    // When it was last read, in local time: the items about it are as of then.
    expect(problems).toMatch(
      /Not known: could not read the top-ups \(last read .+\): The service did not answer\./,
    );
    expect(screen.getByRole('alert').querySelector('time')?.getAttribute('dateTime')).toBe(
      '2026-03-10T11:50:00.000Z',
    );
  });

  it('reads itself again once per burst of changes main announces, and only for the active profile', async () => {
    useAppStore.setState({ state: appState() });
    const disconnect = connectEventBridge({ onConnected: null });
    render(<OverviewScreen />);
    await settle();
    vi.useFakeTimers();
    const before = fake.current.callsTo('overview:get').length;
    act(() => {
      fake.current.emit('ports:changed', { profileId: 'prof_work', changed: [port()] });
      fake.current.emit('subscriptions:changed', { profileId: 'prof_work', changed: [] });
      fake.current.emit('ports:changed', { profileId: 'prof_other', changed: [port()] });
    });
    await act(() => vi.advanceTimersByTimeAsync(REFRESH_DELAY_MS + 10));
    expect(fake.current.callsTo('overview:get').length).toBe(before + 1);
    act(() => fake.current.emit('ports:changed', { profileId: 'prof_other', changed: [port()] }));
    await act(() => vi.advanceTimersByTimeAsync(REFRESH_DELAY_MS + 10));
    expect(fake.current.callsTo('overview:get').length).toBe(before + 1);
    disconnect();
  });

  it('links a local proxy in trouble to the Local proxies screen', async () => {
    current = snapshot({
      items: [
        item({
          id: 'local_proxy_failing:lp-1',
          kind: 'local_proxy_failing',
          level: 'error',
          title: 'Local proxy “Berlin price monitor” is not listening',
          detail: '127.0.0.1:24001 is already in use by another program: choose another port.',
          subject: { type: 'local_proxy', id: 'lp-1', label: 'Berlin price monitor' },
          dueAt: null,
          action: { kind: 'open', label: 'Open local proxies' },
          route: '/local-proxies',
        }),
      ],
    });
    render(<OverviewScreen />);
    await settle();
    const list = screen.getByRole('list', { name: 'Needs attention' });
    expect(
      within(list).getByText('127.0.0.1:24001 is already in use by another program: choose another port.'),
    ).toBeTruthy();
    const open = within(list)
      .getAllByRole('link')
      .find((link) => link.getAttribute('href') === '#/local-proxies');
    expect(open?.textContent).toContain('Open local proxies');
  });

  it('reads itself again when a local proxy’s state or error changes, not for its traffic each second', async () => {
    useAppStore.setState({ state: appState() });
    const disconnect = connectEventBridge({ onConnected: null });
    render(<OverviewScreen />);
    await settle();
    vi.useFakeTimers();
    const proxy = {
      id: 'lp-1',
      url: 'http://127.0.0.1:24001',
      profileId: 'prof_work',
      state: 'running',
      lastError: null,
      stats: { requests: 1 },
    };
    const emit = (changes: Record<string, unknown>) =>
      act(() => fake.current.emit('localProxies:changed', { proxies: [{ ...proxy, ...changes }] }));
    const reads = async () => {
      await act(() => vi.advanceTimersByTimeAsync(REFRESH_DELAY_MS + 10));
      return fake.current.callsTo('overview:get').length;
    };
    emit({});
    const first = await reads();
    emit({ stats: { requests: 2 } });
    emit({ stats: { requests: 3 } });
    expect(await reads()).toBe(first);
    emit({ stats: { requests: 4 }, lastError: { at: '2026-03-10T12:00:05.000Z', kind: 'credentials' } });
    expect(await reads()).toBe(first + 1);
    disconnect();
  });

  it('shows a group as one card: Turn on auto-renew for all, and Show them opens the filtered list', async () => {
    const members = Array.from({ length: 14 }, (_, n) =>
      item({
        id: `port_expiring:port_${n}`,
        subject: { type: 'port', id: `port_${n}`, label: `Port ${n}` },
        action: { kind: 'enable_auto_renew', label: 'Turn on auto-renew', target: 'port', id: `port_${n}` },
      }),
    );
    const ids = members.map((member) => member.subject.id);
    current = snapshot({
      items: members,
      cards: [
        {
          type: 'group',
          group: {
            id: 'group:port_expiring:warning',
            kind: 'port_expiring',
            level: 'warning',
            levelWord: 'Soon',
            title: '14 ports expire within 2 days with auto-renew off',
            detail: 'Auto-renew is off: it stops working when it expires.',
            itemIds: members.map((member) => member.id),
            subjectIds: ids,
            screen: 'ports',
            dueAt: '2026-03-11T08:00:00.000Z',
            dueIn: 'within a day',
            action: {
              kind: 'enable_auto_renew_all',
              label: 'Turn on auto-renew for all',
              target: 'port',
              ids,
            },
            listRoute: `/ports?ids=${ids.join(',')}`,
          },
        },
      ],
    });
    render(<OverviewScreen />);
    await settle();
    const list = screen.getByRole('list', { name: 'Needs attention' });
    expect(within(list).getAllByRole('listitem')).toHaveLength(1);
    const title = '14 ports expire within 2 days with auto-renew off';
    expect(
      within(list)
        .getByRole('link', { name: `Show them: ${title}` })
        .getAttribute('href'),
    ).toBe(`#/ports?ids=${ids.join(',')}`);
    fireEvent.click(within(list).getByRole('button', { name: `Turn on auto-renew for all: ${title}` }));
    await settle();
    await settle();
    expect(fake.current.callsTo('ports:update')).toEqual(ids.map((portId) => ({ portId, autoRenew: true })));
    expect(fake.current.callsTo('overview:get').length).toBeGreaterThan(1);
  });

  it('holds at most 12 cards on the first screen, the rest behind Show more', async () => {
    const many = Array.from({ length: 15 }, (_, n) =>
      item({
        id: `proxy_test_failed:port_${n}`,
        title: `Card ${n}`,
        kind: 'proxy_test_failed',
        level: 'error',
      }),
    );
    current = snapshot({ items: many });
    render(<OverviewScreen />);
    await settle();
    const list = screen.getByRole('list', { name: 'Needs attention' });
    expect(within(list).getAllByRole('listitem')).toHaveLength(12);
    fireEvent.click(screen.getByRole('button', { name: 'Show 3 more cards' }));
    expect(within(list).getAllByRole('listitem')).toHaveLength(15);
  });

  it('sums up the account in words', () => {
    expect(accountSummary({ ports: 1, subscriptions: 0, pendingTopUps: 2, schedules: 0 })).toBe(
      '1 port, 0 subscriptions and 2 payments in progress',
    );
  });
});
