import type { SandboxModule, SandboxWorld } from '../sandbox-world';

export function createSubscriptionsModule(_world: SandboxWorld): SandboxModule {
  return { name: 'subscriptions', routes: [] };
}
