/**
 * What the real-path benchmarks share: a scale sandbox (the service, on loopback over HTTP), web mode
 * of a checkout connected to it (the app's main process, a separate Node process), and the page in
 * Debian's headless Chromium with nothing faked: every call goes through `window.api` over HTTP and
 * the event socket, and the core calls the sandbox like it calls the service.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { chromium, type Browser, type BrowserContext, type CDPSession, type Page } from 'playwright-core';
import { type RunningSandbox, type SandboxScale, startSandbox } from '@proxy-manager/sandbox';
import { CHROMIUM_ARGS } from './browser-bench-kit';

export const SCALE_KEY = 'sandbox-demo-key';

/** The service: a sandbox with a large account, real clock, no added latency. */
export function startScaleSandbox(scale: SandboxScale): Promise<RunningSandbox> {
  return startSandbox({
    port: 0,
    latency: 'fast',
    seed: 1,
    scale,
    keys: [{ key: SCALE_KEY, scopes: ['proxies'] }],
    logError: (message) => process.stderr.write(`sandbox: ${message}\n`),
  });
}

export interface WebModeProcess {
  /** The printed URL, with its `#token=`. */
  url: string;
  origin: string;
  pid: number;
  stop: () => Promise<void>;
}

/**
 * `<root>/src-main/web/cli.ts` on a free port, a fresh data folder, and the scale sandbox's key from
 * the environment (a profile for this run only, active at once). Resolves on its WEB_READY line.
 */
export async function startWebMode(root: string, baseUrl: string): Promise<WebModeProcess> {
  const dataDir = mkdtempSync(join(tmpdir(), 'pm-bench-data-'));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PROXY_MANAGER_DATA_DIR: dataDir,
    PROXY_MANAGER_API_KEY: SCALE_KEY,
    PROXY_MANAGER_BASE_URL: baseUrl,
  };
  const child: ChildProcess = spawn(
    process.execPath,
    ['--import', 'tsx', join(root, 'src-main', 'web', 'cli.ts'), '--port', '0'],
    { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString('utf8')).slice(-20_000);
  });
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
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
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`web mode did not start:\n${stderr}`)), 180_000);
      createInterface({ input: child.stdout! }).on('line', (line) => {
        const match = /^WEB_READY (\{.*\})$/.exec(line);
        if (!match?.[1]) return;
        clearTimeout(timer);
        resolve((JSON.parse(match[1]) as { url: string }).url);
      });
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`web mode exited (${code}) before it was ready:\n${stderr}`));
      });
    });
    return { url, origin: new URL(url).origin, pid: child.pid ?? 0, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** React DevTools' hook reduced to a commit counter (as the in-page benches have it). Self-contained. */
export function installCommitCounter(): void {
  const commits = { count: 0 };
  (window as unknown as { benchCommits: typeof commits }).benchCommits = commits;
  (window as unknown as { __REACT_DEVTOOLS_GLOBAL_HOOK__: unknown }).__REACT_DEVTOOLS_GLOBAL_HOOK__ = {
    supportsFiber: true,
    isDisabled: false,
    renderers: new Map(),
    inject: () => 1,
    checkDCE: () => undefined,
    onCommitFiberRoot: () => {
      commits.count += 1;
    },
  };
}

export interface RealBrowser {
  browser: Browser;
  context: BrowserContext;
  /** The browser's own CDP session (process CPU times). */
  session: CDPSession;
  close: () => Promise<void>;
}

export async function launchRealBrowser(): Promise<RealBrowser> {
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: CHROMIUM_ARGS,
    headless: true,
  });
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  await context.addInitScript({ content: 'globalThis.__name ??= (fn) => fn;' });
  await context.addInitScript(installCommitCounter);
  const session = await browser.newBrowserCDPSession();
  return { browser, context, session, close: () => browser.close() };
}

/** Response body bytes of each `/rpc/<channel>` answer the page received, largest per channel. */
export function recordRpcBytes(page: Page): Map<string, number> {
  const bytes = new Map<string, number>();
  page.on('requestfinished', (request) => {
    const match = /\/rpc\/([^?]+)/.exec(request.url());
    if (!match?.[1]) return;
    const channel = decodeURIComponent(match[1]);
    void request.sizes().then(
      (sizes) => bytes.set(channel, Math.max(bytes.get(channel) ?? 0, sizes.responseBodySize)),
      () => undefined,
    );
  });
  return bytes;
}

const CLOCK_TICKS_PER_SECOND = 100;

/** CPU seconds (user + system) a process has used so far, from /proc (Linux). */
export function processCpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name (which may hold spaces) start after its closing parenthesis.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_SECOND;
}

/** CPU seconds of Chromium's renderer processes so far (the one page the bench has open). */
export async function rendererCpuSeconds(session: CDPSession): Promise<number> {
  const { processInfo } = await session.send('SystemInfo.getProcessInfo');
  return processInfo.filter((info) => info.type === 'renderer').reduce((sum, info) => sum + info.cpuTime, 0);
}

/** `GET /v1/topups/tu_123` -> `GET /v1/topups/{id}`: requests counted per endpoint, not per resource. */
export function endpointOf(method: string, path: string): string {
  const route = path
    .replace(/^\/api\/v1/, '')
    .split('?')[0]
    ?.split('/')
    .map((segment, index, all) => {
      const previous = all[index - 1] ?? '';
      if (/^(mobile|topups|subscriptions|sub-users)$/.test(previous) && !/^(v1)$/.test(segment))
        return '{id}';
      if (previous === 'countries' && /^[A-Z]{2}$/.test(segment)) return '{country}';
      return segment;
    })
    .join('/');
  return `${method} ${route ?? path}`;
}

/** The sandbox's request log (its last 500 API requests). */
export async function sandboxRequests(
  sandbox: RunningSandbox,
): Promise<{ at: string; method: string; path: string }[]> {
  const response = await fetch(`${sandbox.controlUrl}/requests`);
  const body = (await response.json()) as { data: { at: string; method: string; path: string }[] };
  return body.data;
}
