import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DEMO_KEY, manualPort, TestSandbox } from '@proxy-manager/sandbox/testing';
import { FakeClock } from '../../src-main/core/runtime/fake-clock';
import { SettingsStore } from '../../src-main/core/settings/settings-store';
import type { PortHealth, RotationReceipt } from '../../src-shared/contract';
import { runCapture, tempDataDir } from './support/cli-harness';

/*
 * `ports rotate` verdicts, `ports rotate --until-unique` and `ports health [id] [--json]` in this
 * process against a real sandbox and its gateway. The check target is the gateway's own echo: it
 * answers any plain-http URL itself (a loopback one passes the settings' https rule).
 */

let sandbox: TestSandbox;
let env: Record<string, string>;
let portId: string;

beforeAll(async () => {
  sandbox = await TestSandbox.start();
  await sandbox.advance(60);
});

afterAll(async () => {
  await sandbox.close();
});

beforeEach(async () => {
  const dataDir = tempDataDir();
  const settings = await SettingsStore.open({ dataDir });
  await settings.update((draft) => {
    draft.proxyTest.ipEchoUrl = 'http://127.0.0.1:9/ip';
  });
  env = {
    PROXY_MANAGER_DATA_DIR: dataDir,
    PROXY_MANAGER_API_KEY: DEMO_KEY,
    PROXY_MANAGER_BASE_URL: sandbox.baseUrl,
  };
  portId = (await manualPort(sandbox)).id;
});

afterEach(async () => {
  // The port goes back to its carrier's network for the next test.
  await sandbox.control('POST', '/mobile/network', { portId, asn: null });
});

const rotate = async (...flags: string[]): Promise<RotationReceipt> => {
  const run = await runCapture(['ports', 'rotate', portId, '--json', ...flags], env);
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);
  await sandbox.advance(30);
  return run.json<RotationReceipt>();
};

const HEALTH_KEYS = [
  'checks24h',
  'checks30d',
  'drift30d',
  'failuresInARow',
  'lastCheck',
  'lastVerdict',
  'latency24h',
  'portId',
  'repeated30d',
  'rotations30d',
  'status',
  'statusSince',
  'unchanged30d',
  'uniqueIpRatio30d',
  'uptime24h',
  'uptime30d',
];

describe('ports rotate and ports health', () => {
  it('an unchanged rotation, an ASN drift and a repeated IP each get their verdict, and ports health --json counts them', async () => {
    const first = await manualPort(sandbox);
    await sandbox.control('POST', '/mobile/same-ip', { portId });
    expect((await rotate()).verdict).toMatchObject({ kind: 'unchanged', exitIp: first.currentIp });
    const clean = await rotate();
    expect(clean.verdict?.kind).toBe('clean');
    await sandbox.control('POST', '/mobile/network', { portId, asn: 65001, country: 'FR' });
    expect((await rotate()).verdict).toMatchObject({ kind: 'drift', asn: 65001, country: 'FR' });
    await sandbox.control('POST', '/mobile/repeat-ip', { portId });
    const repeat = await rotate();
    expect(repeat.verdict).toMatchObject({ kind: 'repeat', seenBefore: { portId } });

    const run = await runCapture(['ports', 'health', portId, '--json'], env);
    expect(run.code).toBe(0);
    const [health, ...more] = run.json<PortHealth[]>();
    expect(more).toEqual([]);
    expect(Object.keys(health ?? {}).sort()).toEqual(HEALTH_KEYS);
    expect(health).toMatchObject({
      portId,
      rotations30d: 4,
      unchanged30d: 1,
      repeated30d: 1,
      drift30d: 1,
      lastVerdict: { kind: 'repeat' },
      // No health check has run in a one-shot command: nothing to say about uptime yet.
      status: 'unknown',
      uptime24h: null,
    });
    // Four rotations, two new IPs: the unchanged one brought none, the repeat brought the clean one's again.
    expect(repeat.verdict?.exitIp).toBe(clean.verdict?.exitIp);
    expect(health?.uniqueIpRatio30d).toBe(2 / 4);

    const all = await runCapture(['ports', 'health', '--json'], env);
    expect(all.json<PortHealth[]>().length).toBeGreaterThan(1);
    const table = await runCapture(['ports', 'health'], env);
    expect(table.stdout.split('\n')[0]).toMatch(/^PORT\s+STATUS\s+SINCE\s+UPTIME 24H/);
    expect(table.stdout).toMatch(new RegExp(`${portId}.*repeat`));
  });

  it('--until-unique 3 rotates past an unchanged IP and stops at the first clean one', async () => {
    await sandbox.control('POST', '/mobile/same-ip', { portId, times: 1 });
    const clock = new FakeClock(Date.parse(await sandbox.now()));
    const pending = runCapture(['ports', 'rotate', portId, '--until-unique', '3', '--json'], env, {
      coreClock: clock,
    });
    for (let i = 0; !clock.pending.some((sleep) => sleep.ms > 10_000); i += 1) {
      if (i > 2000) throw new Error('the rotation never waited out its cooldown');
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    await sandbox.advance(30);
    await clock.advance(30_000);
    const run = await pending;
    expect(run.stderr).toBe('');
    const receipt = run.json<RotationReceipt>();
    expect(receipt).toMatchObject({ attempts: 2, untilUnique: { maxTries: 3, reachedClean: true } });
    expect(receipt.verdict?.kind).toBe('clean');
    await sandbox.advance(30);
    const text = await runCapture(['ports', 'rotate', portId, '--until-unique', '3'], env);
    expect(text.stdout).toMatch(/Verdict: clean/);
    expect(text.stdout).toMatch(/Clean IP after 1 rotation/);
    await sandbox.advance(30);
  });

  it('refuses --until-unique out of range with one line and exit code 2', async () => {
    const run = await runCapture(['ports', 'rotate', portId, '--until-unique', '11'], env);
    expect(run.code).toBe(2);
    expect(run.stderr.trimEnd().split('\n')).toHaveLength(1);
  });
});
