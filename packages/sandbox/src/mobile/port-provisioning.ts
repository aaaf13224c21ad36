import type { BodyReader, FieldErrors } from '../http/input-reader';
import type { PlanData } from '../orders/plan-catalog';
import type { SandboxWorld } from '../sandbox-world';
import { createPortRecord } from './port-factory';
import { checkAvailability, readLocation } from './port-location';

/** Field-name prefix of a port purchase's options inside a top-up body. */
const PURCHASE_OPTIONS_FIELD = 'purchase.options';

export const isPortPlan = (plan: PlanData): boolean => plan.productId === 'mobile';

/**
 * Validates `purchase.options` of a port plan: `{ country, carrier, city? }`, each in the catalog.
 * Errors go on the reader (prefix `purchase.options.`). When the options are missing altogether there
 * is no reader to record on, so the error `purchase.options` `required` goes on `errorsWhenMissing`
 * when given (callers that read options as optional should pass their own FieldErrors). Other
 * plans take no options, so nothing is checked for them. Whether the carrier has a free modem is
 * decided when the order is placed (`provisionPortPlan`), not here.
 */
export function validatePortPurchaseOptions(
  _world: SandboxWorld,
  plan: PlanData,
  options: BodyReader | null | undefined,
  errorsWhenMissing?: FieldErrors,
): void {
  if (!isPortPlan(plan)) return;
  if (!options) {
    errorsWhenMissing?.add(
      PURCHASE_OPTIONS_FIELD,
      'required',
      'is required for a mobile port plan: { "country", "carrier", "city"? }',
    );
    return;
  }
  readLocation(options);
}

export interface PortPlanOrder {
  plan: PlanData;
  /** Number of ports, each with the plan's duration. */
  quantity: number;
  country: string;
  carrier: string;
  city?: string | null;
  /** When the order is placed (epoch ms): the ports' `createdAt`. */
  now: number;
}

export type PortProvisioningResult = { ok: true; portIds: string[] } | { ok: false; reason: string };

/**
 * Places a port order: `quantity` new active ports in that place, each on a fresh modem, manual
 * rotation, `autoRenew` off. Nothing is created when any of them cannot be: `location_unavailable`
 * when the carrier has no free modem there (unavailable carrier, a city it does not serve, or a place
 * the catalog no longer lists), `not_a_port_plan`, `invalid_quantity`.
 */
export function provisionPortPlan(world: SandboxWorld, order: PortPlanOrder): PortProvisioningResult {
  if (!isPortPlan(order.plan)) return { ok: false, reason: 'not_a_port_plan' };
  if (!Number.isInteger(order.quantity) || order.quantity < 1)
    return { ok: false, reason: 'invalid_quantity' };
  const availability = checkAvailability({
    country: order.country,
    carrier: order.carrier,
    city: order.city ?? null,
  });
  if (!availability.ok) return { ok: false, reason: availability.reason };
  const ports = world.state.mobile.ports;
  const portIds: string[] = [];
  for (let i = 0; i < order.quantity; i += 1) {
    const port = createPortRecord(world, {
      country: order.country,
      carrier: availability.carrier,
      city: order.city ?? null,
      planId: order.plan.id,
      durationDays: order.plan.durationDays,
      now: order.now,
    });
    ports.push(port);
    portIds.push(port.id);
  }
  return { ok: true, portIds };
}
