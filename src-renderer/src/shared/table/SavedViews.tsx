import { useState } from 'react';
import type { IpcError, SavedTableView } from '../../../../src-shared/contract';
import { ErrorMessage } from '../components/ErrorMessage';
import { Popover } from './Popover';

interface SavedViewsProps {
  views: readonly SavedTableView[];
  /** What the table shows now, saved under a name. */
  current: Omit<SavedTableView, 'name'>;
  onApply: (view: SavedTableView) => void;
  onSave: (view: SavedTableView) => Promise<boolean>;
  onDelete: (name: string) => Promise<boolean>;
  /** Read the views when the menu first opens. */
  onOpen: () => void;
  error: IpcError | null;
}

/** "Views": the list's saved views (search, filters, sort, columns) kept in settings; save the current one. */
export function SavedViews({ views, current, onApply, onSave, onDelete, onOpen, error }: SavedViewsProps) {
  const [name, setName] = useState('');
  return (
    <Popover
      summary={
        <>
          Views{views.length ? ` (${views.length})` : ''}
          <span aria-hidden="true"> ▾</span>
        </>
      }
      summaryLabel="Saved views"
      onOpen={onOpen}
    >
      {() => (
        <div className="saved-views">
          {views.length ? (
            <ul className="saved-views__list" aria-label="Saved views">
              {views.map((view) => (
                <li key={view.name}>
                  <button type="button" className="button button--small" onClick={() => onApply(view)}>
                    {view.name}
                  </button>
                  <button
                    type="button"
                    className="button button--small button--quiet"
                    aria-label={`Delete view ${view.name}`}
                    onClick={() => void onDelete(view.name)}
                  >
                    ✕
                  </button>
                </li>
              ))}
            </ul>
          ) : (
            <p className="muted small">No saved views yet.</p>
          )}
          <form
            className="saved-views__save"
            onSubmit={(event) => {
              event.preventDefault();
              if (!name.trim()) return;
              void onSave({ ...current, name: name.trim() }).then((saved) => {
                if (saved) setName('');
              });
            }}
          >
            <label>
              <span className="small">Save what is shown as</span>
              <input
                className="input"
                value={name}
                maxLength={60}
                onChange={(event) => setName(event.target.value)}
              />
            </label>
            <button type="submit" className="button button--small" disabled={!name.trim()}>
              Save view
            </button>
          </form>
          {error ? <ErrorMessage error={error} title="Could not save the view" /> : null}
        </div>
      )}
    </Popover>
  );
}
