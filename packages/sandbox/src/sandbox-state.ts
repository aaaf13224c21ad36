import type { ClockSnapshot } from './sandbox-clock';
import type { MobileState } from './mobile/mobile-model';
import type { SubscriptionsState } from './subscriptions/subscription-model';
import type { TopUpsState } from './topups/topup-model';

export const SANDBOX_STATE_VERSION = 1;

export interface AccountState {
  /** USD, decimal string with 2 decimals. */
  balanceUsd: string;
}

/** Everything `--data FILE` persists. Plain JSON: times are epoch ms numbers. */
export interface SandboxState {
  version: typeof SANDBOX_STATE_VERSION;
  seed: number;
  clock: ClockSnapshot;
  randomState: number;
  ids: Record<string, number>;
  account: AccountState;
  subscriptions: SubscriptionsState;
  mobile: MobileState;
  topUps: TopUpsState;
}
