import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '@proxy-manager/sandbox';
import { useWebSession } from './support/app-page';
import { browserSkipReason, requireBrowser, screenshot, seriousAxeViolations } from './support/browser';
import { keyboardReach } from './support/keyboard-reach';

/**
 * Web mode started without a profile: onboarding. A sandbox started here stands in for the provider,
 * so that a wrong key, a right key and the demo can all be tried. The tests run in order and each
 * leaves the app back on onboarding.
 */

const SANDBOX_KEY = 'sandbox-demo-key';

const status = (page: Page, value: string) =>
  page.locator(`[data-testid="connection-status"][data-status="${value}"]`);

describe('web mode in a browser: onboarding', () => {
  let sandbox: RunningSandbox;

  beforeAll(async () => {
    if (browserSkipReason) return;
    sandbox = await startSandbox({ port: 0, latency: 'fast' });
  });

  // Registered after the sandbox's hooks: its afterAll runs first (hooks stack), the sandbox closes last.
  afterAll(async () => {
    await sandbox?.close();
  });

  const session = useWebSession();

  async function openOnboarding() {
    const opened = await session.browser.newPage();
    await opened.page.goto(session.web.url);
    await opened.page.getByRole('heading', { level: 1, name: 'Welcome to Proxy Manager' }).waitFor();
    return opened;
  }

  /** What main says about the keychain, read through the contract like the page does. */
  async function keychainAvailable(page: Page): Promise<boolean> {
    return page.evaluate(async (token) => {
      const response = await fetch('/rpc/app%3AgetState', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
        body: '{}',
      });
      const result = (await response.json()) as { ok: boolean; value: { keychain: { available: boolean } } };
      return result.value.keychain.available;
    }, session.web.token);
  }

  it('shows onboarding with "Not configured", passes axe in light and dark, and the keyboard reaches every action', async (context) => {
    requireBrowser(context);
    const { page, problems } = await openOnboarding();
    await status(page, 'not_configured').waitFor();
    expect(await page.getByLabel('API key', { exact: true }).getAttribute('type')).toBe('password');
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.waitForFunction((theme) => document.documentElement.dataset.theme === theme, scheme);
      await screenshot(page, `onboarding-${scheme}`);
      expect(await seriousAxeViolations(page)).toEqual([]);
    }
    await page.emulateMedia({ colorScheme: 'light' });
    const reach = await keyboardReach(page);
    expect(reach.findings).toEqual([]);
    expect(reach.stops).toBeGreaterThan(3);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('shows field errors next to their fields', async (context) => {
    requireBrowser(context);
    const { page } = await openOnboarding();
    await page.getByLabel('Base URL').fill('api.example.com');
    await page.locator('form[aria-label="Connect an account"] button[type="submit"]').click();
    await page.getByText('Paste your API key').waitFor();
    await page.getByText(/Enter a full https:\/\/ URL/).waitFor();
    expect(await page.getByLabel('API key', { exact: true }).getAttribute('aria-invalid')).toBe('true');
    expect(await page.getByLabel('Base URL').getAttribute('aria-invalid')).toBe('true');
    await screenshot(page, 'onboarding-field-errors');
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.close();
  });

  it('rejects a wrong key with a clear message, and names the URL reading it found', async (context) => {
    requireBrowser(context);
    const { page } = await openOnboarding();
    await page.getByLabel('API key', { exact: true }).fill('wrong-key-0000');
    await page.getByLabel('Base URL').fill(sandbox.baseUrl);
    await page.getByRole('button', { name: 'Test connection' }).click();
    const verdict = page.getByTestId('key-verdict');
    await verdict.waitFor();
    expect(await verdict.innerText()).toMatch(/Not accepted\. The service rejected this API key\./);
    expect(await page.getByTestId('connection-test-result').innerText()).toMatch(/Adopted: as written/);
    await screenshot(page, 'onboarding-wrong-key');
    expect(await seriousAxeViolations(page)).toEqual([]);

    // Save (or "Keep for this session only" without a keychain) does not store a profile whose key
    // was refused; it asks first.
    await page.locator('form[aria-label="Connect an account"] button[type="submit"]').click();
    await page.getByRole('button', { name: 'Save anyway' }).waitFor();
    await page.close();
  });

  it('saves a working key (in the keychain, or for this session when there is none) and connects', async (context) => {
    requireBrowser(context);
    const { page } = await openOnboarding();
    const withKeychain = await keychainAvailable(page);
    await page.getByLabel('API key', { exact: true }).fill(SANDBOX_KEY);
    await page.getByLabel('Base URL').fill(sandbox.baseUrl);
    await page.getByLabel('Profile name').fill('Sandbox account');
    if (withKeychain) {
      expect(await page.getByText('No OS keychain').count()).toBe(0);
      await page.getByRole('button', { name: 'Save', exact: true }).click();
    } else {
      // Said once, up front, and the primary action is the one that works.
      expect(await page.getByText(/stored in your OS keychain|Saved in your OS keychain/).count()).toBe(0);
      await screenshot(page, 'onboarding-no-keychain');
      await page.getByRole('button', { name: 'Keep for this session only' }).click();
    }
    await page.getByRole('navigation', { name: 'Main' }).waitFor();
    await status(page, 'online').waitFor();
    expect(await page.getByTestId('active-profile').innerText()).toBe('Sandbox account');
    expect(await page.getByTestId('demo-banner').count()).toBe(0);

    await page.getByRole('link', { name: 'Settings' }).click();
    const card = page.getByRole('listitem', { name: /^Sandbox account/ });
    expect(await card.getByTestId('profile-key').innerText()).toBe(
      `…${SANDBOX_KEY.slice(-4)} in ${withKeychain ? 'OS keychain' : 'this session only'}`,
    );
    expect(await page.content()).not.toContain(SANDBOX_KEY);
    await screenshot(page, 'settings-account');
    expect(await seriousAxeViolations(page)).toEqual([]);

    await card.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('button', { name: 'Delete profile' }).click();
    await page.getByRole('heading', { level: 1, name: 'Welcome to Proxy Manager' }).waitFor();
    await page.close();
  });

  it('adds /api/v1 to a base URL typed without it, warns about a duplicate profile, and shows names instead of ids', async (context) => {
    requireBrowser(context);
    const { page } = await openOnboarding();
    const origin = new URL(sandbox.baseUrl).origin;
    const primary = page.locator('form[aria-label="Connect an account"] button[type="submit"]');
    await page.getByLabel('Base URL').fill(origin);
    await page.getByLabel('API key', { exact: true }).fill(SANDBOX_KEY);
    await page.getByLabel('Profile name').fill('First');
    await page.getByRole('button', { name: 'Test connection' }).click();
    const adopted = page.getByTestId('adopted-base-url');
    await adopted.waitFor();
    expect(await adopted.innerText()).toContain(`${sandbox.baseUrl} (added /api/v1`);
    // Inside a closed <details>: read the text, not what is drawn.
    const urls = await page.locator('.probes li code').allTextContents();
    expect(urls.length).toBeGreaterThanOrEqual(3);
    expect(new Set(urls).size).toBe(urls.length);
    await screenshot(page, 'onboarding-suffix-adopted');
    await primary.click();
    await page.getByRole('navigation', { name: 'Main' }).waitFor();
    await status(page, 'online').waitFor();

    // The same account again, from Settings: named, with a switch offered instead.
    await page.getByRole('link', { name: 'Settings' }).click();
    await page.getByRole('button', { name: 'Add a profile' }).click();
    await page.getByLabel('Base URL').fill(sandbox.baseUrl);
    await page.getByLabel('API key', { exact: true }).fill(SANDBOX_KEY);
    await page.getByLabel('Profile name').fill('Second');
    await primary.click();
    const warning = page.getByTestId('duplicate-profile');
    await warning.waitFor();
    expect(await warning.innerText()).toContain('“First” connects to the same base URL with the same key');
    await warning.getByRole('button', { name: 'Switch to First' }).waitFor();
    await screenshot(page, 'settings-duplicate-profile');
    expect(await seriousAxeViolations(page)).toEqual([]);
    expect(await page.getByRole('listitem', { name: /^Second/ }).count()).toBe(0);

    // Catalog: names first, ids only in the tooltip and a secondary line.
    await page.getByRole('link', { name: 'Catalog' }).click();
    await page.getByRole('tab', { name: 'Coins' }).click();
    const network = page.locator('td[title="Network id: tron"]').first();
    await network.waitFor();
    expect((await network.innerText()).split('\n')[0]).not.toBe('tron');
    await screenshot(page, 'catalog-coin-names');

    await page.getByRole('link', { name: 'Settings' }).click();
    await page
      .getByRole('listitem', { name: /^First/ })
      .getByRole('button', { name: 'Delete' })
      .click();
    await page.getByRole('button', { name: 'Delete profile' }).click();
    await page.getByRole('heading', { level: 1, name: 'Welcome to Proxy Manager' }).waitFor();
    await page.close();
  });

  it('tries the demo: banner and Online; leaving it returns to onboarding', async (context) => {
    requireBrowser(context);
    const { page, problems } = await openOnboarding();
    await page.getByRole('button', { name: 'Try demo' }).click();
    await page.getByTestId('demo-banner').waitFor();
    await status(page, 'online').waitFor();
    // The first screen once a profile exists: what needs attention.
    await page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
    await page.getByRole('list', { name: 'Needs attention' }).waitFor();
    await screenshot(page, 'demo-started');
    await page.getByRole('button', { name: 'Leave demo' }).click();
    await page.getByRole('heading', { level: 1, name: 'Welcome to Proxy Manager' }).waitFor();
    expect(problems).toEqual([]);
    await page.close();
  });
});
