import { describe, expect, it } from 'vitest';
import { DEFAULT_BUDGETS, resolveBudgets } from '../../src-main/api/call-budget';

describe('call budgets', () => {
  it('interactive calls settle within 20 s, rotations get longer, background is bounded', () => {
    expect(DEFAULT_BUDGETS.interactive.totalMs).toBe(20_000);
    expect(DEFAULT_BUDGETS.rotation.totalMs).toBeGreaterThan(DEFAULT_BUDGETS.interactive.totalMs);
    // A rotation's single attempt covers the spec's 15 s modem reconnect with room to spare.
    expect(DEFAULT_BUDGETS.rotation.attemptMs).toBeGreaterThanOrEqual(30_000);
    expect(Number.isFinite(DEFAULT_BUDGETS.background.totalMs)).toBe(true);
    for (const budget of Object.values(DEFAULT_BUDGETS)) {
      expect(budget.attemptMs).toBeLessThanOrEqual(budget.totalMs);
      expect(budget.slowAfterMs).toBeLessThan(budget.totalMs);
    }
  });

  it('applies overrides per class and keeps the other defaults', () => {
    const budgets = resolveBudgets({ interactive: { totalMs: 500, attemptMs: 200 } });
    expect(budgets.interactive).toEqual({ ...DEFAULT_BUDGETS.interactive, totalMs: 500, attemptMs: 200 });
    expect(budgets.rotation).toEqual(DEFAULT_BUDGETS.rotation);
  });

  it('refuses budgets that could never end or never try', () => {
    expect(() => resolveBudgets({ background: { totalMs: Infinity } })).toThrow(/background\.totalMs/);
    expect(() => resolveBudgets({ interactive: { attemptMs: 0 } })).toThrow(RangeError);
    expect(() => resolveBudgets({ rotation: { maxAttempts: 0 } })).toThrow(/maxAttempts/);
  });
});
