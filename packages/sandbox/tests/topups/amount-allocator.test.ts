import { describe, expect, it } from 'vitest';
import { AmountAllocator } from '../../src/topups/amount-allocator';

const base = { network: 'bitcoin', coin: 'BTC', precision: 8, baseUnits: 153_847n };

describe('AmountAllocator', () => {
  it('hands out offsets 1, 2, 3... for one base amount', () => {
    const allocator = new AmountAllocator();
    const amounts = [1, 2, 3].map((i) => allocator.allocate({ ...base, holderId: `t${i}` }));
    expect(amounts).toEqual([
      { amount: '0.00153848', offset: 1 },
      { amount: '0.00153849', offset: 2 },
      { amount: '0.00153850', offset: 3 },
    ]);
    expect(allocator.holder('bitcoin', '0.0015384900')).toBe('t2');
  });

  it('gives the smallest released offset back first', () => {
    const allocator = new AmountAllocator();
    const made = [1, 2, 3, 4].map((i) => ({
      ...allocator.allocate({ ...base, holderId: `t${i}` }),
      id: `t${i}`,
    }));
    for (const index of [2, 1]) {
      const entry = made[index] as { amount: string; offset: number; id: string };
      allocator.release({ ...base, offset: entry.offset, amount: entry.amount, holderId: entry.id });
    }
    expect(allocator.allocate({ ...base, holderId: 'u1' }).offset).toBe(2);
    expect(allocator.allocate({ ...base, holderId: 'u2' }).offset).toBe(3);
    expect(allocator.allocate({ ...base, holderId: 'u3' }).offset).toBe(5);
  });

  it('ignores a release by a top-up that does not hold the amount', () => {
    const allocator = new AmountAllocator();
    const held = allocator.allocate({ ...base, holderId: 'holder' });
    allocator.release({ ...base, offset: held.offset, amount: held.amount, holderId: 'someone-else' });
    expect(allocator.holder('bitcoin', held.amount)).toBe('holder');
  });

  it('skips amounts held by another base amount and offers them again later', () => {
    const allocator = new AmountAllocator();
    const other = allocator.allocate({ ...base, baseUnits: 153_848n, holderId: 'other' });
    expect(other.amount).toBe('0.00153849');
    expect(allocator.allocate({ ...base, holderId: 'a' }).amount).toBe('0.00153848');
    expect(allocator.allocate({ ...base, holderId: 'b' }).amount).toBe('0.00153850');
    allocator.release({ ...base, baseUnits: 153_848n, offset: 1, amount: other.amount, holderId: 'other' });
    expect(allocator.allocate({ ...base, holderId: 'c' }).amount).toBe('0.00153849');
  });

  it('restores persisted holders in any order and keeps their gaps free', () => {
    const allocator = new AmountAllocator();
    allocator.restore([
      { ...base, offset: 4, amount: '0.00153851', holderId: 'd' },
      { ...base, offset: 1, amount: '0.00153848', holderId: 'a' },
    ]);
    expect(allocator.allocate({ ...base, holderId: 'x' }).offset).toBe(2);
    expect(allocator.allocate({ ...base, holderId: 'y' }).offset).toBe(3);
    expect(allocator.allocate({ ...base, holderId: 'z' }).offset).toBe(5);
  });

  it('keeps 10,000 open amounts of one base distinct, each the smallest free', () => {
    const allocator = new AmountAllocator();
    const seen = new Set<string>();
    for (let i = 1; i <= 10_000; i += 1) {
      const { amount, offset } = allocator.allocate({ ...base, holderId: `t${i}` });
      expect(offset).toBe(i);
      seen.add(amount);
    }
    expect(seen.size).toBe(10_000);
    expect(allocator.size).toBe(10_000);
  });
});
