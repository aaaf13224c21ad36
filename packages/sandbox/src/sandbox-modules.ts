import { createCatalogModule } from './catalog/catalog-module';
import { createMobileModule } from './mobile/mobile-module';
import { seedMobileState } from './mobile/mobile-model';
import type { SandboxClock } from './sandbox-clock';
import { SANDBOX_STATE_VERSION, type SandboxState } from './sandbox-state';
import { createIdFactory, type SandboxModule, type SandboxWorld, type SeedContext } from './sandbox-world';
import { applyScale, type SandboxScale } from './sandbox-scale';
import type { SeededRandom } from './seeded-random';
import { createSubscriptionsModule } from './subscriptions/subscription-module';
import { seedSubscriptionsState } from './subscriptions/subscription-model';
import { createTopUpsModule } from './topups/topup-module';
import { seedTopUpsState } from './topups/topup-model';

/** Every domain of the API, in the order their time-driven transitions settle. */
export function createDomainModules(world: SandboxWorld): SandboxModule[] {
  return [
    createCatalogModule(world),
    createSubscriptionsModule(world),
    createMobileModule(world),
    createTopUpsModule(world),
  ];
}

/** Fresh demo data for `seed`: the same seed and start time always give the same account. */
export function seedSandboxState(input: {
  seed: number;
  clock: SandboxClock;
  random: SeededRandom;
  scale?: SandboxScale | undefined;
}): SandboxState {
  const ids: Record<string, number> = {};
  const context: SeedContext = {
    now: input.clock.now(),
    random: input.random,
    newId: createIdFactory(ids, input.random),
  };
  const state: SandboxState = {
    version: SANDBOX_STATE_VERSION,
    seed: input.seed,
    clock: input.clock.snapshot(),
    randomState: input.random.snapshot,
    ids,
    account: { balanceUsd: '0.00' },
    subscriptions: seedSubscriptionsState(context),
    mobile: seedMobileState(context),
    topUps: seedTopUpsState(context),
  };
  if (input.scale) applyScale(state, context, input.scale);
  return state;
}
