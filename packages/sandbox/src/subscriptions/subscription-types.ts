import type { GatewayEndpoint } from '../gateway/gateway-endpoint';
import type { RetiredPassword } from '../gateway/gateway-credentials';
import type { GatewayLedger, TrafficCurve } from '../usage/usage-report';

export type { GatewayEndpoint };

export type TrafficProductId = 'residential' | 'mobile-gb';
export const TRAFFIC_PRODUCT_IDS: readonly TrafficProductId[] = ['residential', 'mobile-gb'];

/**
 * Derived, never stored: `expired` once `expiresAt` has passed without a renewal, else `depleted` when
 * no traffic is left, else `active`.
 */
export type SubscriptionStatus = 'active' | 'depleted' | 'expired';

export const LABEL_MAX_LENGTH = 60;
export const PASSWORD_MAX_LENGTH = 64;
/** The sub-user list's `limit`: how many sub-users one subscription may have. */
export const MAX_SUB_USERS = 20;

/** Anything that draws traffic from a subscription: its main user or one of its sub-users. */
export interface TrafficConsumer extends TrafficCurve {
  /** ISO codes the traffic exits in, heaviest first (the report's `byCountry`). */
  countries: string[];
  /** Sum of `daily`. */
  usedBytes: number;
  /** Bytes per UTC day (`YYYY-MM-DD`), recorded as the clock moves; gateway traffic included. */
  daily: Record<string, number>;
  /** The part of `daily` that went through the sandbox's gateway (absent until some did). */
  gateway?: GatewayLedger;
}

export interface SubUserRecord extends TrafficConsumer {
  id: string;
  label: string;
  username: string;
  password: string;
  /** Passwords replaced less than a minute ago, still accepted by the gateway. */
  retiredPasswords?: RetiredPassword[];
  trafficLimitBytes: number | null;
  enabled: boolean;
  createdAt: number;
  /** Set when deleted: the sub-user is gone from the API, but its traffic stays in the subscription's. */
  deletedAt: number | null;
}

export interface SubscriptionRecord {
  id: string;
  productId: TrafficProductId;
  label: string;
  planId: string;
  trafficTotalBytes: number;
  /** Null: traffic that never expires. */
  expiresAt: number | null;
  autoRenew: boolean;
  username: string;
  password: string;
  /** Passwords replaced less than a minute ago, still accepted by the gateway. */
  retiredPasswords?: RetiredPassword[];
  createdAt: number;
  main: TrafficConsumer;
  /** In creation order, deleted ones included (see `deletedAt`). */
  subUsers: SubUserRecord[];
  /** The sub-user limit when it is not `MAX_SUB_USERS` (a scale sandbox's large subscription). */
  subUserLimit?: number;
  /** Traffic is accounted up to this instant; expiry at or before it has been handled. */
  settledAt: number;
  /** Automatic renewals, for the record (`--data` files and debugging). */
  renewals: { at: number; priceUsd: string }[];
}

/** Persisted state of this domain (plain JSON, times as epoch ms). */
export interface SubscriptionsState {
  version: 1;
  /** In creation order. */
  subscriptions: SubscriptionRecord[];
}
