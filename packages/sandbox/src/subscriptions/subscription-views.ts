import {
  liveSubUsers,
  subscriptionRemainingBytes,
  subscriptionStatus,
  subscriptionUsedBytes,
} from './subscription-traffic';
import type { GatewayEndpoint, SubscriptionRecord, SubUserRecord } from './subscription-types';

const iso = (ms: number): string => new Date(ms).toISOString();

export interface SubscriptionView {
  id: string;
  productId: string;
  label: string;
  planId: string;
  status: string;
  trafficTotalBytes: number;
  trafficUsedBytes: number;
  trafficRemainingBytes: number;
  expiresAt: string | null;
  autoRenew: boolean;
  username: string;
  password: string;
  endpoint: GatewayEndpoint;
  subUserCount: number;
  createdAt: string;
}

export interface SubUserView {
  id: string;
  label: string;
  username: string;
  password: string;
  trafficLimitBytes: number | null;
  trafficUsedBytes: number;
  enabled: boolean;
  createdAt: string;
}

/**
 * The API shape of a subscription settled up to `now`. `endpoint` is where the sandbox's gateway
 * listens now (shared by every account), never what a `--data` file from an earlier run stored.
 */
export function subscriptionView(
  sub: SubscriptionRecord,
  now: number,
  endpoint: GatewayEndpoint,
): SubscriptionView {
  return {
    id: sub.id,
    productId: sub.productId,
    label: sub.label,
    planId: sub.planId,
    status: subscriptionStatus(sub, now),
    trafficTotalBytes: sub.trafficTotalBytes,
    trafficUsedBytes: subscriptionUsedBytes(sub),
    trafficRemainingBytes: subscriptionRemainingBytes(sub),
    expiresAt: sub.expiresAt === null ? null : iso(sub.expiresAt),
    autoRenew: sub.autoRenew,
    username: sub.username,
    password: sub.password,
    endpoint: { ...endpoint },
    subUserCount: liveSubUsers(sub).length,
    createdAt: iso(sub.createdAt),
  };
}

export function subUserView(subUser: SubUserRecord): SubUserView {
  return {
    id: subUser.id,
    label: subUser.label,
    username: subUser.username,
    password: subUser.password,
    trafficLimitBytes: subUser.trafficLimitBytes,
    trafficUsedBytes: subUser.usedBytes,
    enabled: subUser.enabled,
    createdAt: iso(subUser.createdAt),
  };
}
