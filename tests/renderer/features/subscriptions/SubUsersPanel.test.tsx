import { fireEvent, render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { SubscriptionsScreen } from '../../../../src-renderer/src/features/subscriptions/SubscriptionsScreen';
import { useSubscriptionsStore } from '../../../../src-renderer/src/features/subscriptions/subscriptions-store';
import { fail, ok } from '../../support/fake-api';
import { subscription, subUser, subUsersTable } from '../../support/fixtures';
import { settle, useFakeApi } from '../../support/renderer-test-kit';
import { choiceTexts, openFilter } from '../../support/table-popovers';

async function openSubUsers() {
  window.location.hash = '#/subscriptions/sub_1';
  render(<SubscriptionsScreen />);
  await screen.findByRole('tablist', { name: 'Subscription' });
  fireEvent.click(screen.getByRole('tab', { name: 'Sub-users' }));
  return screen.findByRole('table', { name: 'Sub-users' });
}

describe('Sub-users', () => {
  const fake = useFakeApi(() => ({
    'subscriptions:get': () => ok(subscription()),
    'subscriptions:buildProxyString': () =>
      ok({ lines: ['http://u:p@gw.example.com:8000'], host: 'gw', port: 8000, password: 'p' }),
    'subscriptions:subUsers': () =>
      ok(subUsersTable([subUser(), subUser({ id: 'su_2', label: 'Free', trafficLimitBytes: null })])),
    'alerts:list': () => ok([]),
  }));

  it('shows used / cap with a bar, "no cap", and the limit as the service gives it', async () => {
    const table = await openSubUsers();
    const [first, second] = within(table).getAllByRole('row').slice(1);
    expect(
      within(first!)
        .getByRole('meter', { name: /Cap used/ })
        .getAttribute('max'),
    ).toBe('2000000000');
    expect(first?.textContent).toContain('500 MB of 2.00 GB (25%)');
    expect(second?.textContent).toContain('no cap');
    expect(screen.getByText(/20 sub-users at most/)).toBeTruthy();
  });

  it('filters by cap state and enabled with counts, searches by label or username, sorts by header', async () => {
    fake.current.handle('subscriptions:subUsers', () =>
      ok(
        subUsersTable([
          subUser(),
          subUser({ id: 'su_2', label: 'Free', username: 'free-user', trafficLimitBytes: null }),
          subUser({ id: 'su_3', label: 'Full', trafficUsedBytes: 2_000_000_000, enabled: false }),
        ]),
      ),
    );
    const table = await openSubUsers();
    const choices = openFilter('Cap');
    expect(choiceTexts(choices)).toEqual(['Cap reached1', 'Under 80%1', 'No cap1']);
    fireEvent.click(within(choices).getByRole('checkbox', { name: /Cap reached/ }));
    const labels = () =>
      within(table)
        .getAllByRole('rowheader')
        .map((cell) => cell.textContent);
    expect(labels()).toEqual(['Full']);
    fireEvent.click(screen.getByRole('button', { name: 'Clear filters' }));
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search sub-users' }), {
      target: { value: 'free-user' },
    });
    await settle();
    expect(labels()).toEqual(['Free']);
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search sub-users' }), { target: { value: '' } });
    await settle();
    fireEvent.click(screen.getByRole('button', { name: 'Sort by Used / cap' }));
    fireEvent.click(screen.getByRole('button', { name: 'Sort by Used / cap' }));
    expect(labels()[0]).toBe('Full');
  });

  it('sets one cap on the selected sub-users after asking, and lists each failure', async () => {
    fake.current.handle('subscriptions:updateSubUser', (input) =>
      input.subUserId === 'su_2'
        ? fail('validation_failed', 'Cap below what is already used')
        : ok(subUser({ id: input.subUserId })),
    );
    await openSubUsers();
    fireEvent.click(screen.getByRole('checkbox', { name: 'Select Scraper' }));
    fireEvent.click(screen.getByRole('checkbox', { name: 'Select Free' }));
    fireEvent.change(screen.getByRole('textbox', { name: 'Cap for Set cap' }), { target: { value: '1.5' } });
    fireEvent.click(screen.getByRole('button', { name: 'Set cap 2 selected sub-users' }));
    const ask = screen.getByRole('alertdialog');
    expect(ask.textContent).toMatch(/^Set cap 2 sub-users\? Each gets a cap of 1.5 GB\./);
    expect(fake.current.callsTo('subscriptions:updateSubUser')).toEqual([]);
    fireEvent.click(within(ask).getByRole('button', { name: 'Set cap 2 sub-users' }));
    await settle();
    await settle();
    expect(fake.current.callsTo('subscriptions:updateSubUser')).toEqual([
      { subscriptionId: 'sub_1', subUserId: 'su_1', trafficLimit: { amount: '1.5', unit: 'GB' } },
      { subscriptionId: 'sub_1', subUserId: 'su_2', trafficLimit: { amount: '1.5', unit: 'GB' } },
    ]);
    expect(screen.getByTestId('bulk-progress').textContent).toBe('Set cap finished: 1 done, 1 failed.');
    expect(
      within(screen.getByRole('list', { name: 'Set cap: failures' })).getByRole('listitem').textContent,
    ).toBe('Free: Cap below what is already used');
  });

  it('creates a sub-user with a cap in GB sent as typed for main to turn into exact bytes', async () => {
    fake.current.handle('subscriptions:createSubUser', () => ok(subUser({ id: 'su_3', label: 'New' })));
    await openSubUsers();
    fireEvent.click(screen.getByRole('button', { name: 'New sub-user' }));
    const form = screen.getByRole('form', { name: 'New sub-user' });
    fireEvent.change(within(form).getByLabelText('Label'), { target: { value: 'New' } });
    fireEvent.change(within(form).getByLabelText('Traffic cap'), { target: { value: '1.5' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Create sub-user' }));
    await settle();
    expect(fake.current.callsTo('subscriptions:createSubUser')).toEqual([
      { subscriptionId: 'sub_1', label: 'New', trafficLimit: { amount: '1.5', unit: 'GB' } },
    ]);
    expect(
      within(screen.getByRole('table', { name: 'Sub-users' })).getByRole('rowheader', { name: 'New' }),
    ).toBeTruthy();
    expect(useSubscriptionsStore.getState().subUsers.sub_1?.data?.rows.at(-1)).toEqual({
      id: 'su_3',
      label: 'New',
      username: 'u-su1',
      trafficLimitBytes: 2_000_000_000,
      trafficUsedBytes: 500_000_000,
      enabled: true,
      createdAt: '2026-03-02T00:00:00.000Z',
    });
  });

  it('says so when main sends other columns than the page knows, rather than showing wrong fields', async () => {
    fake.current.handle('subscriptions:subUsers', () =>
      ok({ ...subUsersTable([subUser()]), columns: ['id', 'label'] as never }),
    );
    window.location.hash = '#/subscriptions/sub_1';
    render(<SubscriptionsScreen />);
    await screen.findByRole('tablist', { name: 'Subscription' });
    fireEvent.click(screen.getByRole('tab', { name: 'Sub-users' }));
    await settle();
    expect(screen.queryByRole('table', { name: 'Sub-users' })).toBeNull();
    expect(useSubscriptionsStore.getState().subUsers.sub_1?.status).toBe('error');
    expect(document.body.textContent).toContain("The list's columns are not the ones this page knows");
  });

  it('puts the server field errors on the field', async () => {
    fake.current.handle('subscriptions:createSubUser', () =>
      fail('invalid_input', 'Check the form', {
        fields: [{ field: 'trafficLimit.amount', message: 'At most 9 decimals in GB (whole bytes)' }],
      }),
    );
    await openSubUsers();
    fireEvent.click(screen.getByRole('button', { name: 'New sub-user' }));
    const form = screen.getByRole('form', { name: 'New sub-user' });
    fireEvent.change(within(form).getByLabelText('Label'), { target: { value: 'X' } });
    fireEvent.change(within(form).getByLabelText('Traffic cap'), { target: { value: '0.0000000001' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Create sub-user' }));
    await settle();
    const cap = within(form).getByLabelText('Traffic cap');
    expect(cap.getAttribute('aria-invalid')).toBe('true');
    expect(within(form).getByText('At most 9 decimals in GB (whole bytes)')).toBeTruthy();
  });

  it('disables, regenerates and deletes (after confirming) through the service', async () => {
    fake.current.handle('subscriptions:updateSubUser', (input) =>
      ok(subUser({ enabled: input.enabled ?? true, password: input.regeneratePassword ? 'new' : 'pw' })),
    );
    fake.current.handle('subscriptions:deleteSubUser', () => ok({ deleted: true as const }));
    const table = await openSubUsers();
    fireEvent.click(within(table).getByRole('button', { name: 'Disable Scraper' }));
    await settle();
    expect(within(table).getAllByRole('row')[1]?.textContent).toContain('No');
    fireEvent.click(within(table).getByRole('button', { name: 'New password for Scraper' }));
    await settle();
    // The answer of the write is whole; the list keeps its row, not the new password.
    const kept = useSubscriptionsStore.getState().subUsers.sub_1?.data?.rows;
    expect(kept?.map((row) => [row.id, row.enabled])).toEqual([
      ['su_1', true],
      ['su_2', true],
    ]);
    expect(JSON.stringify(kept)).not.toMatch(/password|"new"/);
    fireEvent.click(within(table).getByRole('button', { name: 'Delete Scraper' }));
    expect(fake.current.callsTo('subscriptions:deleteSubUser')).toEqual([]);
    fireEvent.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Delete' }));
    await settle();
    expect(fake.current.callsTo('subscriptions:updateSubUser')).toEqual([
      { subscriptionId: 'sub_1', subUserId: 'su_1', enabled: false },
      { subscriptionId: 'sub_1', subUserId: 'su_1', regeneratePassword: true },
    ]);
    expect(fake.current.callsTo('subscriptions:deleteSubUser')).toEqual([
      { subscriptionId: 'sub_1', subUserId: 'su_1' },
    ]);
    expect(
      within(screen.getByRole('table', { name: 'Sub-users' })).queryByRole('rowheader', { name: 'Scraper' }),
    ).toBeNull();
  });
});
