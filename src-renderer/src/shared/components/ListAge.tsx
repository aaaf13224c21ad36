import { formatRelative } from '../format/format';
import { useNow } from '../ticker';

/** How old a list on screen is, as main said (`asOf`), and whether main is reading it again. */
export interface ListAgeValue {
  asOf: string;
  revalidating: boolean;
}

/** A list older than this says how old it is even when nothing is being read. */
const SAY_AGE_AFTER_MS = 60_000;

/**
 * "As of 2 min ago · refreshing…": shown while main reads a list again behind the one on screen
 * (from its snapshot), and for a list over a minute old. Nothing for a fresh list.
 */
export function ListAge({ age }: { age: ListAgeValue | null }) {
  const now = useNow(age !== null);
  if (!age) return null;
  const asOf = Date.parse(age.asOf);
  if (!age.revalidating && !(now - asOf > SAY_AGE_AFTER_MS)) return null;
  const when = formatRelative(age.asOf, Math.max(now, asOf));
  return (
    <span className="muted small list-age" role="status">
      As of {when}
      {age.revalidating ? ' · refreshing…' : ''}
    </span>
  );
}
