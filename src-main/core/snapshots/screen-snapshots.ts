import type { InitialState, SnapshotScreen } from '../../../src-shared/contract';

/** What each list service gives of its snapshot for a profile (null when main has none). */
export interface SnapshotSources {
  ports: { snapshot(profileId: string): NonNullable<InitialState['snapshots']>['ports'] | null };
  subscriptions: {
    snapshot(profileId: string): NonNullable<InitialState['snapshots']>['subscriptions'] | null;
  };
  topups: { snapshot(profileId: string): NonNullable<InitialState['snapshots']>['topups'] | null };
}

/** The list of the screen a window opens on, for its first state (`app:getState`'s `screen`). */
export function screenSnapshots(
  screen: SnapshotScreen,
  profileId: string,
  sources: SnapshotSources,
): InitialState['snapshots'] {
  const list = sources[screen].snapshot(profileId);
  return list ? { [screen]: list } : undefined;
}
