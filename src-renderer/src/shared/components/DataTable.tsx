import { elementScroll, useVirtualizer, type Virtualizer } from '@tanstack/react-virtual';
import {
  memo,
  useCallback,
  useDeferredValue,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type ReactNode,
} from 'react';
import { useDensity } from '../density';
import { naturalCompare } from '../natural-order';

/**
 * A long list as a table: search, sort, multi-select, and only the rows in view in the DOM
 * (`@tanstack/react-virtual`: headless, so the markup stays a real `<table>` with its roles, and it is
 * already a dependency). Shared by the ports and subscriptions screens.
 */
export interface DataColumn<T> {
  id: string;
  header: string;
  cell: (row: T) => ReactNode;
  /** Makes the column sortable. Strings sort naturally (`naturalCompare`), numbers as numbers. */
  sortValue?: (row: T) => string | number | null;
  /** The cell is the row's header (`<th scope="row">`): the row's name for screen readers. */
  rowHeader?: boolean;
  className?: string;
}

type SortDirection = 'ascending' | 'descending';
export interface SortState {
  column: string;
  direction: SortDirection;
}

export interface DataTableProps<T> {
  /** Accessible name of the table (`aria-label`). */
  label: string;
  rows: readonly T[];
  rowKey: (row: T) => string;
  columns: readonly DataColumn<T>[];
  /** Text searched by the search box (lower-cased once per row); no box without it. */
  searchText?: (row: T) => string;
  searchLabel?: string;
  initialSort?: SortState;
  /** Multi-select: the keys selected, and what to do when they change. */
  selected?: ReadonlySet<string>;
  onSelectedChange?: (keys: Set<string>) => void;
  /**
   * Row height in px. Rows are not measured (measuring costs a layout per row while scrolling): keep
   * cells to this height (one or two short lines).
   */
  rowHeight?: number;
  /**
   * Row height in the compact density (Settings → Appearance), where a cell's second line
   * (`.cell-detail`) is hidden and buttons are smaller: one line per row.
   */
  compactRowHeight?: number;
  /** Height of the scroll area in px (default: 70% of the window, via CSS). */
  height?: number;
  /** Rows drawn beyond each edge of the view (default 8): fewer mount faster, more scroll smoother. */
  overscan?: number;
  /** Shown above the table, next to the search (bulk actions). */
  toolbar?: ReactNode;
  /** Shown when the search matches nothing. */
  noMatches?: ReactNode;
  rowClassName?: (row: T) => string | undefined;
  /** The row's name in its checkbox's label (`Select <name>`); the row key without it. */
  rowName?: (row: T) => string;
}

/** Filters and sorts; pure, so that it is tested without a DOM. */
export function visibleRows<T>(
  rows: readonly T[],
  columns: readonly DataColumn<T>[],
  query: string,
  searchText: ((row: T) => string) | undefined,
  sort: SortState | null,
): T[] {
  const needle = query.trim().toLowerCase();
  const words = needle ? needle.split(/\s+/) : [];
  let result =
    words.length && searchText
      ? rows.filter((row) => {
          const text = searchText(row).toLowerCase();
          return words.every((word) => text.includes(word));
        })
      : [...rows];
  const column = sort ? columns.find((candidate) => candidate.id === sort.column) : undefined;
  if (sort && column?.sortValue) {
    const value = column.sortValue;
    const sign = sort.direction === 'ascending' ? 1 : -1;
    const keyed = result.map((row) => ({ row, key: value(row) }));
    keyed.sort((a, b) => {
      // Empty values last whatever the direction: they are "not known", not "smallest".
      if (a.key === null || a.key === '') return b.key === null || b.key === '' ? 0 : 1;
      if (b.key === null || b.key === '') return -1;
      const order =
        typeof a.key === 'number' && typeof b.key === 'number'
          ? a.key - b.key
          : naturalCompare(String(a.key), String(b.key));
      return order * sign;
    });
    result = keyed.map((entry) => entry.row);
  }
  return result;
}

/** One line of text and a small button, with the compact cell padding. */
export const COMPACT_ROW_HEIGHT = 34;

/** In a page with no layout (jsdom, a hidden tab) the scroll area measures 0: draw a first screenful anyway. */
const FALLBACK_RECT = { width: 1024, height: 640 };

/**
 * The scroll area's size from a ResizeObserver only. The library's own observer reads
 * `clientHeight` as it mounts, which forces a synchronous layout of the whole new screen in the
 * middle of React's commit (55 ms of a cold "Ports" click in the list benchmark); the observer's
 * first callback comes after the browser's own layout, in the same frame, so rows are drawn for the
 * first guess (`initialRect`) and corrected before paint if it was wrong.
 */
function observeRectAfterLayout(
  instance: Virtualizer<HTMLDivElement, Element>,
  callback: (rect: { width: number; height: number }) => void,
) {
  const element = instance.scrollElement;
  const view = instance.targetWindow;
  if (!element || !view) return;
  let measured = false;
  const report = () => {
    const { clientWidth: width, clientHeight: height } = element;
    if (height > 0) {
      measured = true;
      callback({ width, height });
    } else if (!measured) {
      callback(FALLBACK_RECT);
    }
    // Hidden after it was measured (a screen being left, or kept): the rows stay sized for the
    // real area, so that showing it again draws them as they were, with no second layout.
  };
  if (!view.ResizeObserver) {
    report();
    return () => undefined;
  }
  const observer = new view.ResizeObserver(report);
  observer.observe(element, { box: 'content-box' });
  return () => observer.disconnect();
}

/**
 * The library's scrolling, minus writes of the top where the area already is: as a table mounts,
 * or a kept screen is shown again, the library writes its offset back to the scroll area, and
 * `scrollTo` forces a synchronous layout of the whole screen (38 ms of a cold "Ports" click in the
 * list benchmark, 29 ms of showing the kept Ports screen again). An offset away from the top is
 * written: a kept screen left scrolled down comes back where it was.
 */
const scrollUnlessAtTop: typeof elementScroll<HTMLDivElement> = (offset, options, instance) => {
  if (offset + (options.adjustments ?? 0) === 0 && (instance.scrollOffset ?? 0) === 0) return;
  elementScroll(offset, options, instance);
};

/** The first guess at the scroll area's size: what the CSS gives it (70% of the window) or `height`. */
function initialRect(height: number | undefined) {
  if (typeof window === 'undefined' || !window.innerHeight) return FALLBACK_RECT;
  return { width: window.innerWidth, height: height ?? Math.round(window.innerHeight * 0.7) };
}

interface DataRowProps<T> {
  row: T;
  rowKey: string;
  index: number;
  columns: readonly DataColumn<T>[];
  rowHeight: number;
  selectable: boolean;
  isSelected: boolean;
  className: string | undefined;
  /** The row's name in its checkbox label (`rowName`, or the key). */
  name: string;
  onToggle: (key: string) => void;
}

/**
 * One row, re-rendered only when its own props change: a selection toggles one row, not all of
 * them, and a parent render (search box, toolbar) leaves the rows alone. The parent keeps
 * `columns` and `onToggle` stable.
 */
function DataRowInner<T>({
  row,
  rowKey: key,
  index,
  columns,
  rowHeight,
  selectable,
  isSelected,
  className,
  name,
  onToggle,
}: DataRowProps<T>) {
  return (
    <tr
      style={{ height: rowHeight }}
      aria-rowindex={index + 2}
      aria-selected={selectable ? isSelected : undefined}
      className={className}
    >
      {selectable ? (
        <td className="data-table__check">
          <input
            type="checkbox"
            aria-label={`Select ${name}`}
            checked={isSelected}
            onChange={() => onToggle(key)}
          />
        </td>
      ) : null}
      {columns.map((column) =>
        column.rowHeader ? (
          <th key={column.id} scope="row" className={column.className}>
            {column.cell(row)}
          </th>
        ) : (
          <td key={column.id} className={column.className}>
            {column.cell(row)}
          </td>
        ),
      )}
    </tr>
  );
}
const DataRow = memo(DataRowInner) as typeof DataRowInner;

export function DataTable<T>(props: DataTableProps<T>) {
  const { label, rows, rowKey, columns, searchText, selected, onSelectedChange } = props;
  const compact = useDensity() === 'compact';
  const rowHeight = compact ? (props.compactRowHeight ?? COMPACT_ROW_HEIGHT) : (props.rowHeight ?? 44);
  const [query, setQuery] = useState('');
  const [sort, setSort] = useState<SortState | null>(props.initialSort ?? null);
  // Typing stays responsive with 1,000 rows: the filter runs on the deferred text.
  const deferredQuery = useDeferredValue(query);
  const shown = useMemo(
    () => visibleRows(rows, columns, deferredQuery, searchText, sort),
    [rows, columns, deferredQuery, searchText, sort],
  );
  const scrollRef = useRef<HTMLDivElement>(null);
  // react-virtual hands back a mutable instance the React Compiler cannot memoise; it skips this
  // component, which is what the library needs.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: shown.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => rowHeight,
    overscan: props.overscan ?? 8,
    initialRect: initialRect(props.height),
    observeElementRect: observeRectAfterLayout,
    scrollToFn: scrollUnlessAtTop,
  });
  // A density change resizes every row: the virtualiser's sizes are read again. Not as it mounts:
  // its sizes are new then, and measuring re-renders the whole table a second time before paint.
  const measuredRowHeight = useRef(rowHeight);
  useLayoutEffect(() => {
    if (measuredRowHeight.current === rowHeight) return;
    measuredRowHeight.current = rowHeight;
    virtualizer.measure();
  }, [virtualizer, rowHeight]);
  const items = virtualizer.getVirtualItems();
  const padTop = items[0]?.start ?? 0;
  const padBottom = items.length ? virtualizer.getTotalSize() - (items.at(-1)?.end ?? 0) : 0;
  const selectable = selected !== undefined && onSelectedChange !== undefined;
  const shownKeys = useMemo(() => shown.map(rowKey), [shown, rowKey]);
  const allShownSelected = selectable && shownKeys.length > 0 && shownKeys.every((key) => selected.has(key));
  const someShownSelected = selectable && shownKeys.some((key) => selected.has(key));
  const columnCount = columns.length + (selectable ? 1 : 0);

  const toggleSort = (id: string) =>
    setSort((current) =>
      current?.column === id
        ? { column: id, direction: current.direction === 'ascending' ? 'descending' : 'ascending' }
        : { column: id, direction: 'ascending' },
    );
  const toggleAll = () => {
    if (!selectable) return;
    const next = new Set(selected);
    for (const key of shownKeys) {
      if (allShownSelected) next.delete(key);
      else next.add(key);
    }
    onSelectedChange(next);
  };
  // Stable for the memoised rows; reads the selection of the last render.
  const latest = useRef({ selected, onSelectedChange });
  useLayoutEffect(() => {
    latest.current = { selected, onSelectedChange };
  });
  const toggleOne = useCallback((key: string) => {
    const { selected: current, onSelectedChange: change } = latest.current;
    if (!current || !change) return;
    const next = new Set(current);
    if (next.has(key)) next.delete(key);
    else next.add(key);
    change(next);
  }, []);

  return (
    <div className="data-table">
      {searchText || props.toolbar ? (
        <div className="data-table__toolbar">
          {searchText ? (
            <input
              type="search"
              className="input data-table__search"
              aria-label={props.searchLabel ?? `Search ${label.toLowerCase()}`}
              placeholder="Search"
              value={query}
              onChange={(event) => setQuery(event.target.value)}
            />
          ) : null}
          <span className="muted small" aria-live="polite">
            {shown.length === rows.length ? `${rows.length} rows` : `${shown.length} of ${rows.length} rows`}
            {selectable && selected.size ? ` · ${selected.size} selected` : ''}
          </span>
          {props.toolbar}
        </div>
      ) : null}
      <div
        ref={scrollRef}
        className="data-table__scroll table-wrap"
        style={props.height ? { height: props.height } : undefined}
      >
        <table className="table" aria-label={label} aria-rowcount={shown.length + 1}>
          <thead>
            <tr>
              {selectable ? (
                <th scope="col" className="data-table__check">
                  <input
                    type="checkbox"
                    aria-label="Select all shown"
                    checked={allShownSelected}
                    ref={(box) => {
                      if (box) box.indeterminate = someShownSelected && !allShownSelected;
                    }}
                    onChange={toggleAll}
                  />
                </th>
              ) : null}
              {columns.map((column) => {
                const direction = sort?.column === column.id ? sort.direction : undefined;
                return (
                  <th key={column.id} scope="col" aria-sort={direction} className={column.className}>
                    {column.sortValue ? (
                      <button
                        type="button"
                        className="data-table__sort"
                        onClick={() => toggleSort(column.id)}
                        aria-label={`Sort by ${column.header}`}
                      >
                        {column.header}
                        <span aria-hidden="true">
                          {direction === 'ascending' ? ' ▲' : direction === 'descending' ? ' ▼' : ''}
                        </span>
                      </button>
                    ) : (
                      column.header
                    )}
                  </th>
                );
              })}
            </tr>
          </thead>
          <tbody>
            {padTop > 0 ? (
              <tr aria-hidden="true" className="data-table__pad" style={{ height: padTop }}>
                <td colSpan={columnCount} />
              </tr>
            ) : null}
            {items.map((item) => {
              const row = shown[item.index] as T;
              const key = shownKeys[item.index] as string;
              const isSelected = selectable && selected.has(key);
              const extra = props.rowClassName?.(row);
              return (
                <DataRow
                  key={key}
                  row={row}
                  rowKey={key}
                  index={item.index}
                  columns={columns}
                  rowHeight={rowHeight}
                  selectable={selectable}
                  isSelected={isSelected}
                  className={[isSelected ? 'is-selected' : '', extra ?? ''].join(' ').trim() || undefined}
                  name={props.rowName?.(row) ?? key}
                  onToggle={toggleOne}
                />
              );
            })}
            {padBottom > 0 ? (
              <tr aria-hidden="true" className="data-table__pad" style={{ height: padBottom }}>
                <td colSpan={columnCount} />
              </tr>
            ) : null}
          </tbody>
        </table>
        {shown.length === 0 && rows.length > 0
          ? (props.noMatches ?? <p className="muted">No matches.</p>)
          : null}
      </div>
    </div>
  );
}
