import { useSyncExternalStore } from 'react';

const TICK_MS = 30_000;

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
  timer ??= setInterval(tick, TICK_MS);
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0 && timer !== null) {
      clearInterval(timer);
      timer = null;
    }
  };
}

/** A reader never gets a time more than this behind the clock, even between ticks. */
const FRESH_MS = 1000;

/**
 * Between ticks a newly shown time takes a fresh reading (a port whose IP changed 5 s ago must not
 * read "in 20 s"). The value still changes at most once a second, as React requires of a snapshot.
 */
function snapshot(): number {
  const current = Date.now();
  if (current - now >= FRESH_MS || current < now) now = current;
  return now;
}

const noSubscription = () => () => undefined;

/** The current time, refreshed every 30 s while `live`, so that "3 min ago" stays true. */
export function useNow(live = true): number {
  return useSyncExternalStore(live ? subscribe : noSubscription, snapshot);
}
