import type { Notice } from '../../../../src-shared/contract';
import { useAppStore } from './app-store';

const NO_NOTICES: Notice[] = [];

const LEVEL_LABELS = { info: 'Information', warning: 'Warning', error: 'Error' } as const;

/** Messages from main (a recovered settings file, a keychain problem, …) until the user dismisses them. */
export function Notices() {
  const notices = useAppStore((store) => store.state?.notices ?? NO_NOTICES);
  const dismissing = useAppStore((store) => store.dismissing);
  const dismissNotice = useAppStore((store) => store.dismissNotice);
  if (notices.length === 0) return null;
  return (
    <aside className="notices" aria-label="Notices">
      <ul>
        {notices.map((notice) => (
          <li key={notice.id} className={`notice notice--${notice.level}`}>
            <p>
              <strong>{LEVEL_LABELS[notice.level] ?? 'Notice'}:</strong> {notice.message}
            </p>
            <button
              type="button"
              className="button button--small"
              aria-label={`Dismiss: ${notice.message}`}
              disabled={dismissing.includes(notice.id)}
              onClick={() => void dismissNotice(notice.id)}
            >
              Dismiss
            </button>
          </li>
        ))}
      </ul>
    </aside>
  );
}
