import { fireEvent, render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { TrayView } from '../../../../src-shared/contract';
import { connectEventBridge } from '../../../../src-renderer/src/app/event-bridge';
import { useAppStore } from '../../../../src-renderer/src/features/app/app-store';
import { usePortsStore } from '../../../../src-renderer/src/features/ports/ports-store';
import { TrayPinPanel } from '../../../../src-renderer/src/features/ports/TrayPinPanel';
import { fail, ok } from '../../support/fake-api';
import { appState } from '../../support/fixtures';
import { settle, useFakeApi } from '../../support/renderer-test-kit';

describe('port detail: pin to the tray', () => {
  let pinned: string[] = [];
  const trayView = (): TrayView => ({ profileId: 'prof_work', pinnedPortIds: [...pinned] });
  const fake = useFakeApi(() => ({
    'app:getState': () => ok(appState({ mode: 'desktop' })),
    'tray:get': () => ok(trayView()),
    'tray:setPinned': ({ portIds }) => {
      pinned = [...portIds];
      return ok(trayView());
    },
  }));
  const desktop = () => useAppStore.getState().applyState(appState({ mode: 'desktop' }));
  const panel = () => screen.getByRole('region', { name: 'Tray' });
  const checkbox = () =>
    within(panel()).getByRole<HTMLInputElement>('checkbox', { name: 'Show in the tray menu' });

  it('is not shown in web mode, which has no tray', async () => {
    useAppStore.getState().applyState(appState());
    render(<TrayPinPanel portId="port_1" />);
    await settle();
    expect(screen.queryByRole('region', { name: 'Tray' })).toBeNull();
    expect(fake.current.callsTo('tray:get')).toEqual([]);
  });

  it('pins after the others, keeps them when unpinning, and can put the port first for the shortcut', async () => {
    pinned = ['port_9'];
    desktop();
    render(<TrayPinPanel portId="port_1" />);
    await settle();
    expect(checkbox().checked).toBe(false);

    fireEvent.click(checkbox());
    await settle();
    expect(fake.current.callsTo('tray:setPinned').at(-1)).toEqual({ portIds: ['port_9', 'port_1'] });
    expect(checkbox().checked).toBe(true);

    fireEvent.click(
      within(panel()).getByRole('button', { name: 'Make first (the global shortcut rotates it)' }),
    );
    await settle();
    expect(fake.current.callsTo('tray:setPinned').at(-1)).toEqual({ portIds: ['port_1', 'port_9'] });
    expect(within(panel()).getByText(/the global shortcut rotates this port/)).toBeTruthy();

    fireEvent.click(checkbox());
    await settle();
    expect(fake.current.callsTo('tray:setPinned').at(-1)).toEqual({ portIds: ['port_9'] });
    expect(checkbox().checked).toBe(false);
  });

  it("shows main's refusal and keeps the pins it had", async () => {
    pinned = [];
    fake.current.handle('tray:setPinned', () => fail('validation_failed', 'At most 20 ports in the tray'));
    desktop();
    render(<TrayPinPanel portId="port_1" />);
    await settle();
    fireEvent.click(checkbox());
    await settle();
    expect(within(panel()).getByText('At most 20 ports in the tray')).toBeTruthy();
    expect(checkbox().checked).toBe(false);
  });

  it('follows tray:changed for the active profile only (pins changed in another window)', async () => {
    pinned = [];
    desktop();
    const disconnect = connectEventBridge({ api: fake.current.api, onConnected: null });
    render(<TrayPinPanel portId="port_1" />);
    await settle();
    fake.current.emit('tray:changed', { profileId: 'prof_other', pinnedPortIds: ['port_1'] });
    fake.current.emit('tray:changed', { profileId: 'prof_work', pinnedPortIds: 'port_1' });
    expect(usePortsStore.getState().tray.data?.pinnedPortIds).toEqual([]);
    fake.current.emit('tray:changed', { profileId: 'prof_work', pinnedPortIds: ['port_1'] });
    await settle();
    expect(checkbox().checked).toBe(true);
    disconnect();
  });
});
