import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  browserSkipReason,
  launchBrowser,
  requireBrowser,
  screenshot,
  seriousAxeViolations,
  type TestBrowser,
} from './support/browser';
import { startWebMode, type WebModeProcess } from './support/web-mode';

/**
 * The Ports screen in web mode against the demo sandbox: the list, a port's detail, a rotation with
 * its receipt and cooldown (the sandbox told to hand back the same IP), copying credentials and the
 * IP history. Screenshots of the list, the detail and the receipt go to tests/e2e/artifacts/.
 */

/** The demo sandbox's control API, found through the active profile's base URL. */
async function sandboxControl(page: Page, path: string, body: unknown): Promise<void> {
  const baseUrl = await page.evaluate(async () => {
    const api = (
      window as unknown as {
        api: {
          app: { getState: () => Promise<{ ok: boolean; value?: { activeProfile?: { baseUrl: string } } }> };
        };
      }
    ).api;
    const state = await api.app.getState();
    return state.value?.activeProfile?.baseUrl ?? '';
  });
  const response = await fetch(`${new URL(baseUrl).origin}/__sandbox${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`sandbox control ${path}: ${response.status} ${await response.text()}`);
}

describe('web mode in a browser: ports', () => {
  let web: WebModeProcess;
  let browser: TestBrowser;

  beforeAll(async () => {
    if (browserSkipReason) return;
    web = await startWebMode({ demo: true });
    browser = await launchBrowser();
    await browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: web.origin });
  });

  afterAll(async () => {
    await browser?.close();
    await web?.stop();
  });

  it('lists ports with place names, rotates one with a receipt and countdown, copies credentials, pages the IP history', async (context) => {
    requireBrowser(context);
    const { page, problems } = await browser.newPage();
    await page.goto(web.url);
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Ports', exact: true })
      .click();
    const table = page.getByRole('table', { name: 'Mobile ports' });
    await table.locator('tbody tr th').first().waitFor();
    // Names from the catalog, never the ids.
    await expect.poll(() => table.innerText()).not.toMatch(/\b[a-z]+_[a-z]+\b.*·|los_angeles|new_york/);
    await screenshot(page, 'ports-list', true);

    const firstId = (await table.locator('tbody tr th code').first().innerText()).trim();
    await table.locator('tbody tr th button').first().click();
    await page.getByRole('heading', { level: 2, name: 'Rotate' }).waitFor();
    await screenshot(page, 'ports-detail');

    await sandboxControl(page, '/mobile/same-ip', { portId: firstId, times: 1 });
    await page
      .getByRole('region', { name: 'Rotate' })
      .getByRole('button', { name: /^Rotate / })
      .click();
    const receipt = page.getByRole('region', { name: 'Rotation receipt' });
    await receipt.waitFor({ timeout: 30_000 });
    expect(await page.getByText(/gave back the same IP/).innerText()).toMatch(
      /The rotation happened; the IP did not change/,
    );
    expect(await receipt.innerText()).toMatch(/Time taken/);
    await page
      .getByText(/Next rotation available in|The port can be rotated now/)
      .first()
      .waitFor();
    await screenshot(page, 'ports-receipt');
    // The detail with a receipt is the busiest ports view: no serious or critical axe violation.
    expect(await seriousAxeViolations(page)).toEqual([]);

    await page.getByRole('button', { name: 'Copy host:port:user:pass' }).click();
    await page.getByText('✓ Copied').first().waitFor();
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    expect(copied.split(':')).toHaveLength(4);

    const history = page.getByRole('table', { name: 'IP history' });
    await history.waitFor();
    expect(await history.locator('tbody tr').count()).toBeGreaterThan(0);
    const older = page.getByRole('button', { name: 'Older' });
    if (await older.isEnabled()) {
      await older.click();
      await page.getByText(/^Page 2 of/).waitFor();
    }
    expect(problems).toEqual([]);
  });
});
