import type { SeedContext } from '../sandbox-world';

/** Persisted state of this domain (plain JSON, times as epoch ms). */
// Filled in by the subscriptions slice.
export interface SubscriptionsState {
  version: 1;
}

export function seedSubscriptionsState(_context: SeedContext): SubscriptionsState {
  return { version: 1 };
}
