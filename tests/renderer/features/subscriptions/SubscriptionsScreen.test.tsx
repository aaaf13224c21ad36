import { fireEvent, render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { SubscriptionsScreen } from '../../../../src-renderer/src/features/subscriptions/SubscriptionsScreen';
import { ok } from '../../support/fake-api';
import { subscription } from '../../support/fixtures';
import { settle, useFakeApi } from '../../support/renderer-test-kit';

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
    expect(within(first!).getAllByRole('cell').at(-1)?.textContent).toBe('3');
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
});
