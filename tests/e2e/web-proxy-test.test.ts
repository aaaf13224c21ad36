import { describe, expect, it } from 'vitest';
import type { RotationReceipt } from '../../src-shared/contract';
import { callApi, openApp, openScreen, useWebSession } from './support/app-page';
import { requireBrowser, screenshot } from './support/browser';

/**
 * "Test this proxy" in web mode with the demo: a targeted string of a subscription is built and
 * tested through the in-process sandbox gateway (state and ZIP), and a port is rotated, its receipt
 * verified through the port, and the row's Test shows the new exit IP. The ports screen in main has
 * no rotate button yet, so the rotation is sent through `window.api` (the same call a button makes).
 */

const IP = /\b\d{1,3}(?:\.\d{1,3}){3}\b/;

describe('web mode in a browser: testing proxies', () => {
  const session = useWebSession({ demo: true });

  it('builds a string with state and ZIP, tests it and sees the exit IP', async (context) => {
    requireBrowser(context);
    const { page } = await openApp(session, { waitOnline: true });
    await openScreen(page, 'Subscriptions', 'table[aria-label="Traffic subscriptions"]');
    // Under the list, closed until asked for (the list keeps the window's height).
    await page.locator('summary', { hasText: 'Test a proxy string' }).click();
    const form = page.getByRole('region', { name: 'Test a proxy string' });
    const residential = form.locator('option', { hasText: 'Price monitoring' });
    if ((await residential.count()) > 0) {
      await form.getByLabel('Subscription').selectOption({ label: 'Price monitoring' });
    }
    await form.getByLabel('Country').fill('US');
    await form.getByLabel('State').fill('texas');
    await form.getByLabel('ZIP').fill('73301');
    await form.getByRole('button', { name: /^Test proxy / }).click();
    // A state goes with a ZIP: the gateway exits in that state and echoes the ZIP.
    const zipIp = await form.getByTestId('exit-ip').innerText();
    expect(zipIp).toMatch(IP);
    // The exit's place by its catalog name, not its country code.
    await expect.poll(() => form.getByTestId('proxy-test-result').innerText()).toMatch(/, United States/);

    await form.getByLabel('State').fill('');
    await form.getByLabel('ZIP').fill('9021');
    await form.getByRole('button', { name: /^Test proxy / }).click();
    // A malformed ZIP is refused by main before anything is sent, and it says why.
    await expect.poll(() => form.getByRole('alert').innerText()).toContain('exactly 5 digits');

    await form.getByLabel('ZIP').fill('');
    await form.getByLabel('State').fill('texas');
    await form.getByLabel('Protocol').selectOption('socks5');
    await form.getByRole('button', { name: /^Test proxy / }).click();
    await expect.poll(() => form.getByTestId('proxy-test-result').innerText()).toMatch(/SOCKS5/);
    expect(await form.getByTestId('exit-ip').innerText()).toMatch(IP);
    await screenshot(page, 'proxy-test-string');
    // The password never reaches the page: the string test sent ids and targeting only.
    expect(await page.content()).not.toMatch(/password/i);
  });

  it('rotates a port, sees the receipt verified through the port and the new exit IP in its Test', async (context) => {
    requireBrowser(context);
    const { page } = await openApp(session, { waitOnline: true });
    await openScreen(page, 'Ports', 'table[aria-label="Mobile ports"]');
    const row = page
      .getByRole('table', { name: 'Mobile ports' })
      .locator('tbody tr', { hasText: 'Active' })
      .first();
    const portId = await row.locator('th code').innerText();
    const label = await row.locator('th a').innerText();
    const name = label === '(no label)' ? portId : label;
    // The result shows in the results table under the list (beside the row, not inside it).
    const results = page.getByRole('table', { name: 'Proxy test results: ports' });
    const resultOf = results
      .locator('tbody tr')
      .filter({ has: page.getByRole('rowheader', { name, exact: true }) });
    await row.getByRole('button', { name: /^Test proxy / }).click();
    await expect.poll(() => row.innerText()).toMatch(/✓ Works/);
    expect(await row.getByTestId('exit-ip').count()).toBe(0);
    const before = await resultOf.locator('td code').innerText();
    expect(before).toMatch(IP);

    // An error result throws (with its code and message), failing the test.
    const receipt = await callApi<RotationReceipt>(page, 'ports', 'rotate', { portId });
    // The carrier may hand back the same IP (the sandbox does about one time in eight): the receipt says so.
    expect(receipt.sameIp).toBe(receipt.ip === before);
    expect(receipt.verification).toEqual({ exitIp: receipt.ip, matches: true });

    await row.getByRole('button', { name: /^Test proxy / }).click();
    await expect.poll(() => resultOf.locator('td code').innerText()).toBe(receipt.ip);

    await page.getByRole('button', { name: 'Test all ports' }).click();
    await expect.poll(async () => (await results.locator('tbody tr').count()) > 1).toBe(true);
    await expect.poll(() => results.innerText()).toContain(receipt.ip);
    await screenshot(page, 'proxy-test-ports');
  });
});
