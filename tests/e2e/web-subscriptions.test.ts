import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { openApp, openScreen, useWebSession, type WebSession } from './support/app-page';
import { requireBrowser, screenshot } from './support/browser';

/**
 * Web mode with `--demo`: a subscription's sub-users are created, capped, disabled, given a new
 * password and deleted through the screens; the cap typed as 1.5 GB reaches the service as exact
 * bytes; usage ranges the service would refuse are refused on the form; proxy strings are built.
 */

async function openFirstSubscription(session: WebSession) {
  const opened = await openApp(session);
  const { page } = opened;
  await openScreen(page, 'Subscriptions');
  const table = page.getByRole('table', { name: 'Traffic subscriptions' });
  await table.waitFor();
  await table.getByRole('rowheader').first().getByRole('link').click();
  await page.getByRole('tablist', { name: 'Subscription' }).waitFor();
  return opened;
}

const subscriptionIdOf = (page: Page) => decodeURIComponent(new URL(page.url()).hash.split('/')[2] ?? '');

describe('web mode in a browser: subscriptions', () => {
  const session = useWebSession({ demo: true });

  it('creates, caps, disables, regenerates and deletes a sub-user; 1.5 GB is sent as 1500000000 bytes', async (context) => {
    requireBrowser(context);
    const { page, problems } = await openFirstSubscription(session);
    const subscriptionId = subscriptionIdOf(page);
    await screenshot(page, 'subscriptions-detail');
    await page.getByRole('tab', { name: 'Sub-users' }).click();
    await page.getByRole('button', { name: 'New sub-user' }).click();
    const form = page.getByRole('form', { name: 'New sub-user' });
    await form.getByLabel('Label').fill('e2e-capped');
    await form.getByLabel('Traffic cap').fill('1.5');
    await form.getByLabel('Cap unit').selectOption('GB');
    await form.getByRole('button', { name: 'Create sub-user' }).click();
    const table = page.getByRole('table', { name: 'Sub-users' });
    const row = table.getByRole('row').filter({ has: page.getByRole('rowheader', { name: 'e2e-capped' }) });
    await row.waitFor();
    expect(await row.innerText()).toMatch(/of 1\.50 GB/);

    // The list carries no password: the proxy string the page can build for the sub-user says it.
    const readSubUser = (id: string) =>
      page.evaluate(async (subscriptionId) => {
        const listed = await window.api!.subscriptions.subUsers({ subscriptionId });
        if (!listed.ok) return null;
        const values = listed.value.rows.find((row) => row[1] === 'e2e-capped');
        if (!values) return null;
        const built = await window.api!.subscriptions.buildProxyString({
          subscriptionId,
          subUserId: values[0],
          targeting: {},
          format: 'http_url',
          protocol: 'http',
        });
        return {
          listedWithPassword: JSON.stringify(listed.value).includes('password'),
          trafficLimitBytes: values[3],
          enabled: values[5],
          password: built.ok ? built.value.password : null,
        };
      }, id);
    const stored = await readSubUser(subscriptionId);
    expect(stored?.listedWithPassword).toBe(false);
    expect(stored?.trafficLimitBytes).toBe(1_500_000_000);
    const firstPassword = stored?.password;
    expect(firstPassword).toBeTruthy();

    await row.getByRole('button', { name: 'Disable e2e-capped' }).click();
    await row.getByRole('button', { name: 'Enable e2e-capped' }).waitFor();
    await row.getByRole('button', { name: 'New password for e2e-capped' }).click();
    await page.getByText('New password for e2e-capped').waitFor();
    const after = await readSubUser(subscriptionId);
    expect(after?.enabled).toBe(false);
    expect(after?.password).not.toBe(firstPassword);
    await screenshot(page, 'subscriptions-sub-users');

    await row.getByRole('button', { name: 'Delete e2e-capped' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
    await row.waitFor({ state: 'detached' });
    expect(problems).toEqual([]);
    await page.close();
  });

  it('refuses a usage range over 366 days or inverted on the form, before asking', async (context) => {
    requireBrowser(context);
    const { page } = await openFirstSubscription(session);
    await page.getByRole('tab', { name: 'Usage' }).click();
    await page.getByLabel('Usage totals').waitFor();
    const range = page.getByRole('form', { name: 'Usage range' });
    await range.getByLabel('From').fill('2024-01-01');
    await range.getByLabel('To').fill('2025-06-01');
    await range.getByRole('button', { name: 'Show' }).click();
    await page.getByText(/At most 366 days/).waitFor();
    await range.getByLabel('From').fill('2025-06-02');
    await range.getByRole('button', { name: 'Show' }).click();
    await page.getByText('The end is before the start').waitFor();
    await range.getByRole('button', { name: 'Last 90 days' }).click();
    await page.getByLabel('Usage totals').waitFor();
    await screenshot(page, 'subscriptions-usage');
    await page.close();
  });

  it('builds and copies a string with a state, then one with state and ZIP, and tests it through the gateway', async (context) => {
    requireBrowser(context);
    const { page } = await openFirstSubscription(session);
    await page
      .context()
      .grantPermissions(['clipboard-read', 'clipboard-write'], { origin: session.web.origin });
    await page.getByRole('tab', { name: 'Proxy strings' }).click();
    const form = page.getByRole('form', { name: 'Proxy string builder' });
    await form.getByLabel('Country', { exact: true }).selectOption('US');
    await form.getByLabel('State', { exact: true }).waitFor();
    await form.getByLabel('State', { exact: true }).selectOption('texas');
    await form.getByRole('button', { name: 'Build' }).click();
    const line = page.getByLabel('Proxy string', { exact: true });
    await line.waitFor();
    expect(await line.innerText()).toContain('-country-us-state-texas');

    await form.getByLabel('US ZIP code', { exact: true }).fill('1234');
    await form.getByRole('button', { name: 'Build' }).click();
    await page.getByText('A ZIP code is exactly 5 digits.').waitFor();
    await form.getByLabel('US ZIP code', { exact: true }).fill('73301');
    await form.getByRole('button', { name: 'Build' }).click();
    await page.waitForFunction(() =>
      document
        .querySelector('[aria-label="Proxy string"]')
        ?.textContent?.includes('-country-us-state-texas-zip-73301'),
    );
    await page.getByRole('button', { name: 'Copy proxy string' }).click();
    // Shown with the password masked; copied whole.
    expect(await line.innerText()).toContain('••••••••');
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    expect(copied).not.toContain('•');
    await form.getByRole('button', { name: 'Show password' }).click();
    expect(copied).toBe(await line.innerText());

    // The built string through the sandbox gateway: the exit is in Texas, the echo names the place.
    await form.getByRole('button', { name: 'Test proxy this string' }).click();
    const result = form.getByTestId('proxy-test-result');
    // The place by its catalog names (Dallas, United States), not the echo's ids (US, dallas).
    await expect
      .poll(() => result.innerText())
      .toMatch(/Exit IP \d{1,3}(\.\d{1,3}){3} · (Austin|Dallas|Houston|San Antonio), United States/);
    expect(await result.innerText()).not.toMatch(/san_antonio|· US\b/);
    await screenshot(page, 'subscriptions-proxy-builder');
    await page.close();
  });
});
