import { fireEvent, render, screen, within } from '@testing-library/react';
import axe from 'axe-core';

import { describe, expect, it } from 'vitest';
import { useAppStore } from '../../../../src-renderer/src/features/app/app-store';
import { SettingsScreen } from '../../../../src-renderer/src/features/settings/SettingsScreen';
import { fail, ok } from '../../support/fake-api';
import { appState, profile, settingsView, subscription } from '../../support/fixtures';
import { settle, useFakeApi } from '../../support/renderer-test-kit';

/** Settings → Notifications: a switch per OS notification kind, applied at once (desktop app only). */

const LABELS = [
  'A rotation gave a new IP',
  'A rotation kept the same IP',
  'A rotation failed',
  'A port finished moving',
  'A port went down or came back up',
];

describe('Settings → Notifications', () => {
  const fake = useFakeApi(() => ({
    'settings:get': () => ok(settingsView()),
    'subscriptions:list': () => ok([subscription()]),
  }));

  const renderSettings = async (mode: 'desktop' | 'web' = 'desktop') => {
    useAppStore.getState().applyState(appState({ mode, profiles: [profile()] }));
    render(<SettingsScreen />);
    await screen.findByLabelText('Usage refresh, window open');
  };
  const section = () => screen.getByRole('region', { name: 'Notifications' });
  const toggle = (name: string) => within(section()).getByRole<HTMLInputElement>('checkbox', { name });

  it('has one switch per kind the settings have, in words, each as the settings say, and a link in the side navigation', async () => {
    const current = settingsView();
    fake.current.handle('settings:get', () =>
      ok({ ...current, notifications: { ...current.notifications, 'rotation-same-ip': false } }),
    );
    await renderSettings();
    const boxes = within(section()).getAllByRole<HTMLInputElement>('checkbox');
    expect(boxes.map((box) => box.labels?.[0]?.textContent?.trim())).toEqual(LABELS);
    // Every kind of the settings has its switch: a new kind without one fails here.
    expect(boxes).toHaveLength(Object.keys(current.notifications).length);
    expect(boxes.map((box) => box.checked)).toEqual([true, false, true, true, true]);
    const link = within(screen.getByRole('navigation', { name: 'Settings sections' })).getByRole('link', {
      name: 'Notifications',
    });
    expect(link.getAttribute('href')).toBe('#/settings/notifications');
  });

  it('applies a switch at once with its own key, and offers to undo it', async () => {
    const current = settingsView();
    fake.current.handle('settings:update', (patch) =>
      ok({ ...current, notifications: { ...current.notifications, ...patch.notifications } }),
    );
    await renderSettings();
    fireEvent.click(toggle('A port went down or came back up'));
    await settle();
    expect(fake.current.callsTo('settings:update')).toEqual([{ notifications: { 'port-health': false } }]);
    expect(toggle('A port went down or came back up').checked).toBe(false);
    expect(screen.getByTestId('settings-undo').textContent).toContain(
      'Notify when a port went down or came back up: off',
    );
    fireEvent.click(toggle('A port finished moving'));
    await settle();
    expect(fake.current.callsTo('settings:update').at(-1)).toEqual({
      notifications: { 'relocation-done': false },
    });
  });

  it('shows a refused change under its switch, tied to it; one it cannot place, under the group', async () => {
    fake.current.handle('settings:update', () =>
      fail('invalid_input', 'notifications.rotation-failed: Expected a boolean', {
        fields: [{ field: 'notifications.rotation-failed', message: 'Expected a boolean' }],
      }),
    );
    await renderSettings();
    fireEvent.click(toggle('A rotation failed'));
    await settle();
    const box = toggle('A rotation failed');
    expect(box.getAttribute('aria-invalid')).toBe('true');
    const described = (box.getAttribute('aria-describedby') ?? '')
      .split(' ')
      .map((id) => document.getElementById(id)?.textContent);
    expect(described).toContain('Expected a boolean');
    // Still as the settings say: nothing was applied.
    expect(box.checked).toBe(true);
    expect(toggle('A rotation gave a new IP').getAttribute('aria-invalid')).toBeNull();

    fake.current.handle('settings:update', () =>
      fail('settings_write_failed', 'Could not write settings.json.'),
    );
    fireEvent.click(toggle('A rotation failed'));
    await settle();
    expect(within(section()).getByText('Could not write settings.json.')).toBeTruthy();
    expect(toggle('A rotation failed').getAttribute('aria-invalid')).toBeNull();
  });

  it('is not shown in web mode, which shows no OS notifications', async () => {
    await renderSettings('web');
    expect(screen.queryByRole('region', { name: 'Notifications' })).toBeNull();
    expect(
      within(screen.getByRole('navigation', { name: 'Settings sections' })).queryByRole('link', {
        name: 'Notifications',
      }),
    ).toBeNull();
  });

  it('passes axe (structure and names; jsdom cannot judge colours), also with a field error shown', async () => {
    fake.current.handle('settings:update', () =>
      fail('invalid_input', 'notifications.port-health: Expected a boolean', {
        fields: [{ field: 'notifications.port-health', message: 'Expected a boolean' }],
      }),
    );
    await renderSettings();
    const scan = async () =>
      (await axe.run(section(), { rules: { 'color-contrast': { enabled: false } } })).violations.map(
        (violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`,
      );
    expect(await scan()).toEqual([]);
    fireEvent.click(toggle('A port went down or came back up'));
    await settle();
    expect(within(section()).getByText('Expected a boolean')).toBeTruthy();
    expect(await scan()).toEqual([]);
  });
});
