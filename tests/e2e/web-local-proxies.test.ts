import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import type { LocalProxyView, MobilePortView } from '../../src-shared/contract';
import { callApi, openApp, openScreen, useWebSession } from './support/app-page';
import { requireBrowser, screenshot, seriousAxeViolations } from './support/browser';

/**
 * Local proxies in web mode with the demo: "Local proxy…" on a port's detail makes one, the Local
 * proxies screen lists it with its address, and a tool (this test process) uses that address with no
 * credentials; the demo sandbox's gateway echoes the port's IP.
 */

/** One plain-http request through an HTTP proxy on loopback, as a tool sends it. */
function viaProxy(proxyUrl: string): Promise<{ status: number; body: string }> {
  const proxy = new URL(proxyUrl);
  return new Promise((resolve, reject) => {
    const outgoing = request(
      {
        host: proxy.hostname,
        port: Number(proxy.port),
        path: 'http://echo.test/',
        headers: { Host: 'echo.test', Connection: 'close' },
        agent: false,
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.once('end', () =>
          resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }),
        );
      },
    );
    outgoing.once('error', reject);
    outgoing.end();
  });
}

describe('web mode in a browser: local proxies', () => {
  const session = useWebSession({ demo: true });

  it('makes a local proxy from a port, lists it, and a tool uses it without credentials', async (context) => {
    requireBrowser(context);
    const { page, problems } = await openApp(session, { waitOnline: true });
    const axeInBothThemes = async (where: string) => {
      const violations: string[] = [];
      for (const scheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme: scheme });
        await page.waitForFunction((theme) => document.documentElement.dataset.theme === theme, scheme);
        violations.push(...(await seriousAxeViolations(page)).map((v) => `${where} (${scheme}): ${v}`));
      }
      await page.emulateMedia({ colorScheme: 'light' });
      expect(violations).toEqual([]);
    };
    await openScreen(page, 'Ports', 'table[aria-label="Mobile ports"]');
    const table = page.getByRole('table', { name: 'Mobile ports' });
    const row = table.locator('tbody tr', { hasText: 'Active' }).first();
    const portId = (await row.locator('th code').innerText()).trim();
    const otherPorts = (await table.locator('tbody tr th code').allInnerTexts())
      .map((id) => id.trim())
      .filter((id) => id !== portId);
    await row.locator('th a').click();
    await page.getByRole('tab', { name: 'Credentials' }).click();
    const panel = page.getByRole('region', { name: 'Local proxy' });
    await panel.getByRole('button', { name: /^Local proxy for / }).click();
    await panel.getByRole('button', { name: 'Create' }).click();
    const address = panel.locator('.local-proxy-action__existing code');
    await address.waitFor();
    const url = await address.innerText();
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const port = await callApi<MobilePortView>(page, 'ports', 'get', { portId });

    const answer = await viaProxy(url);
    expect(answer.status).toBe(200);
    expect((JSON.parse(answer.body) as { exit: { ip: string } }).exit.ip).toBe(port.currentIp);
    // The tool got the answer without ever seeing the port's password.
    expect(answer.body).not.toContain(port.password);

    // Two more, made through the API: one of them stopped, for the table's filter and sort.
    for (const [index, label] of ['Zeta monitor', 'Alpha stopped'].entries())
      await callApi<LocalProxyView>(page, 'localProxies', 'add', {
        label,
        upstream: { kind: 'port', portId: otherPorts[index] },
        start: label !== 'Alpha stopped',
      });

    await openScreen(page, 'Local proxies', 'table[aria-label="Local proxies"]');
    const proxies = page.getByRole('table', { name: 'Local proxies' });
    const names = () => proxies.locator('tbody tr[data-index] th').allInnerTexts();
    await expect.poll(names).toHaveLength(3);
    const proxyRow = proxies.locator('tbody tr', { hasText: url });
    await expect.poll(() => proxyRow.innerText()).toMatch(/Running/);
    // The list as it first shows, with its rows and nothing opened (no Add form, no details card).
    expect(await page.getByRole('form', { name: 'Add a local proxy' }).count()).toBe(0);
    expect(await page.locator('section.local-proxy').count()).toBe(0);
    await axeInBothThemes('the list');
    // Stats arrive with main's next push (at most once a second).
    await proxyRow.getByRole('button', { name: /^Details of / }).click();
    const card = page.locator('section.local-proxy');
    await expect
      .poll(() => card.getByLabel(/^Traffic of /).innerText(), { timeout: 5_000 })
      .toMatch(/Requests\s*1\b/);
    await screenshot(page, 'local-proxies');
    await axeInBothThemes('a proxy’s details');

    // Sort by name, then only the stopped ones (the facet counts them first).
    await page.getByRole('button', { name: 'Sort by Name' }).click();
    const sorted = await names();
    expect(sorted).toEqual([...sorted].sort((a, b) => a.localeCompare(b)));
    expect(sorted[0]).toBe('Alpha stopped');
    await page.getByLabel('Filter by State', { exact: true }).click();
    const stateChoices = page.getByRole('group', { name: 'State' });
    await expect.poll(() => stateChoices.innerText()).toMatch(/Running\s*2[\s\S]*Stopped\s*1/);
    await stateChoices.getByRole('checkbox', { name: /Stopped/ }).check();
    await expect.poll(names).toEqual(['Alpha stopped']);
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await page.getByRole('searchbox', { name: 'Search local proxies' }).fill('zeta');
    await expect.poll(names).toEqual(['Zeta monitor']);
    await page.getByRole('searchbox', { name: 'Search local proxies' }).fill('');

    await proxyRow.getByRole('button', { name: /^Stop / }).click();
    await expect.poll(() => proxyRow.innerText()).toMatch(/Stopped/);
    await expect(viaProxy(url)).rejects.toThrow(/ECONNREFUSED/);
    expect(problems).toEqual([]);
    await page.close();
  });
});
