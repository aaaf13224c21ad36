import { isProductId, type ProductId } from '../catalog/catalog-types';
import plans from './data/plans.json';

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

/** A plan as the data file has it: its product only as a string, its traffic in GB. */
type PlanRow = Omit<PlanData, 'productId' | 'trafficBytes'> & { productId: string; trafficGb: number | null };

export function readPlan({ trafficGb, ...row }: PlanRow): PlanData {
  if (!isProductId(row.productId)) {
    throw new Error(`orders/data/plans.json: ${row.id} names an unknown product "${row.productId}"`);
  }
  return {
    id: row.id,
    name: row.name,
    productId: row.productId,
    unitPriceUsd: row.unitPriceUsd,
    trafficBytes: trafficGb === null ? null : Math.round(trafficGb * GB),
    durationDays: row.durationDays,
    available: row.available,
  };
}

export const PLANS: readonly PlanData[] = plans.map(readPlan);

export const findPlan = (id: string): PlanData | undefined => PLANS.find((p) => p.id === id);
