import type { SeedContext } from '../sandbox-world';

/** Persisted state of this domain (plain JSON, times as epoch ms). */
// Filled in by the mobile slice.
export interface MobileState {
  version: 1;
}

export function seedMobileState(_context: SeedContext): MobileState {
  return { version: 1 };
}
