import { writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ControlServer,
  createControlDispatcher,
  startControlServer,
} from '../../src-main/control/control-server';
import type { AppCore } from '../../src-main/core/app-core';
import { createNodeAppCore } from '../../src-main/core/node-app-core';
import { createIpcHandlers } from '../../src-main/dispatch/handler-table';
import { FULL_GRANT } from '../../src-shared/contract';
import { DEMO_KEY, TestSandbox } from '@proxy-manager/sandbox/testing';
import { runCapture, tempDataDir } from './support/cli-harness';

// A web-mode-like owner of the background jobs in this process (a core holding the jobs lock of its
// data folder, the control dispatcher and the control server), and the CLI pointed at that folder.

let sandbox: TestSandbox;
let ownerDir: string;
let core: AppCore;
let server: ControlServer;
let dispatch: ReturnType<typeof createControlDispatcher>;
const events: { channel: string; payload: any }[] = [];
/** While set, the owner holds a `ports:rotate` call until a second one arrives: two truly concurrent calls. */
let pairRotations = false;
let releaseFirst: (() => void) | null = null;

beforeAll(async () => {
  sandbox = await TestSandbox.start();
  ownerDir = tempDataDir();
  core = await createNodeAppCore({
    mode: 'web',
    dataDir: ownerDir,
    windowVisible: false,
    keychainProbeTimeoutMs: 2_000,
    log: () => undefined,
  });
  await core.start({ environment: { apiKey: DEMO_KEY, baseUrl: sandbox.baseUrl } });
  expect((await core.getState()).jobs.owner).toBe(true);
  core.subscribe((channel, payload) => events.push({ channel, payload }));
  dispatch = createControlDispatcher(createIpcHandlers(core), () => undefined);
  server = await startControlServer({
    dataDir: ownerDir,
    log: () => undefined,
    keyFingerprint: () => core.activeKeyFingerprint(),
    dispatch: async (sender, channel, input, meta) => {
      if (pairRotations && channel === 'ports:rotate') {
        if (releaseFirst) {
          releaseFirst();
          releaseFirst = null;
        } else {
          await new Promise<void>((resolve) => (releaseFirst = resolve));
        }
      }
      return dispatch(sender, channel, input, meta);
    },
  });
});

afterAll(async () => {
  await server?.close();
  await core?.dispose();
  await sandbox?.close();
});

const portIds = async (): Promise<string[]> =>
  (await sandbox.request('GET', '/v1/mobile')).json.data.map((port: { id: string }) => port.id);

describe('while web mode owns the jobs', () => {
  it('health through the owner (no window open) lists a top-up made at the service, with --refresh', async () => {
    const made = await sandbox.request('POST', '/v1/topups', {
      body: { amountUsd: '35.00', coin: 'USDT', network: 'tron' },
    });
    expect(made.status).toBe(201);
    const run = await runCapture(['health', '--refresh', '--json'], { PROXY_MANAGER_DATA_DIR: ownerDir });
    expect([run.code, run.stderr]).toEqual([0, '']);
    const snapshot = run.json();
    expect(snapshot.items).toContainEqual(
      expect.objectContaining({
        kind: 'topup_awaiting_payment',
        levelWord: 'Soon',
        subject: expect.objectContaining({ id: made.json.id }),
      }),
    );
    expect(snapshot.totals.pendingTopUps).toBeGreaterThanOrEqual(1);
    expect(snapshot.sources.topups.state).toBe('read');
  });

  it('two concurrent CLI rotations of one port go through the owner: one rotation, in its receipts', async () => {
    const portId = (await portIds())[0] ?? '';
    const env = { PROXY_MANAGER_DATA_DIR: ownerDir };
    const before = (await sandbox.requests()).length;
    pairRotations = true;
    const [first, second] = await Promise.all([
      runCapture(['ports', 'rotate', portId, '--json'], env),
      runCapture(['ports', 'rotate', portId, '--json'], env),
    ]);
    pairRotations = false;
    expect([first.code, second.code, first.stderr, second.stderr]).toEqual([0, 0, '', '']);
    const receipt = first.json();
    expect(second.json()).toEqual(receipt);
    // Through the owner's socket too, the receipt says the command line started it.
    expect(receipt.trigger).toBe('cli');

    const rotations = (await sandbox.requests())
      .slice(before)
      .filter((request) => request.method === 'POST' && request.path.endsWith(`/v1/mobile/${portId}/rotate`));
    expect(rotations).toHaveLength(1);

    const receipts = await dispatch(
      { kind: 'control', tokenValid: true, grant: FULL_GRANT },
      'ports:receipts',
      { portId },
    );
    expect(receipts.ok && (receipts.value as { id: string }[]).map((r) => r.id)).toContain(receipt.id);
    // What the tray and the scheduler's cooldowns follow.
    expect(
      events
        .filter((e) => e.channel === 'ports:rotation' && e.payload.phase === 'finished')
        .map((e) => e.payload.receipt.id),
    ).toEqual([receipt.id]);
    await sandbox.advance(30);
  });

  it('a CLI rotation in the cooldown of the owner’s rotation exits 1 with the cooldown', async () => {
    const portId = (await portIds())[1] ?? '';
    const env = { PROXY_MANAGER_DATA_DIR: ownerDir };
    expect((await runCapture(['ports', 'rotate', portId], env)).code).toBe(0);
    const again = await runCapture(['ports', 'rotate', portId], env);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/\(cooldown: 30 s\)\n$/);
    await sandbox.advance(30);
  });

  it('the owner runs each call with the CLI’s grant', async () => {
    const env = { PROXY_MANAGER_DATA_DIR: ownerDir };
    // The list carries no password at all; the detail carries it with the secrets scope only.
    const portId = (await portIds())[0] ?? '';
    const full = await runCapture(['ports', 'show', portId, '--json'], env);
    expect(typeof full.json().password).toBe('string');
    const narrowed = await runCapture(['ports', 'show', portId, '--json', '--scopes', 'read'], env);
    expect(narrowed.json().password).toBeNull();
  });

  it('a command with the owner’s own key in the environment goes through the owner (fingerprints compared)', async () => {
    const portId = (await portIds())[2] ?? '';
    const env = {
      PROXY_MANAGER_DATA_DIR: ownerDir,
      PROXY_MANAGER_API_KEY: DEMO_KEY,
      PROXY_MANAGER_BASE_URL: sandbox.baseUrl,
    };
    const finishedBefore = events.filter(
      (e) => e.channel === 'ports:rotation' && e.payload.phase === 'finished',
    ).length;
    const rotated = await runCapture(['ports', 'rotate', portId, '--json'], env);
    expect([rotated.code, rotated.stderr]).toEqual([0, '']);
    // The owner made it: its single-flight, cooldowns and receipts hold.
    const finished = events.filter((e) => e.channel === 'ports:rotation' && e.payload.phase === 'finished');
    expect(finished).toHaveLength(finishedBefore + 1);
    expect(finished.at(-1)?.payload.receipt.id).toBe(rotated.json().id);
    // Another key for the same service is another account: a change is refused, naming the owner.
    const other = await runCapture(['ports', 'rotate', portId], {
      ...env,
      PROXY_MANAGER_API_KEY: 'another-key',
    });
    expect(other.code).toBe(1);
    expect(other.stderr).toMatch(/the key from PROXY_MANAGER_API_KEY/);
    await sandbox.advance(30);
  });

  it('a change for another profile than the owner’s active one is refused, naming the owner', async () => {
    const env = { PROXY_MANAGER_DATA_DIR: ownerDir };
    const run = await runCapture(['ports', 'rotate', 'port_x', '--profile', 'Work'], env);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(
      new RegExp(
        `^error: The web mode server \\(pid ${process.pid}\\) runs the background jobs with profile "Environment" active; .*profiles use "Work"`,
      ),
    );
    // A read for that profile runs in a core of its own (here: no such profile).
    const read = await runCapture(['ports', 'list', '--profile', 'Work'], env);
    expect(read.code).toBe(1);
    expect(read.stderr).toBe('error: No profile named "Work".\n');
  });
});

describe('when the jobs lock is held but nobody answers', () => {
  it('a change exits 1 with a sentence naming the holder; a read runs here', async () => {
    const dataDir = tempDataDir();
    const now = Date.now();
    writeFileSync(
      join(dataDir, 'jobs.lock'),
      JSON.stringify({
        pid: process.pid,
        hostname: hostname(),
        token: 't',
        since: now,
        heartbeatAt: now,
        mode: 'desktop',
      }),
    );
    const env = {
      PROXY_MANAGER_DATA_DIR: dataDir,
      PROXY_MANAGER_API_KEY: DEMO_KEY,
      PROXY_MANAGER_BASE_URL: sandbox.baseUrl,
    };
    const rotate = await runCapture(['ports', 'rotate', (await portIds())[2] ?? ''], env);
    expect(rotate.code).toBe(1);
    expect(rotate.stderr).toMatch(
      new RegExp(
        `^error: The desktop app \\(pid ${process.pid} on ${hostname()}\\) runs the background jobs of .* but does not answer on its control socket`,
      ),
    );
    const list = await runCapture(['ports', 'list', '--json'], env);
    expect(list.code).toBe(0);
    expect(list.json<unknown[]>().length).toBeGreaterThan(0);
  });
});
