import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { PortsListView } from '../../src-shared/contract';
import { callApi, online, openApp, useWebSession } from './support/app-page';
import { requireBrowser, screenshot, seriousAxeViolations } from './support/browser';
import { SCREENS, openScreenOf, visitDemoSubPages } from './support/demo-places';
import { ROOT } from './support/web-mode';

/**
 * Web mode started with `--demo`: the app opens connected to its in-process sandbox. Every screen is
 * opened, photographed and scanned by axe in both themes; the catalog is browsed; and the web
 * transport's guards are checked from the browser.
 */

/** The rows of a table, as the text of their first cell (the row header). */
async function rowHeaders(page: Page, tableName: string): Promise<string[]> {
  return page.getByRole('table', { name: tableName }).locator('tbody tr > th').allInnerTexts();
}

/**
 * Dates the window shows in a format other than its one (`<Time>`: the locale's medium date and short
 * time, UTC in the tooltip): the wire's ISO (`2026-03-12T14:05`) or `toLocaleString()`'s numeric date
 * (`3/12/2026, 2:05:09 PM` in the browser's en-US), in the text of the screen shown and any dialog.
 */
function otherDateFormats(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const parts = [
      document.querySelector('.screen-slot:not([hidden])'),
      ...document.querySelectorAll('dialog[open], [role="dialog"], [role="alertdialog"]'),
    ];
    const text = parts.map((part) => (part as HTMLElement | null)?.innerText ?? '').join('\n');
    return text.match(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}[^\s]*|\b\d{1,2}\/\d{1,2}\/\d{4}\b[^\n]{0,12}/g) ?? [];
  });
}

describe('web mode in a browser: demo', () => {
  const session = useWebSession({ demo: true });

  it('opens with the printed URL, drops the token from the address bar, and shows the demo banner and Online', async (context) => {
    requireBrowser(context);
    const { page, problems } = await openApp(session);
    expect(page.url()).toBe(`${session.web.origin}/`);
    await page.getByTestId('demo-banner').waitFor();
    expect(await page.getByTestId('demo-banner').innerText()).toMatch(/Demo mode/);
    await online(page).waitFor();
    expect(await page.getByTestId('active-profile').innerText()).toMatch(/Demo/);
    expect(await page.content()).not.toContain(session.web.token);

    // A reload works: the token was kept in this tab's sessionStorage.
    await page.reload();
    await page.getByRole('navigation', { name: 'Main' }).waitFor();
    await online(page).waitFor();
    expect(problems).toEqual([]);
    await page.close();
  });

  it('opens every screen; each is photographed and has no serious or critical axe violation, light and dark', async (context) => {
    requireBrowser(context);
    const { page, problems } = await openApp(session);
    await online(page).waitFor();
    const violations: string[] = [];
    const dates: string[] = [];
    for (const screen of SCREENS) {
      await openScreenOf(page, screen);
      dates.push(...(await otherDateFormats(page)).map((shown) => `${screen.link}: ${shown}`));
      for (const scheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme: scheme });
        await page.waitForFunction((theme) => document.documentElement.dataset.theme === theme, scheme);
        await screenshot(page, `demo-${screen.link.toLowerCase()}-${scheme}`);
        violations.push(...(await seriousAxeViolations(page)).map((v) => `${screen.link} (${scheme}): ${v}`));
      }
      await page.emulateMedia({ colorScheme: 'light' });
    }
    expect(violations).toEqual([]);
    expect(dates).toEqual([]);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('Settings: a side navigation to each group, and no list taller than the window', async (context) => {
    requireBrowser(context);
    const { page, problems } = await openApp(session);
    await online(page).waitFor();
    await openScreenOf(page, SCREENS[4]);
    const nav = page.getByRole('navigation', { name: 'Settings sections' });
    await nav.getByRole('link', { name: 'Automation' }).click();
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Automation');
    expect(page.url()).toMatch(/#\/settings\/automation$/);
    // Kept in view while the groups scroll (sticky), in the window's first screen.
    const box = await nav.boundingBox();
    expect(box && box.y >= 0 && box.y + box.height <= 800).toBe(true);
    // The per-item list scrolls in its own box, never taller than half the window.
    const heights = await page.evaluate(() => {
      const list = document.querySelector<HTMLElement>('[data-testid="cap-alerts-list"]');
      const lists = [...document.querySelectorAll<HTMLElement>('main .pick-list, main table, main ul')];
      return {
        maxHeight: list ? parseFloat(getComputedStyle(list).maxHeight) : null,
        tallest: Math.max(...lists.map((element) => element.getBoundingClientRect().height)),
      };
    });
    expect(heights.maxHeight).toBeLessThanOrEqual(400);
    expect(heights.tallest).toBeLessThanOrEqual(800);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('every sub-page passes axe in both themes: port and subscription tabs, sub-user forms, top-up wizard steps, catalog tabs, palette, bulk confirmation', async (context) => {
    requireBrowser(context);
    const { page, problems } = await openApp(session);
    await online(page).waitFor();
    const violations: string[] = [];
    const dates: string[] = [];
    const scan = async (where: string) => {
      dates.push(...(await otherDateFormats(page)).map((shown) => `${where}: ${shown}`));
      for (const scheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme: scheme });
        await page.waitForFunction((theme) => document.documentElement.dataset.theme === theme, scheme);
        violations.push(...(await seriousAxeViolations(page)).map((v) => `${where} (${scheme}): ${v}`));
      }
      await page.emulateMedia({ colorScheme: 'light' });
    };

    const visited = await visitDemoSubPages(page, scan);
    await screenshot(page, 'local-proxies-add');

    expect(violations).toEqual([]);
    // One date-time format: no wire ISO and no toLocaleString() numeric date on any of them.
    expect(dates).toEqual([]);
    expect(visited).toHaveLength(28);
    expect(problems).toEqual([]);
    await page.close();
  }, 300_000);

  it('shows real rows on the list screens', async (context) => {
    requireBrowser(context);
    const { page } = await openApp(session);
    await openScreenOf(page, SCREENS[0]);
    expect((await rowHeaders(page, 'Mobile ports')).length).toBeGreaterThan(0);
    expect(await page.getByRole('table', { name: 'Mobile ports' }).innerText()).toMatch(/\d+\.\d+\.\d+\.\d+/);
    await openScreenOf(page, SCREENS[1]);
    expect(await page.getByRole('table', { name: 'Traffic subscriptions' }).innerText()).toMatch(
      /GB of .*GB/,
    );
    await openScreenOf(page, SCREENS[2]);
    expect(await page.getByRole('table', { name: 'Top-ups' }).innerText()).toMatch(/\d+\.\d{2} USD/);
    await page.close();
  });

  it('browses the catalog: product filter, search, a country’s states, cities, ASNs and carriers, and coins', async (context) => {
    requireBrowser(context);
    const { page, problems } = await openApp(session);
    await openScreenOf(page, SCREENS[3]);
    const all = await rowHeaders(page, 'Countries');
    expect(all.length).toBeGreaterThan(10);

    const product = page.getByRole('group', { name: 'Product' });
    await product.getByText('Residential', { exact: true }).click();
    await product.getByText('Mobile ports', { exact: true }).click();
    await page.getByText(/^\d+ countries$/).waitFor();
    await expect
      .poll(async () => (await rowHeaders(page, 'Countries')).length, { timeout: 15_000 })
      .toBeLessThan(all.length);
    const mobile = await rowHeaders(page, 'Countries');
    expect(mobile.length).toBeGreaterThan(0);

    await product.getByText('All', { exact: true }).click();
    await page.getByLabel('Search countries').fill('united');
    await expect.poll(() => rowHeaders(page, 'Countries'), { timeout: 15_000 }).toContain('United States US');
    expect((await rowHeaders(page, 'Countries')).every((name) => /united/i.test(name))).toBe(true);

    await page.getByRole('button', { name: 'United States US' }).click();
    const detail = page.getByRole('region', { name: /United States/ });
    await detail.getByRole('table', { name: 'States of US' }).waitFor();
    expect(await detail.getByRole('table', { name: 'States of US' }).innerText()).toMatch(/-state-/);

    await detail.getByRole('tab', { name: 'Cities' }).click();
    await detail.getByRole('table', { name: 'Cities of US' }).waitFor();
    const allCities = await detail.getByRole('table', { name: 'Cities of US' }).locator('tbody tr').count();
    await detail
      .getByRole('group', { name: 'Cities for product' })
      .getByText('Mobile ports', { exact: true })
      .click();
    await expect
      .poll(() => detail.getByRole('table', { name: 'Cities of US' }).locator('tbody tr').count(), {
        timeout: 15_000,
      })
      .toBeLessThanOrEqual(allCities);
    await screenshot(page, 'demo-catalog-cities');

    await detail.getByRole('tab', { name: 'ASNs' }).click();
    await detail.getByRole('table', { name: 'ASNs of US' }).waitFor();
    expect(await detail.getByRole('table', { name: 'ASNs of US' }).innerText()).toMatch(/AS\d+/);

    await detail.getByRole('tab', { name: 'Carriers' }).click();
    const carriers = detail.getByRole('table', { name: 'Carriers of US' });
    await carriers.waitFor();
    expect(await carriers.innerText()).toMatch(/Available|Not available/);
    expect(await carriers.innerText()).toMatch(/[45]G/);
    await screenshot(page, 'demo-catalog-carriers');
    expect(await seriousAxeViolations(page)).toEqual([]);

    await page.getByRole('tab', { name: 'Coins' }).click();
    const coins = page.getByRole('table', { name: 'Coins and networks' });
    await coins.waitFor();
    const coinText = await coins.innerText();
    expect(coinText).toMatch(/BTC/);
    expect(coinText).toMatch(/min|unknown/);
    await screenshot(page, 'demo-catalog-coins');
    expect(await seriousAxeViolations(page)).toEqual([]);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('works from the keyboard: skip link, navigation, visible focus, tabs with arrow keys', async (context) => {
    requireBrowser(context);
    const { page } = await openApp(session);
    // From the top of the Ports screen (the app opens on the Overview).
    await page.evaluate(() => {
      window.location.hash = '#/ports';
    });
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Ports' }).waitFor();
    const focused = () =>
      page.evaluate(() => {
        const element = document.activeElement as HTMLElement | null;
        return {
          // A checkbox has no text of its own: its label names it.
          text:
            (element?.innerText.trim() ||
              (element as HTMLInputElement | null)?.labels?.[0]?.innerText.trim()) ??
            '',
          id: element?.id ?? '',
          outline: element ? getComputedStyle(element).outlineStyle : '',
        };
      });

    // The pause switch takes focus only once the schedules are read (disabled before).
    await expect.poll(() => page.getByRole('checkbox', { name: 'Pause schedules' }).isEnabled()).toBe(true);
    await page.keyboard.press('Tab');
    expect(await focused()).toMatchObject({ text: 'Skip to content', outline: 'solid' });
    await page.keyboard.press('Enter');
    expect((await focused()).id).toBe('main');
    await page.keyboard.press('Tab');
    // The Ports screen's first control: the schedules' pause switch, then Refresh.
    expect((await focused()).text).toBe('Pause schedules');
    await page.keyboard.press('Tab');
    expect((await focused()).text).toMatch(/^Refresh/);

    // Into the navigation from the top, then to the Catalog link and open it.
    // Its name may carry the Overview's badge ("Ports 2 need attention").
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: /^Ports\b/ })
      .focus();
    for (let i = 0; i < 3; i += 1) await page.keyboard.press('Tab');
    expect(await focused()).toMatchObject({ text: 'Catalog', outline: 'solid' });
    await page.keyboard.press('Enter');
    await page.getByRole('table', { name: 'Countries' }).waitFor();
    await page.getByRole('tab', { name: 'Countries' }).focus();
    await page.keyboard.press('ArrowRight');
    expect(await page.getByRole('tab', { name: 'Coins' }).getAttribute('aria-selected')).toBe('true');
    await page.getByRole('table', { name: 'Coins and networks' }).waitFor();
    await page.close();
  });

  it('keyboard alone: from the Ports list, rotates a port, filters, asks for a bulk rotation, opens the palette, each Settings section and the top-up wizard to its Pay step', async (context) => {
    requireBrowser(context);
    const { page, problems } = await openApp(session);
    await page.evaluate(() => {
      window.location.hash = '#/ports';
    });
    await page.reload();
    await online(page).waitFor();
    await page.getByRole('table', { name: 'Mobile ports' }).locator('tbody tr th').first().waitFor();
    /** What has the focus: its tag, its text (a hidden part included) and the landmark it is in. */
    const focused = () =>
      page.evaluate(() => {
        const element = document.activeElement as HTMLElement | null;
        const nav = element?.closest('nav')?.getAttribute('aria-label') ?? '';
        // A checkbox has no text of its own: its label names it.
        const text = (element as HTMLInputElement | null)?.labels?.[0]?.textContent ?? element?.textContent;
        return `${element?.tagName ?? ''}|${(text ?? '').replace(/\s+/g, ' ').trim()}|${nav}`;
      });
    /** Tab (or Shift+Tab) until the focus matches; fails after `max` presses, saying where it was. */
    const tabTo = async (matches: RegExp, backwards = false, max = 150) => {
      const seen: string[] = [];
      for (let press = 0; press < max; press += 1) {
        const now = await focused();
        if (matches.test(now)) return;
        seen.push(now);
        await page.keyboard.press(backwards ? 'Shift+Tab' : 'Tab');
      }
      throw new Error(`Tab never reached ${matches}; it went through:\n${seen.slice(-40).join('\n')}`);
    };

    // A port the keyboard will rotate: active, and named by a label only it has.
    const list = await callApi<PortsListView>(page, 'ports', 'list');
    const at = (name: string) => list.columns.indexOf(name as (typeof list.columns)[number]);
    const labels = list.rows.map((row) => String(row[at('label')]));
    const row = list.rows.find(
      (row, index) =>
        row[at('status')] === 'active' &&
        labels[index] !== '' &&
        labels.filter((label) => label.toLowerCase().includes(labels[index]!.toLowerCase())).length === 1,
    )!;
    const [portId, label] = [String(row[at('id')]), String(row[at('label')])];
    const before = (await callApi<unknown[]>(page, 'ports', 'receipts', { portId })).length;

    // `/` is the search; the label narrows the list; Tab leads into the rows and to the port's Rotate.
    await page.locator('body').focus();
    await page.keyboard.press('/');
    expect(await page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.type)).toBe(
      'search',
    );
    await page.keyboard.type(label);
    await expect
      .poll(() => page.locator('.screen-slot:not([hidden])').getByTestId('row-count').first().innerText())
      .toMatch(/^1 of \d+ rows/);
    await tabTo(new RegExp(`^BUTTON\\|Rotate now: ${label}\\|$`));
    // The focus shows where it is.
    expect(await page.evaluate(() => getComputedStyle(document.activeElement!).outlineStyle)).toBe('solid');
    await page.keyboard.press('Enter');
    await expect
      .poll(async () => (await callApi<unknown[]>(page, 'ports', 'receipts', { portId })).length, {
        timeout: 30_000,
      })
      .toBe(before + 1);

    // A filter from the keyboard: the search emptied, Auto-renew opened with Enter, Off taken with Space.
    const rowCount = () =>
      page.locator('.screen-slot:not([hidden])').getByTestId('row-count').first().innerText();
    await page.keyboard.press('/');
    await page.keyboard.press('Control+a');
    await page.keyboard.press('Delete');
    await expect.poll(rowCount).toMatch(new RegExp(`^${list.rows.length} rows`));
    await tabTo(/^SUMMARY\|Auto-renew/);
    await page.keyboard.press('Enter');
    await tabTo(/^INPUT\|Off ?\d+\|/);
    await page.keyboard.press('Space');
    const off = list.rows.filter((values) => values[at('autoRenew')] === false).length;
    await expect.poll(rowCount).toMatch(new RegExp(`^${off} of ${list.rows.length} rows`));
    await page.keyboard.press('Escape');
    expect(await focused()).toMatch(/^SUMMARY\|Auto-renew/);
    // A row selected with Space; the bulk rotate asked for from the keyboard puts the focus on its
    // confirmation, and "Don't" sends nothing.
    await tabTo(/^TR\|/);
    await page.keyboard.press('Space');
    await expect.poll(rowCount).toMatch(/1 selected/);
    await tabTo(/^BUTTON\|Rotate 1 selected ports\|$/, true);
    await page.keyboard.press('Enter');
    await expect.poll(() => focused()).toBe('BUTTON|Rotate 1 port|');
    await page.keyboard.press('Tab');
    expect(await focused()).toBe("BUTTON|Don't|");
    await page.keyboard.press('Enter');
    expect(await page.getByRole('alertdialog').count()).toBe(0);
    await tabTo(/^BUTTON\|Clear selection\|$/);
    await page.keyboard.press('Enter');
    await tabTo(/^BUTTON\|Clear filters\|$/, true);
    await page.keyboard.press('Enter');
    await expect.poll(rowCount).toMatch(new RegExp(`^${list.rows.length} rows`));

    // Ctrl+K opens the palette with the focus in its box; Enter on "Settings" goes there.
    await page.keyboard.press('Control+k');
    const palette = page.getByRole('dialog', { name: 'Command palette' });
    await palette.waitFor();
    // Typed keys go to its box at once (the dialog used to focus cmdk's root, where they were lost).
    expect(await page.evaluate(() => document.activeElement?.getAttribute('role'))).toBe('combobox');
    await page.keyboard.type('Settings');
    await expect
      .poll(() => palette.locator('[role="option"][aria-selected="true"]').innerText())
      .toMatch(/^Settings/);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 1, name: 'Settings' }).waitFor();
    expect(new URL(page.url()).hash).toBe('#/settings');

    // Each section from the side navigation: Enter on its link moves the focus to its heading.
    const sections = await page
      .getByRole('navigation', { name: 'Settings sections' })
      .getByRole('link')
      .allInnerTexts();
    expect(sections.length).toBeGreaterThanOrEqual(9);
    for (const section of sections) {
      const link = new RegExp(`^A\\|${section}\\|Settings sections$`);
      // The links come before the sections: back up from wherever the last section left the focus.
      const here = await focused();
      await tabTo(link, !here.endsWith('|Settings sections') || sections.indexOf(section) === 0);
      await page.keyboard.press('Enter');
      await expect.poll(() => focused()).toBe(`H2|${section}|`);
      expect(new URL(page.url()).hash).toMatch(/^#\/settings\/[a-z-]+$/);
      // The group scrolls into view inside the app: the page itself never scrolls past it.
      expect(await page.evaluate(() => [window.scrollY, document.scrollingElement?.scrollTop ?? 0])).toEqual([
        0, 0,
      ]);
    }

    // The top-up wizard from the keyboard: Ctrl+K to Top-ups, Add funds, the amount, a coin chosen
    // with the arrows, Create top-up: the Pay step with its QR code.
    await page.keyboard.press('Control+k');
    await page.keyboard.type('Top-ups');
    await expect
      .poll(() => palette.locator('[role="option"][aria-selected="true"]').innerText())
      .toMatch(/^Top-ups/);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 1, name: 'Top-ups' }).waitFor();
    await tabTo(/^BUTTON\|Add funds\|$/);
    await page.keyboard.press('Enter');
    const wizard = page.getByRole('dialog');
    await wizard.waitFor();
    if (await wizard.getByRole('button', { name: 'New top-up' }).isVisible()) {
      await tabTo(/^BUTTON\|New top-up\|$/);
      await page.keyboard.press('Enter');
    }
    await tabTo(/^INPUT\|Amount \(USD\)/);
    await page.keyboard.type('55.00');
    await tabTo(/^BUTTON\|Continue\|$/);
    await page.keyboard.press('Enter');
    await tabTo(/^INPUT\|/);
    await page.keyboard.press('ArrowDown');
    expect(await wizard.locator('input[type="radio"]:checked').count()).toBe(1);
    await tabTo(/^BUTTON\|Create top-up\|$/);
    await page.keyboard.press('Enter');
    await wizard.getByRole('region', { name: 'Pay' }).getByRole('img').waitFor();
    expect(problems).toEqual([]);
    await page.close();
  });

  it('refuses calls and the event socket without the token, and any other host name', async (context) => {
    requireBrowser(context);
    const { page } = await openApp(session);
    const answers = await page.evaluate(async (token) => {
      const call = (headers: Record<string, string>) =>
        fetch('/rpc/app%3AgetState', { method: 'POST', headers, body: '{}' }).then(
          (response) => response.status,
        );
      const socket = (protocols: string[]) =>
        new Promise<string>((resolve) => {
          const ws = new WebSocket(`ws://${location.host}/events`, protocols);
          ws.onopen = () => {
            ws.close();
            resolve('open');
          };
          ws.onerror = () => resolve('refused');
        });
      return {
        noToken: await call({ 'Content-Type': 'application/json' }),
        wrongToken: await call({ 'Content-Type': 'application/json', Authorization: 'Bearer wrong' }),
        withToken: await call({ 'Content-Type': 'application/json', Authorization: `Bearer ${token}` }),
        socketNoToken: await socket(['proxy-manager.v1']),
        socketWrongToken: await socket(['proxy-manager.v1', 'token.wrong']),
        socketWithToken: await socket(['proxy-manager.v1', `token.${token}`]),
      };
    }, session.web.token);
    expect(answers).toEqual({
      noToken: 401,
      wrongToken: 401,
      withToken: 200,
      socketNoToken: 'refused',
      socketWrongToken: 'refused',
      socketWithToken: 'open',
    });

    // The same server under another name (what DNS rebinding would give) answers nothing.
    const rebound = await page.goto(session.web.origin.replace('127.0.0.1', 'localhost'));
    expect(rebound?.status()).toBe(403);
    await page.close();
  });

  it('explains a missing token instead of showing an empty app', async (context) => {
    requireBrowser(context);
    const { page } = await session.browser.newPage();
    await page.goto(`${session.web.origin}/`);
    await page.getByRole('heading', { name: 'Proxy Manager cannot start' }).waitFor();
    expect(await page.locator('main').innerText()).toMatch(/npm run web/);
    await screenshot(page, 'web-no-token');
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.close();
  });

  it('saves the README and guide screenshots of the demo when asked to (PROXY_MANAGER_UPDATE_SCREENSHOTS=1)', async (context) => {
    requireBrowser(context);
    if (process.env.PROXY_MANAGER_UPDATE_SCREENSHOTS !== '1')
      context.skip('set PROXY_MANAGER_UPDATE_SCREENSHOTS=1 to refresh docs/screenshots/demo.png');
    const { page } = await openApp(session);
    await online(page).waitFor();
    await openScreenOf(page, SCREENS[0]);
    const shot = await screenshot(page, 'readme-demo', true);
    mkdirSync(join(ROOT, 'docs', 'screenshots'), { recursive: true });
    copyFileSync(shot, join(ROOT, 'docs', 'screenshots', 'demo.png'));
    // The user guide's Settings: its side navigation and the Alerts group with the cap-alerts list.
    await openScreenOf(page, SCREENS[4]);
    await page
      .getByRole('navigation', { name: 'Settings sections' })
      .getByRole('link', { name: 'Alerts' })
      .click();
    await page.getByRole('group', { name: 'Sub-user cap alerts' }).scrollIntoViewIfNeeded();
    const settings = await screenshot(page, 'guide-settings', true);
    copyFileSync(settings, join(ROOT, 'docs', 'screenshots', 'settings.png'));
    await page.close();
  });
});
