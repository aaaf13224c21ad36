import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { HealthSnapshot } from '../../src-shared/contract';
import { FakeClock } from '../../src-main/core/runtime/fake-clock';
import { DEMO_KEY, portByLabel, SEEDED_PORT_LABELS, TestSandbox } from '@proxy-manager/sandbox/testing';
import { arrangeAccount, autoRenewAtService, payTopUp } from '../support/arranged-account';
import { runCapture, tempDataDir } from './support/cli-harness';

// `proxy-manager health`: the overview's snapshot for scripts and monitoring, through a one-shot core.

let sandbox: TestSandbox;
let env: Record<string, string>;

beforeEach(async () => {
  // A fresh account each time: the tests below change it (top-ups, auto-renew, the clock).
  sandbox = await TestSandbox.start();
});

afterEach(async () => {
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

  it('lists a top-up waiting for payment made at the service, with no app running, with or without --refresh', async () => {
    const account = await arrangeAccount(sandbox);
    for (const flags of [['--json'], ['--refresh', '--json']]) {
      await sandbox.control('DELETE', '/requests');
      const run = await health(...flags);
      const snapshot = run.json<HealthSnapshot>();
      expect(snapshot.totals.pendingTopUps).toBe(1);
      expect(snapshot.items).toContainEqual(
        expect.objectContaining({
          kind: 'topup_awaiting_payment',
          levelWord: 'Soon',
          title: `Top-up of 30.00 USD buying 5 GB for “${account.low.label}” is waiting for your payment`,
          dueAt: account.purchase.expiresAt,
        }),
      );
      expect(snapshot.sources.topups).toMatchObject({ state: 'read' });
      // One list read per open status (the spec's filter takes one), never the top-ups one by one.
      const reads = (await sandbox.requests()).filter((r) => r.path.includes('/topups'));
      expect(reads.map((r) => r.path.replace(/^.*\/v1\/topups/, '/v1/topups')).sort()).toEqual([
        '/v1/topups?perPage=100&status=awaiting_payment',
        '/v1/topups?perPage=100&status=expired',
        '/v1/topups?perPage=100&status=rejected',
        '/v1/topups?perPage=100&status=verifying',
      ]);
    }
    expect((await health('--check')).code).toBe(4);
  });

  it('offers to continue the payment already buying traffic, never a second top-up', async () => {
    const account = await arrangeAccount(sandbox);
    const snapshot = (await health('--json')).json<HealthSnapshot>();
    const low = snapshot.items.find(
      (item) => item.kind === 'subscription_traffic_low' && item.subject.id === account.low.id,
    );
    expect(low?.detail).toContain('A top-up buying 5 GB is waiting for payment.');
    expect(low?.action).toEqual({
      kind: 'continue_top_up',
      label: 'Continue that payment',
      topUpId: account.purchase.id,
    });
  });

  it('never says All good when the service cannot be read: it says what is not known, and --check exits 5', async () => {
    env.PROXY_MANAGER_BASE_URL = 'http://127.0.0.1:9/api/v1';
    const json = await health('--json');
    const snapshot = json.json<HealthSnapshot>();
    expect(snapshot.allGood).toBe(false);
    expect(snapshot.sources.topups).toMatchObject({ state: 'failed', lastReadAt: null });
    expect(snapshot.sources.ports).toMatchObject({ state: 'failed', lastReadAt: null });
    const text = await health('--check');
    expect(text.code).toBe(5);
    expect(text.stdout).not.toContain('All good');
    expect(text.stdout).toContain('Not known: the top-ups could not be read (last read never)');
  });

  it('speaks the screen’s words: Now / Soon / FYI, local times with the relative time, All good first', async () => {
    const account = await arrangeAccount(sandbox);
    const before = await health();
    const [header, ...rows] = before.stdout.trimEnd().split('\n');
    expect(header).toMatch(/^LEVEL\s+DUE\s+WHAT\s+NEXT/);
    for (const row of rows) expect(row).toMatch(/^(Now|Soon|FYI)\s/);
    expect(before.stdout).toMatch(
      new RegExp(
        `Soon\\s+\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d \\(within a day\\)\\s+Port “${account.port.label}” expires within a day`,
      ),
    );
    expect(before.stdout).not.toMatch(/\b(error|warning|info)\b\s/);
    expect(before.stdout).not.toMatch(/\d{4}-\d\d-\d\dT\d\d:\d\d/);

    // Auto-renew on for both, and the 5 GB paid: only what renews itself is left, under "All good".
    await autoRenewAtService(sandbox, { port: account.port.id, subscription: account.expiring.id });
    await payTopUp(sandbox, account.purchase);
    const after = await health();
    const lines = after.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(
      /^All good: \d+ ports, \d+ subscriptions, 0 pending top-ups\. Only worth knowing:$/,
    );
    expect(lines[1]).toMatch(/^LEVEL\s+DUE/);
    expect(lines.slice(2).every((line) => line.startsWith('FYI'))).toBe(true);
    expect(after.stdout).toContain(`Port “${account.port.label}” renews within a day`);
    expect((await health('--check')).code).toBe(0);
  });
});
