import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { ROOT } from './web-mode';

export const CHROMIUM_PATH = '/usr/bin/chromium';
export const ARTIFACTS_DIR = join(ROOT, 'tests', 'e2e', 'artifacts');
const REQUIRE_ALL = process.env.PROXY_MANAGER_REQUIRE_ALL === '1';

/** Why browser tests cannot run here, or null when they can. */
export const browserSkipReason: string | null = existsSync(CHROMIUM_PATH)
  ? null
  : `${CHROMIUM_PATH} is missing (apt-get install chromium); the browser end-to-end tests need it`;

/** Skips the running test with the reason, or fails it when every suite is required (CI). */
export function requireBrowser(context: { skip: (note?: string) => never }): void {
  if (!browserSkipReason) return;
  if (REQUIRE_ALL) throw new Error(`PROXY_MANAGER_REQUIRE_ALL=1: ${browserSkipReason}`);
  context.skip(browserSkipReason);
}

export interface TestBrowser {
  context: BrowserContext;
  /** A new tab; its console errors and failed requests are collected for the test to check. */
  newPage: () => Promise<{ page: Page; problems: string[] }>;
  close: () => Promise<void>;
}

/** Headless Debian Chromium with a fresh profile folder, 1280x800 like the README screenshot. */
export async function launchBrowser(): Promise<TestBrowser> {
  const userDataDir = mkdtempSync(join(tmpdir(), 'pm-e2e-chromium-'));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-dev-shm-usage',
    ],
    viewport: { width: 1280, height: 800 },
    colorScheme: 'light',
    reducedMotion: 'reduce',
  });
  context.setDefaultTimeout(20_000);
  for (const page of context.pages()) await page.close();
  return {
    context,
    newPage: async () => {
      const page = await context.newPage();
      const problems: string[] = [];
      page.on('console', (message) => {
        if (message.type() === 'error') problems.push(`console: ${message.text()}`);
      });
      page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
      return { page, problems };
    },
    close: async () => {
      await context.close();
      rmSync(userDataDir, { recursive: true, force: true });
    },
  };
}

/** Saves `tests/e2e/artifacts/<name>.png` (git-ignored): the whole page unless `viewportOnly`. */
export async function screenshot(page: Page, name: string, viewportOnly = false): Promise<string> {
  mkdirSync(ARTIFACTS_DIR, { recursive: true });
  const path = join(ARTIFACTS_DIR, `${name}.png`);
  await page.screenshot({ path, fullPage: !viewportOnly });
  return path;
}

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: unknown[]; failureSummary?: string }[];
}

const axeSource = () => readFileSync(join(ROOT, 'node_modules', 'axe-core', 'axe.min.js'), 'utf8');

/**
 * Runs axe-core on the page and answers its serious and critical violations, readable. The page's
 * CSP (script-src 'self') refuses an injected <script> tag (page.addScriptTag), which is the point of
 * the CSP, so axe is evaluated through the DevTools protocol instead, which the CSP does not govern.
 */
export async function seriousAxeViolations(page: Page): Promise<string[]> {
  const loaded = await page.evaluate(() => typeof (window as { axe?: unknown }).axe !== 'undefined');
  if (!loaded) await page.evaluate(axeSource());
  const violations = await page.evaluate(async () => {
    const axe = (
      window as unknown as { axe: { run: (context: Document) => Promise<{ violations: unknown[] }> } }
    ).axe;
    return (await axe.run(document)).violations;
  });
  return (violations as AxeViolation[])
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(
      (violation) =>
        `${violation.impact} ${violation.id} (${violation.help}): ${violation.nodes
          .slice(0, 3)
          .map((node) => `${JSON.stringify(node.target)} ${node.failureSummary ?? ''}`)
          .join(' | ')}`,
    );
}
