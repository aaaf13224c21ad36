import type { SandboxModule, SandboxWorld } from '../sandbox-world';

export function createCatalogModule(_world: SandboxWorld): SandboxModule {
  return { name: 'catalog', routes: [] };
}
