import type { SubUser, Subscription } from '../../api';
import {
  SUB_USER_ROW_COLUMNS,
  type SubscriptionRow,
  type SubscriptionsListView,
  type SubUserRow,
  type SubUserRowValues,
  type SubUsersListView,
} from '../../../src-shared/contract';
import type { Served } from '../snapshots/list-snapshots';

/** A subscription as lists show it: everything but the password (the detail reads it). */
export function toSubscriptionRow(subscription: Subscription | SubscriptionRow): SubscriptionRow {
  const { password: _password, ...row } = subscription as Subscription;
  return row;
}

/** A sub-user as the sub-user list shows it: no password. */
export function toSubUserRow(subUser: SubUser | SubUserRow): SubUserRow {
  return {
    id: subUser.id,
    label: subUser.label,
    username: subUser.username,
    trafficLimitBytes: subUser.trafficLimitBytes,
    trafficUsedBytes: subUser.trafficUsedBytes,
    enabled: subUser.enabled,
    createdAt: subUser.createdAt,
  };
}

/** One subscription's sub-users as main keeps them (`ListSnapshots`). */
export interface SubUserRows {
  rows: SubUserRow[];
  limit: number | null;
}

const freshness = (profileId: string, served: Served<unknown>) => ({
  profileId,
  asOf: new Date(served.asOf).toISOString(),
  revalidating: served.revalidating,
});

export function subscriptionsListView(
  profileId: string,
  served: Served<SubscriptionRow[]>,
  productId: string | undefined,
): SubscriptionsListView {
  const data = productId ? served.value.filter((row) => row.productId === productId) : served.value;
  return { ...freshness(profileId, served), data };
}

const rowValues = (row: SubUserRow): SubUserRowValues => [
  row.id,
  row.label,
  row.username,
  row.trafficLimitBytes,
  row.trafficUsedBytes,
  row.enabled,
  row.createdAt,
];

export function subUsersListView(
  profileId: string,
  subscriptionId: string,
  served: Served<SubUserRows>,
): SubUsersListView {
  return {
    ...freshness(profileId, served),
    subscriptionId,
    limit: served.value.limit,
    columns: SUB_USER_ROW_COLUMNS,
    rows: served.value.rows.map(rowValues),
  };
}
