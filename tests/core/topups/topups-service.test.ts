import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AppError } from '../../../src-main/core/errors';
import { readPaymentUri } from '../../../src-main/core/topups/payment-uri';
import { shortAmount } from '../../../src-main/core/demo/demo-payments';
import { checkTxid } from '../../../src-main/core/topups/topups-service';
import { TestSandbox } from '@proxy-manager/sandbox/testing';
import {
  ATTEMPT,
  ATTEMPT_2,
  callerFor,
  createRequests,
  PROFILE,
  sandboxClient,
  topUpsKit,
  type TopUpsKit,
} from './topups-test-kit';
import { TopUpsService } from '../../../src-main/core/topups/topups-service';
import type { ProxyServiceClient } from '../../../src-main/api';

const BTC = { amountUsd: '50.00', coin: 'BTC', network: 'bitcoin', attemptId: ATTEMPT };

describe('TopUpsService against the sandbox', () => {
  let sandbox: TestSandbox;
  let kit: TopUpsKit;

  beforeEach(async () => {
    sandbox = await TestSandbox.start();
    kit = topUpsKit(sandbox);
  });

  afterEach(async () => {
    await kit.watcher.stop();
    await sandbox.close();
  });

  const handlers = () => kit.service.handlers();
  /** Top-up ids on the service (the sandbox starts with a few of its own). */
  const topUpIds = async (): Promise<string[]> =>
    ((await sandbox.request('GET', '/v1/topups?perPage=100')).json.data as { id: string }[]).map((t) => t.id);

  it('creates a top-up with an Idempotency-Key stored before the request, watches it and tells the UI', async () => {
    const topUp = await handlers()['topups:create'](BTC);
    expect(topUp).toMatchObject({
      status: 'awaiting_payment',
      amountUsd: '50.00',
      coin: 'BTC',
      final: false,
    });
    const intent = (await kit.intents.read())?.[ATTEMPT];
    expect(intent).toMatchObject({ profileId: PROFILE, topUpId: topUp.id });
    const posts = await createRequests(sandbox);
    expect(posts).toHaveLength(1);
    expect(posts[0]?.idempotencyKey).toBe(intent?.idempotencyKey);
    expect((await kit.watch.read())?.[PROFILE]?.[topUp.id]).toMatchObject({ status: 'awaiting_payment' });
    expect(kit.events.of('topups:changed').at(-1)).toEqual({ profileId: PROFILE, changed: [topUp] });
  });

  it('a double click and a resubmit of one attempt make one top-up', async () => {
    const before = await topUpIds();
    const [a, b] = await Promise.all([handlers()['topups:create'](BTC), handlers()['topups:create'](BTC)]);
    const c = await handlers()['topups:create'](BTC);
    expect(b.id).toBe(a.id);
    expect(c.id).toBe(a.id);
    expect(await createRequests(sandbox)).toHaveLength(1);
    expect(await topUpIds()).toHaveLength(before.length + 1);
  });

  it('after a failure with an unknown outcome, the retry sends the same key and gets the same top-up', async () => {
    // The service makes the top-up, then every answer is lost (the client's own retries too).
    const before = await topUpIds();
    await sandbox.fault({ match: '/v1/topups', status: 503, phase: 'after', times: 3 });
    const failed = await handlers()
      ['topups:create'](BTC)
      .catch((error: unknown) => error);
    expect(failed).toMatchObject({ outcomeUnknown: true });
    const stored = (await kit.intents.read())?.[ATTEMPT];
    expect(stored?.topUpId).toBeNull();

    const topUp = await handlers()['topups:create'](BTC);
    const posts = await createRequests(sandbox);
    expect(posts.length).toBe(4);
    expect(new Set(posts.map((p) => p.idempotencyKey))).toEqual(new Set([stored?.idempotencyKey]));
    expect((await topUpIds()).filter((id) => !before.includes(id))).toEqual([topUp.id]);
  });

  it('a crash between the intent and the answer is resolved after restart with the same key', async () => {
    const before = await topUpIds();
    // The process dies once the request has gone out: the answer is never handled.
    const real = sandboxClient(sandbox, kit.clock);
    const crashing = Object.create(real) as ProxyServiceClient;
    crashing.createTopUp = async (...args) => {
      await real.createTopUp(...args);
      throw new Error('process crashed');
    };
    const doomed = new TopUpsService({
      api: callerFor(crashing),
      events: kit.events,
      intents: kit.intents,
      now: () => kit.clock.now(),
    });
    await expect(doomed.handlers()['topups:create'](BTC)).rejects.toThrow('process crashed');
    const intent = (await kit.intents.read())?.[ATTEMPT];
    expect(intent?.topUpId).toBeNull();

    // A new instance on the same job store (the restart) resolves it: same key, no second top-up.
    await kit.service.resumeIntents();
    const resolved = (await kit.intents.read())?.[ATTEMPT];
    expect(resolved?.topUpId).toMatch(/./);
    const posts = await createRequests(sandbox);
    expect(posts.map((p) => p.idempotencyKey)).toEqual([intent?.idempotencyKey, intent?.idempotencyKey]);
    expect((await topUpIds()).filter((id) => !before.includes(id))).toEqual([resolved?.topUpId]);
    // It is watched and the UI hears of it.
    expect((await kit.watch.read())?.[PROFILE]?.[resolved?.topUpId ?? '']).toBeDefined();
    // The wizard's resubmit of the same attempt reads it instead of creating.
    const again = await handlers()['topups:create'](BTC);
    expect(again.id).toBe(resolved?.topUpId);
    expect(await createRequests(sandbox)).toHaveLength(2);
  });

  it('a refused create frees the attempt for corrected details under a new key', async () => {
    const bad = await handlers()
      ['topups:create']({ ...BTC, network: 'tron' })
      .catch((e: unknown) => e);
    expect(bad).toMatchObject({ status: 409, code: 'coin_unavailable' });
    expect((await kit.intents.read())?.[ATTEMPT]).toBeUndefined();
    const topUp = await handlers()['topups:create'](BTC);
    const posts = await createRequests(sandbox);
    expect(posts).toHaveLength(2);
    expect(posts[0]?.idempotencyKey).not.toBe(posts[1]?.idempotencyKey);
    expect(topUp.network).toBe('bitcoin');
  });

  it('get reads one top-up and publishes it; two attempts make two top-ups', async () => {
    const first = await handlers()['topups:create'](BTC);
    const second = await handlers()['topups:create']({ ...BTC, attemptId: ATTEMPT_2 });
    expect(second.id).not.toBe(first.id);
    const read = await handlers()['topups:get']({ topUpId: first.id });
    expect(read.id).toBe(first.id);
    expect(kit.events.of('topups:changed').at(-1)?.changed[0]?.id).toBe(first.id);
  });

  it('refuses malformed txids per network before sending anything', async () => {
    const topUp = await handlers()['topups:create'](BTC);
    const before = (await sandbox.requests()).length;
    for (const txid of ['abc', `0x${'a'.repeat(64)}`, 'g'.repeat(64)]) {
      const error = await handlers()
        ['topups:declareTxid']({ topUpId: topUp.id, txid })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(AppError);
      expect((error as AppError).fields[0]?.field).toBe('txid');
    }
    const sent = (await sandbox.requests()).slice(before);
    expect(sent.filter((r) => r.method === 'POST')).toEqual([]);
    const declared = await handlers()['topups:declareTxid']({ topUpId: topUp.id, txid: 'A'.repeat(64) });
    expect(declared).toMatchObject({ status: 'verifying', txid: 'a'.repeat(64) });
  });

  it('explains txid_already_used and topup_closed, and accepts a declaration without txid', async () => {
    const first = await handlers()['topups:create'](BTC);
    const second = await handlers()['topups:create']({ ...BTC, attemptId: ATTEMPT_2 });
    const txid = 'b'.repeat(64);
    await handlers()['topups:declareTxid']({ topUpId: first.id, txid });
    const error = await handlers()
      ['topups:declareTxid']({ topUpId: second.id, txid })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'txid_already_used' });
    expect((error as AppError).fields[0]?.field).toBe('txid');
    const plain = await handlers()['topups:declareTxid']({ topUpId: second.id });
    expect(plain.status).toBe('verifying');
    // Another txid for a top-up already verifying one: closed, explained.
    const closed = await handlers()
      ['topups:declareTxid']({ topUpId: first.id, txid: 'c'.repeat(64) })
      .catch((e: unknown) => e);
    expect(closed).toMatchObject({ code: 'topup_closed' });
    expect((closed as AppError).message).toMatch(/no longer takes a transaction/);
  });

  it('payment details: the QR of exactly the payment URI, and a token contract apart from the deposit address', async () => {
    const usdt = await handlers()['topups:create']({
      amountUsd: '50.00',
      coin: 'USDT',
      network: 'ethereum',
      attemptId: ATTEMPT,
    });
    const details = await handlers()['topups:paymentDetails']({ topUpId: usdt.id });
    expect(details.paymentUri).toBe(usdt.paymentUri);
    expect(details.paymentUri).toMatch(/^ethereum:0x[0-9a-fA-F]+@\d+\/transfer\?address=/);
    expect(details.depositAddress).toBe(usdt.address);
    expect(details.tokenContract).toMatch(/^0x/);
    expect(details.tokenContract).not.toBe(details.depositAddress);
    expect(details.amountCrypto).toBe(usdt.amountCrypto);
    expect(details.qrSvg).toMatch(/^<svg[\s\S]*<\/svg>\s*$/);

    const btc = await handlers()['topups:create']({ ...BTC, attemptId: ATTEMPT_2 });
    const native = await handlers()['topups:paymentDetails']({ topUpId: btc.id });
    expect(native.tokenContract).toBeNull();
    expect(native.depositAddress).toBe(btc.address);
  });

  it('simulated payments are refused outside demo mode', async () => {
    const topUp = await handlers()['topups:create'](BTC);
    await expect(
      handlers()['topups:simulatePayment']({ topUpId: topUp.id, kind: 'exact' }),
    ).rejects.toMatchObject({
      code: 'demo_only',
    });
  });

  it('simulates exact and short payments on the demo sandbox chain', async () => {
    const demoKit = topUpsKit(sandbox, {
      demoControl: () => ({ profileId: PROFILE, controlUrl: sandbox.controlUrl }),
    });
    const exact = await demoKit.service.handlers()['topups:create'](BTC);
    const paid = await demoKit.service
      .handlers()
      ['topups:simulatePayment']({ topUpId: exact.id, kind: 'exact' });
    expect(paid.status).toBe('verifying');
    const short = await demoKit.service.handlers()['topups:create']({ ...BTC, attemptId: ATTEMPT_2 });
    await demoKit.service.handlers()['topups:simulatePayment']({ topUpId: short.id, kind: 'short' });
    const chain = (await sandbox.control('GET', '/chain/transactions?network=bitcoin')).json.data as {
      amountCrypto: string;
    }[];
    expect(chain.slice(-2).map((tx) => tx.amountCrypto)).toEqual([
      exact.amountCrypto,
      shortAmount(short.amountCrypto),
    ]);
  });

  it('simulates a late payment: after the rate lock, still matched by its exact amount', async () => {
    const demoKit = topUpsKit(sandbox, {
      demoControl: () => ({ profileId: PROFILE, controlUrl: sandbox.controlUrl }),
    });
    const topUp = await demoKit.service.handlers()['topups:create'](BTC);
    const late = await demoKit.service
      .handlers()
      ['topups:simulatePayment']({ topUpId: topUp.id, kind: 'late' });
    expect(Date.parse(await sandbox.now())).toBeGreaterThan(Date.parse(topUp.expiresAt));
    expect(late).toMatchObject({ status: 'verifying', final: false });
    expect(Date.parse(late.expiresAt)).toBe(Date.parse(topUp.expiresAt));
  });

  it('lists top-ups and watches the non-final ones; a process without the jobs watches none', async () => {
    await sandbox.request('POST', '/v1/topups', {
      body: { amountUsd: '30.00', coin: 'ETH', network: 'ethereum' },
    });
    const page = await handlers()['topups:list']({ perPage: 100 });
    const open = page.data.filter((t) => !t.final).map((t) => t.id);
    expect(open.length).toBeGreaterThan(0);
    expect(Object.keys((await kit.watch.read())?.[PROFILE] ?? {}).sort()).toEqual([...open].sort());

    const other = topUpsKit(sandbox);
    const reader = new TopUpsService({
      api: kit.api,
      events: kit.events,
      intents: kit.intents,
      now: () => kit.clock.now(),
      ownsJobs: () => false,
      watcher: other.watcher,
    });
    await reader.handlers()['topups:list']({ perPage: 100 });
    expect(await other.watch.read()).toBeUndefined();
  });

  it('answers a page from main’s snapshot at once, reads it again behind it, and a new top-up reads the pages again', async () => {
    const listReads = async () =>
      (await sandbox.requests()).filter((r) => r.method === 'GET' && /\/v1\/topups(\?|$)/.test(r.path))
        .length;
    await sandbox.control('DELETE', '/requests');
    const first = await handlers()['topups:list']({ perPage: 20 });
    await kit.clock.advance(1_000);
    expect(await handlers()['topups:list']({ perPage: 20 })).toEqual(first);
    expect(await listReads()).toBe(1);
    await kit.clock.advance(10_000);
    expect(await handlers()['topups:list']({ perPage: 20 })).toEqual(first);
    await expect.poll(listReads).toBe(2);

    const created = await handlers()['topups:create'](BTC);
    const after = await handlers()['topups:list']({ perPage: 20 });
    expect(after.data.map((topUp) => topUp.id)).toContain(created.id);
    expect(await listReads()).toBe(3);
  });

  it('plans come from the user own subscriptions and ports', async () => {
    const plans = await handlers()['topups:plans'](undefined);
    expect(plans.length).toBeGreaterThan(0);
    expect(new Set(plans.map((p) => p.planId)).size).toBe(plans.length);
  });

  it('exports every top-up as CSV', async () => {
    const before = await topUpIds();
    await handlers()['topups:create'](BTC);
    await handlers()['topups:create']({ ...BTC, amountUsd: '75.00', attemptId: ATTEMPT_2 });
    const csv = await handlers()['topups:exportCsv'](undefined);
    expect(csv.rows).toBe(before.length + 2);
    const lines = csv.csv.trim().split('\r\n');
    expect(lines).toHaveLength(csv.rows + 1);
    expect(lines[0]).toMatch(/^id,createdAt,status/);
    const ours = lines.slice(1).filter((l) => !before.includes(l.split(',')[0] ?? ''));
    expect(ours.map((l) => l.split(',')[4]).sort()).toEqual(['50.00', '75.00']);
  });
});

describe('top-up pure rules', () => {
  it('txid formats per network', () => {
    expect(checkTxid('bitcoin', 'AB'.repeat(32))).toBe('ab'.repeat(32));
    expect(checkTxid('ethereum', `0x${'C'.repeat(64)}`)).toBe(`0x${'c'.repeat(64)}`);
    expect(() => checkTxid('ethereum', 'c'.repeat(64))).toThrow(AppError);
    expect(() => checkTxid('tron', `0x${'c'.repeat(64)}`)).toThrow(AppError);
    expect(() => checkTxid('solana', 'a'.repeat(64))).toThrow(/base58/);
    expect(() => checkTxid('litecoin', 'z'.repeat(64))).toThrow(AppError);
  });

  it('reads payment URIs', () => {
    expect(readPaymentUri('bitcoin:tb1qx?amount=0.1')).toEqual({
      scheme: 'bitcoin',
      recipient: 'tb1qx',
      tokenContract: null,
    });
    expect(readPaymentUri('ethereum:0xToken@11155111/transfer?address=0xDeposit&uint256=5')).toEqual({
      scheme: 'ethereum',
      recipient: '0xDeposit',
      tokenContract: '0xToken',
    });
    expect(readPaymentUri('tron:TAddr?amount=5&token=TToken')?.tokenContract).toBe('TToken');
  });
});
