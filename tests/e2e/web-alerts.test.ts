import { describe, expect, it } from 'vitest';
import type { Subscription } from '../../src-shared/api-types';
import type { AppState } from '../../src-shared/contract';
import { callApi, online, openApp, openScreen, sandboxControl, useWebSession } from './support/app-page';
import { requireBrowser, screenshot, seriousAxeViolations } from './support/browser';

/**
 * A low-traffic alert end to end in web mode with the demo: a per-subscription threshold is set on
 * the Settings screen, the sandbox's clock is moved on (its simulated users spend traffic as it moves)
 * until the subscription is below it, the usage poller reads it, and the alert shows in the in-app
 * list exactly once.
 *
 * The poller cannot be woken on demand and its fastest pace is one real minute, which a test must not
 * wait for; it does read a profile it has not seen in its next cycle, and a settings change starts
 * one. So once the traffic is below the threshold the demo is left and started again (a new demo
 * profile), and the window pace is set to its smallest (1 minute): the poller wakes, reads the new
 * profile at once with the threshold in force, and raises the alert.
 */

const GB = 1_000_000_000n;

/** Exact bytes as the decimal GB string the settings take (never a float). */
function gbOf(bytes: bigint): string {
  const fraction = (bytes % GB).toString().padStart(9, '0').replace(/0+$/, '');
  return fraction === '' ? `${bytes / GB}` : `${bytes / GB}.${fraction}`;
}

describe('web mode in a browser: traffic alerts', () => {
  const session = useWebSession({ demo: true });

  it('sets a threshold in Settings, the subscription crosses it, and the alert shows once', async (context) => {
    requireBrowser(context);
    const { page } = await openApp(session, { waitOnline: true });

    // A subscription well above the default 10%, so that only the new threshold can make it low.
    const subscriptions = await callApi<Subscription[]>(page, 'subscriptions', 'list');
    const target = subscriptions.find(
      (sub) =>
        sub.status === 'active' &&
        sub.trafficRemainingBytes > 100_000_000 &&
        sub.trafficRemainingBytes * 100 > 30 * sub.trafficTotalBytes,
    );
    expect(target, JSON.stringify(subscriptions.map((s) => [s.label, s.status]))).toBeTruthy();
    if (!target) return;
    // 10 MB below what is left now: the sandbox's own pace in real time stays far from it meanwhile.
    const threshold = BigInt(target.trafficRemainingBytes) - 10_000_000n;

    await openScreen(page, 'Settings');
    const alerts = page.getByRole('region', { name: 'Alerts' });
    const add = alerts.getByRole('form', { name: 'Add a threshold' });
    await add.getByLabel('Subscription').selectOption(target.id);
    await add.getByLabel('GB left').fill(gbOf(threshold));
    await add.getByRole('button', { name: 'Add threshold' }).click();
    const table = alerts.getByRole('table', { name: 'Thresholds per subscription' });
    await table.getByRole('rowheader', { name: target.label }).waitFor();
    expect(await table.innerText()).toContain(`${gbOf(threshold)} GB left`);
    await page.getByTestId('settings-undo').getByText(`Threshold for “${target.label}”`).waitFor();
    const saved = await callApi<{ alerts: { trafficBySubscription: Record<string, unknown> } }>(
      page,
      'settings',
      'get',
    );
    expect(saved.alerts.trafficBySubscription[target.id]).toEqual({ gb: gbOf(threshold) });
    await alerts.scrollIntoViewIfNeeded();
    await screenshot(page, 'settings-alerts');
    // The new groups (with the threshold table filled) pass axe without a serious violation.
    expect(await seriousAxeViolations(page)).toEqual([]);

    const remaining = async () =>
      BigInt(
        (await callApi<Subscription>(page, 'subscriptions', 'get', { subscriptionId: target.id }))
          .trafficRemainingBytes,
      );
    expect(await remaining()).toBeGreaterThan(threshold);

    // Drive the sandbox: a day at a time, until the subscription has spent its way below the threshold.
    let left = await remaining();
    for (let day = 0; day < 14 && left >= threshold; day += 1) {
      await sandboxControl(page, '/clock', { advanceSeconds: 86_400 });
      left = await remaining();
    }
    expect(left).toBeLessThan(threshold);

    // The poller reads a profile it has not seen at once (the demo's new profile after a restart) in
    // its next cycle; the one it polled at the start is not due again for minutes.
    await callApi<AppState>(page, 'demo', 'stop');
    const restarted = await callApi<AppState>(page, 'demo', 'start');
    expect(restarted.demo.running).toBe(true);
    await online(page).waitFor();

    // Nothing wakes the poller when a profile is added (only a settings change does), so the new
    // profile waits for the old one's deadline; the fastest window pace, set here, is such a change.
    await openScreen(page, 'Settings');
    const pace = page.getByRole('region', { name: 'Polling' }).getByLabel('Usage refresh, window open');
    await pace.fill('1');
    await pace.press('Enter');
    await page.getByTestId('settings-undo').getByText('Usage refresh, window open: 1 minutes').waitFor();

    await openScreen(page, 'Subscriptions');
    // Under the list, closed until asked for, its summary counting them.
    const alertsPart = page.locator('.screen-slot:not([hidden]) summary', { hasText: 'Alerts' });
    await alertsPart.click();
    const list = page.getByRole('list', { name: 'Alerts' });
    const ours = list
      .getByRole('listitem')
      // The alert says what the Overview's item says (one model words both).
      .filter({ hasText: `Subscription “${target.label}” is running out of traffic` });
    await ours.first().waitFor({ timeout: 30_000 });
    expect(await ours.count()).toBe(1);
    await ours.first().scrollIntoViewIfNeeded();
    await screenshot(page, 'alerts-traffic-low');

    // Once: main's own list (a reload reads it again) has it once too.
    await page.reload();
    await online(page).waitFor();
    await openScreen(page, 'Subscriptions');
    await alertsPart.click();
    await ours.first().waitFor();
    expect(await ours.count()).toBe(1);
  });
});
