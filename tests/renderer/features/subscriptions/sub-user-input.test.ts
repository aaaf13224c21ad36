import { describe, expect, it } from 'vitest';
import { bytesToGb } from '../../../../src-renderer/src/features/subscriptions/sub-user-input';

describe('sub-user input', () => {
  it('shows a cap of exact bytes as a decimal GB without floating point', () => {
    expect(bytesToGb(1_500_000_000)).toBe('1.5');
    expect(bytesToGb(1)).toBe('0.000000001');
    expect(bytesToGb(9_007_199_254_740_991)).toBe('9007199.254740991');
  });
});
