import { describe, expect, it } from 'vitest';
import type { LocalProxyView, PortsListView } from '../../src-shared/contract';
import { callApi, online, openApp, openScreen, useWebSession } from './support/app-page';
import { requireBrowser } from './support/browser';
import { SCREENS, openScreenOf, visitDemoSubPages } from './support/demo-places';
import { keyboardReach } from './support/keyboard-reach';

/**
 * "Keyboard alone can reach every action", on every screen and every sub-page the axe scan visits
 * (the same walk, support/demo-places): whatever can be clicked is a tab stop or reached through one,
 * nothing clickable hides in aria-hidden, and Tab, pressed round the whole page, visits every stop.
 */

describe('web mode in a browser: every action within the keyboard’s reach', () => {
  const session = useWebSession({ demo: true });

  it('every screen and sub-page: each clickable thing is reachable with Tab (or through its group’s stop)', async (context) => {
    requireBrowser(context);
    const { page, problems } = await openApp(session);
    await online(page).waitFor();
    const findings: string[] = [];
    const stops: Record<string, number> = {};
    const check = async (where: string) => {
      const reach = await keyboardReach(page);
      stops[where] = reach.stops;
      findings.push(...reach.findings.map((finding) => `${where}: ${finding}`));
    };

    // A local proxy, so that its list has a row with its actions.
    const ports = await callApi<PortsListView>(page, 'ports', 'list');
    const portId = String(ports.rows[0]![ports.columns.indexOf('id')]);
    await callApi<LocalProxyView>(page, 'localProxies', 'add', {
      label: 'Keyboard check',
      upstream: { kind: 'port', portId },
      start: true,
    });

    for (const screen of SCREENS) {
      await openScreenOf(page, screen);
      await check(screen.link);
    }
    await openScreen(page, 'Local proxies', 'table[aria-label="Local proxies"] tbody tr[data-index]');
    await check('Local proxies');
    // A list's filter and its column chooser, open.
    await openScreenOf(page, SCREENS[0]);
    const shown = page.locator('.screen-slot:not([hidden])');
    await shown.getByLabel('Filter by Status', { exact: true }).click();
    await check('Ports: Status filter open');
    await page.keyboard.press('Escape');
    await shown.locator('summary', { hasText: 'Columns' }).click();
    await check('Ports: column chooser open');
    await page.keyboard.press('Escape');
    // A bulk run's summary (its failures, if any, in a list that scrolls), then dismissed.
    await shown.getByRole('checkbox', { name: 'Select all shown' }).check();
    await shown.getByRole('button', { name: /^Test \d+ selected ports$/ }).click();
    await shown
      .getByRole('alertdialog')
      .getByRole('button', { name: /^Test \d+ ports?$/ })
      .click();
    await expect
      .poll(() => shown.getByTestId('bulk-progress').innerText(), { timeout: 60_000 })
      .toMatch(/^Test finished/);
    await check('Ports: a bulk run’s summary');
    await shown.getByRole('button', { name: 'Dismiss' }).click();
    await shown.getByRole('button', { name: 'Clear selection' }).click();
    // Settings with the form to add a profile open.
    await openScreenOf(page, SCREENS[4]);
    await page.getByRole('button', { name: 'Add a profile' }).click();
    await page.getByRole('heading', { name: 'Add a profile' }).waitFor();
    await check('Settings: Add a profile');
    await page.getByRole('button', { name: 'Cancel adding a profile' }).click();

    const places = await visitDemoSubPages(page, check);
    expect(places).toHaveLength(28);
    // The audit saw the pages (a walk that found nothing would pass anything).
    expect(stops.Ports).toBeGreaterThan(20);
    expect(Object.values(stops).every((count) => count > 0)).toBe(true);
    expect(findings).toEqual([]);
    expect(problems).toEqual([]);
    await page.close();
  }, 600_000);
});
