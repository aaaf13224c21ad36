import type { SubUser } from '../../api';
import {
  SUB_USER_ROW_COLUMNS,
  type SubUserRow,
  type SubUsersListView,
} from '../../../src-shared/contract/subscriptions';

/** What the surfaces get of a sub-user main holds whole: its row, never the password. */
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

/** `subscriptions:subUsers`'s answer from main's whole list: the rows as a table, and the limit. */
export function subUsersListView(list: { data: readonly SubUser[]; limit: number | null }): SubUsersListView {
  return {
    columns: SUB_USER_ROW_COLUMNS,
    rows: list.data.map((subUser) => [
      subUser.id,
      subUser.label,
      subUser.username,
      subUser.trafficLimitBytes,
      subUser.trafficUsedBytes,
      subUser.enabled,
      subUser.createdAt,
    ]),
    limit: list.limit,
  };
}
