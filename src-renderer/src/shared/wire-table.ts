import type { WireTable } from '../../../src-shared/contract';

/**
 * The items of a list main sent as a table (columns once, an array of values per item), as objects.
 * `columns` is checked against what this page expects: a main process of another version that sends
 * other columns is an error, not a list of wrong fields.
 */
export function rowsOfTable<Columns extends readonly string[], Values extends readonly unknown[], Row>(
  table: WireTable<Columns, Values>,
  expected: Columns,
  toRow: (values: Values) => Row,
): Row[] {
  if (table.columns.length !== expected.length || table.columns.some((name, i) => name !== expected[i])) {
    throw new Error(`The list's columns are not the ones this page knows (${table.columns.join(', ')}).`);
  }
  return table.rows.map(toRow);
}
