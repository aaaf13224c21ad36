import { useEffect } from 'react';
import type { AttentionScreen } from '../../../../src-shared/contract';
import { useOverviewStore } from './overview-store';

const BADGED: readonly string[] = [
  'ports',
  'subscriptions',
  'topups',
  'local-proxies',
  'settings',
] satisfies AttentionScreen[];

const isBadgedScreen = (screen: string): screen is AttentionScreen => BADGED.includes(screen);

/**
 * The navigation's count of what needs the user (Now and Soon items) on one screen, from the same
 * snapshot the Overview shows (`badges`): a port's item counts on Ports only. Nothing when none.
 */
function AttentionBadge({ screen }: { screen: AttentionScreen }) {
  const count = useOverviewStore((store) => store.snapshot.data?.badges[screen] ?? 0);
  if (count === 0) return null;
  // The space keeps the link's name words apart ("Ports 2 need attention", not "Ports2 …").
  return (
    <>
      {' '}
      <span className="nav-badge" aria-label={`${count} need${count === 1 ? 's' : ''} attention`}>
        {count}
      </span>
    </>
  );
}

/** A screen's badge, or nothing for a screen without one: the navigation's `badge`. */
export function attentionBadgeOf(screen: string) {
  return isBadgedScreen(screen) ? <AttentionBadge screen={screen} /> : null;
}

/** Reads the snapshot once for the badges (the event bridge keeps it current afterwards). */
export function useAttentionBadges(): void {
  const load = useOverviewStore((store) => store.load);
  useEffect(() => {
    void load();
  }, [load]);
}
