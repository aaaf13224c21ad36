#!/usr/bin/env node
// `npm start` / `npm run dev`: make sure Electron's binary is on disk, then run electron-vite.
//
// Why: electron >= 42 has no postinstall; its binary is downloaded the first time something calls
// `require('electron')`. electron-vite never does: it reads `node_modules/electron/path.txt` itself
// and stops with "Electron uninstall" when the file is missing, so on a fresh clone `npm start` fails
// before anything fetches the binary. This script runs electron's own installer (`install.js`, the
// same step `require('electron')` and `npx install-electron` run) when the binary is missing or from
// another electron version, and says in one sentence what to do when that fails (offline).
//
// Usage: node scripts/ensure-electron.mjs <electron-vite arguments…>
import { spawn } from 'node:child_process';
import * as nodeFs from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';

const require = createRequire(import.meta.url);

/** `node_modules/electron`, found the way electron-vite finds it. */
export function defaultElectronDir() {
  return dirname(require.resolve('electron/package.json'));
}

/**
 * Whether the binary for this electron package is in place: the same three facts electron's
 * `install.js` checks (dist/version matches the package, path.txt names the executable, it exists).
 * @param {string} electronDir
 * @param {Pick<typeof nodeFs, 'existsSync' | 'readFileSync'>} fs
 */
export function electronInstallState(electronDir, fs = nodeFs) {
  const { version } = JSON.parse(fs.readFileSync(join(electronDir, 'package.json'), 'utf8'));
  const read = (name) => {
    try {
      return fs.readFileSync(join(electronDir, name), 'utf8').trim();
    } catch {
      return null;
    }
  };
  const executable = read('path.txt');
  const distVersion = read(join('dist', 'version'))?.replace(/^v/, '');
  const installed =
    executable !== null &&
    executable !== '' &&
    distVersion === version &&
    fs.existsSync(join(electronDir, 'dist', executable));
  return { version, installed };
}

/**
 * Runs electron's installer in a child Node. Its stdout (progress) is shown; its stderr (a stack
 * trace on failure) is kept so that only the cause reaches the user.
 * @param {string} electronDir
 * @returns {Promise<{ ok: boolean, detail: string }>}
 */
export function runElectronInstaller(electronDir) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [join(electronDir, 'install.js')], {
      stdio: ['ignore', 'inherit', 'pipe'],
    });
    let stderr = '';
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    child.on('error', (error) => resolve({ ok: false, detail: error.message }));
    child.on('close', (code) => resolve({ ok: code === 0, detail: stderr }));
  });
}

/** Starts electron-vite with the given arguments; resolves with its exit code. */
export function runElectronVite(args) {
  const bin = join(dirname(require.resolve('electron-vite/package.json')), 'bin', 'electron-vite.js');
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [bin, ...args], { stdio: 'inherit' });
    child.on('error', (error) => {
      console.error(`Could not start electron-vite: ${error.message}`);
      resolve(1);
    });
    child.on('close', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

/** The first line of an installer failure that says what went wrong (not the stack frames). */
export function failureCause(detail) {
  const lines = detail
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('at '));
  const line = lines.find((l) => /error/i.test(l)) ?? lines[0] ?? '';
  return line.replace(/^(?:\w*Error|RequestError|HTTPError): /, '').slice(0, 200);
}

/** The command the user typed, from npm's lifecycle name, to tell them what to run again. */
export function retryCommand(env) {
  const script = env.npm_lifecycle_event;
  if (!script) return 'the same command';
  return script === 'start' ? '`npm start`' : `\`npm run ${script}\``;
}

/** The one sentence shown when the binary cannot be obtained. */
export function downloadFailedMessage(version, cause, retry) {
  const why = cause ? ` (${cause})` : '';
  return (
    `Could not download Electron ${version}, the desktop runtime${why}: check that this machine is ` +
    `online (or set ELECTRON_MIRROR / ELECTRON_GET_USE_PROXY) and run ${retry} again; ` +
    '`npm run web` works without it.'
  );
}

/**
 * Makes sure the binary is there, downloading it when needed.
 * @param {{
 *   electronDir: string,
 *   env?: NodeJS.ProcessEnv,
 *   fs?: Pick<typeof nodeFs, 'existsSync' | 'readFileSync'>,
 *   download?: (electronDir: string) => Promise<{ ok: boolean, detail: string }>,
 *   log?: (line: string) => void,
 * }} options
 * @returns {Promise<{ ok: true, downloaded: boolean } | { ok: false, message: string }>}
 */
export async function ensureElectron(options) {
  const { electronDir, env = process.env, fs = nodeFs, download = runElectronInstaller } = options;
  const log = options.log ?? ((line) => console.log(line));
  // Someone who points electron-vite or electron at their own binary has already chosen one.
  if (env.ELECTRON_EXEC_PATH || env.ELECTRON_OVERRIDE_DIST_PATH) return { ok: true, downloaded: false };
  const before = electronInstallState(electronDir, fs);
  if (before.installed) return { ok: true, downloaded: false };
  log(`Downloading Electron ${before.version} (the desktop runtime, about 100 MB, only this once)…`);
  const result = await download(electronDir);
  if (result.ok && electronInstallState(electronDir, fs).installed) return { ok: true, downloaded: true };
  const cause = result.ok ? 'the installer finished but left no binary' : failureCause(result.detail);
  return { ok: false, message: downloadFailedMessage(before.version, cause, retryCommand(env)) };
}

/**
 * The whole command: ensure, then electron-vite with `args`. Resolves with the exit code.
 * @param {string[]} args
 * @param {Parameters<typeof ensureElectron>[0] & {
 *   startElectronVite?: (args: string[]) => Promise<number>,
 *   error?: (line: string) => void,
 * }} options
 */
export async function main(args, options) {
  const { startElectronVite = runElectronVite } = options;
  const error = options.error ?? ((line) => console.error(line));
  const ensured = await ensureElectron(options);
  if (!ensured.ok) {
    error(ensured.message);
    return 1;
  }
  return startElectronVite(args);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = await main(process.argv.slice(2), { electronDir: defaultElectronDir() });
}
