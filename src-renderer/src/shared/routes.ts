import { useSyncExternalStore } from 'react';

// The routes' words, for every layer: the screens, their links, reading the URL fragment. The shell
// (`app/`) does the routing with them (a screen's component, deep links from main); features link
// to a screen with `hrefOf`.

export const SCREENS = [
  { id: 'overview', label: 'Overview' },
  { id: 'ports', label: 'Ports' },
  { id: 'subscriptions', label: 'Subscriptions' },
  { id: 'topups', label: 'Top-ups' },
  { id: 'catalog', label: 'Catalog' },
  { id: 'local-proxies', label: 'Local proxies' },
  { id: 'settings', label: 'Settings' },
] as const;

export type ScreenId = (typeof SCREENS)[number]['id'];

/** What a window opens on once a profile exists: what needs attention. */
const DEFAULT_SCREEN: ScreenId = 'overview';

/**
 * Screens live in the URL fragment (`#/catalog`) so that Back, Forward and reload work the same in
 * the desktop app (file://) and in web mode. Web mode reads its `#token=` before the first render.
 */
export function screenFromHash(hash: string): ScreenId {
  const id = hash.replace(/^#\/?/, '').split(/[/?]/)[0] ?? '';
  return SCREENS.find((screen) => screen.id === id)?.id ?? DEFAULT_SCREEN;
}

export const hrefOf = (screen: ScreenId) => `#/${screen}`;

/** Fired at once when a link click changes the fragment (`followLinksAtOnce`). */
const NAVIGATED = 'app:navigated';

function subscribe(onChange: () => void): () => void {
  window.addEventListener('hashchange', onChange);
  window.addEventListener(NAVIGATED, onChange);
  return () => {
    window.removeEventListener('hashchange', onChange);
    window.removeEventListener(NAVIGATED, onChange);
  };
}

/**
 * A click on one of the page's own links (`#/…`) changes the screen within the click, not one task
 * later when the browser fires `hashchange`: the new screen's render starts a few milliseconds
 * sooner. The URL (and the history entry) is the browser's own, set as the link would set it; the
 * later `hashchange` finds nothing new. Clicks a handler took over (`preventDefault`), with a
 * modifier (a new tab in web mode) or another button are left to the browser. Answers a stop function.
 */
export function followLinksAtOnce(): () => void {
  const onClick = (event: MouseEvent) => {
    if (event.defaultPrevented || event.button !== 0) return;
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    const anchor = event.target instanceof Element ? event.target.closest('a[href^="#/"]') : null;
    const href = anchor?.getAttribute('href');
    if (!href || anchor?.hasAttribute('target') || anchor?.hasAttribute('download')) return;
    event.preventDefault();
    if (window.location.hash !== href) window.location.hash = href;
    window.dispatchEvent(new Event(NAVIGATED));
  };
  // Bubbling, on the document: after React's own handlers (its root is inside), which may take the click.
  document.addEventListener('click', onClick);
  return () => document.removeEventListener('click', onClick);
}

/** What `read` makes of the URL fragment, read again on each change (`read` answers a string or null). */
export function useFromHash<T extends string | null>(read: (hash: string) => T): T {
  return useSyncExternalStore(subscribe, () => read(window.location.hash));
}

export const useScreen = (): ScreenId => useFromHash(screenFromHash);

/**
 * The ids a link asks a list screen to show, `#/ports?ids=a,b,c` (what the Overview's "Show them"
 * opens: the members of a group, each URL-encoded, comma separated), as written (still encoded), or
 * null for the whole list. A list screen reads it with `useFromHash(idsFromHash)` (a string, so that
 * React sees a stable value) and filters its rows to `value.split(',').map(decodeURIComponent)`.
 */
export function idsFromHash(hash: string): string | null {
  const query = hash.split('?')[1] ?? '';
  const ids = /(?:^|&)ids=([^&]*)/.exec(query)?.[1];
  return ids === undefined || ids === '' ? null : ids;
}
