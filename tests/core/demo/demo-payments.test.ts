import { describe, expect, it } from 'vitest';
import { shortAmount } from '../../../src-main/core/demo/demo-payments';

describe('demo payment rules', () => {
  it('short amounts keep the decimals and never use floats', () => {
    expect(shortAmount('0.00076923')).toBe('0.00076153');
    expect(shortAmount('50.000001')).toBe('49.500000');
  });
});
