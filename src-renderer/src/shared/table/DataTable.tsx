import { elementScroll, useVirtualizer, type Virtualizer } from '@tanstack/react-virtual';
import {
  memo,
  useCallback,
  useDeferredValue,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type KeyboardEvent,
  type MouseEvent,
  type ReactNode,
} from 'react';
import { useDensity } from '../density';
import type { SaveTextFile } from '../save-outcome';
import './data-table.css';
import { ColumnChooser } from './ColumnChooser';
import { TableFilters } from './TableFilters';
import { SavedViews } from './SavedViews';
import { ExportCsvButton } from './ExportCsvButton';
import { useTableViews } from './table-views-store';
import {
  buildTableModel,
  type DataColumn,
  type DataFilter,
  type SortState,
  type TableQuery,
} from './table-model';

export type { DataColumn, DataFilter } from './table-model';

/**
 * A long list as a table: labelled search, filters with faceted counts, sort by any header, a
 * column chooser, saved views, CSV export of what is shown, multi-select (Shift+click for a range),
 * the keyboard (arrows move, Enter opens, Space selects, `/` searches), and only the rows in view in
 * the DOM (`@tanstack/react-virtual`: headless, so the markup stays a real `<table>` with its roles).
 * Filtering, facets and sorting are TanStack Table's (`table/table-model.ts`). Every list uses it.
 */
export interface DataTableProps<T> {
  /** Accessible name of the table (`aria-label`). */
  label: string;
  /** The list's name for its saved views and column choice (kept in settings); none without it. */
  listId?: string;
  rows: readonly T[];
  rowKey: (row: T) => string;
  columns: readonly DataColumn<T>[];
  /** Filters with faceted counts, above the table. */
  filters?: readonly DataFilter<T>[];
  /** Text searched by the search box (lower-cased once per row); no box without it. */
  searchText?: (row: T) => string;
  searchLabel?: string;
  initialSort?: SortState;
  /** Multi-select: the keys selected, and what to do when they change. */
  selected?: ReadonlySet<string>;
  onSelectedChange?: (keys: Set<string>) => void;
  /** Enter on a row (or a double click): open it. */
  onOpen?: (row: T) => void;
  /**
   * The CSV export of the rows shown: its file name (without `.csv`) and how the page saves a file
   * (the app store's `saveTextFile`: shared code does not import features); no export without it.
   */
  exportCsv?: { fileName: string; save: SaveTextFile };
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
  /** Height of the scroll area in px (default: the rest of the screen, via CSS). */
  height?: number;
  /** Rows drawn beyond each edge of the view (default 8): fewer mount faster, more scroll smoother. */
  overscan?: number;
  /** A line above the table, under the search (bulk actions); a function gets the rows shown. */
  toolbar?: ReactNode | ((shown: readonly T[]) => ReactNode);
  /** More buttons beside Columns, Views and Export (e.g. "Test all"). */
  tools?: ReactNode;
  /** Told the rows shown (searched, filtered, sorted) after each change: "Test all shown". */
  onShownChange?: (shown: readonly T[]) => void;
  /** Shown when the search matches nothing. */
  noMatches?: ReactNode;
  rowClassName?: (row: T) => string | undefined;
  /** The row's name in its checkbox's label (`Select <name>`); the row key without it. */
  rowName?: (row: T) => string;
}

/** One line of text and a small button, with the compact cell padding. */
export const COMPACT_ROW_HEIGHT = 26;

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

/** The first guess at the scroll area's size: what the CSS gives it (about 70% of the window) or `height`. */
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
  /** The row the keyboard is on: the one row in the tab order. */
  isActive: boolean;
  className: string | undefined;
  /** The row's name in its checkbox label (`rowName`, or the key). */
  name: string;
  onToggle: (key: string, index: number, range: boolean) => void;
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
  isActive,
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
      data-index={index}
      tabIndex={isActive ? 0 : -1}
    >
      {selectable ? (
        <td className="data-table__check">
          <input
            type="checkbox"
            aria-label={`Select ${name}`}
            checked={isSelected}
            tabIndex={-1}
            // The click, not the change: Shift+click selects the range from the last row clicked.
            onClick={(event: MouseEvent<HTMLInputElement>) => onToggle(key, index, event.shiftKey)}
            onChange={ignoreChange}
          />
        </td>
      ) : null}
      {columns.map((column) => {
        const title = column.text ? column.text(row) : undefined;
        return column.rowHeader ? (
          <th key={column.id} scope="row" className={column.className} title={title}>
            {column.cell(row)}
          </th>
        ) : (
          <td key={column.id} className={column.className} title={title}>
            {column.cell(row)}
          </td>
        );
      })}
    </tr>
  );
}
const DataRow = memo(DataRowInner) as typeof DataRowInner;

/** The checkbox's state is the selection's: its click toggles it (`onToggle`), not its change. */
const ignoreChange = () => undefined;

let modelWarmed = false;

/**
 * Once per page, when the browser is idle after a table is shown: one sort, one filter and their
 * facet counts over its rows, thrown away. A list opens without running the table model (no search, filter or sort:
 * its rows as they are), so the first filter or sort click would otherwise also pay for compiling
 * the model's code (about twice the time of a later click in the list benchmark).
 */
function useWarmModelWhenIdle<T>(
  rows: readonly T[],
  rowKey: (row: T) => string,
  columns: readonly DataColumn<T>[],
  filters: readonly DataFilter<T>[],
  searchText: ((row: T) => string) | undefined,
) {
  const latest = useRef({ rows, rowKey, columns, filters, searchText });
  useLayoutEffect(() => {
    latest.current = { rows, rowKey, columns, filters, searchText };
  });
  useEffect(() => {
    if (modelWarmed || typeof window.requestIdleCallback !== 'function') return;
    const handle = window.requestIdleCallback(
      () => {
        if (modelWarmed) return;
        modelWarmed = true;
        const input = latest.current;
        const sortable = input.columns.find((column) => column.sortValue);
        const model = buildTableModel(input, {
          search: '',
          filters: {},
          sort: sortable ? { column: sortable.id, direction: 'descending' } : null,
        });
        const filter = input.filters[0];
        const value = filter ? model.facets(filter.id)[0]?.value : undefined;
        if (filter && value !== undefined)
          buildTableModel(input, { search: '', filters: { [filter.id]: [value] }, sort: null }).facets(
            filter.id,
          );
      },
      { timeout: 5000 },
    );
    return () => window.cancelIdleCallback(handle);
  }, []);
}

/** Keys a row takes from the keyboard, and whether the target is a control that wants them itself. */
function ownsKey(target: EventTarget, key: string): boolean {
  if (!(target instanceof HTMLElement) || target.tagName === 'TR') return false;
  if (key === 'Enter' || key === ' ') return true;
  return target instanceof HTMLInputElement && target.type !== 'checkbox';
}

const NO_FILTERS: readonly DataFilter<never>[] = [];

export function DataTable<T>(props: DataTableProps<T>) {
  const { label, rows, rowKey, searchText, selected, onSelectedChange, listId } = props;
  const filters = (props.filters ?? NO_FILTERS) as readonly DataFilter<T>[];
  const compact = useDensity() === 'compact';
  const rowHeight = compact ? (props.compactRowHeight ?? COMPACT_ROW_HEIGHT) : (props.rowHeight ?? 44);
  const views = useTableViews(listId);
  const [query, setQuery] = useState<TableQuery>(() => ({
    search: '',
    filters: {},
    sort: props.initialSort ?? null,
  }));
  const [hidden, setHidden] = useState<readonly string[]>(() =>
    props.columns.filter((column) => column.hiddenByDefault).map((column) => column.id),
  );
  const columns = useMemo(
    () => props.columns.filter((column) => column.rowHeader || !hidden.includes(column.id)),
    [props.columns, hidden],
  );
  // Typing stays responsive with 1,000 rows: the search runs on the deferred text. A filter or a
  // sort (one click) applies at once: deferring it would put a frame between the click and the rows.
  const deferredSearch = useDeferredValue(query.search);
  const modelQuery = useMemo(
    () => ({ search: deferredSearch, filters: query.filters, sort: query.sort }),
    [deferredSearch, query.filters, query.sort],
  );
  const model = useMemo(
    () => buildTableModel({ rows, rowKey, columns: props.columns, filters, searchText }, modelQuery),
    [rows, rowKey, props.columns, filters, searchText, modelQuery],
  );
  useWarmModelWhenIdle(rows, rowKey, props.columns, filters, searchText);
  const shown = model.shown;
  const { onShownChange } = props;
  useEffect(() => onShownChange?.(shown), [shown, onShownChange]);
  const scrollRef = useRef<HTMLDivElement>(null);
  const searchRef = useRef<HTMLInputElement>(null);
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
  const someShownSelected = selectable && !allShownSelected && shownKeys.some((key) => selected.has(key));
  const columnCount = columns.length + (selectable ? 1 : 0);
  const [active, setActive] = useState(0);
  const activeIndex = Math.min(active, Math.max(shown.length - 1, 0));
  const focusWanted = useRef(false);

  const toggleSort = (id: string) =>
    setQuery((current) => ({
      ...current,
      sort:
        current.sort?.column === id
          ? { column: id, direction: current.sort.direction === 'ascending' ? 'descending' : 'ascending' }
          : { column: id, direction: 'ascending' },
    }));
  const toggleAll = () => {
    if (!selectable) return;
    const next = new Set(selected);
    for (const key of shownKeys) {
      if (allShownSelected) next.delete(key);
      else next.add(key);
    }
    onSelectedChange(next);
  };
  // Stable for the memoised rows; reads the selection and the rows of the last render.
  const latest = useRef({ selected, onSelectedChange, shownKeys });
  useLayoutEffect(() => {
    latest.current = { selected, onSelectedChange, shownKeys };
  });
  const anchor = useRef<number | null>(null);
  const toggleOne = useCallback((key: string, index: number, range: boolean) => {
    const { selected: current, onSelectedChange: change, shownKeys: keys } = latest.current;
    if (!current || !change) return;
    const next = new Set(current);
    if (range && anchor.current !== null) {
      // The range takes the state of the row the range starts from.
      const from = Math.min(anchor.current, index);
      const to = Math.max(anchor.current, index);
      const on = current.has(keys[anchor.current] ?? '');
      for (const rangeKey of keys.slice(from, to + 1)) {
        if (on) next.add(rangeKey);
        else next.delete(rangeKey);
      }
    } else if (next.has(key)) next.delete(key);
    else next.add(key);
    anchor.current = index;
    change(next);
  }, []);

  const moveTo = (index: number) => {
    const target = Math.max(0, Math.min(shown.length - 1, index));
    setActive(target);
    focusWanted.current = true;
    virtualizer.scrollToIndex(target, { align: 'auto' });
  };
  // After a move, the row drawn for the new index takes focus (it may have just been mounted).
  useEffect(() => {
    if (!focusWanted.current) return;
    focusWanted.current = false;
    scrollRef.current?.querySelector<HTMLElement>(`tr[data-index="${activeIndex}"]`)?.focus();
  });

  const onBodyKeyDown = (event: KeyboardEvent<HTMLTableSectionElement>) => {
    if (ownsKey(event.target, event.key)) return;
    const page = Math.max(1, Math.floor((scrollRef.current?.clientHeight ?? 400) / rowHeight) - 1);
    // From the row a control the key was pressed in sits in (a row's button reached with Tab is not
    // the tab stop); from the tab stop when the key is on a row itself.
    const target = event.target as HTMLElement;
    const inRow = target.tagName === 'TR' ? undefined : target.closest?.('tr')?.dataset.index;
    const from = inRow === undefined ? activeIndex : Number(inRow);
    const moves: Record<string, number> = {
      ArrowDown: from + 1,
      ArrowUp: from - 1,
      PageDown: from + page,
      PageUp: from - page,
      Home: 0,
      End: shown.length - 1,
    };
    const to = moves[event.key];
    if (to !== undefined) {
      event.preventDefault();
      moveTo(to);
      return;
    }
    const row = shown[activeIndex];
    if (row === undefined) return;
    if (event.key === 'Enter' && props.onOpen) {
      event.preventDefault();
      props.onOpen(row);
    } else if (event.key === ' ' && selectable) {
      event.preventDefault();
      toggleOne(shownKeys[activeIndex] ?? '', activeIndex, event.shiftKey);
    }
  };
  // A row becomes the table's tab stop when it takes the focus itself (arrows) or a click lands in
  // it; Tab through a row's buttons leaves the stop where it is, or the stop would move behind the
  // focus each time and Tab could never reach a row.
  const clickInBody = useRef(false);
  const onBodyPointerDown = () => {
    clickInBody.current = true;
    // The focus a click gives comes in the same task as the press.
    window.setTimeout(() => {
      clickInBody.current = false;
    }, 0);
  };
  const onBodyFocus = (event: { target: EventTarget }) => {
    const target = event.target as HTMLElement;
    if (target.tagName !== 'TR' && !clickInBody.current) return;
    const index = target.closest?.('tr')?.dataset.index;
    if (index !== undefined && Number(index) !== activeIndex) setActive(Number(index));
  };

  // `/` focuses the search while the list is on screen (not while typing in a field).
  useEffect(() => {
    if (!searchText) return;
    const onKey = (event: globalThis.KeyboardEvent) => {
      if (event.key !== '/' || event.ctrlKey || event.metaKey || event.altKey) return;
      const target = event.target as HTMLElement | null;
      if (target?.closest('input, textarea, select, [contenteditable="true"]')) return;
      const box = searchRef.current;
      // A screen being left is hidden a frame before its effects stop: it does not take the key.
      if (!box || box.closest('[hidden]')) return;
      event.preventDefault();
      box.focus();
      box.select();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [searchText]);

  const toolbar = typeof props.toolbar === 'function' ? props.toolbar(shown) : props.toolbar;
  const filtered = shown.length !== rows.length;
  const searchId = `${listId ?? label}-search`.replace(/\W+/g, '-');
  return (
    <div className="data-table">
      <div className="data-table__toolbar">
        {searchText ? (
          <span className="data-table__search-field">
            <label htmlFor={searchId} className="data-table__search-label">
              {props.searchLabel ?? `Search ${label.toLowerCase()}`}
            </label>
            <input
              id={searchId}
              ref={searchRef}
              type="search"
              className="input data-table__search"
              placeholder="Type to filter · /"
              value={query.search}
              aria-keyshortcuts="/"
              onChange={(event) => setQuery((current) => ({ ...current, search: event.target.value }))}
            />
          </span>
        ) : null}
        {filters.length ? (
          <TableFilters
            filters={filters}
            chosen={query.filters}
            facets={model.facets}
            onChange={(filterId, values) =>
              setQuery((current) => ({ ...current, filters: { ...current.filters, [filterId]: values } }))
            }
          />
        ) : null}
        <span className="muted small data-table__count" aria-live="polite" data-testid="row-count">
          {filtered ? `${shown.length} of ${rows.length} rows` : `${rows.length} rows`}
          {selectable && selected.size ? ` · ${selected.size} selected` : ''}
        </span>
      </div>
      {/* A line of its own, always there: bulk actions appearing (a selection, a filter) or a filter's
          value widening its button move nothing below, so the rows keep their place and size. */}
      <div className="data-table__bulk">
        {toolbar}
        <span className="data-table__tools">
          {filtered ? (
            <button
              type="button"
              className="button button--small button--quiet"
              onClick={() => setQuery((current) => ({ ...current, search: '', filters: {} }))}
            >
              Clear filters
            </button>
          ) : null}
          {props.tools}
          <ColumnChooser
            columns={props.columns}
            hidden={hidden}
            onChange={(next) => setHidden(next)}
            tableLabel={label}
          />
          {listId ? (
            <SavedViews
              views={views.list}
              current={{
                search: query.search,
                filters: Object.fromEntries(
                  Object.entries(query.filters).map(([id, values]) => [id, [...values]]),
                ),
                sort: query.sort,
                hidden: [...hidden],
              }}
              onApply={(view) => {
                setQuery({ search: view.search, filters: view.filters, sort: view.sort });
                anchor.current = null;
                setHidden(view.hidden);
              }}
              onSave={views.save}
              onDelete={views.remove}
              onOpen={() => void views.load()}
              error={views.error}
            />
          ) : null}
          {props.exportCsv ? (
            <ExportCsvButton
              rows={shown}
              columns={columns}
              fileName={props.exportCsv.fileName}
              save={props.exportCsv.save}
            />
          ) : null}
        </span>
      </div>
      <div
        ref={scrollRef}
        className="data-table__scroll"
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
                      if (box) box.indeterminate = someShownSelected;
                    }}
                    onChange={toggleAll}
                  />
                </th>
              ) : null}
              {columns.map((column) => {
                const direction = query.sort?.column === column.id ? query.sort.direction : undefined;
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
          <tbody onKeyDown={onBodyKeyDown} onFocus={onBodyFocus} onPointerDown={onBodyPointerDown}>
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
                  isActive={item.index === activeIndex}
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
          ? (props.noMatches ?? <p className="muted data-table__empty">No matches.</p>)
          : null}
      </div>
    </div>
  );
}
