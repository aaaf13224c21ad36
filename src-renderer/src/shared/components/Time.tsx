import { formatDateTime, formatRelative } from '../format/format';
import { useNow } from '../use-now';

interface TimeProps {
  iso: string | null | undefined;
  /** Also say how long ago (or how soon), e.g. "12 Mar 2026, 14:05 (3 min ago)". */
  relative?: boolean;
}

/** A timestamp in local time, machine-readable in `dateTime`, exact UTC in the tooltip. */
export function Time({ iso, relative = false }: TimeProps) {
  const now = useNow(relative);
  if (!iso) return <span className="muted">—</span>;
  const relativeText = relative ? formatRelative(iso, now) : '';
  return (
    <time dateTime={iso} title={iso}>
      {formatDateTime(iso)}
      {relativeText ? <span className="muted"> ({relativeText})</span> : null}
    </time>
  );
}
