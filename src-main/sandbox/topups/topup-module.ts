import type { SandboxModule, SandboxWorld } from '../sandbox-world';

export function createTopUpsModule(_world: SandboxWorld): SandboxModule {
  return { name: 'topups', routes: [] };
}
