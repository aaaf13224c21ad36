import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TestSandbox } from '../../src/testing';
import {
  balance,
  BTC_100,
  createTopUp,
  declare,
  getTopUp,
  HOUR,
  MINUTE,
  pay,
  secondsBetween,
  setRates,
} from './topup-test-kit';

let sandbox: TestSandbox;
beforeEach(async () => {
  sandbox = await TestSandbox.start();
});
afterEach(() => sandbox.close());

describe('expiry', () => {
  it('expires an unpaid top-up exactly 30 minutes after creation, not final yet', async () => {
    const topUp = await createTopUp(sandbox, BTC_100);
    await sandbox.advance(30 * MINUTE - 1);
    expect((await getTopUp(sandbox, topUp.id)).status).toBe('awaiting_payment');
    await sandbox.advance(1);
    const expired = await getTopUp(sandbox, topUp.id);
    expect(expired.status).toBe('expired');
    expect(expired.final).toBe(false);
  });

  it('does not expire a top-up whose payment arrived in time, even if confirmations end later', async () => {
    const topUp = await createTopUp(sandbox, BTC_100);
    await sandbox.advance(29 * MINUTE);
    await pay(sandbox, 'bitcoin', topUp.amountCrypto);
    await sandbox.advance(2 * MINUTE);
    expect((await getTopUp(sandbox, topUp.id)).status).toBe('verifying');
    await setRates(sandbox, { BTC: '10000.00' });
    await sandbox.advance(20 * MINUTE);
    const credited = await getTopUp(sandbox, topUp.id);
    expect(credited.status).toBe('credited');
    expect(credited.creditedUsd).toBe('100.00');
  });
});

describe('final', () => {
  it('is false while awaiting payment and verifying, true once credited', async () => {
    const topUp = await createTopUp(sandbox, BTC_100);
    expect(topUp.final).toBe(false);
    await pay(sandbox, 'bitcoin', topUp.amountCrypto);
    expect((await getTopUp(sandbox, topUp.id)).final).toBe(false);
    await sandbox.advance(20 * MINUTE);
    const credited = await getTopUp(sandbox, topUp.id);
    expect(credited.status).toBe('credited');
    expect(credited.final).toBe(true);
  });

  it('turns an expired top-up final exactly at txidDeadline', async () => {
    const topUp = await createTopUp(sandbox, BTC_100);
    await sandbox.advance(30 * MINUTE + 72 * HOUR - 1);
    expect(await getTopUp(sandbox, topUp.id)).toMatchObject({ status: 'expired', final: false });
    await sandbox.advance(1);
    expect(await getTopUp(sandbox, topUp.id)).toMatchObject({ status: 'expired', final: true });
  });

  it('turns a rejected top-up final only at txidDeadline', async () => {
    const topUp = await createTopUp(sandbox, BTC_100);
    await declare(sandbox, topUp.id, {});
    await sandbox.advance(24 * HOUR);
    expect(await getTopUp(sandbox, topUp.id)).toMatchObject({ status: 'rejected', final: false });
    const remaining = secondsBetween(await sandbox.now(), topUp.txidDeadline);
    await sandbox.advance(remaining - 1);
    expect((await getTopUp(sandbox, topUp.id)).final).toBe(false);
    await sandbox.advance(1);
    expect(await getTopUp(sandbox, topUp.id)).toMatchObject({ status: 'rejected', final: true });
  });
});

describe('confirmations and crediting, per network', () => {
  it.each([
    ['BTC', 'bitcoin', 2, 600],
    ['LTC', 'litecoin', 6, 150],
    ['ETH', 'ethereum', 12, 12],
    ['USDT', 'ethereum', 12, 12],
    ['SOL', 'solana', 32, 0.4],
    ['USDC', 'solana', 32, 0.4],
    ['USDT', 'tron', 19, 3],
  ])(
    '%s on %s: verifying on payment, one confirmation per block, credited at %i',
    async (coin, network, required, blockSeconds) => {
      const topUp = await createTopUp(sandbox, { amountUsd: '100.00', coin, network });
      expect(topUp.confirmationsRequired).toBe(required);
      const paidAt = await sandbox.now();
      const { txid } = await pay(sandbox, network, topUp.amountCrypto);
      const verifying = await getTopUp(sandbox, topUp.id);
      expect(verifying).toMatchObject({ status: 'verifying', confirmations: 0, txid });
      expect(verifying.amountReceivedCrypto).toBe(topUp.amountCrypto);

      const toCredit = required * blockSeconds;
      const almost = Math.ceil(toCredit) - 1;
      await sandbox.advance(almost);
      const partial = await getTopUp(sandbox, topUp.id);
      expect(partial.status).toBe('verifying');
      expect(partial.confirmations).toBe(Math.floor((almost * 1000) / (blockSeconds * 1000)));
      expect(await balance(sandbox)).toBe('0.00');

      await sandbox.advance(1);
      const credited = await getTopUp(sandbox, topUp.id);
      expect(credited).toMatchObject({ status: 'credited', confirmations: required, creditedUsd: '100.00' });
      expect(secondsBetween(paidAt, credited.creditedAt as string)).toBeCloseTo(toCredit, 6);
      expect(await balance(sandbox)).toBe('100.00');
    },
  );

  it('adds every credited top-up to the balance', async () => {
    const a = await createTopUp(sandbox, BTC_100);
    const b = await createTopUp(sandbox, { amountUsd: '49.99', coin: 'USDT', network: 'tron' });
    await pay(sandbox, 'bitcoin', a.amountCrypto);
    await pay(sandbox, 'tron', b.amountCrypto);
    await sandbox.advance(HOUR);
    expect(await balance(sandbox)).toBe('149.99');
  });
});

describe('payments that do not match', () => {
  it('leaves a top-up alone when the paid amount differs from the asked one', async () => {
    const topUp = await createTopUp(sandbox, BTC_100);
    const payment = await pay(sandbox, 'bitcoin', '0.00153847');
    expect(payment.topUpId).toBeNull();
    expect((await getTopUp(sandbox, topUp.id)).status).toBe('awaiting_payment');
  });

  it('leaves a top-up alone when the exact amount is paid on another network', async () => {
    const topUp = await createTopUp(sandbox, { amountUsd: '100.00', coin: 'USDT', network: 'tron' });
    const payment = await pay(sandbox, 'ethereum', topUp.amountCrypto);
    expect(payment.topUpId).toBeNull();
    expect((await getTopUp(sandbox, topUp.id)).status).toBe('awaiting_payment');
  });

  it('matches a second payment of the same amount to nothing once the top-up is paid', async () => {
    const topUp = await createTopUp(sandbox, BTC_100);
    const first = await pay(sandbox, 'bitcoin', topUp.amountCrypto);
    const second = await pay(sandbox, 'bitcoin', topUp.amountCrypto);
    expect(first.topUpId).toBe(topUp.id);
    expect(second.topUpId).toBeNull();
    expect((await getTopUp(sandbox, topUp.id)).txid).toBe(first.txid);
  });

  it('matches the amount by value, whatever the trailing zeros', async () => {
    const topUp = await createTopUp(sandbox, { amountUsd: '100.00', coin: 'USDT', network: 'tron' });
    const payment = await pay(sandbox, 'tron', `${topUp.amountCrypto}000`);
    expect(payment.topUpId).toBe(topUp.id);
  });
});

describe('late matches (payment after expiresAt, before txidDeadline)', () => {
  it('credits the received amount at the current rate, rounded down to cents', async () => {
    const topUp = await createTopUp(sandbox, BTC_100);
    await sandbox.advance(2 * HOUR);
    expect((await getTopUp(sandbox, topUp.id)).status).toBe('expired');
    await setRates(sandbox, { BTC: '70000.00' });
    const { topUpId } = await pay(sandbox, 'bitcoin', topUp.amountCrypto);
    expect(topUpId).toBe(topUp.id);
    expect((await getTopUp(sandbox, topUp.id)).status).toBe('verifying');
    await sandbox.advance(20 * MINUTE);
    const credited = await getTopUp(sandbox, topUp.id);
    // 0.00153848 BTC x 70000 = 107.6936 -> 107.69
    expect(credited).toMatchObject({ status: 'credited', creditedUsd: '107.69', rate: '65000.00' });
    expect(await balance(sandbox)).toBe('107.69');
  });

  it('uses the rate of the moment the late payment arrived, not of the crediting', async () => {
    const topUp = await createTopUp(sandbox, BTC_100);
    await sandbox.advance(HOUR);
    await setRates(sandbox, { BTC: '50000.00' });
    await pay(sandbox, 'bitcoin', topUp.amountCrypto);
    await setRates(sandbox, { BTC: '90000.00' });
    await sandbox.advance(20 * MINUTE);
    // 0.00153848 x 50000 = 76.924 -> 76.92
    expect((await getTopUp(sandbox, topUp.id)).creditedUsd).toBe('76.92');
  });

  it('still matches a payment a second before txidDeadline', async () => {
    const topUp = await createTopUp(sandbox, BTC_100);
    await sandbox.advance(30 * MINUTE + 72 * HOUR - 1);
    const { topUpId } = await pay(sandbox, 'bitcoin', topUp.amountCrypto);
    expect(topUpId).toBe(topUp.id);
    await sandbox.advance(20 * MINUTE);
    expect(await getTopUp(sandbox, topUp.id)).toMatchObject({ status: 'credited', final: true });
  });

  it('matches nothing at or after txidDeadline', async () => {
    const topUp = await createTopUp(sandbox, BTC_100);
    await sandbox.advance(30 * MINUTE + 72 * HOUR);
    const { topUpId } = await pay(sandbox, 'bitcoin', topUp.amountCrypto);
    expect(topUpId).toBeNull();
    expect(await getTopUp(sandbox, topUp.id)).toMatchObject({ status: 'expired', final: true, txid: null });
  });
});

describe('settling is independent of how often the sandbox is asked', () => {
  it('reaches the same state in one jump as in many small steps with reads between', async () => {
    const run = async (steps: number): Promise<unknown> => {
      const box = await TestSandbox.start();
      try {
        const late = (await box.request('POST', '/v1/topups', { body: BTC_100 })).json as {
          id: string;
          amountCrypto: string;
        };
        const onTime = (
          await box.request('POST', '/v1/topups', {
            body: { amountUsd: '60.00', coin: 'USDT', network: 'tron' },
          })
        ).json as { id: string; amountCrypto: string };
        const unpaid = (
          await box.request('POST', '/v1/topups', {
            body: { amountUsd: '30.00', coin: 'ETH', network: 'ethereum' },
          })
        ).json as { id: string };
        await box.request('POST', `/v1/topups/${unpaid.id}/txid`, { body: {} });
        await box.control('POST', '/chain/transactions', {
          network: 'tron',
          amountCrypto: onTime.amountCrypto,
        });
        await box.advance(HOUR);
        await box.control('POST', '/chain/transactions', {
          network: 'bitcoin',
          amountCrypto: late.amountCrypto,
        });
        const total = 80 * HOUR;
        for (let i = 0; i < steps; i += 1) {
          await box.advance(total / steps);
          await box.request('GET', '/v1/topups');
        }
        const list = await box.request('GET', '/v1/topups?perPage=100');
        const account = await box.control('GET', '/account');
        return { list: list.json as unknown, account: account.json as unknown };
      } finally {
        await box.close();
      }
    };
    const oneJump = await run(1);
    const manySteps = await run(160);
    expect(manySteps).toEqual(oneJump);
  });
});
