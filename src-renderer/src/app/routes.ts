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

/** One thing a route opens: a port's detail, a subscription's detail, a top-up in the wizard's live view. */
export type DeepLink =
  | { screen: 'ports'; portId: string }
  | { screen: 'subscriptions'; subscriptionId: string }
  | { screen: 'topups'; topUpId: string };

// The shape main sends (`AppRoute`: `/ports/<URI-encoded id>`), with or without the fragment's `#`.
const DEEP_LINK = /^#?\/(ports|subscriptions|topups)\/([A-Za-z0-9%._~-]{1,300})$/;

/**
 * Reads a route from main (`app:navigate`) or the window's first URL; null for anything else.
 * Checked here again: the page trusts no shape it did not make.
 */
export function parseDeepLink(route: unknown): DeepLink | null {
  if (typeof route !== 'string') return null;
  const match = DEEP_LINK.exec(route);
  if (!match?.[1] || !match[2]) return null;
  let id: string;
  try {
    id = decodeURIComponent(match[2]);
  } catch {
    return null; // a broken %-escape
  }
  if (match[1] === 'ports') return { screen: 'ports', portId: id };
  if (match[1] === 'subscriptions') return { screen: 'subscriptions', subscriptionId: id };
  return { screen: 'topups', topUpId: id };
}
