import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { useAppStore } from '../../../../src-renderer/src/features/app/app-store';
import { SettingsScreen, UNDO_TOAST_MS } from '../../../../src-renderer/src/features/settings/SettingsScreen';
import { fail, ok } from '../../support/fake-api';
import {
  appState,
  demoProfile,
  noProfileState,
  passedTest,
  port,
  portsAnswer,
  profile,
  settingsView,
  subscription,
} from '../../support/fixtures';
import { settle, useFakeApi } from '../../support/renderer-test-kit';

const work = profile();
const home = profile({
  id: 'prof_home',
  name: 'Home',
  active: false,
  baseUrl: 'https://proxy.example.net/api/v1',
  key: { configured: false, masked: null, source: null },
});

describe('Settings screen', () => {
  const fake = useFakeApi(() => ({
    'settings:get': () => ok(settingsView()),
    'subscriptions:list': () =>
      ok([subscription(), subscription({ id: 'sub_2', label: 'Scraping', subUserCount: 0 })]),
  }));

  function renderSettings(state = appState({ profiles: [work, home] })) {
    useAppStore.getState().applyState(state);
    return render(<SettingsScreen />);
  }

  const card = (name: string) => screen.getByRole('listitem', { name: new RegExp(`^${name}`) });

  it('lists profiles with their base URL and masked key and its source, never more of the key', async () => {
    renderSettings();
    await screen.findByLabelText('Usage refresh, window open');
    expect(within(card('Work')).getByTestId('profile-key').textContent).toBe('…a1b2 in OS keychain');
    expect(within(card('Work')).getByText('Active')).toBeTruthy();
    expect(within(card('Home')).getByTestId('profile-key').textContent).toBe('No key');
    expect(within(card('Home')).getByText('https://proxy.example.net/api/v1')).toBeTruthy();
  });

  it('switches to another profile', async () => {
    const switched = appState({
      profiles: [
        { ...work, active: false },
        { ...home, active: true },
      ],
      activeProfile: { ...home, active: true },
    });
    fake.current.handle('profiles:switch', () => ok(switched));
    renderSettings();
    fireEvent.click(within(card('Home')).getByRole('button', { name: 'Switch to this profile' }));
    await settle();
    expect(fake.current.callsTo('profiles:switch')).toEqual([{ profileId: 'prof_home' }]);
    expect(useAppStore.getState().state?.activeProfile?.id).toBe('prof_home');
  });

  it('renames and changes the base URL, showing field errors next to the fields', async () => {
    fake.current.handle('profiles:update', () =>
      fail('invalid_input', 'baseUrl: Enter a full URL', {
        fields: [{ field: 'baseUrl', message: 'Enter a full URL' }],
      }),
    );
    renderSettings();
    fireEvent.click(within(card('Work')).getByRole('button', { name: 'Edit' }));
    const form = screen.getByRole('form', { name: 'Edit Work' });
    fireEvent.change(within(form).getByLabelText('Profile name'), { target: { value: 'Work 2' } });
    fireEvent.change(within(form).getByLabelText('Base URL'), { target: { value: 'nope' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Save changes' }));
    expect(await within(form).findByText('Enter a full URL')).toBeTruthy();
    expect(within(form).getByLabelText('Base URL').getAttribute('aria-invalid')).toBe('true');
    expect(fake.current.callsTo('profiles:update')).toEqual([
      { profileId: 'prof_work', name: 'Work 2', baseUrl: 'nope' },
    ]);

    fake.current.handle('profiles:update', () =>
      ok(appState({ profiles: [{ ...work, name: 'Work 2' }, home] })),
    );
    fireEvent.change(within(form).getByLabelText('Base URL'), { target: { value: work.baseUrl } });
    fireEvent.click(within(form).getByRole('button', { name: 'Save changes' }));
    await settle();
    expect(fake.current.callsTo('profiles:update').at(-1)).toEqual({
      profileId: 'prof_work',
      name: 'Work 2',
    });
    expect(screen.queryByRole('form', { name: 'Edit Work' })).toBeNull();
  });

  it('asks for the key again when the base URL moves to another origin, and sends it with the change', async () => {
    fake.current.handle('profiles:update', () => ok(appState({ profiles: [work, home] })));
    renderSettings();
    fireEvent.click(within(card('Work')).getByRole('button', { name: 'Edit' }));
    const form = screen.getByRole('form', { name: 'Edit Work' });
    // Same origin, another path: the key stays bound, no key field.
    fireEvent.change(within(form).getByLabelText('Base URL'), { target: { value: `${work.baseUrl}/x` } });
    expect(within(form).queryByLabelText('API key for the new address')).toBeNull();
    fireEvent.change(within(form).getByLabelText('Base URL'), {
      target: { value: 'https://moved.example.org/api/v1' },
    });
    fireEvent.change(within(form).getByLabelText('API key for the new address'), {
      target: { value: 'live_key_moved_c3d4' },
    });
    fireEvent.click(within(form).getByRole('button', { name: 'Save changes' }));
    await settle();
    expect(fake.current.callsTo('profiles:update')).toEqual([
      { profileId: 'prof_work', baseUrl: 'https://moved.example.org/api/v1', apiKey: 'live_key_moved_c3d4' },
    ]);
  });

  it("shows main's key_required next to the key field", async () => {
    fake.current.handle('profiles:update', () =>
      fail('key_required', 'Enter the key again', {
        fields: [{ field: 'apiKey', message: 'Enter the key again' }],
      }),
    );
    renderSettings();
    fireEvent.click(within(card('Work')).getByRole('button', { name: 'Edit' }));
    const form = screen.getByRole('form', { name: 'Edit Work' });
    fireEvent.change(within(form).getByLabelText('Base URL'), {
      target: { value: 'https://moved.example.org/api/v1' },
    });
    fireEvent.click(within(form).getByRole('button', { name: 'Save changes' }));
    expect(await within(form).findByText('Enter the key again')).toBeTruthy();
    expect(within(form).getByLabelText('API key for the new address').getAttribute('aria-invalid')).toBe(
      'true',
    );
  });

  it('deletes a profile only after confirmation, with Cancel focused first', async () => {
    fake.current.handle('profiles:delete', () => ok(noProfileState()));
    renderSettings();
    fireEvent.click(within(card('Home')).getByRole('button', { name: 'Delete' }));
    expect(fake.current.callsTo('profiles:delete')).toEqual([]);
    const confirm = screen.getByRole('group', { name: /Delete the profile “Home”/ });
    expect(document.activeElement).toBe(within(confirm).getByRole('button', { name: 'Cancel' }));
    fireEvent.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('group', { name: /Delete the profile/ })).toBeNull();

    fireEvent.click(within(card('Home')).getByRole('button', { name: 'Delete' }));
    fireEvent.click(screen.getByRole('button', { name: 'Delete profile' }));
    await settle();
    expect(fake.current.callsTo('profiles:delete')).toEqual([{ profileId: 'prof_home' }]);
  });

  it('sets a key with the chosen storage and shows the keychain error', async () => {
    fake.current.handle('profiles:setKey', (input) =>
      input.storage === 'keychain'
        ? fail('keychain_unavailable', 'The keychain is locked.', { fields: undefined })
        : ok(
            appState({
              profiles: [work, { ...home, key: { configured: true, masked: '…9f9f', source: 'session' } }],
            }),
          ),
    );
    renderSettings();
    fireEvent.click(within(card('Home')).getByRole('button', { name: 'Set key' }));
    const form = screen.getByRole('form', { name: 'Set the key of Home' });
    fireEvent.change(within(form).getByLabelText('New API key'), { target: { value: 'new-key-9f9f' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Save key' }));
    expect(await within(form).findByText('The keychain is locked.')).toBeTruthy();
    expect(within(form).getByText(/The OS keychain cannot store the key/)).toBeTruthy();
    fireEvent.click(within(form).getByRole('radio', { name: /This session only/ }));
    fireEvent.click(within(form).getByRole('button', { name: 'Save key' }));
    await settle();
    expect(fake.current.callsTo('profiles:setKey')).toEqual([
      { profileId: 'prof_home', apiKey: 'new-key-9f9f', storage: 'keychain' },
      { profileId: 'prof_home', apiKey: 'new-key-9f9f', storage: 'session' },
    ]);
    expect(within(card('Home')).getByTestId('profile-key').textContent).toBe('…9f9f in this session only');
  });

  it('removes a key after confirmation', async () => {
    fake.current.handle('profiles:removeKey', () =>
      ok(appState({ profiles: [{ ...work, key: { configured: false, masked: null, source: null } }, home] })),
    );
    renderSettings();
    fireEvent.click(within(card('Work')).getByRole('button', { name: 'Remove key' }));
    const confirm = screen.getByRole('group', { name: /Remove the API key of “Work”/ });
    expect(fake.current.callsTo('profiles:removeKey')).toEqual([]);
    fireEvent.click(within(confirm).getByRole('button', { name: 'Remove key' }));
    await settle();
    expect(fake.current.callsTo('profiles:removeKey')).toEqual([{ profileId: 'prof_work' }]);
    expect(within(card('Work')).getByTestId('profile-key').textContent).toBe('No key');
  });

  it('adds a profile with the same form as onboarding, and closes it once saved', async () => {
    fake.current.handle('connection:test', () => ok(passedTest({ baseUrl: 'https://new.example/api/v1' })));
    fake.current.handle('profiles:create', () =>
      ok(appState({ profiles: [work, home, profile({ id: 'prof_new', name: 'New', active: false })] })),
    );
    renderSettings();
    fireEvent.click(screen.getByRole('button', { name: 'Add a profile' }));
    const form = screen.getByRole('form', { name: 'Connect an account' });
    fireEvent.change(within(form).getByLabelText('API key'), { target: { value: 'new-key-1234' } });
    fireEvent.change(within(form).getByLabelText('Base URL'), {
      target: { value: 'https://new.example/api/v1' },
    });
    fireEvent.change(within(form).getByLabelText('Profile name'), { target: { value: 'New' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Save' }));
    await settle();
    expect(fake.current.callsTo('profiles:create')).toEqual([
      {
        name: 'New',
        baseUrl: 'https://new.example/api/v1',
        pathStyle: 'strip-v1',
        apiKey: 'new-key-1234',
        storage: 'keychain',
        duplicate: 'refuse',
      },
    ]);
    expect(screen.queryByRole('form', { name: 'Connect an account' })).toBeNull();
    expect(card('New')).toBeTruthy();
  });

  it('offers no key or edit actions on the demo profile', async () => {
    renderSettings(appState({ activeProfile: demoProfile(), profiles: [demoProfile()] }));
    const demo = card('Demo \\(sandbox\\)');
    expect(within(demo).queryByRole('button', { name: 'Edit' })).toBeNull();
    expect(within(demo).queryByRole('button', { name: 'Delete' })).toBeNull();
    expect(within(demo).getByTestId('profile-key').textContent).toBe('…-key in demo sandbox');
    await settle();
  });

  it('applies polling and alert settings when a field is left (no Save), with main’s field errors next to their fields', async () => {
    fake.current.handle('settings:update', (input) =>
      fail('invalid_input', 'Some fields are invalid', {
        fields: input.polling
          ? [{ field: 'polling.usageVisibleMinutes', message: 'Too big: expected number to be <=1440' }]
          : [{ field: 'alerts.trafficRemainingPercent', message: 'Too big: expected number to be <=100' }],
      }),
    );
    renderSettings();
    fireEvent.change(await screen.findByLabelText('Usage refresh, window open'), {
      target: { value: '5000' },
    });
    fireEvent.blur(screen.getByLabelText('Usage refresh, window open'));
    fireEvent.change(screen.getByLabelText('Low traffic, % left'), { target: { value: '150' } });
    expect(screen.queryByRole('button', { name: 'Save' })).toBeNull();
    fireEvent.blur(screen.getByLabelText('Low traffic, % left'));
    expect(await screen.findByText('Too big: expected number to be <=1440')).toBeTruthy();
    expect(await screen.findByText('Too big: expected number to be <=100')).toBeTruthy();
    expect(screen.getByLabelText('Usage refresh, window open').getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByLabelText('Low traffic, % left').getAttribute('aria-invalid')).toBe('true');
    expect(fake.current.callsTo('settings:update')).toEqual([
      { polling: { usageVisibleMinutes: 5000 } },
      { alerts: { trafficRemainingPercent: 150 } },
    ]);

    fake.current.handle('settings:update', () =>
      ok(settingsView({ alerts: { ...settingsView().alerts, trafficRemainingPercent: 20 } })),
    );
    fireEvent.change(screen.getByLabelText('Usage refresh, window open'), { target: { value: '60' } });
    fireEvent.change(screen.getByLabelText('Low traffic, % left'), { target: { value: '20' } });
    fireEvent.blur(screen.getByLabelText('Low traffic, % left'));
    const toast = await screen.findByTestId('settings-undo');
    expect(toast.textContent).toContain('Applied. Low traffic, % left: 20 % left.');
    expect(screen.queryByText('Too big: expected number to be <=1440')).toBeNull();

    // Undo sends back what the change replaced.
    fake.current.handle('settings:update', () => ok(settingsView()));
    fireEvent.click(within(toast).getByRole('button', { name: 'Undo' }));
    await settle();
    expect(fake.current.callsTo('settings:update').at(-1)).toEqual({
      alerts: { trafficRemainingPercent: 10 },
    });
    expect(screen.queryByTestId('settings-undo')).toBeNull();
    expect(screen.getByLabelText<HTMLInputElement>('Low traffic, % left').value).toBe('10');
  });

  it('applies a theme at once and offers to undo it', async () => {
    fake.current.handle('settings:update', (input) => ok(settingsView({ theme: input.theme ?? 'system' })));
    renderSettings();
    fireEvent.click(await screen.findByRole('radio', { name: 'Dark' }));
    const toast = await screen.findByTestId('settings-undo');
    expect(toast.textContent).toContain('Theme: dark');
    fireEvent.click(within(toast).getByRole('button', { name: 'Undo' }));
    await settle();
    expect(fake.current.callsTo('settings:update')).toEqual([{ theme: 'dark' }, { theme: 'system' }]);
  });

  it('sets compact table rows under Appearance, and offers to undo it', async () => {
    fake.current.handle('settings:update', (input) =>
      ok(settingsView({ density: input.density ?? 'comfortable' })),
    );
    renderSettings();
    const appearance = await screen.findByRole('region', { name: 'Appearance' });
    const rows = within(appearance).getByRole('group', { name: 'Table rows' });
    expect(within(rows).getByRole<HTMLInputElement>('radio', { name: 'Comfortable' }).checked).toBe(true);
    fireEvent.click(within(rows).getByRole('radio', { name: 'Compact' }));
    const toast = await screen.findByTestId('settings-undo');
    expect(toast.textContent).toContain('Table rows: compact');
    expect(within(rows).getByRole<HTMLInputElement>('radio', { name: 'Compact' }).checked).toBe(true);
    fireEvent.click(within(toast).getByRole('button', { name: 'Undo' }));
    await settle();
    expect(fake.current.callsTo('settings:update')).toEqual([
      { density: 'compact' },
      { density: 'comfortable' },
    ]);
  });

  it('refuses a value that is not a whole number without calling main', async () => {
    renderSettings();
    fireEvent.change(await screen.findByLabelText('Top-up check while verifying'), {
      target: { value: '2.5' },
    });
    fireEvent.change(screen.getByLabelText('Usage refresh, window open'), { target: { value: '' } });
    fireEvent.submit(screen.getByRole('form', { name: 'Polling' }));
    expect(screen.getAllByText('Enter a whole number')).toHaveLength(2);
    expect(fake.current.callsTo('settings:update')).toEqual([]);
  });

  it('shows a failed settings load with Retry', async () => {
    fake.current.handle('settings:get', () => fail('internal_error', 'Something went wrong inside the app.'));
    renderSettings();
    expect(await screen.findByText('Something went wrong inside the app.')).toBeTruthy();
    fake.current.handle('settings:get', () => ok(settingsView()));
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByLabelText('Usage refresh, window open')).toBeTruthy();
  });

  describe('desktop preferences', () => {
    const desktop = { closeToTray: true, startAtLogin: false, startMinimized: false };
    const withDesktop = (overrides: Partial<typeof desktop> = {}) =>
      settingsView({ desktop: { ...desktop, ...overrides } });

    it('shows them in the desktop app, each with its one-line explanation, and saves a change at once', async () => {
      fake.current.handle('settings:get', () => ok(withDesktop()));
      fake.current.handle('settings:update', () => ok(withDesktop({ closeToTray: false })));
      renderSettings(appState({ mode: 'desktop', profiles: [work, home] }));
      const section = await screen.findByRole('region', { name: 'Desktop' });
      const tray = within(section).getByRole<HTMLInputElement>('checkbox', {
        name: 'Keep running in the tray',
      });
      expect(tray.checked).toBe(true);
      expect(tray.getAttribute('aria-describedby')).toBeTruthy();
      expect(document.getElementById(tray.getAttribute('aria-describedby')!)?.textContent).toBe(
        'Keep running in the tray when the window is closed, so schedules and payment watching continue.',
      );
      expect(
        within(section).getByRole<HTMLInputElement>('checkbox', { name: 'Start at login' }).checked,
      ).toBe(false);
      expect(within(section).getByRole('checkbox', { name: 'Start minimized' })).toBeTruthy();

      fireEvent.click(tray);
      await settle();
      expect(fake.current.callsTo('settings:update')).toEqual([{ desktop: { closeToTray: false } }]);
      expect(tray.checked).toBe(false);
    });

    it('shows why a change was refused', async () => {
      fake.current.handle('settings:get', () => ok(withDesktop()));
      fake.current.handle('settings:update', () =>
        fail('login_item_failed', 'The system refused to add a login item.'),
      );
      renderSettings(appState({ mode: 'desktop', profiles: [work, home] }));
      fireEvent.click(await screen.findByRole('checkbox', { name: 'Start at login' }));
      expect(await screen.findByText('The system refused to add a login item.')).toBeTruthy();
    });

    it('lists the ports for the tray menu, searchable, with bulk pin and unpin in one call', async () => {
      const many = Array.from({ length: 30 }, (_, i) =>
        port({ id: `mp_${i}`, label: i === 4 ? '' : `Modem ${i}` }),
      );
      let pinned = ['mp_1'];
      fake.current.handle('settings:get', () => ok(withDesktop()));
      fake.current.handle('ports:list', () => ok(portsAnswer(many)));
      fake.current.handle('tray:get', () => ok({ profileId: 'prof_work', pinnedPortIds: pinned }));
      fake.current.handle('tray:setPinned', ({ portIds }) => {
        pinned = portIds;
        return ok({ profileId: 'prof_work', pinnedPortIds: pinned });
      });
      renderSettings(appState({ mode: 'desktop', profiles: [work, home] }));
      const section = await screen.findByRole('region', { name: 'Desktop' });
      const group = within(section).getByRole('group', { name: 'Ports in the tray menu' });
      await within(group).findByRole('checkbox', { name: 'Modem 0' });
      expect(within(group).getByRole<HTMLInputElement>('checkbox', { name: 'Modem 1' }).checked).toBe(true);
      // Without a label a port is named by its id.
      expect(within(group).getByRole('checkbox', { name: 'mp_4' })).toBeTruthy();
      expect(within(group).getByTestId('tray-pins-count').textContent).toBe(
        'On for 1 of 30 ports · at most 20',
      );

      // 30 would pass the tray's 20: the bulk button says so by being disabled; a search narrows it.
      expect(
        within(group).getByRole<HTMLButtonElement>('button', { name: 'Turn on for 29 shown ports' }).disabled,
      ).toBe(true);
      fireEvent.change(within(group).getByLabelText('Search ports'), { target: { value: 'modem 2' } });
      fireEvent.click(within(group).getByRole('button', { name: 'Turn on for 11 shown ports' }));
      await settle();
      expect(fake.current.callsTo('tray:setPinned')).toHaveLength(1);
      expect(pinned).toHaveLength(12);
      expect(pinned[0]).toBe('mp_1');
      fireEvent.click(within(group).getByRole('button', { name: 'Turn off for 11 shown ports' }));
      await settle();
      expect(pinned).toEqual(['mp_1']);
    });

    it('are not shown in web mode', async () => {
      fake.current.handle('settings:get', () => ok(withDesktop()));
      renderSettings(appState({ mode: 'web', profiles: [work, home] }));
      await screen.findByLabelText('Usage refresh, window open');
      expect(screen.queryByRole('region', { name: 'Desktop' })).toBeNull();
      expect(screen.queryByRole('checkbox', { name: 'Keep running in the tray' })).toBeNull();
    });
  });

  it('has a side navigation of its groups; a group’s address brings its heading into focus', async () => {
    renderSettings();
    await screen.findByLabelText('Usage refresh, window open');
    const nav = screen.getByRole('navigation', { name: 'Settings sections' });
    const links = within(nav).getAllByRole('link');
    // Web mode (no desktop group): every group the page shows, in its order.
    expect(links.map((link) => link.textContent)).toEqual([
      'Profiles',
      'Appearance',
      'Polling',
      'Alerts',
      'Alert channels',
      'Proxy test',
      'Health checks',
      'Automation',
      'Updates',
    ]);
    expect(links[3]?.getAttribute('href')).toBe('#/settings/alerts');
    act(() => {
      window.location.hash = '#/settings/alerts';
      window.dispatchEvent(new HashChangeEvent('hashchange'));
    });
    expect(within(nav).getByRole('link', { name: 'Alerts' }).getAttribute('aria-current')).toBe('location');
    expect(document.activeElement).toBe(screen.getByRole('heading', { level: 2, name: 'Alerts' }));
  });

  it('has no Apply button, not even a hidden one: Enter in a field applies it', async () => {
    fake.current.handle('settings:update', () => ok(settingsView()));
    renderSettings();
    const field = await screen.findByLabelText('Usage refresh, window open');
    expect(screen.queryAllByRole('button', { name: /apply/i, hidden: true })).toEqual([]);
    fireEvent.change(field, { target: { value: '7' } });
    fireEvent.keyDown(field, { key: 'Enter' });
    await settle();
    expect(fake.current.callsTo('settings:update')).toEqual([{ polling: { usageVisibleMinutes: 7 } }]);
  });

  it('lets the undo toast go after a few seconds, but not while the pointer is on it', async () => {
    fake.current.handle('settings:update', (input) => ok(settingsView({ theme: input.theme ?? 'system' })));
    renderSettings();
    fireEvent.click(await screen.findByRole('radio', { name: 'Dark' }));
    await settle();
    vi.useFakeTimers();
    try {
      const toast = screen.getByTestId('settings-undo');
      fireEvent.mouseEnter(toast);
      act(() => void vi.advanceTimersByTime(UNDO_TOAST_MS * 3));
      expect(screen.getByTestId('settings-undo')).toBeTruthy();
      fireEvent.mouseLeave(toast);
      act(() => void vi.advanceTimersByTime(UNDO_TOAST_MS - 1));
      expect(screen.getByTestId('settings-undo')).toBeTruthy();
      act(() => void vi.advanceTimersByTime(1));
      expect(screen.queryByTestId('settings-undo')).toBeNull();
    } finally {
      vi.useRealTimers();
    }
  });
});
