import { fireEvent, render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { LocationName, NetworkName } from '../../../../src-renderer/src/features/catalog/CatalogNames';
import { CatalogScreen } from '../../../../src-renderer/src/features/catalog/CatalogScreen';
import { deferred, fail, ok } from '../../support/fake-api';
import { carriers, cities, coins, countries, states } from '../../support/fixtures';
import { settle, useFakeApi } from '../../support/renderer-test-kit';

const rowNames = (table: HTMLElement) =>
  within(table)
    .getAllByRole('rowheader')
    .map((cell) => cell.textContent);

describe('Catalog screen', () => {
  const fake = useFakeApi(() => ({
    'catalog:countries': (input) =>
      ok(input?.product ? countries().filter((c) => c.products.includes(input.product!)) : countries()),
    'catalog:states': () => ok(states()),
    'catalog:citiesOf': (input) =>
      ok(
        Object.fromEntries(
          input.countryCodes.map((code) => [
            code,
            input.product === 'mobile' ? cities().slice(0, 1) : cities(),
          ]),
        ),
      ),
    'catalog:asns': () => ok([{ asn: 7922, name: 'Comcast' }]),
    'catalog:carriers': () => ok(carriers()),
    'catalog:coins': () => ok(coins()),
  }));

  it('shows a loading state, then the countries', async () => {
    const pending = deferred<ReturnType<typeof ok>>();
    fake.current.handle('catalog:countries', () => pending.promise as never);
    render(<CatalogScreen />);
    expect(screen.getByText('Loading countries…')).toBeTruthy();
    pending.resolve(ok(countries()));
    const table = await screen.findByRole('table', { name: 'Countries' });
    expect(rowNames(table)).toEqual(['United States US', 'Germany DE', 'Chile CL']);
  });

  it('filters countries by product through the service and by search text locally', async () => {
    render(<CatalogScreen />);
    await screen.findByRole('table', { name: 'Countries' });
    fireEvent.click(screen.getByRole('radio', { name: 'Mobile ports' }));
    await settle();
    expect(fake.current.callsTo('catalog:countries')).toEqual([undefined, { product: 'mobile' }]);
    expect(rowNames(screen.getByRole('table', { name: 'Countries' }))).toEqual([
      'United States US',
      'Germany DE',
    ]);

    fireEvent.change(screen.getByLabelText('Search countries'), { target: { value: 'europe' } });
    expect(rowNames(screen.getByRole('table', { name: 'Countries' }))).toEqual(['Germany DE']);
    expect(screen.getByText('1 of 2 countries match “europe”')).toBeTruthy();

    fireEvent.change(screen.getByLabelText('Search countries'), { target: { value: 'zz' } });
    expect(screen.getByText(/No country matches “zz”/)).toBeTruthy();
    // No redundant "0 of 2 countries" above the empty state; its action brings the list back.
    expect(screen.queryByText(/0 of 2 countries/)).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Clear the search' }));
    expect(rowNames(screen.getByRole('table', { name: 'Countries' }))).toHaveLength(2);
  });

  it('shows an error with its message and a Retry that loads again', async () => {
    fake.current.handle('catalog:countries', () =>
      fail('network_error', 'Cannot reach the service: ECONNREFUSED'),
    );
    render(<CatalogScreen />);
    expect(await screen.findByText('Cannot reach the service: ECONNREFUSED')).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toContain('Could not load countries');
    fake.current.handle('catalog:countries', () => ok(countries()));
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('table', { name: 'Countries' })).toBeTruthy();
  });

  it('shows an empty state', async () => {
    fake.current.handle('catalog:countries', () => ok([]));
    render(<CatalogScreen />);
    expect(await screen.findByText('The service lists no countries for this product.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Ask again' }));
    await settle();
    expect(fake.current.callsTo('catalog:countries')).toHaveLength(2);
  });

  it('opens a country with its states, cities (with product filter), ASNs and carriers', async () => {
    render(<CatalogScreen />);
    fireEvent.click(await screen.findByRole('button', { name: 'United States US' }));
    const detail = screen.getByRole('region', { name: /United States/ });
    const statesTable = await within(detail).findByRole('table', { name: 'States of US' });
    expect(within(statesTable).getByText('-state-california')).toBeTruthy();

    fireEvent.click(within(detail).getByRole('tab', { name: 'Cities' }));
    expect(rowNames(await within(detail).findByRole('table', { name: 'Cities of US' }))).toEqual([
      'Los Angeleslos_angeles',
      'New Yorknew_york',
    ]);
    fireEvent.click(within(detail).getByRole('radio', { name: 'Mobile ports' }));
    await settle();
    expect(rowNames(within(detail).getByRole('table', { name: 'Cities of US' }))).toEqual([
      'Los Angeleslos_angeles',
    ]);
    expect(fake.current.callsTo('catalog:citiesOf')).toEqual([
      { countryCodes: ['US'] },
      { countryCodes: ['US'], product: 'mobile' },
    ]);

    fireEvent.click(within(detail).getByRole('tab', { name: 'ASNs' }));
    expect(await within(detail).findByText('AS7922')).toBeTruthy();

    fireEvent.click(within(detail).getByRole('tab', { name: 'Carriers' }));
    const carriersTable = await within(detail).findByRole('table', { name: 'Carriers of US' });
    expect(within(carriersTable).getByText('Available')).toBeTruthy();
    expect(within(carriersTable).getByText('Not available')).toBeTruthy();
    expect(within(carriersTable).getByText('4G, 5G')).toBeTruthy();
  });

  it('opens a country without states (Germany) on its cities, with no empty States tab', async () => {
    fake.current.handle('catalog:states', () => ok([]));
    render(<CatalogScreen />);
    fireEvent.click(await screen.findByRole('button', { name: 'Germany DE' }));
    const detail = screen.getByRole('region', { name: /Germany/ });
    await within(detail).findByRole('table', { name: 'Cities of DE' });
    expect(within(detail).queryByRole('tab', { name: 'States' })).toBeNull();
    expect(within(detail).getByRole('tab', { name: 'Cities' }).getAttribute('aria-selected')).toBe('true');
    expect(within(detail).queryByText(/no state targeting/)).toBeNull();
  });

  it('moves between tabs with the arrow keys', async () => {
    render(<CatalogScreen />);
    fireEvent.click(await screen.findByRole('button', { name: 'Germany DE' }));
    const detail = screen.getByRole('region', { name: /Germany/ });
    const statesTab = within(detail).getByRole('tab', { name: 'States' });
    statesTab.focus();
    fireEvent.keyDown(statesTab, { key: 'ArrowRight' });
    const citiesTab = within(detail).getByRole('tab', { name: 'Cities' });
    expect(citiesTab.getAttribute('aria-selected')).toBe('true');
    expect(document.activeElement).toBe(citiesTab);
    fireEvent.keyDown(citiesTab, { key: 'End' });
    expect(within(detail).getByRole('tab', { name: 'Carriers' }).getAttribute('aria-selected')).toBe('true');
    await settle();
  });

  it('lists coins with their networks, confirmations and estimated minutes', async () => {
    render(<CatalogScreen />);
    fireEvent.click(screen.getByRole('tab', { name: 'Coins' }));
    const table = await screen.findByRole('table', { name: 'Coins and networks' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(
      rows.map((row) =>
        within(row)
          .getAllByRole('cell')
          .map((cell) => cell.textContent),
      ),
    ).toEqual([
      ['Tron (TRC-20)tron', '20', '≈ 3 min', 'No'],
      ['Ethereum (ERC-20)ethereum', '12', 'unknown', 'No'],
    ]);
    // The name first; the network id on a secondary line and in the tooltip.
    const tron = within(table).getByText('Tron (TRC-20)');
    expect(tron.getAttribute('title')).toBe('Network id: tron');
    expect(within(tron).getByText('tron').className).toBe('named__id');
  });

  it('shows names from the catalog instead of location and network ids, with the ids in a tooltip', async () => {
    render(
      <p>
        <LocationName countryCode="US" cityId="los_angeles" /> | <LocationName countryCode="DE" /> |{' '}
        <NetworkName coinCode="USDT" networkId="tron" showId /> |{' '}
        <LocationName countryCode="US" cityId="atlantis" />
      </p>,
    );
    expect(await screen.findByText('Los Angeles, United States')).toBeTruthy();
    expect(screen.getByText('Los Angeles, United States').getAttribute('title')).toBe(
      'Location id: US · los_angeles',
    );
    expect(screen.getByText('Germany').getAttribute('title')).toBe('Country code: DE');
    const tron = await screen.findByText('Tron (TRC-20)');
    expect(tron.getAttribute('title')).toBe('Network id: tron');
    expect(tron.textContent).toBe('Tron (TRC-20)tron');
    // An id the catalog does not know stays visible as it is.
    expect(screen.getByText('US · atlantis')).toBeTruthy();
    expect(fake.current.callsTo('catalog:citiesOf')).toEqual([{ countryCodes: ['US'] }]);
  });
});
