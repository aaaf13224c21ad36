import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  defaultElectronDir,
  electronInstallState,
  ensureElectron,
  failureCause,
  main,
  runElectronInstaller,
} from '../../scripts/ensure-electron.mjs';

const VERSION = '45.4.1';
let electronDir: string;

/** What electron's install.js leaves behind after a successful download. */
function writeInstalledBinary(dir: string, version = VERSION): void {
  mkdirSync(join(dir, 'dist'), { recursive: true });
  writeFileSync(join(dir, 'dist', 'version'), `v${version}`);
  writeFileSync(join(dir, 'dist', 'electron'), '#!/bin/sh\n');
  writeFileSync(join(dir, 'path.txt'), 'electron');
}

beforeEach(() => {
  electronDir = mkdtempSync(join(tmpdir(), 'pm-electron-'));
  writeFileSync(join(electronDir, 'package.json'), JSON.stringify({ name: 'electron', version: VERSION }));
});
afterEach(() => rmSync(electronDir, { recursive: true, force: true }));

const OFFLINE_STDERR = [
  'RequestError: getaddrinfo ENOTFOUND github.com',
  '    at ClientRequest.<anonymous> (/x/node_modules/got/dist/source/core/index.js:970:111)',
  '    at Object.onceWrapper (node:events:634:26)',
].join('\n');

describe('npm start: ensure-electron', () => {
  it('starts electron-vite without downloading when the binary is already installed', async () => {
    writeInstalledBinary(electronDir);
    const download = vi.fn();
    const startElectronVite = vi.fn(() => Promise.resolve(0));
    const code = await main(['preview', '--', '--demo'], {
      electronDir,
      env: {},
      download,
      startElectronVite,
      log: () => {},
    });
    expect(code).toBe(0);
    expect(download).not.toHaveBeenCalled();
    expect(startElectronVite).toHaveBeenCalledWith(['preview', '--', '--demo']);
  });

  it('downloads a missing binary first, then starts electron-vite and passes its exit code on', async () => {
    const order: string[] = [];
    const download = vi.fn((dir: string) => {
      order.push('download');
      writeInstalledBinary(dir);
      return Promise.resolve({ ok: true, detail: '' });
    });
    const startElectronVite = vi.fn(() => {
      order.push('electron-vite');
      return Promise.resolve(3);
    });
    const logged: string[] = [];
    const code = await main(['dev'], {
      electronDir,
      env: {},
      download,
      startElectronVite,
      log: (line) => logged.push(line),
    });
    expect(order).toEqual(['download', 'electron-vite']);
    expect(download).toHaveBeenCalledWith(electronDir);
    expect(code).toBe(3);
    expect(logged).toEqual([expect.stringContaining(`Downloading Electron ${VERSION}`)]);
  });

  it('when the download fails (offline): one sentence saying so and how to retry, exit 1, no electron-vite', async () => {
    const startElectronVite = vi.fn(() => Promise.resolve(0));
    const errors: string[] = [];
    const code = await main(['preview'], {
      electronDir,
      env: { npm_lifecycle_event: 'start' },
      download: () => Promise.resolve({ ok: false, detail: OFFLINE_STDERR }),
      startElectronVite,
      log: () => {},
      error: (line) => errors.push(line),
    });
    expect(code).toBe(1);
    expect(startElectronVite).not.toHaveBeenCalled();
    expect(errors).toEqual([
      `Could not download Electron ${VERSION}, the desktop runtime (getaddrinfo ENOTFOUND github.com): ` +
        'check that this machine is online (or set ELECTRON_MIRROR / ELECTRON_GET_USE_PROXY) and run ' +
        '`npm start` again; `npm run web` works without it.',
    ]);
    expect(errors[0]).not.toContain('\n');
  });

  it('names `npm run dev` when that is what was typed', async () => {
    const result = await ensureElectron({
      electronDir,
      env: { npm_lifecycle_event: 'dev' },
      download: () => Promise.resolve({ ok: false, detail: OFFLINE_STDERR }),
      log: () => {},
    });
    expect(result).toMatchObject({ ok: false, message: expect.stringContaining('run `npm run dev` again') });
  });

  it('treats an installer that "succeeds" without leaving a binary as a failure', async () => {
    const result = await ensureElectron({
      electronDir,
      env: {},
      download: () => Promise.resolve({ ok: true, detail: '' }),
      log: () => {},
    });
    expect(result).toMatchObject({ ok: false, message: expect.stringContaining('left no binary') });
  });

  it('re-downloads when the binary on disk belongs to another electron version, or its executable is gone', () => {
    writeInstalledBinary(electronDir, '44.0.0');
    expect(electronInstallState(electronDir)).toEqual({ version: VERSION, installed: false });
    writeInstalledBinary(electronDir);
    expect(electronInstallState(electronDir).installed).toBe(true);
    rmSync(join(electronDir, 'dist', 'electron'));
    expect(electronInstallState(electronDir).installed).toBe(false);
  });

  it('leaves a binary chosen through ELECTRON_EXEC_PATH or ELECTRON_OVERRIDE_DIST_PATH alone', async () => {
    const download = vi.fn();
    for (const env of [{ ELECTRON_EXEC_PATH: '/opt/electron' }, { ELECTRON_OVERRIDE_DIST_PATH: '/opt/e' }]) {
      expect(await ensureElectron({ electronDir, env, download, log: () => {} })).toEqual({
        ok: true,
        downloaded: false,
      });
    }
    expect(download).not.toHaveBeenCalled();
  });

  it("runs electron's own installer (install.js) and keeps its stderr as the failure detail", async () => {
    writeFileSync(
      join(electronDir, 'install.js'),
      `process.stderr.write(${JSON.stringify(OFFLINE_STDERR)}); process.exit(1);`,
    );
    const result = await runElectronInstaller(electronDir);
    expect(result).toEqual({ ok: false, detail: OFFLINE_STDERR });
    expect(failureCause(result.detail)).toBe('getaddrinfo ENOTFOUND github.com');

    writeFileSync(join(electronDir, 'install.js'), 'process.exit(0);');
    expect(await runElectronInstaller(electronDir)).toEqual({ ok: true, detail: '' });
  });

  it('finds the real electron package and its installer where electron-vite looks', () => {
    const dir = defaultElectronDir();
    expect(existsSync(join(dir, 'install.js'))).toBe(true);
    expect(electronInstallState(dir).version).toMatch(/^\d+\.\d+\.\d+/);
  });
});
