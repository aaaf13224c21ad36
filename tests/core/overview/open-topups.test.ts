import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { HealthSnapshot, TopUpsChanged } from '../../../src-shared/contract';
import { FakeClock } from '../../../src-main/core/runtime/fake-clock';
import { DEMO_KEY, TEST_START_TIME, TestSandbox } from '@proxy-manager/sandbox/testing';
import { createHarness, type Harness } from '../support/core-harness';

/*
 * Open top-ups are always known: a top-up made at the service (not through this app) shows within
 * the one list read of the app's start, before the watcher's first read of it (30 s later at the
 * spec's pace), and the overview answers from that same read instead of listing again.
 */

let sandbox: TestSandbox;
let h: Harness;

beforeEach(async () => {
  sandbox = await TestSandbox.start();
});

afterEach(async () => {
  await h.core.dispose();
  await sandbox.close();
});

const topUpReads = async () =>
  (await sandbox.requests()).filter((request) => request.path.includes('/v1/topups')).map((r) => r.path);

describe('open top-ups at the start of the app', () => {
  it('announces those made elsewhere at once, and the overview lists them from that one read', async () => {
    const made = await sandbox.request('POST', '/v1/topups', {
      body: { amountUsd: '40.00', coin: 'USDT', network: 'tron' },
    });
    expect(made.status).toBe(201);
    await sandbox.control('DELETE', '/requests');
    // The clock never moves here: nothing can come from the watcher's 30-second read.
    h = await createHarness(sandbox, { clock: new FakeClock(Date.parse(TEST_START_TIME)) });
    await h.core.start({ environment: { apiKey: DEMO_KEY, baseUrl: sandbox.baseUrl } });

    await vi.waitFor(() => {
      const announced = h.allEvents
        .filter((event) => event.channel === 'topups:changed')
        .flatMap((event) => (event.payload as TopUpsChanged).changed.map((topUp) => topUp.id));
      expect(announced).toContain(made.json.id);
    });
    const snapshot: HealthSnapshot = await h.call('overview:get');
    expect(snapshot.items).toContainEqual(
      expect.objectContaining({
        kind: 'topup_awaiting_payment',
        subject: expect.objectContaining({ id: made.json.id }),
      }),
    );
    // Held, or joined while the start's read was landing: either way not a second read.
    expect(['held', 'read']).toContain(snapshot.sources.topups.state);
    // One list read per open status, shared by the watcher's start and the overview; no top-up read.
    const reads = await topUpReads();
    expect(reads.filter((path) => /status=/.test(path))).toHaveLength(4);
    expect(reads.filter((path) => path.includes(`/v1/topups/${made.json.id}`))).toEqual([]);

    // Refresh lists them again, at once.
    await h.call('overview:get', { refresh: true });
    expect((await topUpReads()).filter((path) => /status=awaiting_payment/.test(path))).toHaveLength(2);
  });
});
