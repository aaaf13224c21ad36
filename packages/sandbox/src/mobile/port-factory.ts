import type { CarrierData } from '../catalog/catalog-types';
import type { SeedContext } from '../sandbox-world';
import type { SeededRandom } from '../seeded-random';
import { stableHash } from '../seeded-random';
import { freshModemIp } from './ip-pool';
import type { IpTrigger, MobilePortRecord } from './port-record';

const DAY_MS = 86_400_000;
const PASSWORD_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789';

export const newPassword = (random: SeededRandom): string => random.chars(16, PASSWORD_ALPHABET);

/**
 * Ports used to draw a made-up gateway port of their own here; they now share the sandbox's real
 * gateway. The draw is kept so that a seed still gives the same demo data (ids, credentials, cities)
 * as before, which saved demo states and other tests rely on.
 */
export function drawRetiredEndpoint(random: SeededRandom): void {
  random.int(20_000, 29_999);
}

/** The city a modem is in: the one asked for, else one the carrier serves (null if it lists none). */
export function chooseCity(
  random: SeededRandom,
  carrier: CarrierData,
  requested: string | null,
): string | null {
  if (requested !== null) return requested;
  return carrier.cities.length > 0 ? random.pick(carrier.cities) : null;
}

export function chooseNetworkType(random: SeededRandom, carrier: CarrierData): string {
  return carrier.networkTypes.length > 0 ? random.pick(carrier.networkTypes) : '4G';
}

/** Between 1 and 6 GB a day, fixed per port. */
const meanDailyBytesFor = (portId: string): number =>
  1_000_000_000 + (stableHash(`usage|${portId}`) % 5_000) * 1_000_000;

export interface NewPortInput {
  country: string;
  carrier: CarrierData;
  /** Null: any city the carrier serves. */
  city: string | null;
  planId: string;
  durationDays: number;
  now: number;
  label?: string;
  autoRenew?: boolean;
  /** Trigger of the first IP history entry. */
  trigger?: IpTrigger;
}

/** A new, active port on a fresh modem, with credentials from the seeded random. */
export function createPortRecord(context: SeedContext, input: NewPortInput): MobilePortRecord {
  const id = context.newId('port');
  const city = chooseCity(context.random, input.carrier, input.city);
  const networkType = chooseNetworkType(context.random, input.carrier);
  drawRetiredEndpoint(context.random);
  return {
    id,
    label: input.label ?? '',
    status: 'active',
    country: input.country,
    city,
    carrier: input.carrier.id,
    carrierName: input.carrier.name,
    networkType,
    username: `mob_${context.random.chars(8)}`,
    password: newPassword(context.random),
    rotation: { mode: 'manual', intervalMinutes: null },
    nextIntervalRotationAt: null,
    provisioningReadyAt: null,
    planId: input.planId,
    autoRenew: input.autoRenew ?? false,
    createdAt: input.now,
    expiresAt: input.now + input.durationDays * DAY_MS,
    ipHistory: [
      {
        ip: freshModemIp(id, input.now, input.country, input.carrier.id),
        assignedAt: input.now,
        releasedAt: null,
        trigger: input.trigger ?? 'initial',
      },
    ],
    locations: [{ country: input.country, since: input.now }],
    meanDailyBytes: meanDailyBytesFor(id),
  };
}
