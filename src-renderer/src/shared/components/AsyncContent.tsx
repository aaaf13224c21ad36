import type { ReactNode } from 'react';
import type { Loadable } from '../loadable';
import { ErrorMessage } from './ErrorMessage';

interface AsyncContentProps<T> {
  loadable: Loadable<T> | undefined;
  /** Plural noun for messages: "countries". */
  what: string;
  onRetry: () => void;
  isEmpty?: (data: T) => boolean;
  empty?: ReactNode;
  children: (data: T) => ReactNode;
}

const defaultIsEmpty = (data: unknown) => Array.isArray(data) && data.length === 0;

/**
 * The four states of anything read from main: loading, failed (message and Retry), empty, and the
 * data. Data already shown stays on screen while it is refreshed or when a refresh fails.
 */
export function AsyncContent<T>({
  loadable,
  what,
  onRetry,
  isEmpty = defaultIsEmpty,
  empty,
  children,
}: AsyncContentProps<T>) {
  const status = loadable?.status ?? 'idle';
  const data = loadable?.data ?? null;
  return (
    <div className="async" aria-busy={status === 'loading'}>
      {status === 'loading' || status === 'idle' ? (
        <p className="muted loading" role="status">
          {data === null ? `Loading ${what}…` : `Refreshing ${what}…`}
        </p>
      ) : null}
      {status === 'error' && loadable?.error ? (
        <ErrorMessage error={loadable.error} title={`Could not load ${what}`} onRetry={onRetry} />
      ) : null}
      {data !== null ? (
        isEmpty(data) ? (
          <div className="empty">{empty ?? <p>No {what}.</p>}</div>
        ) : (
          children(data)
        )
      ) : null}
    </div>
  );
}
