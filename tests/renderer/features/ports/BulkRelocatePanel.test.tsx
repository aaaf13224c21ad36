import { fireEvent, render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { relocationBlock } from '../../../../src-renderer/src/features/ports/BulkRelocatePanel';
import { PortsScreen } from '../../../../src-renderer/src/features/ports/PortsScreen';
import type { IpcResult, MobilePortView } from '../../../../src-shared/contract';
import { deferred, fail, ok } from '../../support/fake-api';
import { carriers, cities, countries, port, portsAnswer } from '../../support/fixtures';
import { settle, useFakeApi } from '../../support/renderer-test-kit';

describe('Bulk relocation on the Ports list', () => {
  const ports = [
    port(),
    port({ id: 'port_2', label: 'Berlin', status: 'provisioning', country: 'DE', city: null }),
    port({ id: 'port_3', label: 'Paris' }),
    port({ id: 'port_4', label: 'Quito' }),
  ];
  const fake = useFakeApi(() => ({
    'ports:list': () => ok(portsAnswer(ports)),
    'ports:relocations': () => ok([]),
    'catalog:countries': () => ok(countries()),
    'catalog:citiesOf': ({ countryCodes }) =>
      ok(Object.fromEntries(countryCodes.map((code) => [code, code === 'US' ? cities() : []]))),
    'catalog:cities': () => ok(cities()),
    'catalog:carriers': () => ok(carriers()),
    'ports:relocate': ({ portId }) =>
      portId === 'port_4'
        ? fail('location_unavailable', 'No free modem for tmobile_us in los_angeles')
        : ok({ ...ports.find((known) => known.id === portId)!, status: 'provisioning' }),
  }));

  const chooseTarget = async (form: HTMLElement) => {
    fireEvent.change(within(form).getByLabelText('Country'), { target: { value: 'US' } });
    await settle();
    fireEvent.change(within(form).getByLabelText('Carrier'), { target: { value: 'tmobile_us' } });
    await settle();
    fireEvent.change(within(form).getByLabelText('City (optional)'), { target: { value: 'los_angeles' } });
    await settle();
  };

  it('chooses the target once from the catalog, asks naming the count, then moves each active port and lists each failure', async () => {
    render(<PortsScreen />);
    await screen.findByRole('table', { name: 'Mobile ports' });
    fireEvent.click(screen.getByRole('checkbox', { name: 'Select all shown' }));
    fireEvent.click(screen.getByRole('button', { name: 'Relocate… 4 selected ports' }));
    await settle();
    const form = screen.getByRole('form', { name: 'Where to relocate 4 ports' });
    // Ports in two countries: the country is chosen, not guessed.
    expect(within(form).getByLabelText<HTMLSelectElement>('Country').value).toBe('');
    fireEvent.click(within(form).getByRole('button', { name: 'Relocate 4 ports…' }));
    expect(within(form).getByText('Choose a country', { selector: '.field__error' })).toBeTruthy();
    expect(within(form).getByText('Choose a carrier', { selector: '.field__error' })).toBeTruthy();
    await chooseTarget(form);
    // Catalog names, not ids, and only carriers with a free modem.
    expect(
      [...within(form).getByLabelText<HTMLSelectElement>('Carrier').options].map((option) => option.text),
    ).toEqual(['Choose a carrier', 'T-Mobile US (4G, 5G)']);
    fireEvent.click(within(form).getByRole('button', { name: 'Relocate 4 ports…' }));
    const ask = screen.getByRole('alertdialog');
    expect(ask.textContent).toMatch(/^Relocate 4 ports to T-Mobile US in Los Angeles, United States\?/);
    await settle();
    expect(fake.current.callsTo('ports:relocate')).toEqual([]);

    fireEvent.click(within(ask).getByRole('button', { name: 'Relocate 4 ports' }));
    await settle();
    await settle();
    // One at a time, in the list's order; the port being moved is not sent.
    expect(fake.current.callsTo('ports:relocate')).toEqual(
      ['port_1', 'port_3', 'port_4'].map((portId) => ({
        portId,
        country: 'US',
        carrier: 'tmobile_us',
        city: 'los_angeles',
      })),
    );
    expect(screen.getByTestId('bulk-progress').textContent).toBe(
      'Relocate to T-Mobile US in Los Angeles, United States finished: 2 done, 2 failed.',
    );
    expect(
      within(
        screen.getByRole('list', { name: 'Relocate to T-Mobile US in Los Angeles, United States: failures' }),
      )
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual([
      'Berlin: Already being moved (provisioning): relocate it again once it is active',
      'Quito: No modem is free for that carrier and city right now. Choose another carrier or city, or try again later; the port stays where it is. (No free modem for tmobile_us in los_angeles)',
    ]);
    // The ports moved show Provisioning from the service's answer.
    const rows = within(screen.getByRole('table', { name: 'Mobile ports' }))
      .getAllByRole('row')
      .slice(1);
    expect(rows.map((row) => /Provisioning/.test(row.textContent ?? ''))).toEqual([true, true, true, false]);
  });

  it('shows one progress while it runs, with the buttons disabled, and Cancel stops before the next port', async () => {
    const held = deferred<IpcResult<MobilePortView>>();
    fake.current.handle('ports:relocate', ({ portId }) =>
      portId === 'port_1' ? held.promise : ok({ ...ports[0]!, id: portId, status: 'provisioning' }),
    );
    render(<PortsScreen />);
    await screen.findByRole('table', { name: 'Mobile ports' });
    fireEvent.click(screen.getByRole('checkbox', { name: 'Select Sneaker drops LA' }));
    fireEvent.click(screen.getByRole('checkbox', { name: 'Select Paris' }));
    fireEvent.click(screen.getByRole('button', { name: 'Relocate… 2 selected ports' }));
    await settle();
    const form = screen.getByRole('form', { name: 'Where to relocate 2 ports' });
    // Both in the United States: the country starts there.
    expect(within(form).getByLabelText<HTMLSelectElement>('Country').value).toBe('US');
    await chooseTarget(form);
    fireEvent.click(within(form).getByRole('button', { name: 'Relocate 2 ports…' }));
    fireEvent.click(
      within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Relocate 2 ports' }),
    );
    await settle();
    expect(screen.getByTestId('bulk-progress').textContent).toBe(
      'Relocate to T-Mobile US in Los Angeles, United States: 0 of 2 done · 0 failed · 1 under way · 1 queued',
    );
    expect(
      screen.getByRole<HTMLButtonElement>('button', { name: 'Relocate… 2 selected ports' }).disabled,
    ).toBe(true);
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Rotate 2 selected ports' }).disabled).toBe(
      true,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    held.resolve(ok({ ...ports[0]!, status: 'provisioning' }));
    await settle();
    await settle();
    expect(fake.current.callsTo('ports:relocate').map((call) => (call as { portId: string }).portId)).toEqual(
      ['port_1'],
    );
    expect(screen.getByTestId('bulk-progress').textContent).toBe(
      'Relocate to T-Mobile US in Los Angeles, United States finished: 1 done, 0 failed, 1 not started (cancelled).',
    );
  });

  it('sends only active ports that are not already being moved', () => {
    const row = (status: string) => port({ status: status as 'active' });
    expect(relocationBlock(row('active'), undefined)).toBeNull();
    expect(relocationBlock(row('active'), { state: 'provisioning' })).toMatch(/^Already being moved/);
    expect(relocationBlock(row('active'), { state: 'active' })).toBeNull();
    expect(relocationBlock(row('provisioning'), undefined)).toMatch(/^Already being moved/);
    expect(relocationBlock(row('expired'), undefined)).toBe(
      'Only an active port can be relocated; this one is expired',
    );
    expect(relocationBlock(undefined, undefined)).toBe('Not in the ports list any more');
  });
});
