import { fireEvent, render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { CallInput, SettingsView } from '../../../../src-shared/contract';
import { useAppStore } from '../../../../src-renderer/src/features/app/app-store';
import { SettingsScreen } from '../../../../src-renderer/src/features/settings/SettingsScreen';
import { fail, ok } from '../../support/fake-api';
import { appState, noProfileState, profile, settingsView, subscription } from '../../support/fixtures';
import { settle, useFakeApi } from '../../support/renderer-test-kit';

type Update = CallInput<'settings:update'>;

/** Main's answer to an update: the view with the patch applied (as the settings service does). */
function applied(view: SettingsView, patch: Update): SettingsView {
  return {
    ...view,
    polling: { ...view.polling, ...patch.polling },
    alerts: { ...view.alerts, ...patch.alerts },
    proxyTest: { ...view.proxyTest, ...patch.proxyTest },
  };
}

describe('Settings screen: polling, alerts and the proxy test', () => {
  let current = settingsView();
  const fake = useFakeApi(() => {
    current = settingsView();
    return {
      'settings:get': () => ok(current),
      'settings:update': (input) => {
        current = applied(current, input);
        return ok(current);
      },
      'subscriptions:list': () =>
        ok([
          subscription(),
          subscription({ id: 'sub_2', label: 'Scraping', productId: 'mobile-gb', subUserCount: 0 }),
        ]),
    };
  });

  async function renderSettings() {
    useAppStore.getState().applyState(appState({ profiles: [profile()] }));
    render(<SettingsScreen />);
    return screen.findByRole('region', { name: 'Alerts' });
  }

  const toastText = () => screen.getByTestId('settings-undo').textContent;

  it('sets the window and tray paces of the usage refresh', async () => {
    await renderSettings();
    const polling = screen.getByRole('region', { name: 'Polling' });
    fireEvent.change(within(polling).getByLabelText('Usage refresh, window open'), {
      target: { value: '1' },
    });
    fireEvent.change(within(polling).getByLabelText('Usage refresh, in the tray'), {
      target: { value: '30' },
    });
    fireEvent.submit(within(polling).getByRole('form', { name: 'Polling' }));
    await settle();
    expect(fake.current.callsTo('settings:update')).toEqual([
      { polling: { usageVisibleMinutes: 1, usageMinutes: 30 } },
    ]);
    expect(toastText()).toContain(
      'Usage refresh, window open: 1 minutes, Usage refresh, in the tray: 30 minutes',
    );
  });

  it('sends a GB threshold as the decimal string typed, empty as off, and shows main’s refusal on the field', async () => {
    const alerts = await renderSettings();
    const gb = within(alerts).getByLabelText('Low traffic, GB left');
    fireEvent.change(gb, { target: { value: ' 1.5 ' } });
    fireEvent.blur(gb);
    await settle();
    expect(fake.current.callsTo('settings:update')).toEqual([{ alerts: { trafficRemainingGb: '1.5' } }]);
    expect(toastText()).toContain('Low traffic, GB left: 1.5 GB left');
    expect(within(alerts).getByLabelText<HTMLInputElement>('Low traffic, GB left').value).toBe('1.5');

    fireEvent.change(within(alerts).getByLabelText('Low traffic, GB left'), { target: { value: '' } });
    fireEvent.blur(within(alerts).getByLabelText('Low traffic, GB left'));
    await settle();
    expect(fake.current.callsTo('settings:update').at(-1)).toEqual({ alerts: { trafficRemainingGb: null } });
    expect(toastText()).toContain('Low traffic, GB left: off');

    fake.current.handle('settings:update', () =>
      fail('invalid_input', 'alerts.trafficRemainingGb: Enter GB as a decimal number', {
        fields: [{ field: 'alerts.trafficRemainingGb', message: 'Enter GB as a decimal number, e.g. 1.5' }],
      }),
    );
    fireEvent.change(within(alerts).getByLabelText('Low traffic, GB left'), { target: { value: '1,5' } });
    fireEvent.blur(within(alerts).getByLabelText('Low traffic, GB left'));
    expect(await within(alerts).findByText('Enter GB as a decimal number, e.g. 1.5')).toBeTruthy();
    expect(within(alerts).getByLabelText('Low traffic, GB left').getAttribute('aria-invalid')).toBe('true');
    expect(fake.current.callsTo('settings:update').at(-1)).toEqual({ alerts: { trafficRemainingGb: '1,5' } });
  });

  it('refuses a runs-out window that is not a whole number without asking main', async () => {
    const alerts = await renderSettings();
    fireEvent.change(within(alerts).getByLabelText('Runs-out warning'), { target: { value: '3.5' } });
    fireEvent.blur(within(alerts).getByLabelText('Runs-out warning'));
    await settle();
    expect(within(alerts).getByText('Enter a whole number')).toBeTruthy();
    expect(fake.current.callsTo('settings:update')).toEqual([]);
    fireEvent.change(within(alerts).getByLabelText('Runs-out warning'), { target: { value: '14' } });
    fireEvent.blur(within(alerts).getByLabelText('Runs-out warning'));
    await settle();
    expect(fake.current.callsTo('settings:update')).toEqual([{ alerts: { runsOutWithinDays: 14 } }]);
  });

  it('turns an alert kind off and on again with a checkbox, and Undo puts it back', async () => {
    const alerts = await renderSettings();
    const kinds = within(alerts).getByRole('group', { name: 'Alert kinds' });
    expect(within(kinds).getAllByRole('checkbox')).toHaveLength(6);
    const portExpiring = within(kinds).getByRole<HTMLInputElement>('checkbox', { name: 'Port expiring' });
    expect(portExpiring.checked).toBe(true);
    fireEvent.click(portExpiring);
    await settle();
    expect(fake.current.callsTo('settings:update')).toEqual([
      { alerts: { disabledKinds: ['port_expiring'] } },
    ]);
    expect(within(kinds).getByRole<HTMLInputElement>('checkbox', { name: 'Port expiring' }).checked).toBe(
      false,
    );
    expect(toastText()).toContain('Port expiring: off');
    fireEvent.click(within(screen.getByTestId('settings-undo')).getByRole('button', { name: 'Undo' }));
    await settle();
    expect(fake.current.callsTo('settings:update').at(-1)).toEqual({ alerts: { disabledKinds: [] } });
    expect(within(kinds).getByRole<HTMLInputElement>('checkbox', { name: 'Port expiring' }).checked).toBe(
      true,
    );
  });

  it('chooses the subscriptions whose sub-users get cap alerts from the profile’s subscriptions', async () => {
    current = settingsView({ alerts: { ...settingsView().alerts, subUserAlertSubscriptions: ['sub_gone'] } });
    const alerts = await renderSettings();
    const group = within(alerts).getByRole('group', { name: 'Sub-user cap alerts' });
    const price = await within(group).findByRole<HTMLInputElement>('checkbox', { name: 'Price monitoring' });
    expect(price.checked).toBe(false);
    // A saved id the profile no longer has stays listed, so that it can be removed.
    expect(within(group).getByRole<HTMLInputElement>('checkbox', { name: 'sub_gone' }).checked).toBe(true);
    fireEvent.click(price);
    await settle();
    expect(fake.current.callsTo('settings:update')).toEqual([
      { alerts: { subUserAlertSubscriptions: ['sub_gone', 'sub_1'] } },
    ]);
    expect(toastText()).toContain('Sub-user cap alerts for “Price monitoring”: on');
    fireEvent.click(within(group).getByRole('checkbox', { name: 'sub_gone' }));
    await settle();
    expect(fake.current.callsTo('settings:update').at(-1)).toEqual({
      alerts: { subUserAlertSubscriptions: ['sub_1'] },
    });
  });

  it('adds and removes per-subscription thresholds, with main’s field error on the add form’s field', async () => {
    const alerts = await renderSettings();
    const add = await within(alerts).findByRole('form', { name: 'Add a threshold' });
    fireEvent.click(within(add).getByRole('button', { name: 'Add threshold' }));
    expect(within(add).getByText('Give a percent, GB, or both')).toBeTruthy();
    expect(fake.current.callsTo('settings:update')).toEqual([]);

    fake.current.handle('settings:update', () =>
      fail('invalid_input', 'bad', {
        fields: [
          {
            field: 'alerts.trafficBySubscription.sub_2.gb',
            message: 'Enter GB as a decimal number, e.g. 1.5 (at most 9 decimals)',
          },
        ],
      }),
    );
    fireEvent.change(within(add).getByLabelText('Subscription'), { target: { value: 'sub_2' } });
    fireEvent.change(within(add).getByLabelText('GB left'), { target: { value: '0.0000000001' } });
    fireEvent.click(within(add).getByRole('button', { name: 'Add threshold' }));
    expect(
      await within(add).findByText('Enter GB as a decimal number, e.g. 1.5 (at most 9 decimals)'),
    ).toBeTruthy();
    expect(within(add).getByLabelText('GB left').getAttribute('aria-invalid')).toBe('true');

    fake.current.handle('settings:update', (input) => {
      current = applied(current, input);
      return ok(current);
    });
    fireEvent.change(within(add).getByLabelText('GB left'), { target: { value: '2.5' } });
    fireEvent.change(within(add).getByLabelText('Percent left'), { target: { value: '20' } });
    fireEvent.click(within(add).getByRole('button', { name: 'Add threshold' }));
    await settle();
    expect(fake.current.callsTo('settings:update').at(-1)).toEqual({
      alerts: { trafficBySubscription: { sub_2: { percent: 20, gb: '2.5' } } },
    });
    const table = within(alerts).getByRole('table', { name: 'Thresholds per subscription' });
    expect(within(table).getByRole('rowheader', { name: 'Scraping' })).toBeTruthy();
    // The subscription named is a link to its page.
    expect(within(table).getByRole('link', { name: 'Scraping' }).getAttribute('href')).toBe(
      '#/subscriptions/sub_2',
    );
    expect(within(table).getByText('20% left or 2.5 GB left')).toBeTruthy();
    expect(toastText()).toContain('Threshold for “Scraping”: 20% left or 2.5 GB left');

    // The second one is added beside the first: the table is sent whole.
    fireEvent.change(within(add).getByLabelText('GB left'), { target: { value: '1' } });
    fireEvent.click(within(add).getByRole('button', { name: 'Add threshold' }));
    await settle();
    expect(fake.current.callsTo('settings:update').at(-1)).toEqual({
      alerts: { trafficBySubscription: { sub_2: { percent: 20, gb: '2.5' }, sub_1: { gb: '1' } } },
    });

    fireEvent.click(within(table).getByRole('button', { name: 'Remove Scraping' }));
    await settle();
    expect(fake.current.callsTo('settings:update').at(-1)).toEqual({
      alerts: { trafficBySubscription: { sub_1: { gb: '1' } } },
    });
    expect(within(table).queryByRole('rowheader', { name: 'Scraping' })).toBeNull();
    expect(toastText()).toContain('Threshold for “Scraping”: removed');
  });

  it('sets the IP-echo URL and shows main’s refusal of plain http on the field', async () => {
    await renderSettings();
    const section = screen.getByRole('region', { name: 'Proxy test' });
    const url = within(section).getByLabelText<HTMLInputElement>('IP-echo URL');
    expect(url.value).toBe('https://api.ipify.org?format=json');
    fake.current.handle('settings:update', () =>
      fail('invalid_input', 'bad', {
        fields: [
          {
            field: 'proxyTest.ipEchoUrl',
            message: 'Use https:// (http:// only for this computer: localhost or 127.0.0.1)',
          },
        ],
      }),
    );
    fireEvent.change(url, { target: { value: 'http://ip.example.com/' } });
    fireEvent.blur(url);
    expect(await within(section).findByText(/Use https:\/\//)).toBeTruthy();
    expect(url.getAttribute('aria-invalid')).toBe('true');
    expect(fake.current.callsTo('settings:update')).toEqual([
      { proxyTest: { ipEchoUrl: 'http://ip.example.com/' } },
    ]);
  });

  it('asks for no subscriptions without an active profile, and keeps the saved choices listed', async () => {
    current = settingsView({
      alerts: {
        ...settingsView().alerts,
        subUserAlertSubscriptions: ['sub_1'],
        trafficBySubscription: { sub_1: { percent: 5 } },
      },
    });
    useAppStore.getState().applyState(noProfileState());
    render(<SettingsScreen />);
    const alerts = await screen.findByRole('region', { name: 'Alerts' });
    const group = within(alerts).getByRole('group', { name: 'Sub-user cap alerts' });
    expect(within(group).getByText(/No active profile/)).toBeTruthy();
    expect(within(group).getByRole<HTMLInputElement>('checkbox', { name: 'sub_1' }).checked).toBe(true);
    const table = within(alerts).getByRole('table', { name: 'Thresholds per subscription' });
    expect(within(table).getByText('5% left')).toBeTruthy();
    expect(within(alerts).queryByRole('form', { name: 'Add a threshold' })).toBeNull();
    expect(fake.current.callsTo('subscriptions:list')).toEqual([]);
  });

  it('keeps 200 subscriptions in a searchable box with bulk on and off; one without a label shows its id', async () => {
    const many = Array.from({ length: 200 }, (_, i) =>
      subscription({ id: `sub_${i}`, label: i === 7 ? '' : `Plan ${i}`, subUserCount: i % 3 }),
    );
    fake.current.handle('subscriptions:list', () => ok(many));
    const alerts = await renderSettings();
    const group = within(alerts).getByRole('group', { name: 'Sub-user cap alerts' });
    await within(group).findByRole('checkbox', { name: 'Plan 0' });
    // The unlabelled one is named by its id, never a blank label.
    expect(within(group).getByRole('checkbox', { name: 'sub_7' })).toBeTruthy();
    // The list is its own scrolling box (its height is the style sheet's: min(24rem, 50vh)).
    expect(within(group).getByTestId('cap-alerts-list').className).toBe('pick-list');
    expect(within(group).getByTestId('cap-alerts-count').textContent).toBe('On for 0 of 200 subscriptions');

    fireEvent.change(within(group).getByLabelText('Search subscriptions'), { target: { value: 'plan 1' } });
    // "Plan 1", "Plan 10".."Plan 19", "Plan 100".."Plan 199": 111 shown.
    expect(within(group).getAllByRole('checkbox')).toHaveLength(111);
    fireEvent.click(within(group).getByRole('button', { name: 'Turn on for 111 shown subscriptions' }));
    await settle();
    const sent = fake.current.callsTo('settings:update') as Update[];
    expect(sent).toHaveLength(1);
    expect(sent[0]?.alerts?.subUserAlertSubscriptions).toHaveLength(111);
    expect(toastText()).toContain('Sub-user cap alerts: on for 111 subscriptions');

    fireEvent.change(within(group).getByLabelText('Search subscriptions'), { target: { value: 'plan 19' } });
    fireEvent.click(within(group).getByRole('button', { name: 'Turn off for 11 shown subscriptions' }));
    await settle();
    const last = fake.current.callsTo('settings:update').at(-1) as Update;
    expect(last.alerts?.subUserAlertSubscriptions).toHaveLength(100);
    // The id finds it too (sub_7 and sub_70..sub_79).
    fireEvent.change(within(group).getByLabelText('Search subscriptions'), { target: { value: 'sub_7' } });
    expect(within(group).getAllByRole('checkbox')).toHaveLength(11);
  });
});
