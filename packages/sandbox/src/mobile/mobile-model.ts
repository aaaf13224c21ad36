import type { SeedContext } from '../sandbox-world';
import { seedMobilePorts } from './mobile-seed';
import type { MobilePortRecord } from './port-record';

/** Persisted state of the mobile domain (plain JSON, times as epoch ms). */
export interface MobileState {
  version: 1;
  /** In creation order. */
  ports: MobilePortRecord[];
}

export function seedMobileState(context: SeedContext): MobileState {
  return { version: 1, ports: seedMobilePorts(context) };
}
