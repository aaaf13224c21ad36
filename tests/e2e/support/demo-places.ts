import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { openScreen } from './app-page';

/**
 * The demo's screens and every sub-page behind them, in one walk that the axe scan (web-demo) and the
 * keyboard check (web-keyboard) share, so that both look at the same places.
 */

/** Each screen's navigation link (its heading says the same) and what shows once it has loaded. */
export const SCREENS = [
  { link: 'Ports', ready: 'table[aria-label="Mobile ports"]' },
  {
    link: 'Subscriptions',
    ready: 'table[aria-label="Traffic subscriptions"]',
  },
  { link: 'Top-ups', ready: 'table[aria-label="Top-ups"]' },
  { link: 'Catalog', ready: 'table[aria-label="Countries"]' },
  { link: 'Settings', ready: 'form[aria-labelledby="polling-title"]' },
  { link: 'Overview', ready: 'ul[aria-label="Needs attention"], .overview-all-good' },
] as const;

export const openScreenOf = (page: Page, screen: (typeof SCREENS)[number]) =>
  openScreen(page, screen.link, screen.ready);

/**
 * Opens each sub-page of the demo in turn (port and subscription tabs, sub-user forms, top-up wizard
 * steps, catalog tabs, every Settings section, the palette, the bulk confirmation, the local proxy
 * form) and calls `at` on each once nothing in the screen shown is loading. Answers the places, in order.
 */
export async function visitDemoSubPages(page: Page, at: (where: string) => Promise<void>): Promise<string[]> {
  const visited: string[] = [];
  /** Nothing still loading in the screen shown (an AsyncContent says aria-busy while it reads). */
  const settled = () =>
    page.waitForFunction(() => !document.querySelector('.screen-slot:not([hidden]) [aria-busy="true"]'));
  const visit = async (where: string) => {
    await settled();
    await at(where);
    visited.push(where);
  };
  const openTab = async (name: string) => {
    const tab = page.getByRole('tab', { name, exact: true });
    await tab.click();
    await expect.poll(() => tab.getAttribute('aria-selected')).toBe('true');
  };

  // Ports: the list with its bulk confirmation open, then every tab of a port's page.
  await openScreenOf(page, SCREENS[0]);
  await page.getByRole('checkbox', { name: 'Select all shown' }).check();
  await page.getByRole('button', { name: /^Rotate \d+ selected ports$/ }).click();
  await page.getByRole('alertdialog').waitFor();
  await visit('ports: bulk rotate confirmation');
  await page.getByRole('alertdialog').getByRole('button', { name: "Don't" }).click();
  await page.getByRole('button', { name: 'Clear selection' }).click();
  await page.getByRole('table', { name: 'Mobile ports' }).locator('tbody tr th a').first().click();
  const rotation = page.getByRole('region', { name: 'App schedule' });
  await rotation.waitFor();
  await visit('port: Rotation');
  // The schedule points to the tab where server-side rotation is set, and that tab points back.
  await rotation.getByRole('button', { name: 'Settings tab' }).click();
  await page.getByRole('button', { name: 'Rotation tab' }).waitFor();
  await visit('port: Settings');
  for (const tab of ['Health', 'Credentials', 'Location', 'IP history', 'Usage']) {
    await openTab(tab);
    await visit(`port: ${tab}`);
  }

  // Subscriptions: the list with its closed parts opened, then every tab of a subscription's page.
  await openScreenOf(page, SCREENS[1]);
  for (const part of ['Test a proxy string', 'Alerts'])
    await page.locator('.screen-slot:not([hidden]) summary', { hasText: part }).click();
  await page.getByRole('region', { name: 'Test a proxy string' }).getByLabel('Country').waitFor();
  await visit('subscriptions: proxy string test and alerts');
  await page.getByRole('table', { name: 'Traffic subscriptions' }).locator('tbody tr th a').first().click();
  await openTab('Overview');
  await visit('subscription: Overview');
  await openTab('Usage');
  await page.getByRole('img', { name: /Daily traffic/ }).waitFor();
  await visit('subscription: Usage');
  await openTab('Proxy strings');
  await visit('subscription: Proxy strings');
  await openTab('Sub-users');
  await page.getByRole('table', { name: 'Sub-users' }).waitFor();
  await visit('subscription: Sub-users');
  await page.getByRole('button', { name: 'New sub-user' }).click();
  await page.getByRole('form', { name: 'New sub-user' }).waitFor();
  await visit('sub-user: New');
  const editFirst = page.getByRole('table', { name: 'Sub-users' }).getByRole('button', { name: /^Edit / });
  await editFirst.first().click();
  await page.getByRole('form', { name: /^Edit / }).waitFor();
  await visit('sub-user: Edit');

  // Top-ups: each step of the wizard, to a payment seen.
  await openScreenOf(page, SCREENS[2]);
  await page.getByRole('button', { name: 'Add funds' }).first().click();
  const wizard = page.getByRole('dialog');
  if (await wizard.getByRole('button', { name: 'New top-up' }).isVisible())
    await wizard.getByRole('button', { name: 'New top-up' }).click();
  await wizard.getByLabel('Amount (USD)').fill('60.00');
  await visit('top-up: Amount');
  await wizard.getByRole('button', { name: 'Continue' }).click();
  await wizard.getByLabel('USDT on Tron (TRC-20)', { exact: true }).check();
  await visit('top-up: Coin and network');
  await wizard.getByRole('button', { name: 'Create top-up' }).click();
  await wizard.getByRole('region', { name: 'Pay' }).getByRole('img').waitFor();
  await visit('top-up: Pay');
  await wizard.getByRole('button', { name: 'I have sent it' }).click();
  await wizard.getByRole('form', { name: 'I have sent it' }).waitFor();
  await visit('top-up: I have sent it');
  await wizard.getByRole('button', { name: 'Back' }).click();
  await wizard.getByRole('button', { name: 'Simulate payment: exact' }).click();
  await page.locator('[data-status="verifying"], [data-status="credited"]').waitFor({ timeout: 60_000 });
  await visit('top-up: Confirming');
  await wizard.getByRole('button', { name: 'Close' }).click();

  // Catalog: a country's tabs, then the coins.
  await openScreenOf(page, SCREENS[3]);
  await page.getByLabel('Search countries').fill('united states');
  await page.getByRole('button', { name: 'United States US' }).click();
  const country = page.getByRole('region', { name: /United States/ });
  await country.getByRole('table', { name: 'States of US' }).waitFor();
  await visit('catalog: States');
  for (const [tab, table] of [
    ['Cities', 'Cities of US'],
    ['ASNs', 'ASNs of US'],
    ['Carriers', 'Carriers of US'],
  ] as const) {
    await country.getByRole('tab', { name: tab }).click();
    await country.getByRole('table', { name: table }).waitFor();
    await visit(`catalog: ${tab}`);
  }
  await page.getByRole('tab', { name: 'Coins' }).click();
  await page.getByRole('table', { name: 'Coins and networks' }).waitFor();
  await visit('catalog: Coins');

  // Settings: every section is in the page at once (the side navigation scrolls to it), so one scan
  // per theme reads them all; each is opened from the navigation first.
  await openScreenOf(page, SCREENS[4]);
  const sections = page.getByRole('navigation', { name: 'Settings sections' }).getByRole('link');
  const names = await sections.allInnerTexts();
  expect(names.length).toBeGreaterThanOrEqual(9);
  for (const name of names) {
    await sections.getByText(name, { exact: true }).click();
    await expect.poll(() => page.evaluate(() => document.activeElement?.tagName)).toBe('H2');
  }
  await visit('settings: every section');

  // The palette, open with results.
  await page.keyboard.press('Control+k');
  const palette = page.getByRole('dialog', { name: 'Command palette' });
  await palette.getByRole('combobox').fill('rotate');
  await palette.getByRole('option').first().waitFor();
  await visit('palette');
  await page.keyboard.press('Escape');

  await openScreen(page, 'Local proxies');
  await page.getByRole('button', { name: 'Add a local proxy…' }).click();
  const form = page.getByRole('form', { name: 'Add a local proxy' });
  await form.getByLabel('Port', { exact: true }).waitFor();
  await expect
    .poll(() => form.getByLabel('Port', { exact: true }).locator('option').count())
    .toBeGreaterThan(0);
  await visit('local proxies: Add');
  return visited;
}
