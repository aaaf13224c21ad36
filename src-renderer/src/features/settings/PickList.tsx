import { useState, type ReactNode } from 'react';
import { CheckboxOption } from '../../shared/components/CheckboxOption';
import { TextField } from '../../shared/components/TextField';

/** One item to turn on or off: its id, what the user knows it by (its id when it has no label). */
export interface PickItem {
  id: string;
  name: string;
  hint?: string;
}

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;

/** Case-insensitive match on the name and the id, so a pasted id finds its item. */
const matches = (item: PickItem, query: string) => {
  const q = query.trim().toLowerCase();
  return q === '' || item.name.toLowerCase().includes(q) || item.id.toLowerCase().includes(q);
};

/**
 * A per-item on/off list of Settings (sub-user cap alerts, tray pins) at any size: a search on name
 * and id, Turn on / Turn off for what the search shows (one change, one Undo), and the items in a
 * box that scrolls on its own, never taller than half the window. Ids chosen earlier that the
 * account no longer has (`absent`) stay listed, ticked, so that they can be removed.
 */
export function PickList({
  legend,
  hint,
  items,
  chosen,
  absent = [],
  absentHint,
  noun,
  saving,
  status,
  maxOn,
  testId,
  onToggle,
  onSetMany,
}: {
  legend: string;
  hint: ReactNode;
  /** Null while they are read. */
  items: readonly PickItem[] | null;
  chosen: readonly string[];
  absent?: readonly string[];
  absentHint?: string;
  /** "subscription", "port": for the counts and the buttons. */
  noun: string;
  saving: boolean;
  /** Shown above the list: loading, an error, "none". */
  status?: ReactNode;
  /** At most this many may be on (the tray's 20). */
  maxOn?: number;
  testId: string;
  onToggle: (id: string, on: boolean) => void;
  onSetMany: (ids: readonly string[], on: boolean) => void;
}) {
  const [query, setQuery] = useState('');
  const shown = (items ?? []).filter((item) => matches(item, query));
  const shownAbsent = absent.filter((id) => id.toLowerCase().includes(query.trim().toLowerCase()));
  const toTurnOn = shown.filter((item) => !chosen.includes(item.id)).map((item) => item.id);
  const toTurnOff = [...shown.map((item) => item.id), ...shownAbsent].filter((id) => chosen.includes(id));
  const overMax = maxOn !== undefined && chosen.length + toTurnOn.length > maxOn;
  const atMax = maxOn !== undefined && chosen.length >= maxOn;
  const total = items?.length ?? 0;
  return (
    <fieldset className="radio-group">
      <legend>{legend}</legend>
      <p className="field__hint">{hint}</p>
      {status}
      {total > 0 || absent.length > 0 ? (
        <div className="pick-list__tools">
          <TextField
            label={`Search ${noun}s`}
            type="search"
            value={query}
            onChange={setQuery}
            className="field--narrow"
          />
          <p className="muted" data-testid={`${testId}-count`}>
            On for {chosen.length} of {plural(total, noun)}
            {query.trim() ? ` · ${shown.length + shownAbsent.length} shown` : ''}
            {maxOn !== undefined ? ` · at most ${maxOn}` : ''}
          </p>
          <div className="pick-list__bulk">
            <button
              type="button"
              className="button button--small"
              disabled={saving || toTurnOn.length === 0 || overMax}
              onClick={() => onSetMany(toTurnOn, true)}
            >
              Turn on for {plural(toTurnOn.length, `shown ${noun}`)}
            </button>
            <button
              type="button"
              className="button button--small"
              disabled={saving || toTurnOff.length === 0}
              onClick={() => onSetMany(toTurnOff, false)}
            >
              Turn off for {plural(toTurnOff.length, `shown ${noun}`)}
            </button>
          </div>
        </div>
      ) : null}
      <div className="pick-list" data-testid={`${testId}-list`}>
        {shown.map((item) => {
          const on = chosen.includes(item.id);
          return (
            <CheckboxOption
              key={item.id}
              label={item.name}
              hint={item.hint}
              checked={on}
              disabled={saving || (!on && atMax)}
              onChange={(checked) => onToggle(item.id, checked)}
            />
          );
        })}
        {shownAbsent.map((id) => (
          <CheckboxOption
            key={id}
            label={id}
            hint={absentHint}
            checked
            disabled={saving}
            onChange={(checked) => onToggle(id, checked)}
          />
        ))}
        {query.trim() && shown.length + shownAbsent.length === 0 ? (
          <p className="muted">
            No {noun} matches “{query.trim()}”.
          </p>
        ) : null}
      </div>
    </fieldset>
  );
}
