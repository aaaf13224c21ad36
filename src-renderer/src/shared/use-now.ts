import { useSyncExternalStore } from 'react';

/** How stale `useNow` may be: a relative time newer than it reads as "just now". */
export const NOW_TICK_MS = 30_000;

/**
 * One ticker for every relative time on screen ("3 min ago"): a single interval while at least one
 * component listens, instead of one interval and one effect per table cell (a list of 1,000 ports had
 * 1,000 of each). All listeners re-render on the same tick, so their texts also agree with each other.
 */
const listeners = new Set<() => void>();
let timer: ReturnType<typeof setInterval> | null = null;
let now = Date.now();

function tick(): void {
  now = Date.now();
  for (const listener of [...listeners]) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  timer ??= setInterval(tick, NOW_TICK_MS);
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0 && timer !== null) {
      clearInterval(timer);
      timer = null;
    }
  };
}

/**
 * The snapshot changes only on a tick (all readers agree, and React never sees it move in the middle
 * of a render, which would make it render the whole list again). After a pause with nothing on
 * screen the ticker is stopped: the first reader then takes a fresh time.
 */
function snapshot(): number {
  if (timer === null) {
    const current = Date.now();
    // Also when the clock was set back.
    if (current - now >= NOW_TICK_MS || current < now) now = current;
  }
  return now;
}

const noSubscription = () => () => undefined;

/** The current time, refreshed every 30 s while `live`, so that "3 min ago" stays true. */
export function useNow(live = true): number {
  return useSyncExternalStore(live ? subscribe : noSubscription, snapshot);
}
