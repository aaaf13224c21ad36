import type { Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import type { AppState, IpcResult } from '../../../src-shared/contract';
import { browserSkipReason, launchBrowser, type TestBrowser } from './browser';
import { startWebMode, type WebModeOptions, type WebModeProcess } from './web-mode';

/**
 * What the browser end-to-end files share: one web-mode process and one browser per file, the app
 * opened in a tab, a screen opened from the navigation, the contract called from the page, and the
 * demo sandbox's control API.
 */

export interface WebSession {
  /** Set once `beforeAll` has run (never when the browser is missing: those tests skip). */
  web: WebModeProcess;
  browser: TestBrowser;
}

export interface WebSessionOptions extends WebModeOptions {
  /** Browser permissions granted to the app's origin (e.g. the clipboard). */
  permissions?: string[];
}

/**
 * Starts web mode and the browser before the file's tests and stops both after them (registered as
 * the file's `beforeAll`/`afterAll`; call it inside the `describe`). The tests read the session's
 * fields once the hooks have run.
 */
export function useWebSession(options: WebSessionOptions = {}): WebSession {
  const { permissions, ...webOptions } = options;
  const session = {} as WebSession;
  beforeAll(async () => {
    if (browserSkipReason) return;
    session.web = await startWebMode(webOptions);
    session.browser = await launchBrowser();
    if (permissions) {
      await session.browser.context.grantPermissions(permissions, { origin: session.web.origin });
    }
  });
  afterAll(async () => {
    // Optional chaining: a start that failed (or was skipped) left these unset.
    await session.browser?.close();
    await session.web?.stop();
  });
  return session;
}

/** The status bar's connection state showing Online. */
export const online = (page: Page) => page.locator('[data-testid="connection-status"][data-status="online"]');

/**
 * A new tab on the printed URL (with its token), once the main navigation is there; with
 * `waitOnline`, also once the status bar says Online (the demo's profile has been read).
 */
export async function openApp(
  session: WebSession,
  { waitOnline = false }: { waitOnline?: boolean } = {},
): Promise<{ page: Page; problems: string[] }> {
  const opened = await session.browser.newPage();
  await opened.page.goto(session.web.url);
  await opened.page.getByRole('navigation', { name: 'Main' }).waitFor();
  if (waitOnline) await online(opened.page).waitFor();
  return opened;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Opens a screen from the main navigation and waits for its heading (and for `ready`, a selector of
 * what the screen shows once loaded). A link may carry a count after its name ("Subscriptions 2
 * alerts"), so links are matched by `^Name( |$)`.
 */
export async function openScreen(page: Page, name: string, ready?: string): Promise<void> {
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: new RegExp(`^${escapeRegExp(name)}( |$)`) })
    .click();
  await page.getByRole('heading', { level: 1, name }).waitFor();
  if (ready) await page.locator(ready).first().waitFor();
}

/**
 * One `window.api` call from the page (the same call a button makes, through the web transport and
 * the session token), its result unwrapped: an error result throws with its code and message.
 */
export async function callApi<T>(page: Page, domain: string, method: string, input?: unknown): Promise<T> {
  const result = (await page.evaluate(
    async ([d, m, i]) => {
      const api = (window as unknown as { api: Record<string, Record<string, (x?: unknown) => unknown>> })
        .api;
      return await api[d]![m]!(i);
    },
    [domain, method, input] as const,
  )) as IpcResult<T>;
  if (!result.ok) throw new Error(`${domain}.${method}: ${result.error.code} ${result.error.message}`);
  return result.value;
}

/** The demo sandbox's control API (`…/__sandbox`), found through the active profile's base URL. */
async function sandboxControlUrl(page: Page): Promise<string> {
  const state = await callApi<AppState>(page, 'app', 'getState');
  const baseUrl = state.activeProfile?.baseUrl;
  if (!baseUrl) throw new Error('no active demo profile');
  return `${new URL(baseUrl).origin}/__sandbox`;
}

/** Posts to the demo sandbox's control API (`path` such as `/clock`); a refusal throws. */
export async function sandboxControl(page: Page, path: string, body: unknown): Promise<void> {
  const response = await fetch(`${await sandboxControlUrl(page)}${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`sandbox control ${path}: ${response.status} ${await response.text()}`);
}
