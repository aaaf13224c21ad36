import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '@proxy-manager/sandbox';
import type { HealthSnapshot, PortsListView } from '../../src-shared/contract';
import { callApi, openApp, openScreen, useWebSession } from './support/app-page';
import { browserSkipReason, requireBrowser, screenshot, seriousAxeViolations } from './support/browser';
import { ROOT } from './support/web-mode';

/**
 * The window at a power user's scale, at 1280x800: web mode connected (by key, as a real account)
 * to a sandbox with 1,000 mobile ports. The Ports table owns the wheel (the page never scrolls past
 * the app), compact density fits 20+ rows with no horizontal overflow, the status and country
 * filters count right, select all + bulk rotate asks first and reports progress and failures,
 * Ctrl+K finds a port by its label and rotates it, the Overview's first screen holds at most 12
 * cards and Settings has no list taller than the window.
 */

const KEY = 'scale-e2e-key';

let sandbox: RunningSandbox | undefined;

describe('web mode at scale: 1,000 ports, 200 subscriptions', () => {
  beforeAll(async () => {
    if (browserSkipReason) return;
    sandbox = await startSandbox({
      port: 0,
      latency: 'fast',
      seed: 7,
      scale: { ports: 1000, subscriptions: 200 },
      keys: [{ key: KEY, scopes: ['proxies'] }],
    });
  });
  const session = useWebSession({
    permissions: ['clipboard-read', 'clipboard-write'],
    env: () => ({ PROXY_MANAGER_API_KEY: KEY, PROXY_MANAGER_BASE_URL: sandbox?.baseUrl ?? '' }),
  });
  afterAll(async () => {
    await sandbox?.close();
  });

  const control = async (path: string, body: unknown) => {
    const response = await fetch(`${sandbox?.controlUrl}${path}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`sandbox ${path}: ${response.status} ${await response.text()}`);
  };

  const table = (page: Page) => page.getByRole('table', { name: 'Mobile ports' });
  const scroller = (page: Page) => page.locator('.data-table__scroll').filter({ has: table(page) });

  async function openPorts() {
    const opened = await openApp(session, { waitOnline: true });
    await openScreen(opened.page, 'Ports', 'table[aria-label="Mobile ports"] tbody tr th');
    await expect.poll(() => opened.page.getByTestId('row-count').first().innerText()).toMatch(/^1000 rows/);
    return opened;
  }

  /** Rows wholly inside the table's scroll area (the header row excluded). */
  const rowsInView = (page: Page) =>
    page.evaluate(() => {
      const area = document.querySelector<HTMLElement>('.screen-slot:not([hidden]) .data-table__scroll');
      if (!area) return 0;
      const view = area.getBoundingClientRect();
      const head = area.querySelector('thead')?.getBoundingClientRect().height ?? 0;
      return [...area.querySelectorAll<HTMLElement>('tbody tr[data-index]')].filter((row) => {
        const box = row.getBoundingClientRect();
        return box.top >= view.top + head - 1 && box.bottom <= view.bottom + 1;
      }).length;
    });

  /** Horizontal overflow of the page and of the table, and the header cells cut at the right. */
  const overflow = (page: Page) =>
    page.evaluate(() => {
      const area = document.querySelector<HTMLElement>(
        '.screen-slot:not([hidden]) .data-table__scroll',
      ) as HTMLElement;
      const right = area.getBoundingClientRect().right;
      return {
        page: document.documentElement.scrollWidth - window.innerWidth,
        table: area.scrollWidth - area.clientWidth,
        clipped: [...area.querySelectorAll<HTMLElement>('thead th')]
          .filter((th) => th.getBoundingClientRect().right > right + 1)
          .map((th) => th.innerText),
      };
    });

  it('gives the wheel to the table: the page never scrolls and the status bar stays at the bottom', async (context) => {
    requireBrowser(context);
    const { page, problems } = await openPorts();
    const header = table(page).locator('thead th').nth(2);
    await header.hover();
    for (let turn = 0; turn < 5; turn += 1) await page.mouse.wheel(0, 1200);
    await expect.poll(() => scroller(page).evaluate((area) => area.scrollTop)).toBeGreaterThan(1000);
    // Far past the table's end: the wheel still moves nothing else.
    for (let turn = 0; turn < 30; turn += 1) await page.mouse.wheel(0, 5000);
    await page.waitForTimeout(100);
    expect(await page.evaluate(() => [window.scrollY, document.scrollingElement?.scrollTop ?? 0])).toEqual([
      0, 0,
    ]);
    expect(await page.evaluate(() => document.querySelector('.app-main')?.scrollTop ?? -1)).toBe(0);
    const bar = await page.locator('footer.status-bar').boundingBox();
    expect(bar && Math.round(bar.y + bar.height)).toBe(800);
    expect((await overflow(page)).page).toBeLessThanOrEqual(0);
    // Comfortable density: at least 10 port rows, every column in view.
    await scroller(page).evaluate((area) => area.scrollTo({ top: 0 }));
    await expect.poll(() => rowsInView(page)).toBeGreaterThanOrEqual(10);
    expect(await overflow(page)).toEqual({ page: expect.any(Number), table: 0, clipped: [] });
    await screenshot(page, 'scale-ports-comfortable', true);
    expect(await seriousAxeViolations(page)).toEqual([]);
    expect(problems).toEqual([]);
  });

  it('compact density fits 20+ rows with no horizontal overflow and no clipped column', async (context) => {
    requireBrowser(context);
    const { page, problems } = await openPorts();
    await callApi(page, 'settings', 'update', { density: 'compact' });
    await expect.poll(() => page.evaluate(() => document.documentElement.dataset.density)).toBe('compact');
    await expect.poll(() => rowsInView(page)).toBeGreaterThanOrEqual(20);
    expect(await overflow(page)).toEqual({ page: expect.any(Number), table: 0, clipped: [] });
    expect((await overflow(page)).page).toBeLessThanOrEqual(0);
    await screenshot(page, 'scale-ports-compact', true);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await callApi(page, 'settings', 'update', { density: 'comfortable' });
    expect(problems).toEqual([]);
  });

  it('select all + bulk rotate asks first, reports progress and lists each failure with its reason', async (context) => {
    requireBrowser(context);
    const { page, problems } = await openPorts();
    // The first rotations the service gets fail: the summary must name them.
    await control('/faults', { match: '/rotate', status: 503, times: 3 });
    await page.getByRole('checkbox', { name: 'Select all shown' }).check();
    await expect.poll(() => page.getByTestId('row-count').first().innerText()).toMatch(/1000 selected/);
    await page.getByRole('button', { name: 'Rotate 1000 selected ports' }).click();
    const ask = page.getByRole('alertdialog');
    expect(await ask.innerText()).toMatch(/Rotate 1000 ports\?/);
    // Nothing was sent before the answer.
    expect(await page.getByTestId('bulk-progress').count()).toBe(0);
    await ask.getByRole('button', { name: 'Rotate 1000 ports' }).click();
    const progress = page.getByTestId('bulk-progress');
    await expect.poll(() => progress.innerText()).toMatch(/^Rotate: \d+ of 1000 done · \d+ failed · /);
    expect(await page.getByRole('button', { name: 'Rotate 1000 selected ports' }).isDisabled()).toBe(true);
    await expect
      .poll(async () => Number(/(\d+) of 1000 done/.exec(await progress.innerText())?.[1] ?? 0), {
        timeout: 60_000,
      })
      .toBeGreaterThanOrEqual(10);
    await screenshot(page, 'scale-bulk-progress', true);
    await page.getByRole('button', { name: 'Cancel', exact: true }).click();
    await expect
      .poll(() => progress.innerText(), { timeout: 60_000 })
      .toMatch(/^Rotate finished: \d+ done, \d+ failed, \d+ not started \(cancelled\)\.$/);
    const summary = await progress.innerText();
    const [, done, failed, cancelled] = /(\d+) done, (\d+) failed, (\d+) not started/
      .exec(summary)!
      .map(Number);
    expect(done! + failed! + cancelled!).toBe(1000);
    expect(failed).toBeGreaterThanOrEqual(3);
    const failures = page.getByRole('list', { name: 'Rotate: failures' }).getByRole('listitem');
    expect(await failures.count()).toBe(failed);
    expect(await failures.first().innerText()).toMatch(/^.+: .+/);
    await screenshot(page, 'scale-bulk-summary', true);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Dismiss' }).click();
    await page.getByRole('button', { name: 'Clear selection' }).click();
    expect(problems).toEqual([]);
  });

  it('Ctrl+K finds a port by its label and rotates it', async (context) => {
    requireBrowser(context);
    const { page, problems } = await openPorts();
    const list = await callApi<PortsListView>(page, 'ports', 'list');
    const labelAt = list.columns.indexOf('label');
    const idAt = list.columns.indexOf('id');
    const statusAt = list.columns.indexOf('status');
    const target =
      list.rows.find((row) => row[labelAt] === 'Port 500' && row[statusAt] === 'active') ??
      list.rows.find((row) => row[labelAt] !== '' && row[statusAt] === 'active')!;
    const label = String(target[labelAt]);
    await page.keyboard.press('Control+k');
    const palette = page.getByRole('dialog', { name: 'Command palette' });
    await palette.waitFor();
    await palette.getByRole('combobox').fill(label);
    await palette
      .getByRole('option', { name: new RegExp(`^Rotate ${label}\\b`) })
      .first()
      .waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);
    await screenshot(page, 'scale-palette', true);
    await palette
      .getByRole('option', { name: new RegExp(`^Rotate ${label}\\b`) })
      .first()
      .click();
    expect(new URL(page.url()).hash).toBe(`#/ports/${encodeURIComponent(String(target[idAt]))}`);
    await page.getByRole('region', { name: 'Rotation receipt' }).waitFor({ timeout: 30_000 });
    expect(problems).toEqual([]);
  });
  it('saves the guide’s list screenshots when asked to (PROXY_MANAGER_UPDATE_SCREENSHOTS=1)', async (context) => {
    requireBrowser(context);
    if (process.env.PROXY_MANAGER_UPDATE_SCREENSHOTS !== '1')
      context.skip('set PROXY_MANAGER_UPDATE_SCREENSHOTS=1 to refresh docs/screenshots/*-list.png');
    const docs = join(ROOT, 'docs', 'screenshots');
    mkdirSync(docs, { recursive: true });
    const { page } = await openPorts();
    // The Ports list at 1280x800 with a filter open: its values and their counts.
    await page.getByRole('group', { name: 'Filters' }).locator('summary', { hasText: 'Auto-renew' }).click();
    await page.getByRole('group', { name: 'Auto-renew', exact: true }).waitFor();
    copyFileSync(await screenshot(page, 'guide-ports-list', true), join(docs, 'ports-list.png'));
    await page.keyboard.press('Escape');
    await openScreen(page, 'Subscriptions', 'table[aria-label="Traffic subscriptions"] tbody tr th');
    await expect
      .poll(() => page.locator('.screen-slot:not([hidden])').getByTestId('row-count').first().innerText())
      .toMatch(/^200 rows/);
    copyFileSync(
      await screenshot(page, 'guide-subscriptions-list', true),
      join(docs, 'subscriptions-list.png'),
    );
  });

  it('Subscriptions: the table owns the wheel and the height, the page never scrolls, the status bar stays at the bottom', async (context) => {
    requireBrowser(context);
    const { page, problems } = await openApp(session, { waitOnline: true });
    await openScreen(page, 'Subscriptions', 'table[aria-label="Traffic subscriptions"] tbody tr th');
    await expect
      .poll(() => page.locator('.screen-slot:not([hidden])').getByTestId('row-count').first().innerText())
      .toMatch(/^200 rows/);
    const subscriptions = page.getByRole('table', { name: 'Traffic subscriptions' });
    const area = page.locator('.data-table__scroll').filter({ has: subscriptions });
    await subscriptions.locator('thead th').nth(2).hover();
    for (let turn = 0; turn < 5; turn += 1) await page.mouse.wheel(0, 1200);
    await expect.poll(() => area.evaluate((element) => element.scrollTop)).toBeGreaterThan(1000);
    for (let turn = 0; turn < 30; turn += 1) await page.mouse.wheel(0, 5000);
    await page.waitForTimeout(100);
    expect(await page.evaluate(() => [window.scrollY, document.scrollingElement?.scrollTop ?? 0])).toEqual([
      0, 0,
    ]);
    expect(await page.evaluate(() => document.querySelector('.app-main')?.scrollTop ?? -1)).toBe(0);
    // The table fills what the screen leaves: its scroller ends just above the closed parts under it,
    // and those end above the status bar.
    const bar = await page.locator('footer.status-bar').boundingBox();
    expect(bar && Math.round(bar.y + bar.height)).toBe(800);
    const scroller = await area.boundingBox();
    const extras = await page.locator('.screen-slot:not([hidden]) .screen-extras').boundingBox();
    expect(scroller && extras && bar).toBeTruthy();
    expect(scroller!.height).toBeGreaterThan(400);
    expect(extras!.y).toBeGreaterThanOrEqual(scroller!.y + scroller!.height - 1);
    expect(extras!.y + extras!.height).toBeLessThanOrEqual(bar!.y + 1);
    await area.evaluate((element) => element.scrollTo({ top: 0 }));
    // Rows as tall as the label's two lines (the traffic meter no taller): 9 at 1280x800, 20 compact.
    await expect.poll(() => rowsInView(page)).toBeGreaterThanOrEqual(9);
    expect(await overflow(page)).toEqual({ page: expect.any(Number), table: 0, clipped: [] });
    await callApi(page, 'settings', 'update', { density: 'compact' });
    await expect.poll(() => page.evaluate(() => document.documentElement.dataset.density)).toBe('compact');
    await expect.poll(() => rowsInView(page)).toBeGreaterThanOrEqual(20);
    await callApi(page, 'settings', 'update', { density: 'comfortable' });
    await expect
      .poll(() => page.evaluate(() => document.documentElement.dataset.density))
      .toBe('comfortable');
    expect(await overflow(page)).toEqual({ page: expect.any(Number), table: 0, clipped: [] });
    expect((await overflow(page)).page).toBeLessThanOrEqual(0);
    // The proxy string test and the alerts open under the list, the page still does not scroll.
    await page.locator('.screen-slot:not([hidden]) summary', { hasText: 'Test a proxy string' }).click();
    await page.getByRole('region', { name: 'Test a proxy string' }).getByLabel('Country').waitFor();
    expect(await page.evaluate(() => document.querySelector('.app-main')?.scrollTop ?? -1)).toBe(0);
    await page.locator('.screen-slot:not([hidden]) summary', { hasText: 'Alerts' }).click();
    await page.getByRole('list', { name: 'Alerts' }).getByRole('listitem').first().waitFor();
    expect(await page.evaluate(() => document.querySelector('.app-main')?.scrollTop ?? -1)).toBe(0);
    expect(Math.round((await page.locator('footer.status-bar').boundingBox())!.y)).toBe(Math.round(bar!.y));
    expect((await area.boundingBox())!.height).toBeGreaterThan(100);
    await screenshot(page, 'scale-subscriptions', true);
    expect(await seriousAxeViolations(page)).toEqual([]);
    expect(problems).toEqual([]);
  });

  it('Subscriptions: sorted from the headers, a labelled search, no overflow or clipped column in compact', async (context) => {
    requireBrowser(context);
    const { page, problems } = await openApp(session, { waitOnline: true });
    await openScreen(page, 'Subscriptions', 'table[aria-label="Traffic subscriptions"] tbody tr th');
    expect(await page.getByRole('combobox', { name: 'Sort by' }).count()).toBe(0);
    await page.getByRole('searchbox', { name: 'Search subscriptions' }).waitFor();
    await page.getByRole('button', { name: 'Sort by Expires' }).click();
    expect(await page.getByRole('columnheader', { name: /Expires/ }).getAttribute('aria-sort')).toBe(
      'ascending',
    );
    for (const density of ['comfortable', 'compact'] as const) {
      await callApi(page, 'settings', 'update', { density });
      await expect.poll(() => page.evaluate(() => document.documentElement.dataset.density)).toBe(density);
      expect(await overflow(page)).toEqual({ page: expect.any(Number), table: 0, clipped: [] });
      expect((await overflow(page)).page).toBeLessThanOrEqual(0);
    }
    await screenshot(page, 'scale-subscriptions-compact', true);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await callApi(page, 'settings', 'update', { density: 'comfortable' });
    expect(problems).toEqual([]);
  });

  it('counts statuses and countries right in the filters, and filters to them', async (context) => {
    requireBrowser(context);
    // Five days on, the ports that ended without auto-renew are expired: two statuses to count.
    await control('/clock', { advanceSeconds: 5 * 86_400 });
    const { page, problems } = await openPorts();
    await page.getByRole('button', { name: 'Refresh ports' }).click();
    // Read from the service, not main's snapshot (an earlier test's read may be a few seconds old).
    const list = await callApi<PortsListView>(page, 'ports', 'list', { fresh: true });
    const statusAt = list.columns.indexOf('status');
    const countryAt = list.columns.indexOf('country');
    const tally = (at: number) => {
      const counts = new Map<string, number>();
      for (const row of list.rows) counts.set(String(row[at]), (counts.get(String(row[at])) ?? 0) + 1);
      return counts;
    };
    const statuses = tally(statusAt);
    expect(statuses.get('expired') ?? 0).toBeGreaterThan(0);
    await expect.poll(() => page.getByTestId('row-count').first().innerText()).toMatch(/^1000 rows/);

    const facet = async (filter: string) => {
      await page
        .getByRole('group', { name: 'Filters' })
        .locator('summary', { hasText: filter })
        .first()
        .click();
      const panel = page.getByRole('group', { name: filter, exact: true });
      await panel.waitFor();
      const labels = await panel.locator('label').allInnerTexts();
      return new Map(
        labels.map((text) => {
          const match = /^(.*\S)\s+(\d+)$/s.exec(text.trim());
          return [match?.[1]?.trim() ?? text, Number(match?.[2])] as const;
        }),
      );
    };
    // The page has the service's list once the refresh (or the read above) reached it.
    await expect
      .poll(async () => {
        const counts = await facet('Status');
        await page.keyboard.press('Escape');
        return counts.get('Expired') ?? 0;
      })
      .toBe(statuses.get('expired'));
    const statusFacet = await facet('Status');
    expect(statusFacet.get('Active')).toBe(statuses.get('active'));
    expect(statusFacet.get('Expired')).toBe(statuses.get('expired'));
    await page
      .getByRole('group', { name: 'Status', exact: true })
      .getByLabel(/^Expired/)
      .check();
    await expect
      .poll(() => page.getByTestId('row-count').first().innerText())
      .toMatch(new RegExp(`^${statuses.get('expired')} of 1000 rows`));
    await page.keyboard.press('Escape');

    // Countries: the catalog's names, each counted among the expired ports.
    const countries = await callApi<{ code: string; name: string }[]>(page, 'catalog', 'countries', {});
    const nameOf = new Map(countries.map((country) => [country.code, country.name]));
    const expiredByCountry = new Map<string, number>();
    for (const row of list.rows)
      if (row[statusAt] === 'expired') {
        const name = nameOf.get(String(row[countryAt])) ?? String(row[countryAt]);
        expiredByCountry.set(name, (expiredByCountry.get(name) ?? 0) + 1);
      }
    const countryFacet = await facet('Country');
    expect(Object.fromEntries(countryFacet)).toEqual(Object.fromEntries(expiredByCountry));
    const [someCountry, itsCount] = [...expiredByCountry].sort((a, b) => b[1] - a[1])[0]!;
    await page
      .getByRole('group', { name: 'Country', exact: true })
      .getByLabel(new RegExp(`^${someCountry}`))
      .check();
    await expect
      .poll(() => page.getByTestId('row-count').first().innerText())
      .toMatch(new RegExp(`^${itsCount} of 1000 rows`));
    await page.keyboard.press('Escape');
    await screenshot(page, 'scale-ports-filtered', true);
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await expect.poll(() => page.getByTestId('row-count').first().innerText()).toMatch(/^1000 rows/);
    expect(problems).toEqual([]);
  });

  it('filters by auto-renew with the right counts (what each port says in the service)', async (context) => {
    requireBrowser(context);
    const { page, problems } = await openPorts();
    const list = await callApi<PortsListView>(page, 'ports', 'list');
    const renewAt = list.columns.indexOf('autoRenew');
    expect(renewAt).toBeGreaterThanOrEqual(0);
    const on = list.rows.filter((row) => row[renewAt] === true).length;
    const off = list.rows.filter((row) => row[renewAt] === false).length;
    // The scale sandbox renews every other generated port: both choices are there.
    expect(on).toBeGreaterThan(0);
    expect(off).toBeGreaterThan(0);
    expect(on + off).toBe(1000);
    await page.getByRole('group', { name: 'Filters' }).locator('summary', { hasText: 'Auto-renew' }).click();
    const panel = page.getByRole('group', { name: 'Auto-renew', exact: true });
    await panel.waitFor();
    expect(
      (await panel.locator('label').allInnerTexts()).map((text) => text.replace(/\s+/g, ' ').trim()),
    ).toEqual([`On ${on}`, `Off ${off}`]);
    await panel.getByLabel(/^Off/).check();
    await expect
      .poll(() => page.getByTestId('row-count').first().innerText())
      .toMatch(new RegExp(`^${off} of 1000 rows`));
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await expect.poll(() => page.getByTestId('row-count').first().innerText()).toMatch(/^1000 rows/);
    expect(problems).toEqual([]);
  });

  it('Overview: at most 12 cards on its first screen, grouped; Settings: no list taller than the window with 200 subscriptions', async (context) => {
    requireBrowser(context);
    const { page, problems } = await openApp(session, { waitOnline: true });
    await openScreen(page, 'Overview', 'ul.attention-list > li');
    const snapshot = await callApi<HealthSnapshot>(page, 'overview', 'get');
    // The account has far more than 12 things to say: they are grouped into the cards.
    expect(snapshot.items.length).toBeGreaterThan(12);
    const cards = page.locator('.screen-slot:not([hidden]) ul.attention-list > li');
    await expect.poll(() => cards.count()).toBe(Math.min(12, snapshot.cards.length));
    expect(snapshot.cards.some((card) => card.type === 'group')).toBe(true);
    expect(await page.getByRole('link', { name: /^Show them: / }).count()).toBeGreaterThan(0);

    await openScreen(page, 'Settings');
    await page
      .getByRole('navigation', { name: 'Settings sections' })
      .getByRole('link', { name: 'Alerts' })
      .click();
    const capAlerts = page.getByRole('group', { name: 'Sub-user cap alerts' });
    await expect.poll(() => capAlerts.getByRole('checkbox').count()).toBeGreaterThanOrEqual(200);
    const tallest = await page.evaluate(() =>
      Math.max(
        ...[...document.querySelectorAll<HTMLElement>('main .pick-list, main table, main ul')].map(
          (element) => element.getBoundingClientRect().height,
        ),
      ),
    );
    expect(tallest).toBeLessThanOrEqual(800);
    expect(problems).toEqual([]);
  });

  it('has no serious axe violation in the dark theme either: the table, a filter open, the palette', async (context) => {
    requireBrowser(context);
    const { page, problems } = await openPorts();
    await callApi(page, 'settings', 'update', { theme: 'dark' });
    await expect.poll(() => page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
    await page.getByRole('group', { name: 'Filters' }).locator('summary', { hasText: 'Country' }).click();
    await page.getByRole('group', { name: 'Country', exact: true }).waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);
    await screenshot(page, 'scale-ports-dark-filter', true);
    await page.keyboard.press('Escape');
    await page.keyboard.press('Control+k');
    await page.getByRole('dialog', { name: 'Command palette' }).getByRole('combobox').fill('Port 1');
    await page.getByRole('option').first().waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);
    await screenshot(page, 'scale-palette-dark', true);
    await page.keyboard.press('Escape');
    await callApi(page, 'settings', 'update', { theme: 'light' });
    expect(problems).toEqual([]);
  });
});
