import { afterEach, describe, expect, it } from 'vitest';
import {
  ABANDONED_MAX_POLL_MS,
  PAYING_WINDOW_MS,
  type TopUpWatcher,
} from '../../../src-main/core/topups/topup-watcher';
import { TestSandbox } from '@proxy-manager/sandbox/testing';
import { ATTEMPT, PROFILE, topUpsKit, type TopUpsKit } from './topups-test-kit';

const BTC = { amountUsd: '50.00', coin: 'BTC', network: 'bitcoin', attemptId: ATTEMPT };

/**
 * The watcher's back-off for top-ups nobody is paying: an expired or rejected top-up stays non-final
 * for 72 hours (until its txid deadline), and reading each one every 30 s for that long made an
 * account with 20 abandoned top-ups cost 40 requests a minute. The FakeClock and the sandbox's
 * manual clock move in step; every gap is the watcher's own choice.
 */
describe('TopUpWatcher back-off for abandoned top-ups', () => {
  let sandbox: TestSandbox;
  let kit: TopUpsKit;

  afterEach(async () => {
    await kit.watcher.stop();
    await sandbox.close();
  });

  const until = async (done: () => boolean): Promise<void> => {
    for (let i = 0; i < 2000 && !done(); i += 1) await new Promise((r) => setTimeout(r, 2));
    if (!done()) throw new Error('the watcher did not settle');
  };

  /** Moves both clocks to the watcher's next wake-up and waits for that read; its gap in seconds. */
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

  const gaps = async (count: number): Promise<(number | null)[]> => {
    const list: (number | null)[] = [];
    for (let i = 0; i < count; i += 1) list.push(await nextRead());
    return list;
  };

  const entry = async (topUpId: string) => (await kit.watch.read())?.[PROFILE]?.[topUpId];

  it('keeps the spec pace while the user pays, then backs off to 5 minutes once the top-up is left expired', async () => {
    sandbox = await TestSandbox.start();
    kit = topUpsKit(sandbox);
    const topUp = await kit.service.handlers()['topups:create'](BTC);
    kit.watcher.start();
    // Created in this app: 30 s for its 30 minutes of validity (60 reads), the last one sees it expired.
    const paying = await gaps(60);
    expect(paying.every((gap) => gap === 30)).toBe(true);
    expect((await entry(topUp.id))?.status).toBe('expired');
    // Nobody touched it for 30 minutes: 30 s (the read that found it expired), then 1, 2, 4, 5, 5 minutes.
    expect(await gaps(8)).toEqual([30, 60, 120, 240, 300, 300, 300, 300]);
    expect(ABANDONED_MAX_POLL_MS).toBe(300_000);
    expect(PAYING_WINDOW_MS).toBe(30 * 60_000);
  });

  it('notices a late payment at the next read (within 5 minutes), then reads every 10 s while verifying', async () => {
    sandbox = await TestSandbox.start();
    kit = topUpsKit(sandbox);
    const topUp = await kit.service.handlers()['topups:create'](BTC);
    kit.watcher.start();
    await gaps(60 + 5);
    expect(await nextRead()).toBe(300);
    // Paid late, one minute after that read: the top-up turns verifying in the sandbox at once.
    await sandbox.advance(60);
    await kit.clock.advance(60_000);
    const paid = await sandbox.control('POST', '/chain/transactions', {
      network: 'bitcoin',
      amountCrypto: topUp.amountCrypto,
    });
    expect(paid.status).toBe(201);
    // The read already planned comes 4 minutes later and sees it; from then on, the spec's 10 s.
    expect(await nextRead()).toBe(240);
    expect((await entry(topUp.id))?.status).toBe('verifying');
    expect(await gaps(3)).toEqual([10, 10, 10]);
  });

  it('goes back to the spec pace at once when the user opens the abandoned top-up again', async () => {
    sandbox = await TestSandbox.start();
    kit = topUpsKit(sandbox);
    const topUp = await kit.service.handlers()['topups:create'](BTC);
    kit.watcher.start();
    await gaps(60 + 6);
    expect((await entry(topUp.id))?.quietReads).toBeGreaterThan(3);
    await sandbox.advance(10);
    await kit.clock.advance(10_000);
    // Opened in the wizard's live view: the next read 30 s from now, not 4 minutes and 50 s.
    await kit.service.handlers()['topups:get']({ topUpId: topUp.id });
    expect(await nextRead()).toBe(30);
    expect(await gaps(4)).toEqual([30, 30, 30, 30]);
    expect((await entry(topUp.id))?.quietReads).toBe(0);
  });

  it('reads top-ups only listed or found at start (abandoned elsewhere) at the back-off pace: a few a minute for 20', async () => {
    sandbox = await TestSandbox.start({ scale: { topUps: 25, abandonedTopUps: 20 } });
    kit = topUpsKit(sandbox);
    await kit.watcher.sweep([PROFILE]);
    expect(await kit.watcher.watched()).toHaveLength(20);
    // A listing does not count as the user paying: it keeps their back-off.
    const listed = await kit.service.handlers()['topups:list']({ perPage: 100 });
    expect(listed.data.filter((topUp) => !topUp.final)).toHaveLength(20);
    kit.watcher.start();
    const start = kit.clock.now();
    const reads = () =>
      sandbox
        .requests()
        .then((log) => log.filter((r) => r.method === 'GET' && /\/v1\/topups\/[^/?]+$/.test(r.path)).length);
    // The first ten minutes: 30 s, 1, 2, 4 then 5-minute waits, for each.
    while (kit.clock.now() - start < 10 * 60_000) await nextRead();
    const firstTen = await reads();
    await sandbox.control('DELETE', '/requests');
    // The next twenty minutes: one read per top-up every 5 minutes, 4 a minute for the 20.
    while (kit.clock.now() - start < 30 * 60_000) await nextRead();
    const perMinute = (await reads()) / ((kit.clock.now() - start - 10 * 60_000) / 60_000);
    expect(firstTen).toBeLessThanOrEqual(20 * 6);
    expect(perMinute).toBeGreaterThan(3);
    expect(perMinute).toBeLessThanOrEqual(4.5);
  });
});
