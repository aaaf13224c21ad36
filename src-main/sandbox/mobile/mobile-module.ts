import type { SandboxModule, SandboxWorld } from '../sandbox-world';

export function createMobileModule(_world: SandboxWorld): SandboxModule {
  return { name: 'mobile', routes: [] };
}
