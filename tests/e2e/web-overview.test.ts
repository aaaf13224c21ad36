import { copyFileSync, mkdirSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { Subscription, TopUp } from '../../src-shared/api-types';
import type { HealthSnapshot, MobilePortView, PortsListView } from '../../src-shared/contract';
import { portRowsOf } from '../../src-shared/contract/ports';
import { callApi, openApp, openScreen, sandboxControl, useWebSession } from './support/app-page';
import { requireBrowser, screenshot, seriousAxeViolations } from './support/browser';
import { ROOT } from './support/web-mode';

/**
 * The overview in web mode with the demo: the first screen once a profile exists, listing what the
 * seeded account has coming (a port and a subscription expiring without auto-renew, a subscription
 * running out of traffic), with their one-click actions; a payment and failures created through the
 * app and the sandbox's control API show up live; and an account put in order (traffic bought, auto-
 * renew turned on) gets a short "All good".
 */

const DAY_S = 86_400;

const needs = (page: Page) => page.getByRole('list', { name: 'Needs attention' });
const comingUp = (page: Page) => page.getByRole('list', { name: 'Coming up' });
const item = (page: Page, title: string | RegExp) =>
  page.getByRole('listitem').filter({ has: page.getByRole('heading', { level: 2, name: title }) });

async function portByLabel(page: Page, label: string): Promise<MobilePortView> {
  // The list is lean (what the Ports screen shows); the whole port is the detail's.
  const row = portRowsOf(await callApi<PortsListView>(page, 'ports', 'list', { fresh: true })).find(
    (p) => p.label === label,
  );
  if (!row) throw new Error(`no demo port labelled ${label}`);
  return callApi<MobilePortView>(page, 'ports', 'get', { portId: row.id });
}

async function subscriptionByLabel(page: Page, label: string): Promise<Subscription> {
  const found = (await callApi<Subscription[]>(page, 'subscriptions', 'list')).find((s) => s.label === label);
  if (!found) throw new Error(`no demo subscription labelled ${label}`);
  return found;
}

describe('web mode in a browser: the overview of the demo', () => {
  const session = useWebSession({ demo: true });

  it('opens first and lists what needs attention, most urgent first, each with its action', async (context) => {
    requireBrowser(context);
    const { page, problems } = await openApp(session, { waitOnline: true });
    await page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
    const list = needs(page);
    await list.waitFor();
    const socialQa = item(page, 'Port “Social QA” expires within a day');
    await socialQa.waitFor();
    expect(await socialQa.getByRole('button', { name: 'Turn on auto-renew: Social QA' }).isVisible()).toBe(
      true,
    );
    await item(page, /^Subscription “SEO rank tracker” expires in 2 days$/).waitFor();
    const social = item(page, 'Subscription “Social accounts” is running out of traffic');
    await social.waitFor();
    expect(await social.getByRole('button', { name: 'Top up…: Social accounts' }).isVisible()).toBe(true);
    expect(await social.getByRole('link', { name: 'Open: Social accounts' }).getAttribute('href')).toMatch(
      /^#\/subscriptions\//,
    );
    // Nothing healthy is listed: the ports that renew themselves are outside the 3-day window.
    expect(await page.getByText('All good').count()).toBe(0);
    const snapshot = await callApi<HealthSnapshot>(page, 'overview', 'get');
    const titles = await list.getByRole('heading', { level: 2 }).allInnerTexts();
    expect(titles).toEqual(snapshot.items.map((entry) => entry.title));

    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.waitForFunction((theme) => document.documentElement.dataset.theme === theme, scheme);
      await screenshot(page, `overview-demo-${scheme}`);
      expect(await seriousAxeViolations(page)).toEqual([]);
    }
    await page.emulateMedia({ colorScheme: 'light' });
    await page.setViewportSize({ width: 1280, height: 860 });
    const shot = await screenshot(page, 'overview-demo', true);
    if (process.env.PROXY_MANAGER_UPDATE_SCREENSHOTS === '1') {
      mkdirSync(join(ROOT, 'docs', 'screenshots'), { recursive: true });
      copyFileSync(shot, join(ROOT, 'docs', 'screenshots', 'overview.png'));
    }
    expect(problems).toEqual([]);
    await page.close();
  });

  it('shows a payment waiting as soon as it is made, with its countdown, and Continue opens it', async (context) => {
    requireBrowser(context);
    const { page } = await openApp(session, { waitOnline: true });
    await needs(page).waitFor();
    const topUp = await callApi<TopUp>(page, 'topups', 'create', {
      amountUsd: '50.00',
      coin: 'USDT',
      network: 'tron',
      attemptId: randomUUID(),
    });
    // No reload: the top-up's change event makes the screen read the overview again.
    const waiting = item(page, 'Top-up of 50.00 USD is waiting for your payment');
    await waiting.waitFor();
    expect(await waiting.innerText()).toContain(`Send ${topUp.amountCrypto} USDT so that it arrives`);
    expect(await waiting.getByRole('timer').innerText()).toMatch(/^Rate lock ends in (30:00|29:\d\d)$/);
    await waiting.getByRole('button', { name: 'Continue: Top-up of 50.00 USD' }).click();
    await page.getByRole('heading', { level: 1, name: 'Top-ups' }).waitFor();
    expect(await page.getByRole('dialog').getAttribute('data-topup-id')).toBe(topUp.id);
    await page.close();
  });

  it('turns auto-renew on in one click: the port then only renews, listed as worth knowing', async (context) => {
    requireBrowser(context);
    const { page } = await openApp(session, { waitOnline: true });
    await needs(page).waitFor();
    await page.getByRole('button', { name: 'Turn on auto-renew: Social QA' }).click();
    await item(page, 'Port “Social QA” renews within a day').waitFor();
    expect(await item(page, 'Port “Social QA” expires within a day').count()).toBe(0);
    expect((await portByLabel(page, 'Social QA')).autoRenew).toBe(true);
    await page.close();
  });

  it('after days pass (the sandbox clock): what expired and a proxy test that failed come first', async (context) => {
    requireBrowser(context);
    const { page } = await openApp(session, { waitOnline: true });
    const nyc = await portByLabel(page, 'Ad verification NYC');
    await sandboxControl(page, '/clock', { advanceSeconds: 6 * DAY_S });
    // Test the expired port from the Ports screen, as a user would.
    await openScreen(page, 'Ports', 'table[aria-label="Mobile ports"]');
    await page.getByRole('button', { name: 'Refresh ports' }).click();
    const row = page
      .getByRole('table', { name: 'Mobile ports' })
      .getByRole('row', { name: /Ad verification NYC/ });
    await row.getByRole('button', { name: 'Test proxy Ad verification NYC' }).click();
    // The row says it failed; the result itself is in the results under the list (not in the row).
    await row.getByText('✗ Failed').waitFor();
    await page
      .getByRole('table', { name: 'Proxy test results: ports' })
      .getByRole('row', { name: /Ad verification NYC/ })
      .waitFor();

    await openScreen(page, 'Overview');
    await needs(page).waitFor();
    // Nothing told main the ports expired (the demo's clock jumped): Refresh reads the lists again.
    await page.getByRole('button', { name: 'Refresh overview' }).click();
    const tested = item(page, 'The last proxy test of “Ad verification NYC” failed');
    await tested.waitFor();
    await item(page, /^Port “Ad verification NYC” (has )?expired/).waitFor();
    await item(page, /^Subscription “SEO rank tracker” (has )?expired/).waitFor();
    const levels = await needs(page).locator('.attention__level').allInnerTexts();
    // Errors (“Now”) before warnings (“Soon”) before the rest.
    const rank = { Now: 0, Soon: 1, FYI: 2 } as Record<string, number>;
    expect(levels.map((level) => rank[level])).toEqual([...levels.map((level) => rank[level])].sort());
    expect(levels[0]).toBe('Now');
    await tested.getByRole('link', { name: 'Open: Ad verification NYC' }).click();
    await page.getByRole('heading', { level: 1, name: /Ad verification NYC/ }).waitFor();
    expect(new URL(page.url()).hash).toBe(`#/ports/${encodeURIComponent(nyc.id)}`);
    // Back returns to the overview, and forward to the port again.
    await page.goBack();
    await page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
    await page.goForward();
    await page.getByRole('heading', { level: 1, name: /Ad verification NYC/ }).waitFor();
    await page.close();
  });
});

describe('web mode in a browser: the overview of a healthy account', () => {
  const session = useWebSession({ demo: true });

  it('says “All good” once traffic is bought and auto-renew is on, with what renews listed as coming up', async (context) => {
    requireBrowser(context);
    const { page, problems } = await openApp(session, { waitOnline: true });
    await needs(page).waitFor();

    // Traffic for the subscription that runs out: a top-up that buys 20 GB for it, paid on the
    // sandbox's chain and confirmed by moving its clock on (the balance covers the plan).
    const social = await subscriptionByLabel(page, 'Social accounts');
    await sandboxControl(page, '/account', { balanceUsd: '500.00' });
    const topUp = await callApi<TopUp>(page, 'topups', 'create', {
      amountUsd: '25.00',
      coin: 'USDT',
      network: 'tron',
      purchase: { planId: 'mgb-20', quantity: 1, options: { subscriptionId: social.id } },
      attemptId: randomUUID(),
    });
    await callApi<TopUp>(page, 'topups', 'simulatePayment', { topUpId: topUp.id, kind: 'exact' });
    await sandboxControl(page, '/clock', { advanceSeconds: 3600 });
    let credited = await callApi<TopUp>(page, 'topups', 'get', { topUpId: topUp.id });
    for (let turn = 0; turn < 20 && credited.purchase?.status !== 'completed'; turn += 1) {
      await page.waitForTimeout(500);
      credited = await callApi<TopUp>(page, 'topups', 'get', { topUpId: topUp.id });
    }
    expect(credited).toMatchObject({ status: 'credited', purchase: { status: 'completed' } });

    // The rest in one click each, from the overview itself.
    await page.getByRole('button', { name: 'Refresh overview' }).click();
    for (const name of ['Social QA', 'SEO rank tracker']) {
      await page.getByRole('button', { name: `Turn on auto-renew: ${name}` }).click();
      await page.getByRole('button', { name: `Turn on auto-renew: ${name}` }).waitFor({ state: 'detached' });
    }

    const good = page.getByRole('status').filter({ hasText: 'All good' });
    await good.waitFor({ timeout: 30_000 }).catch(async (error: unknown) => {
      throw new Error(`no “All good”; the overview shows:\n${await page.locator('main').innerText()}`, {
        cause: error,
      });
    });
    expect(await good.innerText()).toMatch(
      /Nothing needs your attention right now: 4 ports, 4 subscriptions and (no payment|1 payment) in progress\./,
    );
    expect(await needs(page).count()).toBe(0);
    await item(page, 'Port “Social QA” renews within a day').waitFor();
    expect(await comingUp(page).getByText('FYI').count()).toBeGreaterThan(0);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await screenshot(page, 'overview-all-good');
    expect(problems).toEqual([]);
    await page.close();
  }, 120_000);
});
