import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { spawnTs } from '../../support/spawn-ts';

export const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
/** Bounds the start-up (it may build the renderer first); a failure to start ends the wait at once. */
const READY_TIMEOUT_MS = 150_000;

export interface WebModeProcess {
  /** `http://127.0.0.1:PORT/#token=…` as printed. */
  url: string;
  origin: string;
  token: string;
  dataDir: string;
  /** Everything the process wrote to stderr so far (for failure messages). */
  stderr: () => string;
  stop: () => Promise<void>;
}

export interface WebModeOptions {
  demo?: boolean;
  extraArgs?: string[];
  /** More environment for the process, read as it starts (e.g. a sandbox's key and base URL). */
  env?: () => Record<string, string>;
}

/**
 * Starts `node --import tsx src-main/web/cli.ts --port 0` with a fresh, private data folder (no real settings or
 * profiles are read or touched) and resolves once it prints its WEB_READY line.
 */
export async function startWebMode(options: WebModeOptions = {}): Promise<WebModeProcess> {
  const dataDir = mkdtempSync(join(tmpdir(), 'pm-e2e-data-'));
  const env: NodeJS.ProcessEnv = { ...process.env, PROXY_MANAGER_DATA_DIR: dataDir };
  delete env.PROXY_MANAGER_API_KEY;
  delete env.PROXY_MANAGER_BASE_URL;
  Object.assign(env, options.env?.());
  const args = [
    join(ROOT, 'src-main', 'web', 'cli.ts'),
    '--port',
    '0',
    ...(options.demo ? ['--demo', '--demo-latency', 'fast'] : []),
    ...(options.extraArgs ?? []),
  ];
  const [entry = '', ...rest] = args;
  const child: ChildProcess = spawnTs(entry, rest, {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  // 'error' without 'exit' when the process could not be spawned at all.
  const exited = new Promise<void>((done) => {
    child.once('exit', () => done());
    child.once('error', () => done());
  });

  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    }
    rmSync(dataDir, { recursive: true, force: true });
  };

  try {
    const url = await new Promise<string>((resolveUrl, reject) => {
      const timer = setTimeout(
        () =>
          reject(new Error(`web mode printed no WEB_READY line within ${READY_TIMEOUT_MS} ms:\n${stderr}`)),
        READY_TIMEOUT_MS,
      );
      const lines = createInterface({ input: child.stdout! });
      lines.on('line', (line) => {
        const match = /^WEB_READY (\{.*\})$/.exec(line);
        if (!match?.[1]) return;
        clearTimeout(timer);
        resolveUrl((JSON.parse(match[1]) as { url: string }).url);
      });
      child.once('exit', (code, signal) => {
        clearTimeout(timer);
        reject(new Error(`web mode exited (${code ?? signal}) before it was ready:\n${stderr}`));
      });
      child.once('error', (error) => {
        clearTimeout(timer);
        reject(new Error(`web mode could not start: ${error.message}`));
      });
    });
    const parsed = new URL(url);
    const token = new URLSearchParams(parsed.hash.slice(1)).get('token') ?? '';
    return { url, origin: parsed.origin, token, dataDir, stderr: () => stderr, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
