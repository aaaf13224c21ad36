import { useSyncExternalStore } from 'react';

/** How stale `useNow` may be: a relative time newer than it reads as "just now". */
export const NOW_TICK_MS = 30_000;

/**
 * The page's one ticker: a single interval for every countdown and every relative time on screen,
 * running only while something follows one of its clocks, instead of an interval and an effect per
 * table cell (a list of 1,000 ports had 1,000 of each). It keeps two clocks: a second clock for
 * countdowns and a 30 s clock for relative times ("3 min ago"). The interval runs at the pace of the
 * fastest clock followed; the slower one moves on the tick nearest its step, so a page of relative
 * times alone wakes up every 30 s, not every second. All followers of a clock re-render on the same
 * tick, so their texts also agree with each other.
 *
 * A clock's time (its snapshot) changes only on a tick while it is followed: all readers agree, and
 * React never sees it move in the middle of a render, which would make it render the whole list
 * again. While nothing follows a clock, the first reader takes a fresh time once the last is a whole
 * step old (also when the system clock was set back). While it is followed, a reader takes a fresh
 * time only when a tick is a whole step overdue (timers were frozen: the machine slept, or the page
 * was blocked), and the next tick gives it to every follower.
 */
export interface TickerClock {
  /** For `useSyncExternalStore`. */
  readonly subscribe: (listener: () => void) => () => void;
  readonly snapshot: () => number;
}

interface ClockState {
  readonly stepMs: number;
  /**
   * Takes a fresh time, and restarts the interval on it, when its first follower comes: a countdown
   * is exact from its first second. The 30 s clock does not: the relative times rendered with its
   * time would all render again for a few seconds' difference.
   */
  readonly freshOnStart: boolean;
  time: number;
  /** The time its followers were last given. */
  announced: number;
  readonly listeners: Set<() => void>;
}

const clocks: ClockState[] = [];
let timer: ReturnType<typeof setInterval> | null = null;
/** The interval's period while it runs. */
let period = 0;

function start(ms: number): void {
  if (timer !== null) clearInterval(timer);
  timer = setInterval(tick, ms);
  period = ms;
}

function stop(): void {
  if (timer !== null) clearInterval(timer);
  timer = null;
  period = 0;
}

/** The followed clock with the smallest step: it sets the interval's pace. */
function pacer(): ClockState | undefined {
  let fastest: ClockState | undefined;
  for (const clock of clocks) {
    if (clock.listeners.size > 0 && (!fastest || clock.stepMs < fastest.stepMs)) fastest = clock;
  }
  return fastest;
}

function tick(): void {
  const current = Date.now();
  const moved: ClockState[] = [];
  for (const clock of clocks) {
    if (clock.listeners.size === 0) continue;
    // Timers fire a little late (or early): a clock moves on the tick nearest its step.
    if (current - clock.time >= clock.stepMs - period / 2 || current < clock.time) clock.time = current;
    if (clock.time !== clock.announced) {
      clock.announced = clock.time;
      moved.push(clock);
    }
  }
  // The last countdown has ended: slow down on a tick of the clock that sets the pace now, so that
  // its ticks stay a step apart.
  const pace = pacer();
  if (pace && pace.stepMs > period && moved.includes(pace)) start(pace.stepMs);
  for (const clock of moved) for (const listener of [...clock.listeners]) listener();
}

function clockOf(stepMs: number, freshOnStart: boolean): TickerClock {
  const now = Date.now();
  const clock: ClockState = { stepMs, freshOnStart, time: now, announced: now, listeners: new Set() };
  clocks.push(clock);
  const subscribe = (listener: () => void) => {
    const first = clock.listeners.size === 0;
    clock.listeners.add(listener);
    if (first && clock.freshOnStart) {
      clock.time = clock.announced = Date.now();
      start(timer === null ? stepMs : Math.min(stepMs, period));
    } else if (timer === null || stepMs < period) {
      start(stepMs);
    }
    return () => {
      clock.listeners.delete(listener);
      if (!pacer()) stop();
    };
  };
  const snapshot = () => {
    const current = Date.now();
    const stale =
      clock.listeners.size === 0
        ? current - clock.time >= stepMs || current < clock.time
        : current - clock.time >= 2 * stepMs;
    if (stale) clock.time = current;
    return clock.time;
  };
  return { subscribe, snapshot };
}

/** The countdowns' clock (`useSecondsLeft`). */
export const secondClock = clockOf(1000, true);
/** The relative times' clock (`useNow`). */
const relativeTimeClock = clockOf(NOW_TICK_MS, false);

const noSubscription = () => () => undefined;

/** The current time, refreshed every 30 s while `live`, so that "3 min ago" stays true. */
export function useNow(live = true): number {
  return useSyncExternalStore(
    live ? relativeTimeClock.subscribe : noSubscription,
    relativeTimeClock.snapshot,
  );
}
