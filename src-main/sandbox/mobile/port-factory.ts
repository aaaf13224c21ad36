import type { CarrierData } from '../catalog/catalog-types';
import type { SeedContext } from '../sandbox-world';
import type { SeededRandom } from '../seeded-random';
import { stableHash } from '../seeded-random';
import { freshModemIp } from './ip-pool';
import type { IpTrigger, MobilePortRecord, PortEndpoint } from './port-record';

const DAY_MS = 86_400_000;
const PASSWORD_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789';
const HTTP_PORT_MIN = 20_000;
const HTTP_PORT_MAX = 29_999;
/** The SOCKS port of a modem is its HTTP port plus this. */
const SOCKS_PORT_OFFSET = 10_000;

/** The gateway of a country's mobile ports; `.invalid` so that nothing ever resolves it. */
export const gatewayHost = (country: string): string => `${country.toLowerCase()}.mobile.sandbox.invalid`;

export const newPassword = (random: SeededRandom): string => random.chars(16, PASSWORD_ALPHABET);

/** A free HTTP/SOCKS port pair on the country's gateway (free among `ports`). */
export function allocateEndpoint(
  random: SeededRandom,
  ports: readonly MobilePortRecord[],
  country: string,
): PortEndpoint {
  const host = gatewayHost(country);
  const used = new Set(ports.filter((p) => p.endpoint.host === host).map((p) => p.endpoint.httpPort));
  let httpPort = random.int(HTTP_PORT_MIN, HTTP_PORT_MAX);
  // Linear probing keeps this bounded even on a crowded gateway.
  for (let tries = 0; used.has(httpPort) && tries <= HTTP_PORT_MAX - HTTP_PORT_MIN; tries += 1) {
    httpPort = httpPort === HTTP_PORT_MAX ? HTTP_PORT_MIN : httpPort + 1;
  }
  return { host, httpPort, socksPort: httpPort + SOCKS_PORT_OFFSET };
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
export const meanDailyBytesFor = (portId: string): number =>
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
export function createPortRecord(
  context: SeedContext,
  existing: readonly MobilePortRecord[],
  input: NewPortInput,
): MobilePortRecord {
  const id = context.newId('port');
  const city = chooseCity(context.random, input.carrier, input.city);
  return {
    id,
    label: input.label ?? '',
    status: 'active',
    country: input.country,
    city,
    carrier: input.carrier.id,
    carrierName: input.carrier.name,
    networkType: chooseNetworkType(context.random, input.carrier),
    endpoint: allocateEndpoint(context.random, existing, input.country),
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
