import type { IpcError } from '../../../../src-shared/contract';

interface ErrorMessageProps {
  error: IpcError;
  /** What failed, e.g. "Could not load countries". */
  title?: string;
  onRetry?: () => void;
  retryLabel?: string;
}

function retryHint(error: IpcError): string | null {
  if (error.retryAfterMs === undefined) return null;
  const seconds = Math.max(1, Math.ceil(error.retryAfterMs / 1000));
  return `The service asks to wait ${seconds} s before trying again.`;
}

/** A failed call: what failed, the message from main, and a Retry button when retrying makes sense. */
export function ErrorMessage({ error, title, onRetry, retryLabel = 'Retry' }: ErrorMessageProps) {
  const hint = retryHint(error);
  return (
    <div className="message message--error" role="alert">
      <p>
        {title ? <strong>{title}: </strong> : null}
        {error.message}
      </p>
      {hint ? <p className="muted">{hint}</p> : null}
      {error.outcomeUnknown ? (
        <p className="muted">The change may or may not have been made; the data was read again.</p>
      ) : null}
      {onRetry ? (
        <button type="button" className="button" onClick={onRetry}>
          {retryLabel}
        </button>
      ) : null}
    </div>
  );
}
