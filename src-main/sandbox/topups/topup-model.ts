import type { SeedContext } from '../sandbox-world';

/** Persisted state of this domain (plain JSON, times as epoch ms). */
// Filled in by the topups slice.
export interface TopUpsState {
  version: 1;
}

export function seedTopUpsState(_context: SeedContext): TopUpsState {
  return { version: 1 };
}
