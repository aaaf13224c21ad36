import { fireEvent, render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type {
  CallInput,
  ProxyTestResult,
  ProxyTestTarget,
  ProxyTestTargetInput,
} from '../../../../src-shared/contract';
import { SubscriptionsScreen } from '../../../../src-renderer/src/features/subscriptions/SubscriptionsScreen';
import { ok } from '../../support/fake-api';
import { cities, countries, states, subscription, subUser, subUsersTable } from '../../support/fixtures';
import { settle, useFakeApi } from '../../support/renderer-test-kit';

const tested = (target: ProxyTestTarget, index: number): ProxyTestResult => ({
  target,
  proxy: { protocol: 'http', host: '127.0.0.1', port: 8000 },
  echoUrl: 'http://ip-echo.sandbox.invalid/',
  checkedAt: '2026-03-10T12:00:00.000Z',
  ok: true,
  exit: { ip: `203.0.113.${index + 1}`, country: 'US', city: 'los_angeles', asn: null, carrier: null },
  timings: { connectMs: 3, firstByteMs: 40, totalMs: 41 },
  failure: null,
});

describe('Proxy string builder', () => {
  const fake = useFakeApi(() => ({
    'subscriptions:get': () => ok(subscription()),
    'subscriptions:subUsers': () => ok(subUsersTable()),
    'subscriptions:buildProxyString': () =>
      ok({
        lines: ['http://u-state-california-zip-90001:p@gw.example.com:8000'],
        host: 'gw.example.com',
        port: 8000,
        password: 'p',
      }),
    'catalog:countries': () => ok(countries()),
    'catalog:states': () => ok(states()),
    'catalog:cities': () => ok(cities()),
    'alerts:list': () => ok([]),
    'proxy:testMany': ({ targets }) => ok(targets.map((t, i) => tested(t as ProxyTestTarget, i))),
  }));

  const openBuilder = async () => {
    window.location.hash = '#/subscriptions/sub_1';
    render(<SubscriptionsScreen />);
    await screen.findByRole('tablist', { name: 'Subscription' });
    fireEvent.click(screen.getByRole('tab', { name: 'Proxy strings' }));
    await settle();
    return screen.getByRole('form', { name: 'Proxy string builder' });
  };

  it('refuses a ZIP that is not 5 digits on its field, before asking main', async () => {
    const form = await openBuilder();
    fireEvent.change(within(form).getByLabelText('US ZIP code'), { target: { value: '9000' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Build' }));
    await settle();
    expect(within(form).getByText('A ZIP code is exactly 5 digits.')).toBeTruthy();
    // The overview builds the main user's plain line; nothing with the ZIP was asked for.
    const withZip = fake.current
      .callsTo('subscriptions:buildProxyString')
      .filter((call) => (call as CallInput<'subscriptions:buildProxyString'>).targeting?.zip !== undefined);
    expect(withZip).toEqual([]);
  });

  it('builds a string with a state and a ZIP, then tests every numbered session with that targeting', async () => {
    const form = await openBuilder();
    fireEvent.change(within(form).getByLabelText('Country'), { target: { value: 'US' } });
    await settle();
    fireEvent.change(within(form).getByLabelText('State'), { target: { value: 'california' } });
    fireEvent.change(within(form).getByLabelText('US ZIP code'), { target: { value: '90001' } });
    fireEvent.change(within(form).getByLabelText('Lines to export'), { target: { value: '3' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Build' }));
    await settle();
    expect(fake.current.callsTo('subscriptions:buildProxyString').at(-1)).toMatchObject({
      subscriptionId: 'sub_1',
      targeting: { country: 'US', state: 'california', zip: '90001' },
    });
    const shown = within(form).getByLabelText('Proxy string');
    expect(shown.textContent).toBe('http://u-state-california-zip-90001:••••••••@gw.example.com:8000');
    fireEvent.click(within(form).getByRole('button', { name: 'Show password' }));
    expect(shown.textContent).toBe('http://u-state-california-zip-90001:p@gw.example.com:8000');

    fireEvent.click(within(form).getByRole('button', { name: 'Test all sessions (3)' }));
    await settle();
    const call = fake.current.callsTo('proxy:testMany').at(-1) as { targets: ProxyTestTargetInput[] };
    const targets = call.targets;
    expect(targets.map((t) => (t.kind === 'subscription' ? t.targeting?.session : null))).toEqual([
      's1',
      's2',
      's3',
    ]);
    for (const target of targets)
      expect(target).toMatchObject({ targeting: { country: 'US', state: 'california', zip: '90001' } });
    const results = within(form).getByRole('table', { name: 'Proxy test results: sessions' });
    expect(within(results).getByText('203.0.113.3')).toBeTruthy();
  });

  it('masks a sub-user’s password with the one main answered with the line (the list has none)', async () => {
    fake.current.handle('subscriptions:subUsers', () =>
      ok(
        subUsersTable([subUser({ password: 'left-in-main', trafficLimitBytes: null, trafficUsedBytes: 0 })]),
      ),
    );
    fake.current.handle('subscriptions:buildProxyString', (input) =>
      ok({
        lines: [
          input.subUserId ? 'http://u-su1:Zq9%3Asub@gw.example.com:8000' : 'http://u:p@gw.example.com:8000',
        ],
        host: 'gw.example.com',
        port: 8000,
        password: input.subUserId ? 'Zq9:sub' : 'p',
      }),
    );
    const form = await openBuilder();
    fireEvent.change(within(form).getByLabelText('User'), { target: { value: 'su_1' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Build' }));
    await settle();
    expect(fake.current.callsTo('subscriptions:buildProxyString').at(-1)).toMatchObject({
      subUserId: 'su_1',
    });
    const shown = within(form).getByLabelText('Proxy string');
    expect(shown.textContent).toBe('http://u-su1:••••••••@gw.example.com:8000');
    expect(document.body.textContent).not.toContain('Zq9');
    fireEvent.click(within(form).getByRole('button', { name: 'Show password' }));
    expect(shown.textContent).toBe('http://u-su1:Zq9%3Asub@gw.example.com:8000');
  });
});
