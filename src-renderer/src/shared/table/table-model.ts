import {
  columnFacetingFeature,
  columnFilteringFeature,
  constructTable,
  createFacetedRowModel,
  createFacetedUniqueValues,
  createFilteredRowModel,
  createSortedRowModel,
  rowSortingFeature,
  tableFeatures,
  type ColumnDef,
  type Row,
  type SortFn,
} from '@tanstack/table-core';
import { storeReactivityBindings } from '@tanstack/table-core/store-reactivity-bindings';
import type { ReactNode } from 'react';
import { naturalCompare } from '../natural-order';

/**
 * The one model behind every list's table: TanStack Table (headless: filters, faceted counts and
 * sorting over the whole list; the markup, the virtualised rows and the keyboard stay ours). A
 * list declares its columns and its filters; the model answers the rows shown, in order, and each
 * filter's choices with how many rows each would give.
 */

type SortValue = string | number | null;

export interface DataColumn<T> {
  id: string;
  header: string;
  cell: (row: T) => ReactNode;
  /** Makes the column sortable. Strings sort naturally (`naturalCompare`), numbers as numbers. */
  sortValue?: (row: T) => SortValue;
  /** The cell as text in a CSV export (and its tooltip where the cell is cut); `sortValue` when a string. */
  text?: (row: T) => string;
  /** The cell is the row's header (`<th scope="row">`): the row's name for screen readers. Never hidden. */
  rowHeader?: boolean;
  /** Cannot be hidden from the column chooser (row actions). */
  alwaysShown?: boolean;
  /** Hidden until the user shows it from the column chooser. */
  hiddenByDefault?: boolean;
  /** Left out of the CSV export (buttons). */
  noExport?: boolean;
  className?: string;
}

/** A filter with faceted counts: each row has one value (or none) for it. */
export interface DataFilter<T> {
  id: string;
  label: string;
  value: (row: T) => string | null;
  /** The order its choices are listed in (default: natural order of the values). */
  order?: readonly string[];
}

type SortDirection = 'ascending' | 'descending';
export interface SortState {
  column: string;
  direction: SortDirection;
}

/** What a view of a list is: the part of a saved view the model reads. */
export interface TableQuery {
  search: string;
  /** Filter id -> the values kept (empty or absent: no filter). */
  filters: Readonly<Record<string, readonly string[]>>;
  sort: SortState | null;
}

export interface FacetChoice {
  value: string;
  count: number;
}

const features = tableFeatures({
  // Plain TanStack Store atoms: the model is built and read in one go, outside React's render cycle.
  coreReactivityFeature: storeReactivityBindings(),
  columnFilteringFeature,
  filteredRowModel: createFilteredRowModel(),
  columnFacetingFeature,
  facetedRowModel: createFacetedRowModel(),
  facetedUniqueValues: createFacetedUniqueValues(),
  rowSortingFeature,
  sortedRowModel: createSortedRowModel(),
});
type Features = typeof features;
/** What TanStack sees of a row (it wants an object type); the list's own type `T` outside. */
type AnyRow = Record<string, unknown>;

const SEARCH_COLUMN = '__search';
const filterColumnId = (id: string) => `filter:${id}`;

const isEmpty = (value: unknown) => value === null || value === undefined || value === '';

/** Ascending only (the table turns it for descending); empty values are kept last by `sortUndefined`. */
const compareValues: SortFn<Features, AnyRow> = (a, b, columnId) => {
  const left = a.getValue<SortValue>(columnId);
  const right = b.getValue<SortValue>(columnId);
  if (typeof left === 'number' && typeof right === 'number') return left - right;
  return naturalCompare(String(left), String(right));
};

function keepIn(row: Row<Features, AnyRow>, columnId: string, kept: readonly string[]): boolean {
  const value = row.getValue<string | null>(columnId);
  return value !== null && kept.includes(value);
}

function matchesWords(row: Row<Features, AnyRow>, columnId: string, words: readonly string[]): boolean {
  const text = row.getValue<string>(columnId);
  return words.every((word) => text.includes(word));
}

/** The search's words, lower-cased; none for blank text. */
function searchWords(search: string): string[] {
  const needle = search.trim().toLowerCase();
  return needle ? needle.split(/\s+/) : [];
}

export interface TableModelInput<T> {
  rows: readonly T[];
  rowKey: (row: T) => string;
  columns: readonly DataColumn<T>[];
  filters?: readonly DataFilter<T>[];
  searchText?: (row: T) => string;
}

export interface TableModelResult<T> {
  /** The rows shown: searched, filtered, sorted. */
  shown: T[];
  /** Each filter's choices over the rows the other filters and the search keep, with their counts. */
  facets: (filterId: string) => FacetChoice[];
}

/**
 * The rows a list shows for a query, and its filters' faceted counts. Pure (no DOM), so the
 * benchmark and the tests call it as the table does.
 */
export function buildTableModel<T>(input: TableModelInput<T>, query: TableQuery): TableModelResult<T> {
  const { rows, columns, filters = [], searchText } = input;
  const defs: ColumnDef<Features, AnyRow>[] = [
    ...columns.map((column): ColumnDef<Features, AnyRow> => ({
      id: column.id,
      accessorFn: (row: AnyRow) => {
        const value = column.sortValue?.(row as T);
        // Undefined is "not known": `sortUndefined: 'last'` puts it last in both directions.
        return isEmpty(value) ? undefined : value;
      },
      enableSorting: column.sortValue !== undefined,
      enableColumnFilter: false,
      sortUndefined: 'last',
      sortFn: compareValues,
    })),
    ...filters.map((filter): ColumnDef<Features, AnyRow> => ({
      id: filterColumnId(filter.id),
      accessorFn: (row: AnyRow) => filter.value(row as T),
      enableSorting: false,
      filterFn: keepIn as never,
    })),
  ];
  if (searchText)
    defs.push({
      id: SEARCH_COLUMN,
      accessorFn: (row: AnyRow) => searchText(row as T).toLowerCase(),
      enableSorting: false,
      filterFn: matchesWords as never,
    });
  const columnFilters = [
    ...filters
      .filter((filter) => (query.filters[filter.id]?.length ?? 0) > 0)
      .map((filter) => ({ id: filterColumnId(filter.id), value: query.filters[filter.id] })),
  ];
  const words = searchWords(query.search);
  if (searchText && words.length) columnFilters.push({ id: SEARCH_COLUMN, value: words });
  const sortable = query.sort && columns.find((column) => column.id === query.sort?.column)?.sortValue;
  let table: ReturnType<typeof constructTable<Features, AnyRow>> | null = null;
  // Built when first asked for: a list with no search, filter or sort (every list as it opens) shows
  // its rows as they are, and the facets are counted only when a filter's choices are opened.
  const model = () =>
    (table ??= constructTable<Features, AnyRow>({
      features,
      columns: defs,
      data: rows as unknown as AnyRow[],
      getRowId: (row) => input.rowKey(row as T),
      state: {
        columnFilters,
        sorting:
          sortable && query.sort
            ? [{ id: query.sort.column, desc: query.sort.direction === 'descending' }]
            : [],
      },
    }));
  const plain = columnFilters.length === 0 && !sortable;
  return {
    shown: plain
      ? [...rows]
      : model()
          .getRowModel()
          .rows.map((row) => row.original as T),
    facets: (filterId) => {
      const filter = filters.find((candidate) => candidate.id === filterId);
      if (!filter) return [];
      const counts = model().getColumn(filterColumnId(filterId))?.getFacetedUniqueValues() ?? new Map();
      const choices: FacetChoice[] = [];
      for (const [value, count] of counts as Map<unknown, number>) {
        if (typeof value === 'string' && value !== '') choices.push({ value, count });
      }
      // A chosen value the other filters leave no row for is still listed (at 0), so it can be unticked.
      for (const kept of query.filters[filterId] ?? [])
        if (!choices.some((choice) => choice.value === kept)) choices.push({ value: kept, count: 0 });
      const order = filter.order;
      return choices.sort((a, b) => {
        if (order) {
          const left = order.indexOf(a.value);
          const right = order.indexOf(b.value);
          if (left !== right) return (left < 0 ? order.length : left) - (right < 0 ? order.length : right);
        }
        return naturalCompare(a.value, b.value);
      });
    },
  };
}

/** One CSV field: quoted when it holds a separator, a quote or a line break; formula starts defused. */
function csvField(text: string): string {
  // A spreadsheet runs a cell starting with = + - @ as a formula: a label is never one.
  const safe = /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** The cell of a column as text: its `text`, else its sort value when that is a string. */
function cellText<T>(column: DataColumn<T>, row: T): string {
  if (column.text) return column.text(row);
  const value = column.sortValue?.(row);
  return typeof value === 'string' ? value : '';
}

/** The rows and columns given as CSV (RFC 4180: CRLF line ends, a header line). */
export function toCsv<T>(rows: readonly T[], columns: readonly DataColumn<T>[]): string {
  const exported = columns.filter((column) => !column.noExport);
  const lines = [exported.map((column) => csvField(column.header)).join(',')];
  for (const row of rows) lines.push(exported.map((column) => csvField(cellText(column, row))).join(','));
  return `${lines.join('\r\n')}\r\n`;
}

const DAY_MS = 86_400_000;
/** Expiry windows in the order the filter lists them. */
export const EXPIRY_WINDOWS = [
  'Expired',
  'Within 2 days',
  'Within 7 days',
  'Within 30 days',
  'Later',
] as const;

/** Which expiry window `iso` falls in, seen at `now` (ms). */
export function expiryWindow(iso: string | null, now: number): string | null {
  if (!iso) return null;
  const left = Date.parse(iso) - now;
  if (Number.isNaN(left)) return null;
  if (left <= 0) return 'Expired';
  if (left <= 2 * DAY_MS) return 'Within 2 days';
  if (left <= 7 * DAY_MS) return 'Within 7 days';
  if (left <= 30 * DAY_MS) return 'Within 30 days';
  return 'Later';
}
