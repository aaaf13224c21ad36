import { formatDateTime, formatRelative, formatUtc } from '../format/format';
import { NOW_TICK_MS, useNow } from '../ticker';

interface TimeProps {
  iso: string | null | undefined;
  /** Also say how long ago (or how soon), e.g. "12 Mar 2026, 14:05 (3 min ago)". */
  relative?: boolean;
}

/**
 * `now` is the last tick, up to 30 s old: a time after it is, as far as we know, "just now" (not
 * "in 20 s" for an IP that changed 10 s ago).
 */
function referenceTime(iso: string, now: number): number {
  const ms = Date.parse(iso);
  return ms > now && ms - now <= NOW_TICK_MS ? ms : now;
}

/** A timestamp in local time, machine-readable in `dateTime`, exact UTC in the tooltip. */
export function Time({ iso, relative = false }: TimeProps) {
  const now = useNow(relative);
  if (!iso) return <span className="muted">—</span>;
  const relativeText = relative ? formatRelative(iso, referenceTime(iso, now)) : '';
  return (
    <time dateTime={iso} title={formatUtc(iso)}>
      {formatDateTime(iso)}
      {relativeText ? <span className="muted"> ({relativeText})</span> : null}
    </time>
  );
}
