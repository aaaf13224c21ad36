import { hrefOf, SCREENS, type ScreenId } from '../../shared/routes';
import { AlertsBadge } from '../alerts/AlertsBadge';

export function Navigation({ current }: { current: ScreenId }) {
  return (
    <nav className="navigation" aria-label="Main">
      <ul>
        {SCREENS.map((screen) => (
          <li key={screen.id}>
            <a href={hrefOf(screen.id)} aria-current={screen.id === current ? 'page' : undefined}>
              {screen.label}
              {screen.id === 'subscriptions' ? <AlertsBadge /> : null}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}
