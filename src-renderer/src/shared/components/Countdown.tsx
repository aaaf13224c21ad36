import { useSyncExternalStore } from 'react';
import { secondClock } from '../ticker';

/** Whole seconds from `now` to `until` (0 once it is past). */
export function secondsLeft(until: string | number, now: number): number {
  const target = typeof until === 'number' ? until : Date.parse(until);
  return Number.isNaN(target) ? 0 : Math.max(0, Math.ceil((target - now) / 1000));
}

/** `12 s`, `1:05`, `1:02:03`. */
export function formatCountdown(seconds: number): string {
  if (seconds < 60) return `${seconds} s`;
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = String(seconds % 60).padStart(2, '0');
  return h ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}

const noSubscription = () => () => undefined;
const noTime = () => 0;

/** Seconds left until a time, ticking once a second while it is in the future. */
export function useSecondsLeft(until: string | number | null): number {
  const live = until !== null && secondsLeft(until, secondClock.snapshot()) > 0;
  // Nothing to count (no time, or it is past): 0 whatever the time, so not the ticker's time either.
  // Each first countdown takes a fresh time as it starts the ticker's second clock, which would render every idle
  // reader again (each row's rotate button of a 1,000-port list: a whole commit of a cold click).
  const current = useSyncExternalStore(
    live ? secondClock.subscribe : noSubscription,
    live ? secondClock.snapshot : noTime,
  );
  return live ? secondsLeft(until, current) : 0;
}

interface CountdownProps {
  until: string | number | null;
  /** "Next rotation in" … */
  prefix: string;
  /** Shown once the time has come. */
  done?: string;
}

export function Countdown({ until, prefix, done = '' }: CountdownProps) {
  const left = useSecondsLeft(until);
  if (until === null || left === 0) return done ? <span>{done}</span> : null;
  return (
    <span className="countdown" role="timer">
      {prefix} {formatCountdown(left)}
    </span>
  );
}
