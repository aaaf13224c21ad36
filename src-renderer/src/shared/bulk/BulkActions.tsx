import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import type { BulkItem } from './bulk-run';
import { useBulkStore } from './bulk-store';
import './bulk.css';

export interface BulkAction {
  id: string;
  /** The button, e.g. "Rotate": read with the count ("Rotate 12 selected ports"). */
  label: string;
  /** What the confirmation says will happen, besides the count. */
  detail: string;
  run: (items: readonly BulkItem[]) => Promise<unknown>;
}

interface BulkActionsProps {
  /** The list these act on: one bulk run at a time per list. */
  listId: string;
  /** The items acted on, and how they were chosen ("selected", or "shown" for a filter). */
  items: readonly BulkItem[];
  scope: 'selected' | 'shown';
  /** Plural noun: "ports". */
  what: string;
  actions: readonly BulkAction[];
  /** More about the items sent and not answered yet (e.g. how many wait for a cooldown). */
  describeInFlight?: (ids: readonly string[]) => string;
  /** Other buttons beside the actions (disabled with them while a run goes on is theirs to do). */
  children?: ReactNode;
}

/**
 * Bulk actions on a selection or on what a filter shows: each asks first, naming the count; then
 * one progress for the whole run (done, failed, waiting) with Cancel, and at the end a summary with
 * every failure and its reason. The buttons are disabled while a run goes on.
 */
export function BulkActions({
  listId,
  items,
  scope,
  what,
  actions,
  describeInFlight,
  children,
}: BulkActionsProps) {
  const run = useBulkStore((store) => store.runs[listId]);
  const cancel = useBulkStore((store) => store.cancel);
  const dismiss = useBulkStore((store) => store.dismiss);
  const [asking, setAsking] = useState<{ action: BulkAction; items: readonly BulkItem[] } | null>(null);
  const running = run?.progress.running ?? false;
  const titleId = useId();
  const confirmRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (asking) confirmRef.current?.focus();
  }, [asking]);
  const count = items.length;
  return (
    <>
      {count > 0 ? (
        <span className="bulk-bar__what">
          {count} {scope}:
        </span>
      ) : null}
      {count > 0
        ? actions.map((action) => (
            <button
              key={action.id}
              type="button"
              className="button button--small"
              disabled={running || asking !== null}
              onClick={() => setAsking({ action, items })}
            >
              {action.label}{' '}
              <span className="visually-hidden">
                {count} {scope} {what}
              </span>
            </button>
          ))
        : null}
      {children}
      {asking ? (
        <div className="bulk-panel bulk-confirm" role="alertdialog" aria-labelledby={titleId}>
          <p id={titleId}>
            <strong>
              {asking.action.label} {asking.items.length}{' '}
              {asking.items.length === 1 ? what.replace(/s$/, '') : what}?
            </strong>{' '}
            {asking.action.detail}
          </p>
          <div className="bulk-panel__buttons">
            <button
              ref={confirmRef}
              type="button"
              className="button button--primary button--small"
              onClick={() => {
                const chosen = asking;
                setAsking(null);
                void chosen.action.run(chosen.items);
              }}
            >
              {asking.action.label} {asking.items.length}{' '}
              {asking.items.length === 1 ? what.replace(/s$/, '') : what}
            </button>
            <button type="button" className="button button--small" onClick={() => setAsking(null)}>
              Don&apos;t
            </button>
          </div>
        </div>
      ) : null}
      {run ? (
        <section className="bulk-panel" aria-label={`${run.action}: progress`}>
          <div className="bulk-panel__line">
            <progress
              max={run.progress.total}
              value={run.progress.done + run.progress.failed}
              aria-label={`${run.action}: ${run.progress.done + run.progress.failed} of ${run.progress.total}`}
            />
            <span role="status" data-testid="bulk-progress">
              {run.progress.running
                ? `${run.action}: ${run.progress.done} of ${run.progress.total} done · ${run.progress.failed} failed · ${
                    describeInFlight?.(run.progress.inFlight) ?? `${run.progress.inFlight.length} under way`
                  } · ${run.progress.total - run.progress.done - run.progress.failed - run.progress.inFlight.length} queued`
                : `${run.action} finished: ${run.progress.done} done, ${run.progress.failed} failed${
                    run.progress.cancelled ? `, ${run.progress.cancelled} not started (cancelled)` : ''
                  }.`}
            </span>
            {run.progress.running ? (
              <button
                type="button"
                className="button button--small"
                disabled={run.cancelRequested}
                onClick={() => cancel(listId)}
              >
                {run.cancelRequested ? 'Cancelling…' : 'Cancel'}
              </button>
            ) : (
              <button
                type="button"
                className="button button--small button--quiet"
                onClick={() => dismiss(listId)}
              >
                Dismiss
              </button>
            )}
          </div>
          {run.progress.failures.length ? (
            <details className="bulk-panel__failures" open={!run.progress.running}>
              <summary>
                {run.progress.failures.length} failed:{' '}
                {run.progress.running ? 'so far' : 'each with its reason'}
              </summary>
              {/* Focusable: it scrolls, and the keyboard must be able to scroll it (axe). */}
              <ul aria-label={`${run.action}: failures`} tabIndex={0}>
                {run.progress.failures.map((failure) => (
                  <li key={failure.id}>
                    <strong>{failure.name}</strong>: {failure.reason}
                  </li>
                ))}
              </ul>
            </details>
          ) : null}
        </section>
      ) : null}
    </>
  );
}
