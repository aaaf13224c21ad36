import { describe, expect, it } from 'vitest';
import { callApi, openApp, openScreen, sandboxControl, useWebSession } from './support/app-page';
import { requireBrowser, screenshot, seriousAxeViolations } from './support/browser';

/**
 * The Ports screen in web mode against the demo sandbox: the list, a port's detail, a rotation with
 * its receipt and cooldown (the sandbox told to hand back the same IP), copying credentials and the
 * IP history; the rotation limit (another tool rotated through the rotation link) with its Retry-After
 * countdown; a relocation followed from `provisioning` to `active` on the sandbox clock; an app
 * schedule and its next run in the list. Screenshots go to tests/e2e/artifacts/.
 */

describe('web mode in a browser: ports', () => {
  const session = useWebSession({ demo: true, permissions: ['clipboard-read', 'clipboard-write'] });

  /** A new tab on the Ports screen, once its list has rows. */
  async function openPorts() {
    const opened = await openApp(session);
    await openScreen(opened.page, 'Ports', 'table[aria-label="Mobile ports"] tbody tr th');
    return { ...opened, table: opened.page.getByRole('table', { name: 'Mobile ports' }) };
  }

  it('lists ports with place names, rotates one with a receipt and countdown, copies credentials, pages the IP history', async (context) => {
    requireBrowser(context);
    const { page, problems, table } = await openPorts();
    // Names from the catalog, never the ids.
    await expect.poll(() => table.innerText()).not.toMatch(/\b[a-z]+_[a-z]+\b.*·|los_angeles|new_york/);
    await screenshot(page, 'ports-list', true);

    const firstId = (await table.locator('tbody tr th code').first().innerText()).trim();
    await table.locator('tbody tr th a').first().click();
    // The port has its own address, and its page opens on the Rotation tab.
    expect(new URL(page.url()).hash).toBe(`#/ports/${encodeURIComponent(firstId)}`);
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
    // The receipt is also the newest row of the port's receipt history, a table of its own.
    const receipts = page.getByRole('table', { name: 'Rotation receipts' });
    await expect.poll(() => receipts.locator('tbody tr[data-index]').first().innerText()).toMatch(/Same IP/);
    await screenshot(page, 'ports-receipt');
    // The detail with a receipt is the busiest ports view: no serious or critical axe violation.
    expect(await seriousAxeViolations(page)).toEqual([]);

    await page.getByRole('tab', { name: 'Credentials' }).click();
    await page.getByRole('button', { name: 'Copy host:port:user:pass' }).click();
    await page.getByText('✓ Copied').first().waitFor();
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    expect(copied.split(':')).toHaveLength(4);

    await page.getByRole('tab', { name: 'IP history' }).click();
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

  it('shows the Retry-After countdown at the rotation limit, follows a relocation to active, and shows a schedule next run', async (context) => {
    requireBrowser(context);
    const { page, problems, table } = await openPorts();
    // The second port: the first one's cooldown is known to the app from the test above.
    const portId = (await table.locator('tbody tr th code').nth(1).innerText()).trim();
    await table.locator('tbody tr th a').nth(1).click();
    const rotate = page.getByRole('region', { name: 'Rotate' });
    await rotate.waitFor();

    // Another tool rotates the port through its rotation link: the app does not know, and its own
    // rotation meets the service's limit (429 rotation_too_soon with Retry-After).
    const { rotationLink: link } = await callApi<{ rotationLink: string }>(
      page,
      'ports',
      'revealRotationLink',
      { portId },
    );
    expect(link).toMatch(/\/rotate\?key=/);
    const elsewhere = await fetch(link);
    expect(elsewhere.status).toBe(200);
    await rotate.getByRole('button', { name: /^Rotate / }).click();
    await rotate.getByText(/Rotation limit reached/).waitFor({ timeout: 30_000 });
    const countdown = rotate.getByRole('timer');
    expect(await countdown.innerText()).toMatch(/^The service allows the next try in \d+ s$/);
    expect(await rotate.getByRole('button', { name: /^Rotat/ }).isDisabled()).toBe(true);
    await screenshot(page, 'ports-rate-limited');

    // Relocate, then move the sandbox clock past the modem's 80-100 s: the tracker in main sees it active.
    await page.getByRole('tab', { name: 'Location' }).click();
    const relocate = page.getByRole('region', { name: 'Relocate' });
    const country = relocate.getByLabel('Country');
    await expect.poll(() => country.locator('option').count()).toBeGreaterThan(1);
    await country.selectOption({ index: 1 });
    const carrier = relocate.getByLabel('Carrier');
    await expect.poll(() => carrier.locator('option').count()).toBeGreaterThan(1);
    await carrier.selectOption({ index: 1 });
    await relocate.getByRole('checkbox', { name: /host, ports and credentials may change/ }).check();
    await relocate.getByRole('button', { name: 'Relocate' }).click();
    await relocate.getByText(/Provisioning on the new modem/).waitFor({ timeout: 30_000 });
    expect(await page.getByRole('heading', { level: 1 }).innerText()).toMatch(/Provisioning/);
    await screenshot(page, 'ports-relocating');
    await sandboxControl(page, '/clock', { advanceSeconds: 120 });
    // The tracker's first check is 15 s after the start (real time in main).
    await relocate.getByText(/Relocation done: the port is active/).waitFor({ timeout: 60_000 });
    await expect.poll(() => page.getByRole('heading', { level: 1 }).innerText()).toMatch(/Active/);

    // An app schedule every 2 minutes: saved, then its next run counts down in the list.
    await page.getByRole('tab', { name: 'Rotation' }).click();
    const schedulePanel = page.getByRole('region', { name: 'App schedule' });
    await schedulePanel.getByRole('textbox', { name: 'Every' }).fill('2');
    await schedulePanel.getByRole('button', { name: 'Add schedule' }).click();
    await schedulePanel.getByRole('status').filter({ hasText: 'Schedule saved.' }).waitFor();
    await schedulePanel.getByRole('timer').waitFor();
    await screenshot(page, 'ports-schedule');
    // The schedule editor and its run log: no serious or critical axe violation.
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.getByRole('link', { name: '← All ports' }).click();
    const row = table.locator('tbody tr').filter({ hasText: portId });
    await row.getByRole('timer').waitFor();
    expect(await row.getByRole('timer').innerText()).toMatch(/^in (1|2):\d\d$/);
    await screenshot(page, 'ports-next-run', true);
    expect(problems).toEqual([]);
  });
  it('relocates the selected ports to one target: asks first, reports progress and each failure', async (context) => {
    requireBrowser(context);
    const { page, problems, table } = await openPorts();
    const active = table.locator('tbody tr', { hasText: 'Active' });
    await expect.poll(() => active.count()).toBeGreaterThanOrEqual(3);
    const ids = (await active.locator('th code').allInnerTexts()).slice(0, 3).map((id) => id.trim());
    const rowOf = (id: string) => table.locator('tbody tr').filter({ hasText: id });

    // One of them is already being moved (another tool, here the API): the bulk run does not send it.
    const [country] = await callApi<{ code: string }[]>(page, 'catalog', 'countries', { product: 'mobile' });
    const carriers = await callApi<{ id: string; available: boolean }[]>(page, 'catalog', 'carriers', {
      countryCode: country?.code,
    });
    await callApi(page, 'ports', 'relocate', {
      portId: ids[2],
      country: country?.code,
      carrier: carriers.find((carrier) => carrier.available)?.id,
    });
    await expect.poll(() => rowOf(ids[2] ?? '').innerText(), { timeout: 30_000 }).toMatch(/Provisioning/);

    for (const id of ids) await rowOf(id).getByRole('checkbox').check();
    await page.getByRole('button', { name: 'Relocate… 3 selected ports' }).click();
    const form = page.getByRole('form', { name: 'Where to relocate 3 ports' });
    const countrySelect = form.getByLabel('Country');
    await expect.poll(() => countrySelect.locator('option').count()).toBeGreaterThan(1);
    await countrySelect.selectOption({ index: 1 });
    const carrierSelect = form.getByLabel('Carrier');
    await expect.poll(() => carrierSelect.locator('option').count()).toBeGreaterThan(1);
    await carrierSelect.selectOption({ index: 1 });
    await form.getByRole('button', { name: 'Relocate 3 ports…' }).click();
    const ask = page.getByRole('alertdialog');
    expect(await ask.innerText()).toMatch(/^Relocate 3 ports to .+ in .+\?/);
    await screenshot(page, 'ports-bulk-relocate-confirm');
    await ask.getByRole('button', { name: 'Relocate 3 ports' }).click();

    const progress = page.getByTestId('bulk-progress');
    await expect
      .poll(() => progress.innerText(), { timeout: 30_000 })
      .toMatch(/^Relocate to .+ finished: 2 done, 1 failed\.$/);
    const failures = page.getByRole('list', { name: /^Relocate to .+: failures$/ });
    expect(await failures.innerText()).toMatch(/Already being moved \(provisioning\)/);
    for (const id of ids.slice(0, 2))
      await expect.poll(() => rowOf(id).innerText(), { timeout: 30_000 }).toMatch(/Provisioning/);
    await screenshot(page, 'ports-bulk-relocate');
    expect(await seriousAxeViolations(page)).toEqual([]);
    // Back online on the sandbox clock, for whatever runs next on this sandbox.
    await sandboxControl(page, '/clock', { advanceSeconds: 120 });
    expect(problems).toEqual([]);
  });
});
