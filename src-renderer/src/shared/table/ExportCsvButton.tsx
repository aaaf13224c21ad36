import { useState } from 'react';
import { SaveOutcomeMessage } from '../components/SaveOutcomeMessage';
import type { SaveOutcome, SaveTextFile } from '../save-outcome';
import { toCsv, type DataColumn } from './table-model';

interface ExportCsvButtonProps<T> {
  /** What is shown: searched, filtered and sorted, in the columns shown. */
  rows: readonly T[];
  columns: readonly DataColumn<T>[];
  fileName: string;
  /** How the page saves a file: the app store's `saveTextFile`, handed down by the list. */
  save: SaveTextFile;
}

/** "Export CSV": the rows the table shows now (after its search and filters), as the table orders them. */
export function ExportCsvButton<T>({ rows, columns, fileName, save }: ExportCsvButtonProps<T>) {
  const [outcome, setOutcome] = useState<{ result: SaveOutcome; rows: number } | null>(null);
  return (
    <>
      <button
        type="button"
        className="button button--small"
        onClick={() => {
          const content = toCsv(rows, columns);
          const count = rows.length;
          void save({ fileName: `${fileName}.csv`, content, type: 'text/csv' }).then((result) =>
            setOutcome({ result, rows: count }),
          );
        }}
      >
        Export CSV <span className="visually-hidden">of the {rows.length} rows shown</span>
      </button>
      {outcome ? (
        <SaveOutcomeMessage
          outcome={outcome.result}
          failedTitle="Could not export the list"
          detail={`${outcome.rows} rows.`}
        />
      ) : null}
    </>
  );
}
