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

function subscribe(onChange: () => void): () => void {
  window.addEventListener('hashchange', onChange);
  return () => window.removeEventListener('hashchange', onChange);
}

/** What `read` makes of the URL fragment, read again on each change (`read` answers a string or null). */
export function useFromHash<T extends string | null>(read: (hash: string) => T): T {
  return useSyncExternalStore(subscribe, () => read(window.location.hash));
}

export const useScreen = (): ScreenId => useFromHash(screenFromHash);
