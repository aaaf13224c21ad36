import { describe, expect, it } from 'vitest';
import { findPlan, PLANS, readPlan } from '../../src/orders/plan-catalog';

describe('plan catalog', () => {
  const row = {
    id: 'res-x',
    name: 'Residential X',
    productId: 'residential',
    unitPriceUsd: '1.00',
    trafficGb: 5,
    durationDays: 30,
    available: true,
  };

  it('reads traffic in GB from the data file as bytes (1 GB = 10^9 bytes), null for time-only plans', () => {
    expect(readPlan(row).trafficBytes).toBe(5_000_000_000);
    expect(readPlan({ ...row, productId: 'mobile', trafficGb: null }).trafficBytes).toBeNull();
    expect(findPlan('res-starter')).toMatchObject({ productId: 'residential', trafficBytes: 5_000_000_000 });
    expect(findPlan('mobile-port-7d')).toMatchObject({
      productId: 'mobile',
      trafficBytes: null,
      durationDays: 7,
    });
  });

  it('refuses a plan of an unknown product at start-up', () => {
    expect(() => readPlan({ ...row, productId: 'dedicated' })).toThrow(
      'orders/data/plans.json: res-x names an unknown product "dedicated"',
    );
  });

  it('has unique ids and at least one plan that cannot be bought', () => {
    expect(new Set(PLANS.map((p) => p.id)).size).toBe(PLANS.length);
    expect(PLANS.some((p) => !p.available)).toBe(true);
  });
});
