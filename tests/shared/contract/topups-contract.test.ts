import { describe, expect, it } from 'vitest';
import { amountUsd, topUpCreateInput, topupsCalls } from '../../../src-shared/contract/topups';

const attemptId = '7c9e6679-7425-40de-944b-e07fc1f90ae7';

describe('topups contract', () => {
  it('takes amounts as strings with two decimals, 25.00 to 1,000,000.00 (above 10,000.00 the service decides)', () => {
    for (const ok of [
      '25.00',
      '50.00',
      '9999.99',
      '10000.00',
      '10000.01',
      '250000.00',
      '1000000.00',
      ' 100.10 ',
    ]) {
      expect(amountUsd.safeParse(ok).success, ok).toBe(true);
    }
    for (const bad of [
      '24.99',
      '1000000.01',
      '9999999.99',
      '50',
      '50.0',
      '50.000',
      '-30.00',
      '1e3',
      '',
      'abc',
      '0025.00x',
    ]) {
      expect(amountUsd.safeParse(bad).success, bad).toBe(false);
    }
    // A float is never accepted, even one that looks right.
    expect(amountUsd.safeParse(50).success).toBe(false);
  });

  it('bounds the purchase quantity and needs a uuid attempt id', () => {
    const base = { amountUsd: '50.00', coin: 'BTC', network: 'bitcoin', attemptId };
    expect(topUpCreateInput.safeParse(base).success).toBe(true);
    expect(topUpCreateInput.safeParse({ ...base, purchase: { planId: 'p', quantity: 100 } }).success).toBe(
      true,
    );
    expect(topUpCreateInput.safeParse({ ...base, purchase: { planId: 'p', quantity: 0 } }).success).toBe(
      false,
    );
    expect(topUpCreateInput.safeParse({ ...base, purchase: { planId: 'p', quantity: 101 } }).success).toBe(
      false,
    );
    expect(topUpCreateInput.safeParse({ ...base, purchase: { planId: 'p', quantity: 1.5 } }).success).toBe(
      false,
    );
    expect(topUpCreateInput.safeParse({ ...base, attemptId: 'again' }).success).toBe(false);
  });
});

describe('purchase.options', () => {
  const withOptions = (options: unknown) =>
    topupsCalls['topups:create'].input.safeParse({
      amountUsd: '50.00',
      coin: 'USDT',
      network: 'tron',
      attemptId: '7c9e6679-7425-40de-944b-e07fc1f90ae7',
      purchase: { planId: 'plan_1', quantity: 1, options },
    });

  it('takes a plain JSON object of options', () => {
    expect(withOptions({ country: 'US', extras: ['a', { b: 1.5, c: null, d: true }] }).success).toBe(true);
  });

  it('refuses, with a field error, what is too deep, too big or not well-formed, without overflowing', () => {
    let deep: unknown = [];
    for (let level = 0; level < 50_000; level += 1) deep = [deep];
    const refused = [
      { nested: deep },
      { many: Array.from({ length: 600 }, (_, index) => index) },
      { text: 'x'.repeat(2_001) },
      { text: '\ud800' },
      { ['\udc00']: 1 },
    ];
    for (const options of refused) {
      const result = withOptions(options);
      expect(result.success).toBe(false);
      if (!result.success) expect(result.error.issues[0]?.path).toEqual(['purchase', 'options']);
    }
  });
});
