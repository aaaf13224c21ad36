import type { SaveOutcome } from '../save-outcome';
import { ErrorMessage } from './ErrorMessage';

interface SaveOutcomeMessageProps {
  outcome: SaveOutcome | null;
  /** What failed, e.g. "Could not export the IP history". */
  failedTitle: string;
  /** Said after the place, e.g. "12 rows.". */
  detail?: string | undefined;
}

/** Where an export went (the path on the desktop, the file name in a browser), or why it did not. */
export function SaveOutcomeMessage({ outcome, failedTitle, detail }: SaveOutcomeMessageProps) {
  if (!outcome) return null;
  const after = detail ? ` ${detail}` : '';
  switch (outcome.status) {
    case 'saved':
      return (
        <p role="status" className="muted">
          Saved to <code>{outcome.path}</code>.{after}
        </p>
      );
    case 'downloaded':
      return (
        <p role="status" className="muted">
          Downloaded as <code>{outcome.fileName}</code>.{after}
        </p>
      );
    case 'cancelled':
      return (
        <p role="status" className="muted">
          Not saved: the save dialog was cancelled.
        </p>
      );
    case 'failed':
      return <ErrorMessage error={outcome.error} title={failedTitle} />;
  }
}
