import { useEffect, useState } from 'react';

const TICK_MS = 30_000;

/** The current time, refreshed every 30 s while `live` so that "3 min ago" stays true. */
export function useNow(live = true): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!live) return undefined;
    const timer = window.setInterval(() => setNow(Date.now()), TICK_MS);
    return () => window.clearInterval(timer);
  }, [live]);
  return now;
}
