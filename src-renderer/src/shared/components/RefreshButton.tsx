interface RefreshButtonProps {
  onRefresh: () => void;
  busy: boolean;
  /** "ports", for the accessible name "Refresh ports". */
  what: string;
}

export function RefreshButton({ onRefresh, busy, what }: RefreshButtonProps) {
  return (
    <button
      type="button"
      className="button"
      onClick={onRefresh}
      disabled={busy}
      aria-label={`Refresh ${what}`}
    >
      {busy ? 'Refreshing…' : 'Refresh'}
    </button>
  );
}
