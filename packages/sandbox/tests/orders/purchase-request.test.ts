import { describe, expect, it } from 'vitest';
import { findPlan, type PlanData } from '../../src/orders/plan-catalog';
import { findPromoCode, priceOrder } from '../../src/orders/purchase-request';

const plan = (unitPriceUsd: string): PlanData => ({ ...(findPlan('res-starter') as PlanData), unitPriceUsd });

describe('priceOrder', () => {
  it('multiplies the unit price by the quantity exactly', () => {
    expect(priceOrder(plan('17.50'), 3, undefined)).toBe('52.50');
    expect(priceOrder(plan('0.10'), 3, undefined)).toBe('0.30');
  });

  it('takes a percentage off and rounds the total down to the cent', () => {
    // 10% off 33.33 = 29.997 -> 29.99
    expect(priceOrder(plan('33.33'), 1, findPromoCode('DEMO10'))).toBe('29.99');
    expect(priceOrder(plan('75.00'), 1, findPromoCode('DEMO10'))).toBe('67.50');
  });

  it('takes a fixed amount off, never below zero', () => {
    expect(priceOrder(plan('17.50'), 1, findPromoCode('SAVE5'))).toBe('12.50');
    expect(priceOrder(plan('3.00'), 1, findPromoCode('SAVE5'))).toBe('0.00');
  });

  it('matches promo codes case-insensitively and knows no others', () => {
    expect(findPromoCode('demo10')?.code).toBe('DEMO10');
    expect(findPromoCode('FREE')).toBeUndefined();
  });
});
