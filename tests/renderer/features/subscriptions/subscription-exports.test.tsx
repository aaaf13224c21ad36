import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { useAppStore } from '../../../../src-renderer/src/features/app/app-store';
import { SubscriptionsScreen } from '../../../../src-renderer/src/features/subscriptions/SubscriptionsScreen';
import { fail, ok } from '../../support/fake-api';
import { appState, subscription, subUser, subUsersTable } from '../../support/fixtures';
import { settle, useFakeApi } from '../../support/renderer-test-kit';

/** The text of the status line or error that names `text`. */
const said = (text: string | RegExp) => screen.getByText(text).parentElement?.textContent;

describe('subscription exports on the desktop (saved through main, never a download)', () => {
  const fake = useFakeApi(() => ({
    'subscriptions:get': () => ok(subscription({ id: 'sub/1' })),
    'subscriptions:buildProxyString': (input) =>
      ok({
        lines: Array.from(
          { length: input.count ?? 1 },
          (_, i) => `http://u-session-${i}:p@gw.example.com:8000`,
        ),
        host: 'gw.example.com',
        port: 8000,
        password: 'p',
      }),
    'subscriptions:subUsers': () => ok(subUsersTable()),
    'subscriptions:usage': (input) =>
      ok({
        from: input.from ?? '',
        to: input.to ?? '',
        totalBytes: 0,
        totalRequests: 0,
        points: [],
        byCountry: [],
      }),
    'subscriptions:exportUsage': () =>
      ok({ fileName: 'subscription-sub_1-usage-2026-03-01-2026-03-30.csv', text: 'day,bytes\r\n', rows: 0 }),
    'catalog:countries': () => ok([]),
    'alerts:list': () => ok([]),
    'app:saveFile': (input) => ok({ saved: true, path: `/home/me/Downloads/${input.fileName}` }),
  }));

  const openTab = async (tab: string) => {
    useAppStore.setState({ state: appState({ mode: 'desktop' }) });
    window.location.hash = '#/subscriptions/sub%2F1';
    render(<SubscriptionsScreen />);
    await screen.findByRole('tablist', { name: 'Subscription' });
    fireEvent.click(screen.getByRole('tab', { name: tab }));
    await settle();
  };

  it('usage CSV: "Saved to" the path main wrote, and the error on the spot', async () => {
    await openTab('Usage');
    fireEvent.click(screen.getByRole('button', { name: 'Export CSV' }));
    await settle();
    expect(fake.current.callsTo('app:saveFile')).toEqual([
      { fileName: 'subscription-sub_1-usage-2026-03-01-2026-03-30.csv', content: 'day,bytes\r\n' },
    ]);
    expect(said('/home/me/Downloads/subscription-sub_1-usage-2026-03-01-2026-03-30.csv')).toBe(
      'Saved to /home/me/Downloads/subscription-sub_1-usage-2026-03-01-2026-03-30.csv.',
    );
    fake.current.handle('app:saveFile', () => fail('internal_error', 'ENOSPC: no space left'));
    fireEvent.click(screen.getByRole('button', { name: 'Export CSV' }));
    await settle();
    expect(said(/Could not export the usage/)).toBe('Could not export the usage: ENOSPC: no space left');
  });

  it('proxy lines: a name the save rule accepts (the id has a slash), "Saved to", or cancelled', async () => {
    await openTab('Proxy strings');
    fireEvent.change(screen.getByLabelText('Lines to export'), { target: { value: '2' } });
    fireEvent.click(screen.getByRole('button', { name: 'Export lines with numbered sessions' }));
    await settle();
    expect(fake.current.callsTo('app:saveFile')).toEqual([
      {
        fileName: 'proxies-sub_1.txt',
        content: 'http://u-session-0:p@gw.example.com:8000\nhttp://u-session-1:p@gw.example.com:8000\n',
      },
    ]);
    expect(said('/home/me/Downloads/proxies-sub_1.txt')).toBe(
      'Saved to /home/me/Downloads/proxies-sub_1.txt.',
    );
    fake.current.handle('app:saveFile', () => ok({ saved: false, path: null }));
    fireEvent.click(screen.getByRole('button', { name: 'Export lines with numbered sessions' }));
    await settle();
    expect(screen.getByText('Not saved: the save dialog was cancelled.')).toBeTruthy();
  });

  it('sub-user credentials: "Saved to" with the number of lines', async () => {
    fake.current.handle('subscriptions:subUsers', () =>
      ok(subUsersTable([subUser({ trafficLimitBytes: null, trafficUsedBytes: 0 })])),
    );
    fake.current.handle('subscriptions:exportCredentials', () =>
      ok({ fileName: 'subscription-sub_1-credentials.txt', text: 'gw:8000:u-su1:pw\n', rows: 1 }),
    );
    await openTab('Sub-users');
    fireEvent.click(screen.getByLabelText('Select Scraper'));
    fireEvent.click(screen.getByRole('button', { name: 'Export 1 selected' }));
    await settle();
    expect(fake.current.callsTo('app:saveFile')).toEqual([
      { fileName: 'subscription-sub_1-credentials.txt', content: 'gw:8000:u-su1:pw\n' },
    ]);
    expect(said('/home/me/Downloads/subscription-sub_1-credentials.txt')).toBe(
      'Saved to /home/me/Downloads/subscription-sub_1-credentials.txt. 1 credential lines.',
    );
  });
});
