import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TestSandbox } from '../../src/testing';
import {
  base58Encode,
  createTopUp,
  declare,
  getTopUp,
  hex64,
  HOUR,
  MINUTE,
  pay,
  secondsBetween,
  type TopUpBody,
} from './topup-test-kit';

let sandbox: TestSandbox;
beforeEach(async () => {
  sandbox = await TestSandbox.start();
});
afterEach(() => sandbox.close());

/** A 64-byte solana signature in base58 (87-88 characters). */
const solanaSignature = (seed: number): string =>
  base58Encode(Buffer.from(Array.from({ length: 64 }, (_, i) => (i === 0 ? 200 : (i * 31 + seed) % 256))));

const PAIRS: Record<string, { coin: string; network: string }> = {
  bitcoin: { coin: 'BTC', network: 'bitcoin' },
  litecoin: { coin: 'LTC', network: 'litecoin' },
  ethereum: { coin: 'ETH', network: 'ethereum' },
  solana: { coin: 'SOL', network: 'solana' },
  tron: { coin: 'USDT', network: 'tron' },
};

const topUpOn = (network: string): Promise<TopUpBody> =>
  createTopUp(sandbox, { amountUsd: '100.00', ...PAIRS[network] });

describe('txid format per network', () => {
  it.each([
    ['bitcoin', hex64('a')],
    ['litecoin', `${'0123456789abcdef'.repeat(4)}`],
    ['tron', hex64('f')],
    ['ethereum', `0x${hex64('b')}`],
    ['solana', solanaSignature(1)],
  ])('accepts a valid %s txid and shows its explorer link', async (network, txid) => {
    const topUp = await topUpOn(network);
    const answer = await declare(sandbox, topUp.id, { txid });
    expect(answer.status, answer.text).toBe(200);
    expect(answer.json).toMatchObject({ status: 'verifying', txid });
    expect(answer.json.explorerUrl).toContain(txid);
  });

  it('checks that the generated solana example is 87-88 characters', () => {
    expect(solanaSignature(1).length).toBeGreaterThanOrEqual(87);
    expect(solanaSignature(1).length).toBeLessThanOrEqual(88);
  });

  it.each([
    ['bitcoin', 'a'.repeat(63)],
    ['bitcoin', 'a'.repeat(65)],
    ['bitcoin', `${'a'.repeat(63)}g`],
    ['bitcoin', `0x${hex64('a')}`],
    ['litecoin', `0x${hex64('a')}`],
    ['tron', 'T'.repeat(64)],
    ['tron', `0x${hex64('a')}`],
    ['ethereum', hex64('a')],
    ['ethereum', `0x${'a'.repeat(63)}`],
    ['ethereum', `0X${hex64('a')}`],
    ['solana', hex64('a')],
    ['solana', 'SandboxDepositAddress1111111111111111111111'],
    ['solana', `${solanaSignature(1).slice(0, -1)}0`],
    ['solana', `${solanaSignature(1).slice(0, -1)}l`],
    ['solana', `${solanaSignature(1)}22`],
    ['bitcoin', ''],
  ])('refuses a malformed %s txid %j with 422 on txid', async (network, txid) => {
    const topUp = await topUpOn(network);
    const answer = await declare(sandbox, topUp.id, { txid });
    expect(answer.status).toBe(422);
    expect(answer.json.error.fields?.map((f) => f.field)).toEqual(['txid']);
    expect((await getTopUp(sandbox, topUp.id)).status).toBe('awaiting_payment');
  });

  it('refuses a txid over 128 characters with 422 too_long', async () => {
    const topUp = await topUpOn('bitcoin');
    const answer = await declare(sandbox, topUp.id, { txid: 'a'.repeat(129) });
    expect(answer.status).toBe(422);
    expect(answer.json.error.fields?.[0]).toMatchObject({ field: 'txid', code: 'too_long' });
  });

  it('refuses a txid that is not a string', async () => {
    const topUp = await topUpOn('bitcoin');
    const answer = await declare(sandbox, topUp.id, { txid: 12 });
    expect(answer.status).toBe(422);
    expect(answer.json.error.fields?.[0]).toMatchObject({ field: 'txid', code: 'invalid_type' });
  });

  it('stores hex txids in lower case, so that one transaction has one spelling', async () => {
    const topUp = await topUpOn('ethereum');
    const answer = await declare(sandbox, topUp.id, { txid: `0x${hex64('A')}` });
    expect(answer.json.txid).toBe(`0x${hex64('a')}`);
  });
});

describe('POST /v1/topups/{id}/txid on each state', () => {
  it('moves awaiting_payment to verifying and records the declaration time', async () => {
    const topUp = await topUpOn('bitcoin');
    await sandbox.advance(5 * MINUTE);
    const now = await sandbox.now();
    const answer = await declare(sandbox, topUp.id, { txid: hex64('1') });
    expect(answer.status).toBe(200);
    expect(answer.json).toMatchObject({ status: 'verifying', txid: hex64('1'), txidSubmittedAt: now });
  });

  it('accepts an empty body: the payment is matched by its amount', async () => {
    const topUp = await topUpOn('bitcoin');
    const answer = await declare(sandbox, topUp.id);
    expect(answer.status).toBe(200);
    expect(answer.json).toMatchObject({ status: 'verifying', txid: null, explorerUrl: null });
    expect(answer.json.txidSubmittedAt).not.toBeNull();
    const withNull = await declare(sandbox, (await topUpOn('tron')).id, { txid: null });
    expect(withNull.status).toBe(200);
  });

  it('moves expired to verifying before txidDeadline', async () => {
    const topUp = await topUpOn('bitcoin');
    await sandbox.advance(HOUR);
    const answer = await declare(sandbox, topUp.id, { txid: hex64('2') });
    expect(answer.status).toBe(200);
    expect(answer.json.status).toBe('verifying');
  });

  it('moves rejected back to verifying and clears the rejection', async () => {
    const topUp = await topUpOn('bitcoin');
    await declare(sandbox, topUp.id, {});
    await sandbox.advance(24 * HOUR);
    expect((await getTopUp(sandbox, topUp.id)).status).toBe('rejected');
    const answer = await declare(sandbox, topUp.id, { txid: hex64('3') });
    expect(answer.status).toBe(200);
    expect(answer.json).toMatchObject({ status: 'verifying', rejection: null, txid: hex64('3') });
  });

  it('answers a repeated declaration on a verifying top-up with 200 and changes nothing', async () => {
    const topUp = await topUpOn('bitcoin');
    const first = await declare(sandbox, topUp.id, { txid: hex64('4') });
    await sandbox.advance(MINUTE);
    const again = await declare(sandbox, topUp.id, { txid: hex64('4') });
    expect(again.status).toBe(200);
    expect(again.json.txidSubmittedAt).toBe(first.json.txidSubmittedAt);
    const empty = await declare(sandbox, topUp.id, {});
    expect(empty.status).toBe(200);
    expect(empty.json.txid).toBe(hex64('4'));
  });

  it('refuses another txid on a verifying top-up with 409 topup_closed', async () => {
    const topUp = await topUpOn('bitcoin');
    await declare(sandbox, topUp.id, { txid: hex64('5') });
    const other = await declare(sandbox, topUp.id, { txid: hex64('6') });
    expect(other.status).toBe(409);
    expect(other.json.error.code).toBe('topup_closed');
  });

  it('refuses a declaration on a credited top-up with 409 topup_closed', async () => {
    const topUp = await topUpOn('bitcoin');
    const { txid } = await pay(sandbox, 'bitcoin', topUp.amountCrypto);
    await sandbox.advance(20 * MINUTE);
    expect((await getTopUp(sandbox, topUp.id)).status).toBe('credited');
    for (const body of [{ txid }, {}, { txid: hex64('7') }]) {
      const answer = await declare(sandbox, topUp.id, body);
      expect(answer.status).toBe(409);
      expect(answer.json.error.code).toBe('topup_closed');
    }
  });

  it('accepts a declaration one second before txidDeadline and refuses it at the deadline', async () => {
    const early = await topUpOn('bitcoin');
    const late = await topUpOn('tron');
    await sandbox.advance(secondsBetween(await sandbox.now(), early.txidDeadline) - 1);
    expect((await declare(sandbox, early.id, {})).status).toBe(200);
    await sandbox.advance(1);
    const refused = await declare(sandbox, late.id, { txid: hex64('8') });
    expect(refused.status).toBe(409);
    expect(refused.json.error.code).toBe('topup_closed');
  });

  it('refuses a declaration on a rejected top-up after txidDeadline with 409 topup_closed', async () => {
    const topUp = await topUpOn('bitcoin');
    await declare(sandbox, topUp.id, {});
    await sandbox.advance(80 * HOUR);
    expect(await getTopUp(sandbox, topUp.id)).toMatchObject({ status: 'rejected', final: true });
    const answer = await declare(sandbox, topUp.id, {});
    expect(answer.status).toBe(409);
    expect(answer.json.error.code).toBe('topup_closed');
  });

  it('checks the format before the state: 422 even on a closed top-up', async () => {
    const topUp = await topUpOn('bitcoin');
    await sandbox.advance(80 * HOUR);
    expect((await declare(sandbox, topUp.id, { txid: 'nope' })).status).toBe(422);
  });

  it('answers 404 not_found for an unknown top-up', async () => {
    const answer = await declare(sandbox, 'topup_nope', {});
    expect(answer.status).toBe(404);
    expect(answer.json.error.code).toBe('not_found');
    expect((await sandbox.request('GET', '/v1/topups/topup_nope')).status).toBe(404);
  });

  it('needs a valid API key', async () => {
    const topUp = await topUpOn('bitcoin');
    const answer = await sandbox.request('POST', `/v1/topups/${topUp.id}/txid`, { body: {}, key: null });
    expect(answer.status).toBe(401);
  });
});

describe('txid_already_used', () => {
  it('refuses a txid another top-up declared', async () => {
    const a = await topUpOn('bitcoin');
    const b = await topUpOn('bitcoin');
    await declare(sandbox, a.id, { txid: hex64('c') });
    const answer = await declare(sandbox, b.id, { txid: hex64('C') });
    expect(answer.status).toBe(409);
    expect(answer.json.error.code).toBe('txid_already_used');
    expect((await getTopUp(sandbox, b.id)).status).toBe('awaiting_payment');
  });

  it('refuses the txid of a payment matched to another top-up', async () => {
    const a = await topUpOn('bitcoin');
    const b = await topUpOn('bitcoin');
    const { txid } = await pay(sandbox, 'bitcoin', a.amountCrypto);
    const answer = await declare(sandbox, b.id, { txid });
    expect(answer.status).toBe(409);
    expect(answer.json.error.code).toBe('txid_already_used');
  });

  it('lets a top-up declare its own txid again after a rejection', async () => {
    const topUp = await topUpOn('bitcoin');
    await declare(sandbox, topUp.id, { txid: hex64('d') });
    await sandbox.advance(24 * HOUR);
    expect((await getTopUp(sandbox, topUp.id)).status).toBe('rejected');
    expect((await declare(sandbox, topUp.id, { txid: hex64('d') })).status).toBe(200);
  });

  it('treats the same hex on another network as another transaction', async () => {
    const onBitcoin = await topUpOn('bitcoin');
    const onTron = await topUpOn('tron');
    await declare(sandbox, onBitcoin.id, { txid: hex64('e') });
    expect((await declare(sandbox, onTron.id, { txid: hex64('e') })).status).toBe(200);
  });
});

describe('verification of a declaration', () => {
  it('credits a declared txid once its payment of the exact amount arrives and confirms', async () => {
    const topUp = await topUpOn('bitcoin');
    const declared = await declare(sandbox, topUp.id, { txid: hex64('9') });
    await sandbox.advance(10 * MINUTE);
    await pay(sandbox, 'bitcoin', topUp.amountCrypto, hex64('9'));
    await sandbox.advance(10 * MINUTE);
    expect(await getTopUp(sandbox, topUp.id)).toMatchObject({ status: 'verifying', confirmations: 1 });
    await sandbox.advance(10 * MINUTE);
    expect(await getTopUp(sandbox, topUp.id)).toMatchObject({
      status: 'credited',
      txid: hex64('9'),
      txidSubmittedAt: declared.json.txidSubmittedAt,
      creditedUsd: '100.00',
    });
  });

  it('rejects a declared txid whose payment has another amount (verifying first)', async () => {
    const topUp = await topUpOn('bitcoin');
    await pay(sandbox, 'bitcoin', '0.00150000', hex64('a'));
    const answer = await declare(sandbox, topUp.id, { txid: hex64('a') });
    expect(answer.json.status).toBe('verifying');
    const rejected = await getTopUp(sandbox, topUp.id);
    expect(rejected.status).toBe('rejected');
    expect(rejected.rejection).toEqual({
      reason: 'amount_mismatch',
      message: expect.stringContaining('0.00150000'),
    });
    expect(rejected.amountReceivedCrypto).toBe('0.00150000');
    expect(rejected.txid).toBe(hex64('a'));
  });

  it('rejects when the declared transaction arrives later with another amount', async () => {
    const topUp = await topUpOn('tron');
    await declare(sandbox, topUp.id, { txid: hex64('b') });
    await sandbox.advance(HOUR);
    expect((await getTopUp(sandbox, topUp.id)).status).toBe('verifying');
    await pay(sandbox, 'tron', '99.000000', hex64('b'));
    expect((await getTopUp(sandbox, topUp.id)).rejection?.reason).toBe('amount_mismatch');
  });

  it('rejects when no payment arrives within 24 h of the declaration', async () => {
    const topUp = await topUpOn('bitcoin');
    await declare(sandbox, topUp.id, { txid: hex64('f') });
    await sandbox.advance(24 * HOUR - 1);
    expect((await getTopUp(sandbox, topUp.id)).status).toBe('verifying');
    await sandbox.advance(1);
    const rejected = await getTopUp(sandbox, topUp.id);
    expect(rejected.status).toBe('rejected');
    expect(rejected.rejection?.reason).toBe('payment_not_found');
    expect(rejected.rejection?.message.length).toBeGreaterThan(0);
  });

  it('rejects at txidDeadline a declaration made less than 24 h before it, and is final then', async () => {
    const topUp = await topUpOn('bitcoin');
    await sandbox.advance(secondsBetween(await sandbox.now(), topUp.txidDeadline) - 2 * HOUR);
    await declare(sandbox, topUp.id, {});
    await sandbox.advance(2 * HOUR - 1);
    expect((await getTopUp(sandbox, topUp.id)).status).toBe('verifying');
    await sandbox.advance(1);
    expect(await getTopUp(sandbox, topUp.id)).toMatchObject({ status: 'rejected', final: true });
  });

  it('rejects a declared transaction sent before the top-up existed', async () => {
    const { txid } = await pay(sandbox, 'bitcoin', '0.00153848');
    await sandbox.advance(MINUTE);
    const topUp = await topUpOn('bitcoin');
    expect(topUp.amountCrypto).toBe('0.00153848');
    await declare(sandbox, topUp.id, { txid });
    expect((await getTopUp(sandbox, topUp.id)).rejection?.reason).toBe('payment_predates_topup');
  });

  it('credits a rejected top-up when its exact amount arrives afterwards', async () => {
    const topUp = await topUpOn('bitcoin');
    await declare(sandbox, topUp.id, { txid: hex64('1') });
    await sandbox.advance(24 * HOUR);
    expect((await getTopUp(sandbox, topUp.id)).status).toBe('rejected');
    const payment = await pay(sandbox, 'bitcoin', topUp.amountCrypto);
    expect(payment.topUpId).toBe(topUp.id);
    await sandbox.advance(20 * MINUTE);
    expect(await getTopUp(sandbox, topUp.id)).toMatchObject({
      status: 'credited',
      txid: payment.txid,
      rejection: null,
    });
  });

  it('gives a payment to the top-up of its exact amount and rejects the one that declared its txid', async () => {
    const declarer = await topUpOn('bitcoin');
    const owner = await createTopUp(sandbox, { amountUsd: '200.00', coin: 'BTC', network: 'bitcoin' });
    await declare(sandbox, declarer.id, { txid: hex64('3') });
    const payment = await pay(sandbox, 'bitcoin', owner.amountCrypto, hex64('3'));
    expect(payment.topUpId).toBe(owner.id);
    expect((await getTopUp(sandbox, declarer.id)).rejection?.reason).toBe('amount_mismatch');
    await sandbox.advance(20 * MINUTE);
    expect(await getTopUp(sandbox, owner.id)).toMatchObject({ status: 'credited', txid: hex64('3') });
    const again = await declare(sandbox, declarer.id, { txid: hex64('3') });
    expect(again.status).toBe(409);
    expect(again.json.error.code).toBe('txid_already_used');
  });

  it('matches the exact amount even when the declared txid was another one', async () => {
    const topUp = await topUpOn('bitcoin');
    await declare(sandbox, topUp.id, { txid: hex64('2') });
    const payment = await pay(sandbox, 'bitcoin', topUp.amountCrypto);
    expect(payment.topUpId).toBe(topUp.id);
    expect((await getTopUp(sandbox, topUp.id)).txid).toBe(payment.txid);
  });
});
