import { describe, expect, it } from 'vitest';
import { openApp, openScreen, sandboxControl, useWebSession } from './support/app-page';
import { requireBrowser, screenshot, seriousAxeViolations } from './support/browser';

/**
 * A rotation's verdict on the screen and the port's Health tab, in web mode against the demo
 * sandbox: the sandbox keeps the IP of the next rotation, the receipt says `unchanged`, and the
 * Health tab counts it, with the uptime bar and no serious axe violation.
 */

describe('web mode in a browser: port health', () => {
  const session = useWebSession({ demo: true });

  it('shows the unchanged verdict on the receipt, then the scores and the uptime bar on the Health tab', async (context) => {
    requireBrowser(context);
    const { page } = await openApp(session);
    await openScreen(page, 'Ports', 'table[aria-label="Mobile ports"] tbody tr th');
    const row = page
      .getByRole('table', { name: 'Mobile ports' })
      .locator('tbody tr', { hasText: 'Berlin price monitor' });
    const portId = (await row.locator('th code').innerText()).trim();
    await row.locator('th a').click();
    await page.getByRole('heading', { level: 2, name: 'Rotate' }).waitFor();

    await sandboxControl(page, '/mobile/same-ip', { portId, times: 1 });
    await page
      .getByRole('region', { name: 'Rotate' })
      .getByRole('button', { name: /^Rotate / })
      .click();
    const receipt = page.getByRole('region', { name: 'Rotation receipt' });
    await receipt.waitFor({ timeout: 30_000 });
    await expect.poll(() => receipt.innerText()).toMatch(/Verdict\s+unchanged The rotation kept the IP/);
    await screenshot(page, 'ports-receipt-verdict');

    await page.getByRole('tab', { name: 'Health' }).click();
    const panel = page.getByRole('region', { name: 'Health' });
    await expect
      .poll(() => panel.innerText())
      .toMatch(/Rotations, 30 days\s+1 · unique IPs 0\.00 % · unchanged 1/);
    expect(await panel.innerText()).toMatch(/Last rotation\s+unchanged/);
    await panel.getByRole('img', { name: /the last 24 hours/ }).waitFor();
    await panel.getByLabel('30 days').check();
    await panel.getByRole('img', { name: /the last 30 days/ }).waitFor();
    await screenshot(page, 'ports-health');
    expect(await seriousAxeViolations(page)).toEqual([]);
  });
});
