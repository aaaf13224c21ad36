import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TestSandbox } from '../../src/testing';
import {
  BTC_100,
  createTopUp,
  type ErrorBody,
  fieldsOf,
  getTopUp,
  HOUR,
  MINUTE,
  pay,
  secondsBetween,
  setRates,
  type TopUpBody,
} from './topup-test-kit';

let sandbox: TestSandbox;
beforeEach(async () => {
  sandbox = await TestSandbox.start();
});
afterEach(() => sandbox.close());

/** `amountUsd / rate` rounded up to `precision` decimals, plus `offset` last-digit units (plain BigInt maths). */
function expectedAmount(amountUsd: string, rate: string, precision: number, offset: number): string {
  const [rateWhole, rateFraction = ''] = rate.split('.');
  const [usdWhole, usdFraction = ''] = amountUsd.split('.');
  const usdCents = BigInt(`${usdWhole}${usdFraction.padEnd(2, '0')}`);
  const rateUnits = BigInt(`${rateWhole}${rateFraction}`);
  const numerator = usdCents * 10n ** BigInt(precision) * 10n ** BigInt(rateFraction.length);
  const denominator = rateUnits * 100n;
  const units = (numerator + denominator - 1n) / denominator + BigInt(offset);
  const digits = units.toString().padStart(precision + 1, '0');
  return `${digits.slice(0, -precision)}.${digits.slice(-precision)}`;
}

const post = (body: unknown, headers: Record<string, string> = {}) =>
  sandbox.request<TopUpBody & ErrorBody>('POST', '/v1/topups', { body, headers });

describe('POST /v1/topups: the created top-up', () => {
  it('starts awaiting payment with the network address, 30 minutes of validity and a deadline 72 h later', async () => {
    const now = await sandbox.now();
    const topUp = await createTopUp(sandbox, BTC_100);
    expect(topUp.status).toBe('awaiting_payment');
    expect(topUp.final).toBe(false);
    expect(topUp.createdAt).toBe(now);
    expect(secondsBetween(topUp.createdAt, topUp.expiresAt)).toBe(30 * MINUTE);
    expect(secondsBetween(topUp.expiresAt, topUp.txidDeadline)).toBe(72 * HOUR);
    expect(topUp.address).toBe('tb1qtestaddressfakeneverqqqqqqqqqqqqtj6chp');
    expect(topUp).toMatchObject({
      amountUsd: '100.00',
      coin: 'BTC',
      network: 'bitcoin',
      rate: '65000.00',
      confirmationsRequired: 2,
      confirmations: 0,
      txid: null,
      txidSubmittedAt: null,
      amountReceivedCrypto: null,
      explorerUrl: null,
      creditedUsd: null,
      creditedAt: null,
      rejection: null,
      purchase: null,
    });
    expect(await getTopUp(sandbox, topUp.id)).toEqual(topUp);
  });

  it('asks amountUsd / rate rounded up to the coin precision plus one last-digit unit', async () => {
    // 100 / 65000 = 0.0015384615...: rounded up 0.00153847, plus the offset 0.00000001.
    const topUp = await createTopUp(sandbox, BTC_100);
    expect(topUp.amountCrypto).toBe('0.00153848');
  });

  it('adds the offset even when the division is exact', async () => {
    const topUp = await createTopUp(sandbox, { amountUsd: '100.00', coin: 'USDT', network: 'tron' });
    expect(topUp.amountCrypto).toBe('100.000001');
  });

  it.each([
    ['BTC', 'bitcoin', 8, '65000.00'],
    ['LTC', 'litecoin', 8, '85.00'],
    ['ETH', 'ethereum', 8, '3200.00'],
    ['SOL', 'solana', 8, '150.00'],
    ['USDT', 'tron', 6, '1.00'],
    ['USDT', 'ethereum', 6, '1.00'],
    ['USDC', 'ethereum', 6, '1.00'],
    ['USDC', 'solana', 6, '1.00'],
  ])('writes %s on %s with %i decimals', async (coin, network, precision, rate) => {
    await setRates(sandbox, { [coin]: rate === '1.00' ? '0.9997' : rate });
    const effectiveRate = rate === '1.00' ? '0.9997' : rate;
    const topUp = await createTopUp(sandbox, { amountUsd: '123.45', coin, network });
    expect(topUp.amountCrypto).toMatch(new RegExp(`^\\d+\\.\\d{${precision}}$`));
    expect(topUp.amountCrypto).toBe(expectedAmount('123.45', effectiveRate, precision, 1));
    expect(topUp.rate).toBe(effectiveRate);
  });

  it('locks the rate: a rate change later affects new top-ups only', async () => {
    const first = await createTopUp(sandbox, BTC_100);
    await setRates(sandbox, { BTC: '80000.00' });
    expect(await getTopUp(sandbox, first.id)).toMatchObject({ rate: '65000.00', amountCrypto: '0.00153848' });
    const second = await createTopUp(sandbox, BTC_100);
    expect(second.rate).toBe('80000.00');
    expect(second.amountCrypto).toBe(expectedAmount('100.00', '80000.00', 8, 1));
  });

  it('normalizes amountUsd to 2 decimals', async () => {
    expect((await createTopUp(sandbox, { ...BTC_100, amountUsd: '25' })).amountUsd).toBe('25.00');
    expect((await createTopUp(sandbox, { ...BTC_100, amountUsd: '30.5' })).amountUsd).toBe('30.50');
  });

  it('needs a valid API key', async () => {
    const answer = await sandbox.request('POST', '/v1/topups', { body: BTC_100, key: null });
    expect(answer.status).toBe(401);
    const wrong = await sandbox.request('POST', '/v1/topups', { body: BTC_100, key: 'nope' });
    expect(wrong.status).toBe(401);
  });
});

describe('POST /v1/topups: unique amounts per network', () => {
  it('gives the smallest free offset to each open top-up of the same amount', async () => {
    const amounts = [];
    for (let i = 0; i < 3; i += 1) amounts.push((await createTopUp(sandbox, BTC_100)).amountCrypto);
    expect(amounts).toEqual(['0.00153848', '0.00153849', '0.00153850']);
  });

  it('keeps amounts unique across coins of one network, compared by value', async () => {
    const usdt = await createTopUp(sandbox, { amountUsd: '100.00', coin: 'USDT', network: 'ethereum' });
    const usdc = await createTopUp(sandbox, { amountUsd: '100.00', coin: 'USDC', network: 'ethereum' });
    const onSolana = await createTopUp(sandbox, { amountUsd: '100.00', coin: 'USDC', network: 'solana' });
    expect([usdt.amountCrypto, usdc.amountCrypto, onSolana.amountCrypto]).toEqual([
      '100.000001',
      '100.000002',
      '100.000001',
    ]);
  });

  it('reuses the amount of a credited top-up (final) for the next one', async () => {
    const first = await createTopUp(sandbox, BTC_100);
    const second = await createTopUp(sandbox, BTC_100);
    await pay(sandbox, 'bitcoin', first.amountCrypto);
    await sandbox.advance(20 * MINUTE);
    expect((await getTopUp(sandbox, first.id)).status).toBe('credited');
    const third = await createTopUp(sandbox, BTC_100);
    expect(third.amountCrypto).toBe(first.amountCrypto);
    expect(third.amountCrypto).not.toBe(second.amountCrypto);
  });

  it('keeps the amount of an expired top-up reserved until its txidDeadline, then reuses it', async () => {
    const first = await createTopUp(sandbox, BTC_100);
    await sandbox.advance(31 * MINUTE);
    expect((await getTopUp(sandbox, first.id)).status).toBe('expired');
    const second = await createTopUp(sandbox, BTC_100);
    expect(second.amountCrypto).toBe('0.00153849');
    await sandbox.advance(72 * HOUR - MINUTE);
    expect((await getTopUp(sandbox, first.id)).final).toBe(true);
    expect((await getTopUp(sandbox, second.id)).final).toBe(false);
    const third = await createTopUp(sandbox, BTC_100);
    expect(third.amountCrypto).toBe('0.00153848');
  });

  it('fills a freed offset in the middle before going higher', async () => {
    await createTopUp(sandbox, BTC_100);
    const middle = await createTopUp(sandbox, BTC_100);
    await createTopUp(sandbox, BTC_100);
    await pay(sandbox, 'bitcoin', middle.amountCrypto);
    await sandbox.advance(20 * MINUTE);
    expect((await createTopUp(sandbox, BTC_100)).amountCrypto).toBe('0.00153849');
    expect((await createTopUp(sandbox, BTC_100)).amountCrypto).toBe('0.00153851');
  });

  it('skips an amount taken by a top-up of another base amount', async () => {
    // 100.000001 is taken by a 100.00 top-up; a 99.99... base whose offsets reach it must skip it.
    await setRates(sandbox, { USDT: '1.00' });
    const hundred = await createTopUp(sandbox, { amountUsd: '100.00', coin: 'USDT', network: 'tron' });
    expect(hundred.amountCrypto).toBe('100.000001');
    // At 1.0000001 USD, 100.00 USD is 99.9999900000.. -> base 99.999991; offsets 1..9 reach 100.000000, 10 would be 100.000001.
    await setRates(sandbox, { USDT: '1.0000001' });
    const amounts: string[] = [];
    for (let i = 0; i < 10; i += 1) {
      amounts.push(
        (await createTopUp(sandbox, { amountUsd: '100.00', coin: 'USDT', network: 'tron' })).amountCrypto,
      );
    }
    expect(amounts[0]).toBe('99.999992');
    expect(amounts[8]).toBe('100.000000');
    expect(amounts[9]).toBe('100.000002');
    expect(new Set(amounts).size).toBe(10);
  });
});

describe('POST /v1/topups: validation', () => {
  it.each([
    ['24.99', 'too_small'],
    ['0.00', 'too_small'],
    ['10000.01', 'too_big'],
    ['25000', 'too_big'],
  ])('refuses amountUsd %s with 422 %s on amountUsd', async (amountUsd, code) => {
    const answer = await post({ ...BTC_100, amountUsd });
    expect(answer.status).toBe(422);
    expect(answer.json.error.code).toBe('validation_error');
    expect(answer.json.error.fields).toEqual([{ field: 'amountUsd', code, message: expect.any(String) }]);
  });

  it('accepts the limits themselves: 25.00 and 10000.00', async () => {
    expect((await post({ ...BTC_100, amountUsd: '25.00' })).status).toBe(201);
    expect((await post({ ...BTC_100, amountUsd: '10000.00' })).status).toBe(201);
  });

  it.each(['25.001', '-30.00', '1e3', ' 30.00', 'thirty', ''])(
    'refuses amountUsd %j that is not a USD amount with up to 2 decimals',
    async (amountUsd) => {
      const answer = await post({ ...BTC_100, amountUsd });
      expect(answer.status).toBe(422);
      expect(fieldsOf(answer.json)).toEqual(['amountUsd']);
    },
  );

  it('refuses a number instead of a decimal string', async () => {
    const answer = await post({ ...BTC_100, amountUsd: 100 });
    expect(answer.status).toBe(422);
    expect(answer.json.error.fields?.[0]).toMatchObject({ field: 'amountUsd', code: 'invalid_type' });
  });

  it('reports every missing field at once', async () => {
    const answer = await post({});
    expect(answer.status).toBe(422);
    expect(fieldsOf(answer.json)).toEqual(['amountUsd', 'coin', 'network']);
  });

  it('refuses a body that is not an object', async () => {
    const answer = await post([1, 2]);
    expect(answer.status).toBe(422);
    const missing = await sandbox.request('POST', '/v1/topups');
    expect(missing.status).toBe(422);
  });

  it('answers malformed JSON with 400 invalid_json', async () => {
    const answer = await sandbox.request<ErrorBody>('POST', '/v1/topups', { rawBody: '{"amountUsd": ' });
    expect(answer.status).toBe(400);
    expect(answer.json.error.code).toBe('invalid_json');
  });

  it.each([
    ['BTC', 'ethereum'],
    ['USDT', 'solana'],
    ['DOGE', 'dogecoin'],
    ['btc', 'bitcoin'],
  ])('refuses %s on %s with 409 coin_unavailable', async (coin, network) => {
    const answer = await post({ amountUsd: '100.00', coin, network });
    expect(answer.status).toBe(409);
    expect(answer.json.error.code).toBe('coin_unavailable');
  });

  it('reports field errors before coin_unavailable', async () => {
    const answer = await post({ amountUsd: '1.00', coin: 'DOGE', network: 'dogecoin' });
    expect(answer.status).toBe(422);
  });

  it('creates nothing when refused', async () => {
    await post({ ...BTC_100, amountUsd: '10.00' });
    await post({ amountUsd: '100.00', coin: 'DOGE', network: 'dogecoin' });
    const list = await sandbox.request<{ data: TopUpBody[] }>('GET', '/v1/topups?status=awaiting_payment');
    expect(list.json.data).toHaveLength(0);
    expect((await createTopUp(sandbox, BTC_100)).amountCrypto).toBe('0.00153848');
  });
});
