import { fireEvent, render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { PortsScreen, rotationText } from '../../../../src-renderer/src/features/ports/PortsScreen';
import { fail, ok } from '../../support/fake-api';
import { port } from '../../support/fixtures';
import { useFakeApi } from '../../support/renderer-test-kit';

describe('Ports screen', () => {
  const fake = useFakeApi(() => ({
    'ports:list': () =>
      ok([
        port(),
        port({
          id: 'port_2',
          label: 'Berlin',
          status: 'provisioning',
          country: 'DE',
          city: null,
          carrierName: 'Telekom',
          networkType: '4G',
          rotation: { mode: 'manual', intervalMinutes: null },
        }),
      ]),
  }));

  it('shows label, status, location, carrier and network, IP and its change time, and rotation', async () => {
    render(<PortsScreen />);
    const table = await screen.findByRole('table', { name: 'Mobile ports' });
    const [first, second] = within(table).getAllByRole('row').slice(1);
    expect(first?.textContent).toContain('Sneaker drops LA');
    expect(first?.textContent).toContain('Active');
    expect(first?.textContent).toContain('US · los_angeles');
    expect(first?.textContent).toContain('T-Mobile US 5G');
    expect(first?.textContent).toContain('100.85.1.2');
    expect(within(first!).getAllByRole('time')[0]?.getAttribute('datetime')).toBe('2026-03-10T11:55:00.000Z');
    expect(first?.textContent).toContain('Every 30 min');
    expect(second?.textContent).toContain('Provisioning');
    expect(second?.textContent).toContain('Manual');
    expect(second?.textContent).not.toContain('·');
  });

  it('shows unknown rotation modes as they are', () => {
    expect(rotationText({ rotation: { mode: 'burst', intervalMinutes: null } })).toBe('burst');
  });

  it('refreshes on request and says when there are no ports', async () => {
    render(<PortsScreen />);
    await screen.findByRole('table', { name: 'Mobile ports' });
    fake.current.handle('ports:list', () => ok([]));
    fireEvent.click(screen.getByRole('button', { name: 'Refresh ports' }));
    expect(await screen.findByText('This account has no mobile ports yet.')).toBeTruthy();
    expect(fake.current.callsTo('ports:list')).toHaveLength(2);
  });

  it('keeps the ports on screen when a refresh fails, with the error and Retry', async () => {
    render(<PortsScreen />);
    await screen.findByRole('table', { name: 'Mobile ports' });
    fake.current.handle('ports:list', () => fail('unauthorized', 'The service rejected this API key.'));
    fireEvent.click(screen.getByRole('button', { name: 'Refresh ports' }));
    expect(await screen.findByText('The service rejected this API key.')).toBeTruthy();
    expect(screen.getByRole('table', { name: 'Mobile ports' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Retry' })).toBeTruthy();
  });
});
