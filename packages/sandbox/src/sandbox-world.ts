import type { GatewayEndpoint } from './gateway/gateway-endpoint';
import type { RouteDefinition } from './http/router';
import type { SandboxClock } from './sandbox-clock';
import type { SeededRandom } from './seeded-random';
import type { SandboxState } from './sandbox-state';

export type LatencyProfile = 'fast' | 'realistic';

/** What seeding functions get: enough to make deterministic ids and timestamps. */
export interface SeedContext {
  now: number;
  random: SeededRandom;
  newId(prefix: string): string;
}

/** The shared, mutable world that every sandbox module reads and changes. */
export interface SandboxWorld extends SeedContext {
  readonly clock: SandboxClock;
  readonly state: SandboxState;
  readonly latency: LatencyProfile;
  /**
   * Waits a random real-time delay in [minMs, maxMs] when latency is `realistic`; resolves at once
   * when `fast`. For response times the spec describes (rotation: 5-15 s).
   */
  simulateDelay(minMs: number, maxMs: number): Promise<void>;
  /** Runs every module's time-driven transitions up to the current sandbox time. */
  settle(): number;
  /**
   * Where the proxy gateway listens now: the `endpoint` of every subscription and port. Ports are 0
   * until the gateway is listening (before the sandbox answers anything).
   */
  readonly gateway: GatewayEndpoint;
}

/**
 * One domain of the sandbox. `settle(now)` applies everything that time alone causes (expiry,
 * confirmations, provisioning, interval rotation) up to `now`; it must give the same result whether it
 * is called once or many times along the way, so that behaviour never depends on request timing.
 */
export interface SandboxModule {
  name: string;
  routes: RouteDefinition[];
  controlRoutes?: RouteDefinition[];
  settle?(now: number): void;
  /**
   * The earliest instant at which `settle` will change state other modules share (the account
   * balance: renewals, credits, purchases), or null when nothing is pending. It may be early, never
   * late. The world steps every module through these instants together, so that a credit reaches the
   * balance before a later renewal spends it, however far the clock jumps.
   */
  nextEventAt?(): number | null;
}

/** Builds a module on the world; how the server is given extra modules (tests, plug-ins). */
export type SandboxModuleFactory = (world: SandboxWorld) => SandboxModule;

/** Ids like `port_0001x7`: a per-prefix counter (unique across restarts) plus seeded noise. */
export function createIdFactory(counters: Record<string, number>, random: SeededRandom) {
  return (prefix: string): string => {
    const next = (counters[prefix] ?? 0) + 1;
    counters[prefix] = next;
    return `${prefix}_${next.toString(36).padStart(4, '0')}${random.chars(4)}`;
  };
}
