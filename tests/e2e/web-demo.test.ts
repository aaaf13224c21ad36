import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { online, openApp, openScreen, useWebSession } from './support/app-page';
import { requireBrowser, screenshot, seriousAxeViolations } from './support/browser';
import { ROOT } from './support/web-mode';

/**
 * Web mode started with `--demo`: the app opens connected to its in-process sandbox. Every screen is
 * opened, photographed and scanned by axe in both themes; the catalog is browsed; and the web
 * transport's guards are checked from the browser.
 */

/** Each screen's navigation link (its heading says the same) and what shows once it has loaded. */
const SCREENS = [
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

const openScreenOf = (page: Page, screen: (typeof SCREENS)[number]) =>
  openScreen(page, screen.link, screen.ready);

/** The rows of a table, as the text of their first cell (the row header). */
async function rowHeaders(page: Page, tableName: string): Promise<string[]> {
  return page.getByRole('table', { name: tableName }).locator('tbody tr > th').allInnerTexts();
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
    for (const screen of SCREENS) {
      await openScreenOf(page, screen);
      for (const scheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme: scheme });
        await page.waitForFunction((theme) => document.documentElement.dataset.theme === theme, scheme);
        await screenshot(page, `demo-${screen.link.toLowerCase()}-${scheme}`);
        violations.push(...(await seriousAxeViolations(page)).map((v) => `${screen.link} (${scheme}): ${v}`));
      }
      await page.emulateMedia({ colorScheme: 'light' });
    }
    expect(violations).toEqual([]);
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

  it('the pages changed for issue 36 pass axe in both themes: a port’s tabs, a subscription’s usage, Add a local proxy', async (context) => {
    requireBrowser(context);
    const { page, problems } = await openApp(session);
    await online(page).waitFor();
    const violations: string[] = [];
    const scan = async (where: string) => {
      for (const scheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme: scheme });
        await page.waitForFunction((theme) => document.documentElement.dataset.theme === theme, scheme);
        violations.push(...(await seriousAxeViolations(page)).map((v) => `${where} (${scheme}): ${v}`));
      }
      await page.emulateMedia({ colorScheme: 'light' });
    };

    await openScreenOf(page, SCREENS[0]);
    await page.getByRole('table', { name: 'Mobile ports' }).locator('tbody tr th a').first().click();
    const rotation = page.getByRole('region', { name: 'App schedule' });
    await rotation.waitFor();
    await scan('port: Rotation');
    // The schedule points to the tab where server-side rotation is set, and that tab points back.
    await rotation.getByRole('button', { name: 'Settings tab' }).click();
    await page.getByRole('button', { name: 'Rotation tab' }).waitFor();
    await scan('port: Settings');

    await openScreenOf(page, SCREENS[1]);
    await page.getByRole('table', { name: 'Traffic subscriptions' }).locator('tbody tr th a').first().click();
    await page.getByRole('tab', { name: 'Usage' }).click();
    await page.getByRole('img', { name: /Daily traffic/ }).waitFor();
    await scan('subscription: Usage');

    await openScreen(page, 'Local proxies');
    await page.getByRole('button', { name: 'Add a local proxy…' }).click();
    const form = page.getByRole('form', { name: 'Add a local proxy' });
    await form.getByLabel('Port', { exact: true }).waitFor();
    await expect
      .poll(() => form.getByLabel('Port', { exact: true }).locator('option').count())
      .toBeGreaterThan(0);
    await scan('local proxies: Add');
    await screenshot(page, 'local-proxies-add');

    expect(violations).toEqual([]);
    expect(problems).toEqual([]);
    await page.close();
  });

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
