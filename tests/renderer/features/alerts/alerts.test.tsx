import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import type { AlertView } from '../../../../src-shared/contract';
import { connectEventBridge } from '../../../../src-renderer/src/app/event-bridge';
import { AlertsList } from '../../../../src-renderer/src/features/alerts/AlertsList';
import { useAlertsStore } from '../../../../src-renderer/src/features/alerts/alerts-store';
import { SubscriptionsScreen } from '../../../../src-renderer/src/features/subscriptions/SubscriptionsScreen';
import {
  subUserLists,
  useSubscriptionsStore,
} from '../../../../src-renderer/src/features/subscriptions/subscriptions-store';
import { ok } from '../../support/fake-api';
import { appState, subscription, subUser, subUsersTable } from '../../support/fixtures';
import { settle, useFakeApi } from '../../support/renderer-test-kit';

const alert = (overrides: Partial<AlertView> = {}): AlertView => ({
  id: 'al_1',
  key: 'traffic_low:prof_work:sub_1',
  kind: 'traffic_low',
  profileId: 'prof_work',
  subjectId: 'sub_1',
  level: 'warning',
  title: 'Price monitoring is running low',
  message: '4.0 GB left (8%).',
  raisedAt: '2026-03-15T10:00:00.000Z',
  screen: 'subscriptions',
  ...overrides,
});

describe('alerts', () => {
  const fake = useFakeApi(() => ({
    'app:getState': () => ok(appState()),
    'alerts:list': () => ok([alert()]),
    'alerts:dismiss': () => ok({ dismissed: true }),
    'subscriptions:subUsers': () => ok(subUsersTable()),
  }));
  // The alerts store is not in the shared kit's list of stores: reset it here.
  beforeEach(() => useAlertsStore.setState(useAlertsStore.getInitialState(), true));

  it('lists the alerts of its screen, adds a raised one once, and dismisses', async () => {
    const disconnect = connectEventBridge({ onConnected: null });
    render(<AlertsList screen="subscriptions" />);
    await settle();
    const raised = alert({ id: 'al_2', title: 'Scraper reached its cap', level: 'error' });
    act(() => fake.current.emit('alerts:raised', { alert: raised }));
    act(() => fake.current.emit('alerts:raised', { alert: raised }));
    // A port's alert belongs to Ports: not listed (nor counted) on Subscriptions.
    const portAlert = alert({
      id: 'al_3',
      key: 'port_expiring:prof_work:port_1',
      kind: 'port_expiring',
      subjectId: 'port_1',
      title: 'Port “Social QA” expires within a day',
      screen: 'ports',
    });
    act(() => fake.current.emit('alerts:raised', { alert: portAlert }));
    const items = within(screen.getByRole('list', { name: 'Alerts' })).getAllByRole('listitem');
    expect(items.map((item) => item.querySelector('strong')?.textContent)).toEqual([
      'Scraper reached its cap',
      'Price monitoring is running low',
    ]);
    act(() => fake.current.emit('alerts:raised', { alert: 'not an alert' }));
    expect(useAlertsStore.getState().alerts.data).toHaveLength(3);

    fireEvent.click(screen.getByRole('button', { name: 'Dismiss Price monitoring is running low' }));
    await settle();
    expect(fake.current.callsTo('alerts:dismiss')).toEqual([{ alertId: 'al_1' }]);
    expect(within(screen.getByRole('list', { name: 'Alerts' })).getAllByRole('listitem')).toHaveLength(1);
    disconnect();
  });

  it('links each alert’s title to its subscription’s page, a sub-user’s alert too (on the Subscriptions screen)', async () => {
    fake.current.handle('alerts:list', () =>
      ok([
        alert(),
        alert({ id: 'al_2', subjectId: 'sub_2/su_9', title: 'Scraper reached its cap', level: 'error' }),
      ]),
    );
    fake.current.handle('subscriptions:list', () => ok([subscription()]));
    render(<SubscriptionsScreen />);
    await settle();
    const list = screen.getByRole('list', { name: 'Alerts' });
    expect(
      within(list).getByRole('link', { name: 'Price monitoring is running low' }).getAttribute('href'),
    ).toBe('#/subscriptions/sub_1');
    expect(within(list).getByRole('link', { name: 'Scraper reached its cap' }).getAttribute('href')).toBe(
      '#/subscriptions/sub_2',
    );
  });

  it('replaces the sub-users that subscriptions:changed carries for the active profile', async () => {
    const disconnect = connectEventBridge({ onConnected: null });
    await settle();
    await subUserLists.load(['sub_1']);
    const fresh = subUser({
      id: 'su_9',
      label: 'Pushed',
      username: 'u9',
      password: 'p',
      trafficLimitBytes: null,
      trafficUsedBytes: 0,
    });
    act(() =>
      fake.current.emit('subscriptions:changed', {
        profileId: 'prof_work',
        changed: [subscription()],
        subUsers: { sub_1: [fresh] },
      }),
    );
    expect(useSubscriptionsStore.getState().subUsers.sub_1?.data?.rows.map((s) => s.id)).toEqual(['su_9']);
    // A main of an older version sent it whole: the store keeps the row, not the password.
    expect(useSubscriptionsStore.getState().subUsers.sub_1?.data?.rows[0]).not.toHaveProperty('password');
    act(() =>
      fake.current.emit('subscriptions:changed', {
        profileId: 'prof_other',
        changed: [],
        subUsers: { sub_1: [] },
      }),
    );
    expect(useSubscriptionsStore.getState().subUsers.sub_1?.data?.rows).toHaveLength(1);
    disconnect();
  });
});
