import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { expect } from 'vitest';
import { DEMO_KEY, type TestSandbox } from '@proxy-manager/sandbox/testing';
import { runCapture, tempDataDir } from '../../cli/support/cli-harness';

const BIN = join(__dirname, '..', '..', '..', 'bin', 'proxy-manager.mjs');

/**
 * A fresh data folder whose account is the sandbox's demo one, from the environment as a script's
 * would be: the same for `token create` in this process and for the `serve` child, so the server
 * knows the tokens.
 */
export function restEnv(sandbox: TestSandbox): Record<string, string> {
  return {
    PROXY_MANAGER_DATA_DIR: tempDataDir(),
    PROXY_MANAGER_API_KEY: DEMO_KEY,
    PROXY_MANAGER_BASE_URL: sandbox.baseUrl,
  };
}

/**
 * A token made as a user would, with the CLI on the same data folder (before or while `serve` runs);
 * its secret is the first line `token create` prints.
 */
export async function createToken(
  env: Record<string, string>,
  name: string,
  scopes: string,
): Promise<string> {
  const created = await runCapture(['token', 'create', '--name', name, '--scopes', scopes], env);
  expect(created.code).toBe(0);
  return created.stdout.split('\n')[0] ?? '';
}

/**
 * `proxy-manager serve --port 0` in the foreground, as a child process. Returned before it is ready
 * (see `readyUrl`) so that `afterAll` can stop it even when it never gets there. No D-Bus session: the
 * keychain probe fails at once instead of waiting on, or reaching, the real keychain.
 */
export function spawnServe(env: Record<string, string>): ChildProcess {
  return spawn(process.execPath, [BIN, 'serve', '--port', '0'], {
    env: { ...process.env, ...env, DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
}

/**
 * The URL from the `REST_READY {json}` line `serve` prints once it listens (with port 0 there is no
 * other way to know it). Call it right after `spawnServe`, before the line or the exit can pass.
 */
export function readyUrl(server: ChildProcess): Promise<string> {
  const lines = createInterface({ input: server.stdout! });
  return new Promise<string>((resolve, reject) => {
    server.once('exit', (code) => reject(new Error(`serve exited with ${code}`)));
    lines.on('line', (line) => {
      const match = /^REST_READY (.*)$/.exec(line);
      if (match) resolve((JSON.parse(match[1] ?? '{}') as { url: string }).url);
    });
  });
}

/** SIGTERM, and wait until it has exited: no server outlives its test file. */
export async function stopServe(server: ChildProcess | undefined): Promise<void> {
  if (!server || server.exitCode !== null || server.signalCode !== null) return;
  const exited = new Promise((resolve) => server.once('exit', resolve));
  server.kill('SIGTERM');
  await exited;
}
