import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../src';

// Exactly what `proxy-sandbox` (and the app's `npm run sandbox`) runs, without npm in between (npm
// would add its own output and would not forward signals the same way).
const BIN = join(__dirname, '..', 'bin', 'proxy-sandbox.mjs');
const READY = /^SANDBOX_READY (\{.*\})$/;
const START = '2026-03-10T12:00:00.000Z';

interface Ready {
  baseUrl: string;
  controlUrl: string;
  gateway: { host: string; httpPort: number; socksPort: number };
  apiKey?: string | null;
}

interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

class CliProcess {
  stdout = '';
  stderr = '';
  readonly exited: Promise<Exit>;
  private readonly child: ChildProcess;

  constructor(args: readonly string[]) {
    this.child = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    this.child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (this.stdout += chunk));
    this.child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (this.stderr += chunk));
    this.exited = new Promise((resolve) => {
      this.child.on('close', (code, signal) =>
        resolve({ code, signal, stdout: this.stdout, stderr: this.stderr }),
      );
    });
  }

  /** Resolves with the READY line's URLs, or rejects with what the process said if it exits first. */
  ready(): Promise<Ready> {
    return new Promise((resolve, reject) => {
      const check = () => {
        const line = this.stdout.split('\n').find((l) => READY.test(l));
        if (line) {
          this.child.stdout?.off('data', check);
          resolve(JSON.parse(READY.exec(line)?.[1] ?? '') as Ready);
        }
      };
      this.child.stdout?.on('data', check);
      check();
      void this.exited.then((exit) =>
        reject(new Error(`sandbox exited (${exit.code ?? exit.signal}) before ready: ${exit.stderr}`)),
      );
    });
  }

  stop(signal: NodeJS.Signals = 'SIGTERM'): Promise<Exit> {
    this.child.kill(signal);
    return this.exited;
  }
}

const running = new Set<CliProcess>();
const folders: string[] = [];

function run(...args: string[]): CliProcess {
  const cli = new CliProcess(args);
  running.add(cli);
  void cli.exited.then(() => running.delete(cli));
  return cli;
}

async function started(...args: string[]): Promise<{ cli: CliProcess; urls: Ready }> {
  const cli = run(...args);
  return { cli, urls: await cli.ready() };
}

function tempFolder(): string {
  const folder = mkdtempSync(join(tmpdir(), 'sandbox-cli-'));
  folders.push(folder);
  return folder;
}

async function getJson(url: string, key?: string): Promise<{ status: number; body: any }> {
  const response = await fetch(url, { headers: key ? { Authorization: `Bearer ${key}` } : {} });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
}

async function send(method: string, url: string, body: unknown, key?: string): Promise<number> {
  const response = await fetch(url, {
    method,
    headers: { 'Content-Type': 'application/json', ...(key ? { Authorization: `Bearer ${key}` } : {}) },
    body: JSON.stringify(body),
  });
  await response.arrayBuffer();
  return response.status;
}

afterAll(async () => {
  await Promise.all([...running].map((cli) => cli.stop('SIGKILL')));
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

/** Each sandbox names its own addresses (rotation links, gateway endpoints); the rest must be equal. */
const normaliseOrigin = (value: unknown, urls: Ready): unknown =>
  JSON.parse(
    JSON.stringify(value)
      .replaceAll(new URL(urls.baseUrl).origin, 'http://ORIGIN')
      .replaceAll(JSON.stringify(urls.gateway), '"GATEWAY"'),
  );

// Each test starts tsx, which compiles the CLI on start: seconds on a busy CI machine, hence the longer timeout.
describe.concurrent('proxy-sandbox (bin/proxy-sandbox.mjs, src/cli.ts)', { timeout: 60_000 }, () => {
  it('with defaults: one SANDBOX_READY line on loopback, key sandbox-demo-key with scope proxies, exit 0 on SIGINT', async () => {
    const { cli, urls } = await started('--port', '0');
    expect(urls.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/v1$/);
    expect(urls.controlUrl).toBe(urls.baseUrl.replace('/api/v1', '/__sandbox'));
    expect(Object.keys(urls)).toEqual(['baseUrl', 'controlUrl', 'gateway', 'apiKey']);
    // It names its demo key: a script needs nothing else to start calling.
    expect(urls.apiKey).toBe('sandbox-demo-key');
    expect(urls.gateway).toEqual({
      host: '127.0.0.1',
      httpPort: expect.any(Number),
      socksPort: expect.any(Number),
    });
    expect((await getJson(`${urls.controlUrl}/info`)).body).toMatchObject({
      latency: 'realistic',
      clockMode: 'real',
    });
    const ports = await getJson(`${urls.baseUrl}/v1/mobile`, 'sandbox-demo-key');
    expect(ports.status).toBe(200);
    expect((await getJson(`${urls.baseUrl}/v1/mobile`, 'readonly')).status).toBe(401);
    // PATCH of a port needs the proxies scope.
    const portUrl = `${urls.baseUrl}/v1/mobile/${ports.body.data[0].id as string}`;
    expect(await send('PATCH', portUrl, { label: 'Scoped' }, 'sandbox-demo-key')).toBe(200);
    const exit = await cli.stop('SIGINT');
    expect(exit.code).toBe(0);
    expect(exit.stdout).toBe(`SANDBOX_READY ${JSON.stringify(urls)}\n`);
  });

  it('takes repeated --key KEY:SCOPES (empty scopes too), and exits 0 on SIGTERM, no longer listening', async () => {
    const { cli, urls } = await started(
      '--port',
      '0',
      '--latency',
      'fast',
      '--key',
      'full-key:proxies',
      '--key',
      'readonly:',
    );
    expect((await getJson(`${urls.baseUrl}/v1/mobile`, 'sandbox-demo-key')).status).toBe(401);
    expect((await getJson(`${urls.baseUrl}/v1/mobile`, 'readonly')).status).toBe(200);
    const ports = await getJson(`${urls.baseUrl}/v1/mobile`, 'full-key');
    expect(ports.status).toBe(200);
    const portId = ports.body.data[0].id as string;
    const rotate = (key: string) => fetch(`${urls.baseUrl}/v1/mobile/${portId}/rotate?key=${key}`);
    const refused = await rotate('readonly');
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('insufficient_scope');
    expect((await rotate('full-key')).status).toBe(200);
    const exit = await cli.stop('SIGTERM');
    expect(exit.code).toBe(0);
    expect(exit.stderr).toBe('');
    await expect(fetch(`${urls.controlUrl}/clock`)).rejects.toThrow();
  });

  it.each([[['--port', 'abc']], [['--bogus']]])(
    'exits 2 with the usage on stderr and nothing on stdout for %j',
    async (args) => {
      const exit = await run(...args).exited;
      expect(exit.code).toBe(2);
      expect(exit.stdout).toBe('');
      expect(exit.stderr).toContain('Usage: proxy-sandbox [options]');
    },
  );

  it('exits 1 with a clear message when the port is in use', async () => {
    const blocker: Server = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as { port: number }).port;
    try {
      const exit = await run('--port', String(port)).exited;
      expect(exit.code).toBe(1);
      expect(exit.stdout).toBe('');
      expect(exit.stderr).toContain(`port ${port} on 127.0.0.1 is already in use`);
    } finally {
      blocker.close();
    }
  });

  it('gives identical demo data for the same --seed (and reads --clock manual, --start-time, --latency)', async () => {
    const args = [
      '--port',
      '0',
      '--clock',
      'manual',
      '--start-time',
      START,
      '--latency',
      'fast',
      '--seed',
      '11',
    ];
    const [a, b] = await Promise.all([started(...args), started(...args)]);
    const other = await startSandbox({
      port: 0,
      clock: 'manual',
      startTime: START,
      latency: 'fast',
      seed: 12,
    });
    const paths = [
      '/v1/mobile',
      '/v1/residential/subscriptions',
      '/v1/topups',
      '/v1/catalog/countries',
      '/v1/catalog/coins',
    ];
    const snapshot = async (urls: Ready) =>
      normaliseOrigin(
        await Promise.all(
          paths.map(async (path) => (await getJson(`${urls.baseUrl}${path}`, 'sandbox-demo-key')).body),
        ),
        urls,
      ) as any[];
    try {
      const [first, second, otherSeed] = await Promise.all([
        snapshot(a.urls),
        snapshot(b.urls),
        snapshot(other),
      ]);
      expect(first[0].data.length).toBeGreaterThan(0);
      expect(first[1].data.length).toBeGreaterThan(0);
      expect(second).toEqual(first);
      expect(otherSeed[0]).not.toEqual(first[0]);
      expect(otherSeed[1]).not.toEqual(first[1]);
      expect((await getJson(`${a.urls.controlUrl}/info`)).body).toEqual({
        seed: 11,
        latency: 'fast',
        clockMode: 'manual',
      });
      expect((await getJson(`${a.urls.controlUrl}/clock`)).body.now).toBe(START);
    } finally {
      await Promise.all([a.cli.stop(), b.cli.stop(), other.close()]);
    }
  });

  it('keeps API and control changes in --data FILE across a restart', async () => {
    const file = join(tempFolder(), 'state.json');
    const args = [
      '--port',
      '0',
      '--clock',
      'manual',
      '--start-time',
      START,
      '--latency',
      'fast',
      '--data',
      file,
    ];
    const first = await started(...args, '--seed', '5');
    const subscriptions = await getJson(
      `${first.urls.baseUrl}/v1/residential/subscriptions`,
      'sandbox-demo-key',
    );
    const id = subscriptions.body.data[0].id as string;
    const subscriptionUrl = (urls: Ready) => `${urls.baseUrl}/v1/residential/subscriptions/${id}`;
    expect(
      await send('PATCH', subscriptionUrl(first.urls), { label: 'Kept across restarts' }, 'sandbox-demo-key'),
    ).toBe(200);
    expect(await send('POST', `${first.urls.controlUrl}/clock`, { advanceSeconds: 7200 })).toBe(200);
    expect(await send('POST', `${first.urls.controlUrl}/account`, { balanceUsd: '77.70' })).toBe(200);
    // Saved before it was answered: the file already holds the change while the sandbox runs.
    expect(readFileSync(file, 'utf8')).toContain('Kept across restarts');
    expect((await first.cli.stop('SIGINT')).code).toBe(0);

    const second = await started(...args, '--seed', '6');
    const after = await getJson(subscriptionUrl(second.urls), 'sandbox-demo-key');
    expect(after.body.label).toBe('Kept across restarts');
    expect((await getJson(`${second.urls.controlUrl}/clock`)).body.now).toBe('2026-03-10T14:00:00.000Z');
    expect((await getJson(`${second.urls.controlUrl}/account`)).body.balanceUsd).toBe('77.70');
    expect((await getJson(`${second.urls.controlUrl}/info`)).body.seed).toBe(5);
    const exit = await second.cli.stop();
    expect(exit.stderr).toContain(
      `continuing from ${file} (seed 5, clock manual); --seed, --clock, --start-time ignored`,
    );
  });

  it('refuses to start on a corrupt --data file with a clear message, and leaves the file alone', async () => {
    const file = join(tempFolder(), 'state.json');
    writeFileSync(file, '{"version":1,');
    const exit = await run('--port', '0', '--data', file).exited;
    expect(exit.code).toBe(1);
    expect(exit.stdout).toBe('');
    expect(exit.stderr).toContain(`${file} is not valid JSON`);
    expect(exit.stderr).toContain('move it away to start with fresh demo data');
    expect(readFileSync(file, 'utf8')).toBe('{"version":1,');
  });
});
