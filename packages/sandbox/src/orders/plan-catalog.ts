import type { ProductId } from '../catalog/catalog-types';

const GB = 1_000_000_000;

/** A plan that a top-up's `purchase` can buy. Prices are USD decimal strings per unit of `quantity`. */
export interface PlanData {
  id: string;
  name: string;
  productId: ProductId;
  unitPriceUsd: string;
  /** Traffic plans: bytes added per unit. */
  trafficBytes: number | null;
  /** Subscription or port time added per unit. */
  durationDays: number;
  /** False: a purchase of it is 409 `plan_unavailable`. */
  available: boolean;
}

export const PLANS: readonly PlanData[] = [
  {
    id: 'res-starter',
    name: 'Residential 5 GB',
    productId: 'residential',
    unitPriceUsd: '17.50',
    trafficBytes: 5 * GB,
    durationDays: 30,
    available: true,
  },
  {
    id: 'res-pro',
    name: 'Residential 25 GB',
    productId: 'residential',
    unitPriceUsd: '75.00',
    trafficBytes: 25 * GB,
    durationDays: 30,
    available: true,
  },
  {
    id: 'res-business',
    name: 'Residential 100 GB',
    productId: 'residential',
    unitPriceUsd: '250.00',
    trafficBytes: 100 * GB,
    durationDays: 30,
    available: true,
  },
  {
    id: 'mgb-5',
    name: 'Mobile 5 GB',
    productId: 'mobile-gb',
    unitPriceUsd: '30.00',
    trafficBytes: 5 * GB,
    durationDays: 30,
    available: true,
  },
  {
    id: 'mgb-20',
    name: 'Mobile 20 GB',
    productId: 'mobile-gb',
    unitPriceUsd: '100.00',
    trafficBytes: 20 * GB,
    durationDays: 30,
    available: true,
  },
  {
    id: 'mobile-port-7d',
    name: 'Dedicated mobile port, 7 days',
    productId: 'mobile',
    unitPriceUsd: '25.00',
    trafficBytes: null,
    durationDays: 7,
    available: true,
  },
  {
    id: 'mobile-port-30d',
    name: 'Dedicated mobile port, 30 days',
    productId: 'mobile',
    unitPriceUsd: '75.00',
    trafficBytes: null,
    durationDays: 30,
    available: true,
  },
  {
    id: 'res-legacy-1tb',
    name: 'Residential 1 TB (retired)',
    productId: 'residential',
    unitPriceUsd: '1500.00',
    trafficBytes: 1000 * GB,
    durationDays: 30,
    available: false,
  },
];

export const findPlan = (id: string): PlanData | undefined => PLANS.find((p) => p.id === id);
