import { useSyncExternalStore } from 'react';

export const SCREENS = [
  { id: 'ports', label: 'Ports' },
  { id: 'subscriptions', label: 'Subscriptions' },
  { id: 'topups', label: 'Top-ups' },
  { id: 'catalog', label: 'Catalog' },
  { id: 'settings', label: 'Settings' },
] as const;

export type ScreenId = (typeof SCREENS)[number]['id'];

const DEFAULT_SCREEN: ScreenId = 'ports';

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

export function useScreen(): ScreenId {
  return useSyncExternalStore(subscribe, () => screenFromHash(window.location.hash));
}

export function navigateTo(screen: ScreenId): void {
  window.location.hash = hrefOf(screen);
}
