import { hrefOf, SCREENS, type ScreenId } from '../../shared/routes';
import { AttentionBadge, isBadgedScreen, useAttentionBadges } from '../overview/AttentionBadge';

export function Navigation({ current }: { current: ScreenId }) {
  useAttentionBadges();
  return (
    <nav className="navigation" aria-label="Main">
      <ul>
        {SCREENS.map((screen) => (
          <li key={screen.id}>
            <a href={hrefOf(screen.id)} aria-current={screen.id === current ? 'page' : undefined}>
              {screen.label}
              {isBadgedScreen(screen.id) ? <AttentionBadge screen={screen.id} /> : null}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}
