import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { SubscriptionsScreen } from '../../../../src-renderer/src/features/subscriptions/SubscriptionsScreen';
import { subUserLists } from '../../../../src-renderer/src/features/subscriptions/subscriptions-store';
import { deferred, ok } from '../../support/fake-api';
import { subscription, subUser, subUsersTable } from '../../support/fixtures';
import { settle, useFakeApi } from '../../support/renderer-test-kit';

describe('Subscription detail', () => {
  const fake = useFakeApi(() => ({
    'subscriptions:get': () => ok(subscription()),
    'subscriptions:buildProxyString': (input) =>
      ok({
        lines: [`${input.format}://u:p@gw.example.com`],
        host: 'gw.example.com',
        port: 8000,
        password: 'p',
      }),
    'subscriptions:subUsers': () => ok(subUsersTable()),
    'alerts:list': () => ok([]),
  }));

  const open = async () => {
    window.location.hash = '#/subscriptions/sub_1';
    render(<SubscriptionsScreen />);
    await screen.findByRole('tablist', { name: 'Subscription' });
    await settle();
  };

  it('shows the endpoint with both ports and the main user line built by main', async () => {
    await open();
    expect(screen.getByText('gw.example.com')).toBeTruthy();
    expect(screen.getByText('8000')).toBeTruthy();
    expect(screen.getByText('9000')).toBeTruthy();
    // The password is masked in the line as it is beside "Password", until shown.
    expect(screen.getByLabelText('Main user proxy line').textContent).toBe(
      'http_url://u:••••••••@gw.example.com',
    );
    fireEvent.change(screen.getByLabelText('Format'), { target: { value: 'socks5_url' } });
    await settle();
    expect(fake.current.callsTo('subscriptions:buildProxyString').at(-1)).toMatchObject({
      format: 'socks5_url',
      protocol: 'socks5',
      targeting: {},
    });
  });

  it('puts the back link above the title, as a port does', async () => {
    await open();
    const back = screen.getByRole('link', { name: '← All subscriptions' });
    const title = screen.getByRole('heading', { level: 1 });
    expect(back.compareDocumentPosition(title) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });

  it('masks the password in the proxy line as beside “Password” until shown; Copy copies the real line', async () => {
    const writeText = vi.fn((_text: string) => Promise.resolve());
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    fake.current.handle('subscriptions:get', () => ok(subscription({ password: 's3cr:et' })));
    fake.current.handle('subscriptions:buildProxyString', () =>
      ok({
        lines: ['http://u:s3cr%3Aet@gw.example.com:8000'],
        host: 'gw.example.com',
        port: 8000,
        password: 's3cr:et',
      }),
    );
    await open();
    const line = screen.getByLabelText('Main user proxy line');
    expect(line.textContent).toBe('http://u:••••••••@gw.example.com:8000');
    expect(screen.getByLabelText('Password (hidden)').textContent).toBe('••••••••');
    expect(document.body.textContent).not.toContain('s3cr');
    fireEvent.click(screen.getByRole('button', { name: 'Copy proxy line' }));
    await settle();
    expect(writeText).toHaveBeenCalledWith('http://u:s3cr%3Aet@gw.example.com:8000');
    fireEvent.click(screen.getByRole('button', { name: 'Show password' }));
    expect(line.textContent).toBe('http://u:s3cr%3Aet@gw.example.com:8000');
    expect(screen.getByLabelText('Password').textContent).toBe('s3cr:et');
  });

  it('refuses a label over 60 characters before asking, and saves label and auto-renew', async () => {
    fake.current.handle('subscriptions:update', (input) =>
      ok(subscription({ label: input.label ?? 'x', autoRenew: true })),
    );
    await open();
    const form = screen.getByRole('form', { name: 'Edit subscription' });
    fireEvent.change(within(form).getByLabelText('Label'), { target: { value: 'x'.repeat(61) } });
    expect(within(form).getByText('At most 60 characters')).toBeTruthy();
    expect(within(form).getByRole<HTMLButtonElement>('button', { name: 'Save' }).disabled).toBe(true);
    fireEvent.change(within(form).getByLabelText('Label'), { target: { value: 'Renamed' } });
    fireEvent.click(within(form).getByLabelText('Renew automatically'));
    fireEvent.click(within(form).getByRole('button', { name: 'Save' }));
    await settle();
    expect(fake.current.callsTo('subscriptions:update')).toEqual([
      { subscriptionId: 'sub_1', label: 'Renamed', autoRenew: true },
    ]);
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Renamed');
  });

  it('warns that the old password stops within 60 seconds and resets only after confirming', async () => {
    fake.current.handle('subscriptions:resetPassword', () => ok(subscription({ password: 'fresh' })));
    await open();
    expect(screen.getByText(/stops working at the gateway within 60 seconds/)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Reset password…' }));
    expect(fake.current.callsTo('subscriptions:resetPassword')).toEqual([]);
    fireEvent.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Reset password' }));
    await settle();
    expect(fake.current.callsTo('subscriptions:resetPassword')).toEqual([{ subscriptionId: 'sub_1' }]);
    fireEvent.click(screen.getByRole('button', { name: 'Show password' }));
    expect(screen.getByText('fresh')).toBeTruthy();
  });

  it('builds the Sub-users tab, hidden, once its list is in, and keeps it (search and all) across tabs', async () => {
    fake.current.handle('subscriptions:subUsers', () =>
      ok(subUsersTable([subUser(), subUser({ id: 'su_2', label: 'Second helper' })])),
    );
    window.location.hash = '#/subscriptions/sub_1';
    render(<SubscriptionsScreen />);
    await screen.findByRole('tablist', { name: 'Subscription' });
    expect(document.querySelector('table[aria-label="Sub-users"]')).toBeNull();
    // The list read as the detail opens (the app asks for it with the navigation).
    await act(() => subUserLists.load(['sub_1']));
    await waitFor(() => expect(document.querySelector('table[aria-label="Sub-users"]')).not.toBeNull());
    const built = document.querySelector('table[aria-label="Sub-users"]');
    // Hidden and idle: out of reach, and the list was read once (by the load above, not the tab).
    expect(screen.queryByRole('table', { name: 'Sub-users' })).toBeNull();
    expect(fake.current.callsTo('subscriptions:subUsers')).toHaveLength(1);

    // A refresh while it is hidden holds the list: the built tab stays.
    const refreshed = deferred<ReturnType<typeof ok>>();
    fake.current.handle('subscriptions:subUsers', () => refreshed.promise as never);
    const refresh = subUserLists.load(['sub_1'], true);
    await settle();
    expect(document.querySelector('table[aria-label="Sub-users"]')).toBe(built);
    refreshed.resolve(ok(subUsersTable([subUser(), subUser({ id: 'su_2', label: 'Second helper' })])));
    await act(() => refresh);

    fireEvent.click(screen.getByRole('tab', { name: 'Sub-users' }));
    expect(screen.getByRole('table', { name: 'Sub-users' })).toBe(built);
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search sub-users' }), {
      target: { value: 'second' },
    });
    await waitFor(() => expect(screen.getAllByRole('row')).toHaveLength(2));

    fireEvent.click(screen.getByRole('tab', { name: 'Overview' }));
    expect(screen.queryByRole('table', { name: 'Sub-users' })).toBeNull();
    fireEvent.click(screen.getByRole('tab', { name: 'Sub-users' }));
    expect(screen.getByRole<HTMLInputElement>('searchbox', { name: 'Search sub-users' }).value).toBe(
      'second',
    );
    expect(within(screen.getByRole('table', { name: 'Sub-users' })).getByText('Second helper')).toBeTruthy();
  });
});
