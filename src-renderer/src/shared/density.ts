import { useSyncExternalStore } from 'react';
import type { Density } from '../../../src-shared/contract';

/**
 * The row density of every table (Settings → Appearance), for components that size rows in
 * JavaScript (the virtualised tables); CSS reads `data-density` on the root element. The app sets it
 * from the settings (`app/use-appearance.ts`).
 */
let current: Density = 'comfortable';
const listeners = new Set<() => void>();

export function setDensity(density: Density): void {
  document.documentElement.dataset.density = density;
  if (density === current) return;
  current = density;
  for (const listener of [...listeners]) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export const useDensity = (): Density => useSyncExternalStore(subscribe, () => current);
