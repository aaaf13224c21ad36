import type { ReactNode } from 'react';
import { hrefOf, SCREENS, type ScreenId } from '../../shared/routes';

/**
 * The main navigation. `badge` renders a screen's count beside its name (the shell passes the
 * Overview's per-screen badges; this feature does not import the overview, which imports the others).
 */
export function Navigation({
  current,
  badge,
}: {
  current: ScreenId;
  badge?: (screen: ScreenId) => ReactNode;
}) {
  return (
    <nav className="navigation" aria-label="Main">
      <ul>
        {SCREENS.map((screen) => (
          <li key={screen.id}>
            <a href={hrefOf(screen.id)} aria-current={screen.id === current ? 'page' : undefined}>
              {screen.label}
              {badge?.(screen.id) ?? null}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}
