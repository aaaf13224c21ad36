import type { DataColumn } from './table-model';
import { Popover } from './Popover';

interface ColumnChooserProps<T> {
  columns: readonly DataColumn<T>[];
  hidden: readonly string[];
  onChange: (hidden: string[]) => void;
  tableLabel: string;
}

/** "Columns": a checkbox per column that can be hidden (the row's name and its actions cannot). */
export function ColumnChooser<T>({ columns, hidden, onChange, tableLabel }: ColumnChooserProps<T>) {
  const choosable = columns.filter((column) => !column.rowHeader && !column.alwaysShown);
  if (!choosable.length) return null;
  return (
    <Popover
      summary={
        <>
          Columns{hidden.length ? ` (${hidden.length} hidden)` : ''}
          <span aria-hidden="true"> ▾</span>
        </>
      }
      summaryLabel={`Choose the columns of ${tableLabel.toLowerCase()}`}
    >
      {() => (
        <fieldset className="table-filters__choices">
          <legend>Columns shown</legend>
          {choosable.map((column) => (
            <label key={column.id} className="table-filters__choice">
              <input
                type="checkbox"
                checked={!hidden.includes(column.id)}
                onChange={(event) =>
                  onChange(
                    event.target.checked ? hidden.filter((id) => id !== column.id) : [...hidden, column.id],
                  )
                }
              />
              <span className="table-filters__value">{column.header}</span>
            </label>
          ))}
        </fieldset>
      )}
    </Popover>
  );
}
