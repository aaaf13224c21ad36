import { observeElementRect, useVirtualizer, type Virtualizer } from '@tanstack/react-virtual';
import { useRef, type ReactNode } from 'react';

export interface VirtualColumn<T> {
  id: string;
  header: ReactNode;
  /** CSS grid track (`minmax(12rem, 2fr)`). */
  width: string;
  cell: (row: T) => ReactNode;
  /** The row's name for screen readers (one column per table). */
  rowHeader?: boolean;
  numeric?: boolean;
}

interface VirtualTableProps<T> {
  label: string;
  rows: readonly T[];
  columns: readonly VirtualColumn<T>[];
  rowKey: (row: T) => string;
  /** Fixed row height in pixels: rows are laid out without measuring, which keeps 5,000 rows cheap. */
  rowHeight?: number;
  /** Height of the scrolling area. */
  height?: string;
}

/** Used until the browser has measured the viewport (and in jsdom, which never lays out). */
const FALLBACK_VIEWPORT = 640;

/**
 * A table whose body renders only the rows in view (TanStack Virtual: maintained, headless, small),
 * laid out as an ARIA grid of divs because a virtualised `<tbody>` cannot be absolutely positioned.
 * `aria-rowcount` and `aria-rowindex` tell assistive technology the full size.
 */
export function VirtualTable<T>({
  label,
  rows,
  columns,
  rowKey,
  rowHeight = 52,
  height = '60vh',
}: VirtualTableProps<T>) {
  const scrollRef = useRef<HTMLDivElement>(null);
  // The virtualizer hands out fresh functions on every scroll; the React Compiler must not memoise
  // this component (it already skips it), and rows are cheap to render at 52 px each.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer: Virtualizer<HTMLDivElement, Element> = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => rowHeight,
    overscan: 8,
    initialRect: { width: 0, height: FALLBACK_VIEWPORT },
    observeElementRect: (instance, callback) =>
      observeElementRect(instance, (rect) =>
        callback(rect.height > 0 ? rect : { width: rect.width, height: FALLBACK_VIEWPORT }),
      ),
  });
  const template = columns.map((column) => column.width).join(' ');
  return (
    <div className="vtable" role="table" aria-label={label} aria-rowcount={rows.length + 1}>
      <div role="rowgroup" className="vtable__head">
        <div role="row" aria-rowindex={1} className="vtable__row" style={{ gridTemplateColumns: template }}>
          {columns.map((column) => (
            <div
              key={column.id}
              role="columnheader"
              className={`vtable__cell${column.numeric ? ' numeric' : ''}`}
            >
              {column.header}
            </div>
          ))}
        </div>
      </div>
      <div ref={scrollRef} className="vtable__scroll" style={{ maxHeight: height }}>
        <div role="rowgroup" style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
          {virtualizer.getVirtualItems().map((item) => {
            const row = rows[item.index] as T;
            return (
              <div
                key={rowKey(row)}
                role="row"
                aria-rowindex={item.index + 2}
                className="vtable__row"
                style={{
                  gridTemplateColumns: template,
                  height: rowHeight,
                  transform: `translateY(${item.start}px)`,
                }}
              >
                {columns.map((column) => (
                  <div
                    key={column.id}
                    role={column.rowHeader ? 'rowheader' : 'cell'}
                    className={`vtable__cell${column.numeric ? ' numeric' : ''}`}
                  >
                    {column.cell(row)}
                  </div>
                ))}
              </div>
            );
          })}
        </div>
      </div>
    </div>
  );
}
