import { fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ProxyTestResult, ProxyTestTarget } from '../../../../src-shared/contract';
import { SubscriptionsScreen } from '../../../../src-renderer/src/features/subscriptions/SubscriptionsScreen';
import { fail, ok } from '../../support/fake-api';
import { subscription } from '../../support/fixtures';
import { settle, useFakeApi } from '../../support/renderer-test-kit';
import { choiceTexts, openFilter } from '../../support/table-popovers';

describe('Subscriptions screen', () => {
  const fake = useFakeApi(() => ({
    'subscriptions:list': (input) =>
      ok(
        [
          subscription(),
          subscription({
            id: 'sub_2',
            productId: 'mobile-gb',
            label: 'Social',
            status: 'depleted',
            trafficTotalBytes: 5_000_000_000,
            trafficUsedBytes: 5_000_000_000,
            expiresAt: null,
            subUserCount: 0,
          }),
        ].filter((s) => !input?.productId || s.productId === input.productId),
      ),
  }));

  it('shows label, product, status, traffic used of total with a bar, expiry and sub-users', async () => {
    render(<SubscriptionsScreen />);
    const table = await screen.findByRole('table', { name: 'Traffic subscriptions' });
    const [first, second] = within(table).getAllByRole('row').slice(1);
    expect(first?.textContent).toContain('Price monitoring');
    expect(first?.textContent).toContain('Residential');
    expect(first?.textContent).toContain('12.5 GB of 50.0 GB (25%)');
    const meter = within(first!).getByRole('meter', { name: /Traffic used/ });
    expect(meter.getAttribute('value')).toBe('12500000000');
    expect(meter.getAttribute('max')).toBe('50000000000');
    expect(within(first!).getAllByRole('cell').at(-2)?.textContent).toBe('3');
    expect(second?.textContent).toContain('Depleted');
    expect(second?.textContent).toContain('5.00 GB of 5.00 GB (100%)');
    expect(second?.textContent).toContain('Never');
  });

  it('filters by product through the service', async () => {
    render(<SubscriptionsScreen />);
    await screen.findByRole('table', { name: 'Traffic subscriptions' });
    fireEvent.click(screen.getByRole('radio', { name: 'Mobile GB' }));
    await settle();
    expect(fake.current.callsTo('subscriptions:list')).toEqual([undefined, { productId: 'mobile-gb' }]);
    expect(within(screen.getByRole('table')).getAllByRole('row')).toHaveLength(2);
  });

  afterEach(() => {
    vi.useRealTimers();
  });

  it('filters by traffic left and by auto-renew, each choice with its count (ports have no traffic quota)', async () => {
    const GB = 1_000_000_000;
    const withLeft = (id: string, label: string, leftGb: number, autoRenew: boolean) =>
      subscription({
        id,
        label,
        trafficTotalBytes: 50 * GB,
        trafficUsedBytes: (50 - leftGb) * GB,
        trafficRemainingBytes: leftGb * GB,
        autoRenew,
      });
    fake.current.handle('subscriptions:list', () =>
      ok([
        withLeft('sub_a', 'Spent', 0, false),
        withLeft('sub_b', 'Nearly out', 2, true),
        withLeft('sub_c', 'Half', 20, false),
        withLeft('sub_d', 'Fresh', 40, true),
        withLeft('sub_e', 'Untouched', 50, false),
      ]),
    );
    render(<SubscriptionsScreen />);
    const table = await screen.findByRole('table', { name: 'Traffic subscriptions' });
    const labels = () =>
      within(table)
        .getAllByRole('row')
        .slice(1)
        .map((row) => row.querySelector('th a')?.textContent);
    expect(choiceTexts(openFilter('Traffic left'))).toEqual([
      'None left1',
      'Under 10% left1',
      '10-50% left1',
      'Over 50% left2',
    ]);
    expect(choiceTexts(openFilter('Auto-renew'))).toEqual(['Off3', 'On2']);
    fireEvent.click(within(openFilter('Traffic left')).getByRole('checkbox', { name: /Over 50% left/ }));
    expect(labels()).toEqual(['Fresh', 'Untouched']);
    // The other facets count within what the first one kept.
    expect(choiceTexts(openFilter('Auto-renew'))).toEqual(['Off1', 'On1']);
    fireEvent.click(within(openFilter('Auto-renew')).getByRole('checkbox', { name: /On/ }));
    expect(labels()).toEqual(['Fresh']);
  });

  it('searches by label, id, username or plan (a labelled box) and sorts from the headers, as Ports do', async () => {
    render(<SubscriptionsScreen />);
    const table = await screen.findByRole('table', { name: 'Traffic subscriptions' });
    const labels = () =>
      within(table)
        .getAllByRole('row')
        .slice(1)
        .map((row) => row.querySelector('th a')?.textContent);
    expect(screen.queryByRole('combobox', { name: 'Sort by' })).toBeNull();
    // No expiry sorts last in both directions.
    fireEvent.click(screen.getByRole('button', { name: 'Sort by Expires' }));
    expect(labels()).toEqual(['Price monitoring', 'Social']);
    fireEvent.click(screen.getByRole('button', { name: 'Sort by Expires' }));
    expect(labels()).toEqual(['Price monitoring', 'Social']);
    fireEvent.click(screen.getByRole('button', { name: 'Sort by Traffic used' }));
    expect(labels()).toEqual(['Price monitoring', 'Social']);
    fireEvent.click(screen.getByRole('button', { name: 'Sort by Traffic used' }));
    expect(labels()).toEqual(['Social', 'Price monitoring']);
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search subscriptions' }), {
      target: { value: 'SUB_2' },
    });
    await settle();
    expect(labels()).toEqual(['Social']);
  });

  const tested = (target: ProxyTestTarget, ip: string): ProxyTestResult => ({
    target,
    proxy: { protocol: 'http', host: 'gw.example.com', port: 8000 },
    echoUrl: 'http://ip-echo.sandbox.invalid/',
    checkedAt: '2026-03-20T12:00:00.000Z',
    ok: true,
    exit: { ip, country: 'US', city: null, asn: 7922, carrier: null },
    timings: { connectMs: 2, firstByteMs: 30, totalMs: 31 },
    failure: null,
  });

  it("forecasts at the last 7 days' pace, read for the rows shown, and says no use yet for a quiet week", async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-03-20T12:00:00Z'));
    fake.current.handle('subscriptions:usage', (input) =>
      ok({
        from: input.from ?? '',
        to: input.to ?? '',
        // sub_1: 6.5 GB in the 6.5 days since 14 March 00:00, 1 GB a day; sub_2: nothing this week.
        totalBytes: input.subscriptionId === 'sub_1' ? 6_500_000_000 : 0,
        totalRequests: 0,
        points: [],
        byCountry: [],
      }),
    );
    render(<SubscriptionsScreen />);
    const table = await screen.findByRole('table', { name: 'Traffic subscriptions' });
    await settle();
    expect(fake.current.callsTo('subscriptions:usage')).toEqual([
      { subscriptionId: 'sub_1', from: '2026-03-14', to: '2026-03-20' },
      { subscriptionId: 'sub_2', from: '2026-03-14', to: '2026-03-20' },
    ]);
    const [first, second] = within(table).getAllByRole('row').slice(1);
    // 37.5 GB left at 1 GB a day (the pace since creation, 12.5 GB in 19.5 days, would say 59).
    expect(first?.textContent).toContain('runs out in about 38 days');
    expect(second?.textContent).toContain('no use yet');
  });

  it('gives an expired subscription no forecast, and reads no usage for one', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-03-20T12:00:00Z'));
    fake.current.handle('subscriptions:list', () =>
      ok([
        subscription({
          id: 'sub_old',
          label: 'Old plan',
          status: 'expired',
          expiresAt: '2026-03-18T00:00:00.000Z',
        }),
        // Past its expiry though the list still says active (read before it expired).
        subscription({
          id: 'sub_lapsed',
          label: 'Lapsed',
          status: 'active',
          expiresAt: '2026-03-19T00:00:00.000Z',
        }),
      ]),
    );
    fake.current.handle('subscriptions:usage', (input) =>
      ok({
        from: input.from ?? '',
        to: input.to ?? '',
        totalBytes: 6_500_000_000,
        totalRequests: 0,
        points: [],
        byCountry: [],
      }),
    );
    render(<SubscriptionsScreen />);
    const table = await screen.findByRole('table', { name: 'Traffic subscriptions' });
    await settle();
    const rows = within(table).getAllByRole('row').slice(1);
    for (const row of rows) {
      expect(row.textContent).toContain('expired: no forecast');
      expect(row.textContent).not.toMatch(/runs out in/);
    }
    expect(fake.current.callsTo('subscriptions:usage')).toEqual([]);
  });

  it('says when the usage could not be read instead of forecasting from nothing', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-03-20T12:00:00Z'));
    fake.current.handle('subscriptions:usage', () => fail('network', 'The service did not answer'));
    render(<SubscriptionsScreen />);
    const table = await screen.findByRole('table', { name: 'Traffic subscriptions' });
    await settle();
    expect(within(table).getAllByText('no forecast (usage not read)')).toHaveLength(2);
  });

  it("tests a row's main user, and all selected subscriptions in one call with their last-checked time", async () => {
    fake.current.handle('proxy:test', ({ target }) => ok(tested(target as ProxyTestTarget, '198.18.0.7')));
    fake.current.handle('proxy:testMany', ({ targets }) =>
      ok(targets.map((target, index) => tested(target as ProxyTestTarget, `198.18.1.${index + 1}`))),
    );
    render(<SubscriptionsScreen />);
    const table = await screen.findByRole('table', { name: 'Traffic subscriptions' });
    fireEvent.click(within(table).getByRole('button', { name: 'Test proxy Price monitoring' }));
    await settle();
    expect(fake.current.callsTo('proxy:test')).toEqual([
      { target: { kind: 'subscription', subscriptionId: 'sub_1', protocol: 'http' } },
    ]);
    // Beside the row, not inside it (a result in the row widened its column).
    expect(within(table).queryByTestId('exit-ip')).toBeNull();
    const shownResults = screen.getByRole('table', { name: 'Proxy test results: subscriptions shown' });
    expect(within(shownResults).getAllByRole('row')[1]?.textContent).toContain('198.18.0.7');
    // The result names the subscription with a link to its page.
    expect(within(shownResults).getByRole('link', { name: 'Price monitoring' }).getAttribute('href')).toBe(
      '#/subscriptions/sub_1',
    );

    fireEvent.click(within(table).getByRole('checkbox', { name: 'Select Social' }));
    fireEvent.click(screen.getByRole('button', { name: 'Test all selected subscriptions (1)' }));
    await settle();
    expect(fake.current.callsTo('proxy:testMany')).toEqual([
      { targets: [{ kind: 'subscription', subscriptionId: 'sub_2', protocol: 'http' }] },
    ]);
    const results = screen.getByRole('table', { name: 'Proxy test results: selected subscriptions' });
    const rows = within(results).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(1);
    expect(rows[0]?.textContent).toContain('Social');
    expect(rows[0]?.textContent).toContain('198.18.1.1');
    expect(within(rows[0]!).getByText(/ago|just now/)).toBeTruthy();
  });
});
