import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TopUpWatcher } from '../../../src-main/core/topups/topup-watcher';
import { TestSandbox } from '@proxy-manager/sandbox/testing';
import { ATTEMPT, PROFILE, topUpsKit, type TopUpsKit } from './topups-test-kit';

const BTC = { amountUsd: '50.00', coin: 'BTC', network: 'bitcoin', attemptId: ATTEMPT };
const WINDOW_S = 30 * 60;

describe('TopUpWatcher against the sandbox (FakeClock and the sandbox clock in step)', () => {
  let sandbox: TestSandbox;
  let kit: TopUpsKit;
  let watchers: TopUpWatcher[];

  beforeEach(async () => {
    sandbox = await TestSandbox.start();
    kit = topUpsKit(sandbox);
    watchers = [kit.watcher];
  });

  afterEach(async () => {
    for (const watcher of watchers) await watcher.stop();
    await sandbox.close();
  });

  /** Real-time wait for the job to finish its run (HTTP to the sandbox takes real time). */
  const until = async (done: () => boolean): Promise<void> => {
    for (let i = 0; i < 2000 && !done(); i += 1) await new Promise((r) => setTimeout(r, 2));
    if (!done()) throw new Error('the watcher did not settle');
  };

  /** Moves both clocks to the watcher's next wake-up and waits for that run; null when nothing is due. */
  const nextRead = async (watcher: TopUpWatcher = kit.watcher): Promise<number | null> => {
    await until(() => watcher.state === 'waiting' || watcher.state === 'idle');
    const pending = kit.clock.pending.at(-1);
    if (!pending || watcher.state === 'idle') return null;
    const seconds = (pending.until - kit.clock.now()) / 1000;
    await sandbox.advance(seconds);
    const sleeps = kit.clock.sleeps.length;
    await kit.clock.advance(seconds * 1000);
    await until(() => kit.clock.sleeps.length > sleeps || watcher.state === 'idle');
    return seconds;
  };

  /** Reads of one top-up in the sandbox's request log, as seconds since `start`. */
  const readTimes = async (topUpId: string, start: number): Promise<number[]> =>
    (await sandbox.requests())
      .filter((r) => r.method === 'GET' && r.path.endsWith(`/v1/topups/${topUpId}`))
      .map((r) => (Date.parse(r.at) - start) / 1000);

  it('reads an unpaid top-up every 30 s: 60 reads over 30 minutes, the guidance minimum', async () => {
    const start = kit.clock.now();
    const topUp = await kit.service.handlers()['topups:create'](BTC);
    kit.watcher.start();
    let elapsed = 0;
    const gaps: number[] = [];
    while (elapsed < WINDOW_S) {
      const gap = await nextRead();
      if (gap === null) break;
      gaps.push(gap);
      elapsed += gap;
    }
    expect(gaps.every((gap) => gap === 30)).toBe(true);
    const times = await readTimes(topUp.id, start);
    expect(times).toHaveLength(WINDOW_S / 30);
    expect(times).toEqual(Array.from({ length: 60 }, (_, i) => (i + 1) * 30));
    // Every read reaches the UI.
    expect(kit.events.of('topups:changed').filter((e) => e.changed[0]?.id === topUp.id)).toHaveLength(61);
    // The rate lock ended at 30 minutes: expired, not final (a payment is matched until txidDeadline).
    expect(kit.notices.map((n) => n.kind)).toEqual(['expired']);
    expect((await kit.watcher.pending())[0]?.text).toMatch(/^Top-up of 50\.00 USD: expired/);
  });

  it('reads every 10 s while verifying, notifies credited, and stops on final', async () => {
    const start = kit.clock.now();
    const topUp = await kit.service.handlers()['topups:create'](BTC);
    kit.watcher.start();
    // Five minutes waiting for the payment (10 reads at 30 s).
    for (let i = 0; i < 10; i += 1) expect(await nextRead()).toBe(30);
    // Paid 10 s after the last read: the next read (at 30 s) sees it verifying.
    await sandbox.advance(10);
    await kit.clock.advance(10_000);
    const paid = await sandbox.control('POST', '/chain/transactions', {
      network: 'bitcoin',
      amountCrypto: topUp.amountCrypto,
    });
    expect(paid.status).toBe(201);
    expect(await nextRead()).toBe(20);
    expect((await kit.watcher.pending())[0]?.text).toMatch(/^Top-up of 50\.00 USD: \d of 2 confirmations$/);
    const gaps: number[] = [];
    for (;;) {
      const gap = await nextRead();
      if (gap === null) break;
      gaps.push(gap);
    }
    expect(gaps.length).toBeGreaterThan(10);
    expect(gaps.every((gap) => gap === 10)).toBe(true);
    expect(await kit.watch.read()).toEqual({});
    const last = kit.events.of('topups:changed').at(-1)?.changed[0];
    expect(last).toMatchObject({ id: topUp.id, status: 'credited', final: true });
    expect(kit.notices.map((n) => n.kind)).toEqual(['credited']);

    // Exactly the guidance: 30 s steps while unpaid, 10 s steps from the first verifying read until
    // the first final read, then nothing more.
    const times = await readTimes(topUp.id, start);
    const creditedAt = Date.parse(last?.creditedAt ?? '') - start;
    const firstVerifying = 330;
    const expected = [
      ...Array.from({ length: 11 }, (_, i) => (i + 1) * 30),
      ...Array.from(
        { length: Math.ceil((creditedAt / 1000 - firstVerifying) / 10) },
        (_, i) => firstVerifying + (i + 1) * 10,
      ),
    ];
    expect(times).toEqual(expected);
    await sandbox.advance(600);
    await kit.clock.advance(600_000);
    expect(await readTimes(topUp.id, start)).toHaveLength(expected.length);
  });

  it('resumes the watch after a restart from the job store, at the stored time', async () => {
    const start = kit.clock.now();
    const topUp = await kit.service.handlers()['topups:create'](BTC);
    kit.watcher.start();
    expect(await nextRead()).toBe(30);
    expect(await nextRead()).toBe(30);
    // 10 s later the app stops (or crashes: the store already holds the next read time).
    await kit.watcher.stop();
    await sandbox.advance(10);
    await kit.clock.advance(10_000);
    const restarted = topUpsKit(sandbox, { clock: kit.clock, watch: kit.watch, intents: kit.intents });
    watchers.push(restarted.watcher);
    restarted.watcher.start();
    expect(await nextRead(restarted.watcher)).toBe(20);
    expect(await nextRead(restarted.watcher)).toBe(30);
    expect(await readTimes(topUp.id, start)).toEqual([30, 60, 90, 120]);
    expect(restarted.events.of('topups:changed')).toHaveLength(2);
  });

  it('settings may only slow the polling', () => {
    const slow = topUpsKit(sandbox, {
      clock: kit.clock,
      polling: { topUpVerifyingSeconds: 20, topUpAwaitingPaymentSeconds: 60 },
    });
    watchers.push(slow.watcher);
    expect(slow.watcher.intervalFor('awaiting_payment')).toBe(60_000);
    expect(slow.watcher.intervalFor('verifying')).toBe(20_000);
    const fast = topUpsKit(sandbox, {
      clock: kit.clock,
      polling: { topUpVerifyingSeconds: 1, topUpAwaitingPaymentSeconds: 5 },
    });
    expect(fast.watcher.intervalFor('verifying')).toBe(10_000);
    expect(fast.watcher.intervalFor('expired')).toBe(30_000);
  });

  it('backs off on errors and honours Retry-After on 429', async () => {
    const topUp = await kit.service.handlers()['topups:create'](BTC);
    kit.watcher.start();
    // The client tries 3 times per read; these faults fail two whole reads.
    await sandbox.fault({ match: `/v1/topups/${topUp.id}`, status: 503, times: 6 });
    expect(await nextRead()).toBe(30);
    expect(await nextRead()).toBe(60);
    expect(await nextRead()).toBe(120);
    expect((await kit.watch.read())?.[PROFILE]?.[topUp.id]?.errors).toBe(0);
    await sandbox.fault({
      match: `/v1/topups/${topUp.id}`,
      status: 429,
      headers: { 'Retry-After': '300' },
      times: 1,
    });
    expect(await nextRead()).toBe(30);
    // The client does not wait 5 minutes itself: the watcher does, with nothing sent meanwhile.
    expect(await nextRead()).toBe(300);
    expect(await nextRead()).toBe(30);
    const statuses = (await sandbox.requests()).filter((r) => r.path.endsWith(topUp.id)).map((r) => r.status);
    expect(statuses.slice(-3)).toEqual([429, 200, 200]);
  });
});

describe('TopUpWatcher sweep', () => {
  it('at start, watches every non-final top-up of every profile, made elsewhere', async () => {
    const sandbox = await TestSandbox.start();
    try {
      const made = await sandbox.request('POST', '/v1/topups', {
        body: { amountUsd: '40.00', coin: 'LTC', network: 'litecoin' },
      });
      expect(made.status).toBe(201);
      const kit = topUpsKit(sandbox);
      await kit.watcher.sweep([PROFILE]);
      const watched = (await kit.watcher.watched()).map((w) => w.entry.topUpId);
      expect(watched).toContain(made.json.id);
      const listed = (await sandbox.request('GET', '/v1/topups?perPage=100')).json.data as {
        id: string;
        final: boolean;
      }[];
      expect(new Set(watched)).toEqual(new Set(listed.filter((t) => !t.final).map((t) => t.id)));
    } finally {
      await sandbox.close();
    }
  });
});
