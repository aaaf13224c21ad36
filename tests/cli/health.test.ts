import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { HealthSnapshot } from '../../src-shared/contract';
import { FakeClock } from '../../src-main/core/runtime/fake-clock';
import { DEMO_KEY, portByLabel, SEEDED_PORT_LABELS, TestSandbox } from '@proxy-manager/sandbox/testing';
import { runCapture, tempDataDir } from './support/cli-harness';

// `proxy-manager health`: the overview's snapshot for scripts and monitoring, through a one-shot core.

let sandbox: TestSandbox;
let env: Record<string, string>;

beforeAll(async () => {
  sandbox = await TestSandbox.start();
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

/** The command on the sandbox's time: what expires when is judged on the account's clock. */
const health = async (...flags: string[]) =>
  runCapture(['health', ...flags], env, { coreClock: new FakeClock(Date.parse(await sandbox.now())) });

describe('proxy-manager health', () => {
  it('lists what needs attention, most urgent first, as a table or as the snapshot in JSON', async () => {
    const expiring = await portByLabel(sandbox, SEEDED_PORT_LABELS.expiringSoon);
    const text = await health();
    expect(text.code).toBe(0);
    expect(text.stdout.split('\n')[0]).toMatch(/^LEVEL\s+DUE\s+WHAT\s+NEXT/);
    expect(text.stdout).toContain(`Port “${SEEDED_PORT_LABELS.expiringSoon}” expires within a day`);

    const json = await health('--json');
    expect(json.code).toBe(0);
    const snapshot = json.json<HealthSnapshot>();
    expect(snapshot.allGood).toBe(false);
    expect(snapshot.items).toContainEqual(
      expect.objectContaining({
        kind: 'port_expiring',
        subject: expect.objectContaining({ id: expiring.id }),
      }),
    );
  });

  it('--check exits 4 while something needs attention, and 0 once it is all good', async () => {
    const attention = await health('--check');
    expect(attention.code).toBe(4);
    expect(attention.stderr).toBe('');

    // Two months on, everything ran out more than two weeks ago: history, not something to act on.
    await sandbox.advance(60 * 86_400);
    const quiet = await health('--check');
    expect(quiet.stdout).toMatch(/^All good: \d+ ports, \d+ subscriptions, 0 pending top-ups\.\n$/);
    expect(quiet.code).toBe(0);
  });

  it('refuses a flag it does not know with exit code 2 and one line', async () => {
    const run = await health('--since', 'yesterday');
    expect(run.code).toBe(2);
    expect(run.stderr.trimEnd().split('\n')).toHaveLength(1);
  });
});
