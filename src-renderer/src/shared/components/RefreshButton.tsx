interface RefreshButtonProps {
  onRefresh: () => void;
  busy: boolean;
  /** "ports", for the accessible name "Refresh ports". */
  what: string;
}

/**
 * "Refresh", named "Refresh <what>" for screen readers by a hidden word, not an `aria-label`: the
 * visible text stays part of the name, also while it says "Refreshing…" (axe's
 * label-content-name-mismatch).
 */
export function RefreshButton({ onRefresh, busy, what }: RefreshButtonProps) {
  return (
    <button type="button" className="button" onClick={onRefresh} disabled={busy}>
      {busy ? 'Refreshing…' : 'Refresh'} <span className="visually-hidden">{what}</span>
    </button>
  );
}
