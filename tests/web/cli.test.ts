import type { ChildProcess } from 'node:child_process';
import { type AddressInfo, createServer } from 'node:net';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src-main/cli';
import { ControlConnection } from '../../src-main/control/control-client';
import { spawnTs } from '../support/spawn-ts';

const ROOT = join(__dirname, '..', '..');

function startWeb(
  args: string[],
): Promise<{ child: ChildProcess; url: string; stdoutLines: string[]; dataDir: string }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'pm-web-cli-'));
  const child = spawnTs('src-main/web/cli.ts', args, {
    cwd: ROOT,
    env: {
      ...process.env,
      PROXY_MANAGER_DATA_DIR: dataDir,
      DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const stdoutLines: string[] = [];
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve, reject) => {
    let buffer = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      buffer += chunk.toString();
      const lines = buffer.split('\n');
      buffer = lines.pop() ?? '';
      for (const line of lines) {
        stdoutLines.push(line);
        const match = /^WEB_READY (\{.*\})$/.exec(line);
        if (match?.[1]) {
          resolve({ child, url: (JSON.parse(match[1]) as { url: string }).url, stdoutLines, dataDir });
        }
      }
    });
    child.on('exit', (code) => reject(new Error(`web exited ${code}: ${stderr}`)));
  });
}

describe('npm run web on a busy port', () => {
  it('names the port and its fix (--port 0), not a raw EADDRINUSE', async () => {
    const busy = createServer();
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
    const { port } = busy.address() as AddressInfo;
    try {
      const failed = await startWeb(['--port', String(port), '--demo', '--demo-latency', 'fast']).then(
        () => null,
        (error: Error) => error.message,
      );
      expect(failed).toContain(
        `web: port ${port} is in use on 127.0.0.1 (is web mode running already?): choose another with --port N, or --port 0 for a free one`,
      );
      expect(failed).not.toMatch(/EADDRINUSE/);
    } finally {
      busy.close();
    }
  }, 120_000);
});

describe('npm run web', () => {
  let web: Awaited<ReturnType<typeof startWeb>>;

  beforeAll(async () => {
    web = await startWeb(['--port', '0', '--demo', '--demo-latency', 'fast']);
  }, 120_000);

  afterAll(() => {
    web?.child.kill('SIGTERM');
  });

  it('prints one WEB_READY line with a loopback URL carrying the token', () => {
    expect(web.stdoutLines).toHaveLength(1);
    expect(web.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/#token=[0-9a-f]{64}$/);
  });

  it('serves the renderer and answers contract calls in demo mode', async () => {
    const url = new URL(web.url);
    const token = url.hash.slice('#token='.length);
    const page = await fetch(new URL('/', url));
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<div id="root">');
    const call = await fetch(new URL('/rpc/app:getState', url), {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: '{}',
    });
    const state = await call.json();
    expect(state.ok).toBe(true);
    expect(state.value.mode).toBe('web');
    expect(state.value.activeProfile.kind).toBe('demo');
    expect(state.value.connection.status).toBe('online');
  });

  it('owns the jobs and answers the CLI on its control socket', async () => {
    const connection = await ControlConnection.open(web.dataDir);
    expect(await connection?.hello()).toEqual({
      pid: web.child.pid,
      mode: 'web',
      activeProfile: { name: expect.any(String), kind: 'demo' },
      // The demo key's fingerprint (never the key): a command with that key comes through here.
      keyFingerprint: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    connection?.close();
    let stdout = '';
    const code = await runCli(['ports', 'list', '--json'], {
      stdout: { write: (text) => ((stdout += text), true) },
      stderr: { write: () => true },
      env: { PROXY_MANAGER_DATA_DIR: web.dataDir },
    });
    expect(code).toBe(0);
    // An array of objects, one per port.
    expect((JSON.parse(stdout) as unknown[]).length).toBeGreaterThan(0);
  });

  it('exits cleanly on SIGTERM', async () => {
    const exited = new Promise<number | null>((resolve) => web.child.on('exit', (code) => resolve(code)));
    web.child.kill('SIGTERM');
    expect(await exited).toBe(0);
  });
});
