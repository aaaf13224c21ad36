import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DEMO_KEY, manualPort, TestSandbox } from '@proxy-manager/sandbox/testing';
import { echoOf, freePort, viaHttp, viaSocks } from '../core/local-proxies/support/proxy-clients';
import { localProxyTargetKey } from '../../src-main/core/health/health-check-job';
import { HealthStore } from '../../src-main/core/health/health-store';
import { runCapture, tempDataDir } from './support/cli-harness';

// `proxy-manager local-proxy …` against a real sandbox: the saved-list commands through a one-shot
// core (nobody owns the temp data folder), and `run` as a real process that listens until SIGTERM.

const ROOT = join(__dirname, '..', '..');

let sandbox: TestSandbox;
let env: Record<string, string>;
let port: { id: string; currentIp: string; password: string };

beforeAll(async () => {
  sandbox = await TestSandbox.start();
  port = await manualPort(sandbox);
});

afterAll(async () => {
  await sandbox.close();
});

beforeEach(() => {
  env = {
    PROXY_MANAGER_DATA_DIR: tempDataDir(),
    PROXY_MANAGER_API_KEY: DEMO_KEY,
    PROXY_MANAGER_BASE_URL: sandbox.baseUrl,
  };
});

describe('local-proxy add, list, set, start, stop, rm', () => {
  it('saves a local proxy for the app to run, changes it and removes it', async () => {
    const listenPort = await freePort();
    const added = await runCapture(
      ['local-proxy', 'add', '--port-id', port.id, '--listen-port', String(listenPort), '--json'],
      env,
    );
    expect(added.stderr).toBe('');
    expect(added.code).toBe(0);
    const view = added.json<{ id: string; url: string; state: string; enabled: boolean }>();
    expect(view).toMatchObject({ url: `http://127.0.0.1:${listenPort}`, enabled: true, state: 'elsewhere' });
    expect(added.stdout).not.toContain(port.password);

    const listed = await runCapture(['local-proxy', 'list'], env);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toMatch(/^ID\s+NAME\s+URL\s+STATE/);
    expect(listed.stdout).toContain(`http://127.0.0.1:${listenPort}`);
    expect(listed.stdout).toContain(`port ${port.id}`);
    expect(listed.stdout).toContain('local-proxy run <id>');

    // What the health checks (run where the local proxies listen) stored: read from the same file.
    const store = HealthStore.open(join(env.PROXY_MANAGER_DATA_DIR as string, 'health.sqlite'));
    for (const minute of [1, 2, 3]) {
      store.record(localProxyTargetKey(view.id), {
        at: Date.parse('2026-03-10T12:00:00.000Z') + minute * 60_000,
        ok: false,
        status: 503,
        connectMs: 1,
        firstByteMs: 2,
        exitIp: null,
        asn: null,
        country: null,
        errorKind: 'unavailable',
        error: 'Modem offline: not answering.',
      });
    }
    store.close();
    const checked = await runCapture(['local-proxy', 'list'], env);
    expect(checked.stdout).toMatch(/^ID\s+NAME\s+URL\s+STATE\s+HEALTH\s+UPSTREAM/);
    expect(checked.stdout.split('\n')[1]).toMatch(/\s(enabled)\s+down\s+port /);
    const checkedJson = await runCapture(['local-proxy', 'list', '--json'], env);
    expect(checkedJson.json<{ proxies: { health: unknown }[] }>().proxies[0]?.health).toMatchObject({
      status: 'down',
      statusSince: '2026-03-10T12:03:00.000Z',
      failuresInARow: 3,
      lastCheck: { ok: false, status: 503, error: 'Modem offline: not answering.' },
    });

    const moved = await runCapture(['local-proxy', 'set', view.id, '--listen-port', '24987', '--json'], env);
    expect(moved.code).toBe(0);
    expect(moved.json().listen).toEqual({ host: '127.0.0.1', port: 24_987 });
    expect((await runCapture(['local-proxy', 'stop', view.id, '--json'], env)).json().enabled).toBe(false);
    expect((await runCapture(['local-proxy', 'start', view.id, '--json'], env)).json().enabled).toBe(true);
    const removed = await runCapture(['local-proxy', 'rm', view.id], env);
    expect(removed).toMatchObject({ code: 0, stdout: 'Removed.\n' });
    expect((await runCapture(['local-proxy', 'list', '--json'], env)).json().proxies).toEqual([]);
  });

  it('names a taken port, and refuses an address other computers reach without a login', async () => {
    const taken = createServer();
    const takenPort = await freePort();
    await new Promise<void>((resolve) => taken.listen(takenPort, '127.0.0.1', resolve));
    try {
      const busy = await runCapture(
        ['local-proxy', 'add', '--port-id', port.id, '--listen-port', String(takenPort)],
        env,
      );
      expect(busy.code).toBe(1);
      expect(busy.stderr).toContain(`127.0.0.1:${takenPort} is already in use by another program`);
    } finally {
      await new Promise<void>((resolve) => taken.close(() => resolve()));
    }
    const open = await runCapture(['local-proxy', 'add', '--port-id', port.id, '--bind', '0.0.0.0'], env);
    expect(open.code).toBe(2);
    expect(open.stderr).toMatch(/allow network/);
    const noVariable = await runCapture(
      [
        'local-proxy',
        'add',
        '--port-id',
        port.id,
        '--bind',
        '0.0.0.0',
        '--allow-network',
        '--username',
        'tool',
        '--password-env',
        'PM_TEST_UNSET_VARIABLE',
      ],
      env,
    );
    expect(noVariable.code).toBe(2);
    expect(noVariable.stderr).toContain('PM_TEST_UNSET_VARIABLE is not set');
    expect((await runCapture(['local-proxy', 'list', '--json'], env)).json().proxies).toEqual([]);
  });
});

describe('local-proxy run', () => {
  it('needs a saved id or an upstream, not both, and targeting only with a subscription', async () => {
    for (const argv of [
      ['local-proxy', 'run'],
      ['local-proxy', 'run', 'lp-1', '--port-id', port.id],
      ['local-proxy', 'run', '--port-id', port.id, '--country', 'US'],
      ['local-proxy', 'run', '--port-id', port.id, '--bind', '0.0.0.0'],
    ]) {
      const run = await runCapture(argv, env);
      expect(run.code, argv.join(' ')).toBe(2);
      expect(run.stderr.trimEnd().split('\n'), argv.join(' ')).toHaveLength(1);
    }
    expect(
      (await runCapture(['local-proxy', 'run', '--port-id', port.id, '--scopes', 'read'], env)).code,
    ).toBe(1);
  });

  it('prints LOCAL_PROXY_READY once it accepts connections, forwards HTTP and SOCKS5, and stops on SIGTERM', async () => {
    const listenPort = await freePort();
    const child: ChildProcess = spawn(
      process.execPath,
      [
        'bin/proxy-manager.mjs',
        'local-proxy',
        'run',
        '--port-id',
        port.id,
        '--listen-port',
        String(listenPort),
      ],
      {
        cwd: ROOT,
        env: { ...process.env, ...env, DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent' },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    try {
      const ready = await new Promise<string>((resolve, reject) => {
        child.once('exit', () => reject(new Error(`exited before it was ready: ${stderr}`)));
        createInterface({ input: child.stdout! }).on('line', (line) => {
          if (line.startsWith('LOCAL_PROXY_READY ')) resolve(line.slice('LOCAL_PROXY_READY '.length));
        });
      });
      expect(JSON.parse(ready)).toMatchObject({
        listen: `127.0.0.1:${listenPort}`,
        url: `http://127.0.0.1:${listenPort}`,
        upstream: { kind: 'port', portId: port.id },
      });
      // Ready means listening: the first request needs no retry or wait.
      for (const via of [viaHttp, viaSocks]) {
        const answer = await via(listenPort);
        expect(answer.status).toBe(200);
        expect(echoOf(answer).exit.ip).toBe(port.currentIp);
        expect(answer.raw).not.toContain(port.password);
      }
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
    expect(stderr).toContain('Stopped after 2 requests (0 failed).');
    await expect(viaHttp(listenPort)).rejects.toThrow(/ECONNREFUSED/);
  }, 60_000);
});
