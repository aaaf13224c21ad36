import { findCarrier } from '../catalog/catalog-queries';
import { findPlan } from '../orders/plan-catalog';
import type { SeedContext } from '../sandbox-world';
import { freshModemIp } from './ip-pool';
import { createPortRecord } from './port-factory';
import { assignIp, rotatePort } from './port-lifecycle';
import type { MobilePortRecord } from './port-record';

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;

interface SeedPort {
  label: string;
  country: string;
  carrier: string;
  city: string | null;
  planId: string;
  ageDays: number;
  autoRenew: boolean;
  /** Manual and link rotations spread over the port's life. */
  pastRotations: number;
  /** Interval mode switched on this long ago, rotating every `minutes`. */
  interval?: { minutes: number; sinceMs: number };
  /** A relocation (same carrier) this many days ago. */
  relocatedDaysAgo?: number;
}

/** Four ports in two countries: one rotating on a timer, one relocated, one about to expire. */
const SEED_PORTS: readonly SeedPort[] = [
  {
    label: 'Sneaker drops LA',
    country: 'US',
    carrier: 'tmobile_us',
    city: 'los_angeles',
    planId: 'mobile-port-30d',
    ageDays: 12,
    autoRenew: true,
    pastRotations: 14,
    interval: { minutes: 30, sinceMs: 20 * HOUR_MS + 7 * MINUTE_MS },
  },
  {
    label: 'Ad verification NYC',
    country: 'US',
    carrier: 'verizon',
    city: 'new_york',
    planId: 'mobile-port-30d',
    ageDays: 25,
    autoRenew: false,
    pastRotations: 30,
    relocatedDaysAgo: 10,
  },
  {
    label: 'Berlin price monitor',
    country: 'DE',
    carrier: 'telekom_de',
    city: 'berlin',
    planId: 'mobile-port-7d',
    ageDays: 2,
    autoRenew: true,
    pastRotations: 6,
  },
  {
    label: 'Social QA',
    country: 'US',
    carrier: 'tmobile_us',
    city: null,
    planId: 'mobile-port-7d',
    ageDays: 6,
    autoRenew: false,
    pastRotations: 9,
  },
];

/** `count` instants in (from, to), sorted, at least a minute apart. */
function pastInstants(context: SeedContext, from: number, to: number, count: number): number[] {
  const instants = new Set<number>();
  for (let i = 0; i < count; i += 1) {
    instants.add(from + Math.floor((context.random.next() * (to - from)) / MINUTE_MS) * MINUTE_MS);
  }
  return [...instants].filter((t) => t > from + MINUTE_MS && t < to).sort((a, b) => a - b);
}

function seedPort(context: SeedContext, spec: SeedPort): MobilePortRecord {
  const carrier = findCarrier(spec.country, spec.carrier);
  const plan = findPlan(spec.planId);
  if (!carrier || !plan) throw new Error(`seed port ${spec.label}: unknown carrier or plan`);
  const createdAt = context.now - spec.ageDays * DAY_MS - context.random.int(0, 600) * MINUTE_MS;
  const port = createPortRecord(context, {
    country: spec.country,
    carrier,
    city: spec.city,
    planId: plan.id,
    durationDays: plan.durationDays,
    now: createdAt,
    label: spec.label,
    autoRenew: spec.autoRenew,
  });
  const manualUntil = spec.interval ? context.now - spec.interval.sinceMs : context.now;
  const relocatedAt =
    spec.relocatedDaysAgo === undefined
      ? null
      : context.now - spec.relocatedDaysAgo * DAY_MS + context.random.int(0, 600) * 1000;
  let relocationDone = relocatedAt === null;
  for (const at of pastInstants(context, createdAt, manualUntil, spec.pastRotations)) {
    if (!relocationDone && relocatedAt !== null && at > relocatedAt) {
      assignIp(
        port,
        freshModemIp(port.id, relocatedAt, port.country, port.carrier),
        relocatedAt,
        'relocation',
      );
      relocationDone = true;
      if (at - relocatedAt < MINUTE_MS) continue;
    }
    rotatePort(port, at, context.random.chance(0.4) ? 'link' : 'manual');
  }
  if (!relocationDone && relocatedAt !== null) {
    assignIp(port, freshModemIp(port.id, relocatedAt, port.country, port.carrier), relocatedAt, 'relocation');
  }
  if (spec.interval) {
    port.rotation = { mode: 'interval', intervalMinutes: spec.interval.minutes };
    const step = spec.interval.minutes * MINUTE_MS;
    for (let at = manualUntil + step; at <= context.now; at += step) rotatePort(port, at, 'interval');
    port.nextIntervalRotationAt = manualUntil + step * (Math.floor((context.now - manualUntil) / step) + 1);
  }
  return port;
}

export function seedMobilePorts(context: SeedContext): MobilePortRecord[] {
  const ports: MobilePortRecord[] = [];
  for (const spec of SEED_PORTS) ports.push(seedPort(context, spec));
  return ports;
}
