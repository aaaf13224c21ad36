import type { WireTable } from '../../../src-shared/contract';

/** The items of a list answer sent as a table, as objects named by its columns (for assertions). */
export function tableRows<Columns extends readonly string[], Values extends readonly unknown[]>(
  table: WireTable<Columns, Values>,
): Record<Columns[number], Values[number]>[] {
  return table.rows.map(
    (values) =>
      Object.fromEntries(table.columns.map((column, index) => [column, values[index]])) as Record<
        Columns[number],
        Values[number]
      >,
  );
}
