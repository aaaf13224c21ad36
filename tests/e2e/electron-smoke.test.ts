import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { _electron, type ElectronApplication } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screenshot } from './support/browser';
import { ROOT } from './support/web-mode';

/**
 * The desktop build, launched through Playwright's Electron driver. The Electron binary cannot be
 * downloaded on our CI machines, so this runs only where one is already installed. The check reads
 * the package's `path.txt` itself: `require('electron')` would start a download when it is missing.
 */
function electronBinary(): string | null {
  const packageDir = join(ROOT, 'node_modules', 'electron');
  const pathFile = join(packageDir, 'path.txt');
  if (!existsSync(pathFile)) return null;
  const relative = readFileSync(pathFile, 'utf8').trim();
  const distDir = process.env.ELECTRON_OVERRIDE_DIST_PATH ?? join(packageDir, 'dist');
  const binary = join(distDir, relative);
  return existsSync(binary) ? binary : null;
}

function skipReason(binary: string | null): string | null {
  if (!binary) return 'no Electron binary in node_modules/electron/dist (it cannot be downloaded here)';
  if (process.platform === 'linux' && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY)
    return 'no display for Electron (run under xvfb-run)';
  return null;
}

const binary = electronBinary();
const reason = skipReason(binary);

describe('desktop app (Electron) smoke test', () => {
  let app: ElectronApplication | undefined;
  let dataDir: string | undefined;

  beforeAll(() => {
    if (reason) return;
    const build = spawnSync(join(ROOT, 'node_modules', '.bin', 'electron-vite'), ['build'], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    if (build.status !== 0) throw new Error(`electron-vite build failed:\n${build.stdout}\n${build.stderr}`);
  });

  afterAll(async () => {
    await app?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('starts the built app, shows onboarding in a locked-down window, and enters the demo', async (context) => {
    if (reason) context.skip(reason);
    dataDir = mkdtempSync(join(tmpdir(), 'pm-e2e-electron-'));
    const env: Record<string, string> = {};
    for (const [name, value] of Object.entries(process.env)) if (value !== undefined) env[name] = value;
    delete env.PROXY_MANAGER_API_KEY;
    delete env.PROXY_MANAGER_BASE_URL;
    app = await _electron.launch({
      executablePath: binary!,
      // --no-sandbox: CI containers run as root, where Chromium's sandbox cannot start.
      args: [ROOT, '--no-sandbox'],
      cwd: ROOT,
      env: { ...env, PROXY_MANAGER_DATA_DIR: dataDir },
    });
    const window = await app.firstWindow();
    await window.getByRole('heading', { level: 1, name: 'Welcome to Proxy Manager' }).waitFor();
    // Served from the app's own privileged scheme, never file://.
    expect(window.url()).toMatch(/^app:\/\/renderer\/index\.html/);

    const isolation = await window.evaluate(() => ({
      api: typeof (window as unknown as { api?: { app?: { getState?: unknown } } }).api?.app?.getState,
      require: typeof (window as unknown as { require?: unknown }).require,
      process: typeof (window as unknown as { process?: unknown }).process,
    }));
    expect(isolation).toEqual({ api: 'function', require: 'undefined', process: 'undefined' });

    await window.getByRole('button', { name: 'Try demo' }).click();
    await window.getByTestId('demo-banner').waitFor();
    await window.locator('[data-testid="connection-status"][data-status="online"]').waitFor();
    await screenshot(window, 'electron-demo');
  });
});
