import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { Activity, Profiler, useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DataTable, type DataColumn } from '../../../../src-renderer/src/shared/table/DataTable';
import { setDensity } from '../../../../src-renderer/src/shared/density';
import type { SaveTextFile } from '../../../../src-renderer/src/shared/save-outcome';
import { choiceTexts, openFilter, openPopover } from '../../support/table-popovers';

interface Item {
  id: string;
  name: string;
  size: number | null;
}

const columns: DataColumn<Item>[] = [
  { id: 'name', header: 'Name', rowHeader: true, sortValue: (item) => item.name, cell: (item) => item.name },
  { id: 'size', header: 'Size', sortValue: (item) => item.size, cell: (item) => String(item.size ?? '—') },
];
const items = (count: number): Item[] =>
  Array.from({ length: count }, (_, index) => ({
    id: `id_${index}`,
    name: `Item ${index}`,
    size: index % 5 === 0 ? null : (index * 7) % 13,
  }));
const searchText = (item: Item) => item.name;

function Harness({ rows }: { rows: Item[] }) {
  const [selected, setSelected] = useState<Set<string>>(new Set());
  return (
    <DataTable
      label="Things"
      rows={rows}
      rowKey={(item) => item.id}
      columns={columns}
      searchText={searchText}
      selected={selected}
      onSelectedChange={setSelected}
    />
  );
}

const bodyRows = () =>
  within(screen.getByRole('table', { name: 'Things' }))
    .getAllByRole('row')
    .filter((row) => row.getAttribute('aria-hidden') !== 'true')
    .slice(1);

describe('DataTable', () => {
  afterEach(cleanup);

  it('puts only a screenful of 1,000 rows in the DOM', () => {
    render(<Harness rows={items(1000)} />);
    const count = bodyRows().length;
    expect(count).toBeGreaterThan(5);
    expect(count).toBeLessThan(60);
    expect(screen.getByText('1000 rows')).toBeTruthy();
  });

  it('searches and sorts from the header, saying the direction', () => {
    render(<Harness rows={items(30)} />);
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search things' }), {
      target: { value: 'item 1' },
    });
    expect(screen.getByText('12 of 30 rows')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Sort by Name' }));
    fireEvent.click(screen.getByRole('button', { name: 'Sort by Name' }));
    expect(screen.getByRole('columnheader', { name: /Name/ }).getAttribute('aria-sort')).toBe('descending');
    expect(bodyRows()[0]?.textContent).toContain('Item 21');
    expect(bodyRows()).toHaveLength(12);
  });

  it('selects rows one by one and all shown ones at once', () => {
    render(<Harness rows={items(30)} />);
    fireEvent.click(screen.getByRole('checkbox', { name: 'Select id_3' }));
    expect(screen.getByText(/1 selected/)).toBeTruthy();
    fireEvent.change(screen.getByRole('searchbox'), { target: { value: 'item 2' } });
    fireEvent.click(screen.getByRole('checkbox', { name: 'Select all shown' }));
    // The 11 shown (Item 2, 12, 20-29) plus the one chosen before the search.
    expect(screen.getByText(/13 selected/)).toBeTruthy();
    fireEvent.click(screen.getByRole('checkbox', { name: 'Select all shown' }));
    expect(screen.getByText(/1 selected/)).toBeTruthy();
  });

  it("names each row's checkbox with rowName when given (the key otherwise)", () => {
    render(
      <DataTable
        label="Named"
        rows={items(3)}
        rowKey={(item) => item.id}
        rowName={(item) => item.name}
        columns={columns}
        selected={new Set(['id_1'])}
        onSelectedChange={() => undefined}
      />,
    );
    const box = screen.getByRole<HTMLInputElement>('checkbox', { name: 'Select Item 1' });
    expect(box.checked).toBe(true);
    expect(screen.queryByRole('checkbox', { name: 'Select id_1' })).toBeNull();
  });
});

describe('DataTable rendering cost', () => {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it('re-renders only the row whose selection changed', () => {
    const renders = new Map<string, number>();
    const counted: DataColumn<Item>[] = [
      {
        id: 'name',
        header: 'Name',
        rowHeader: true,
        cell: (item) => {
          renders.set(item.id, (renders.get(item.id) ?? 0) + 1);
          return item.name;
        },
      },
    ];
    function Counted() {
      const [selected, setSelected] = useState<Set<string>>(new Set());
      return (
        <DataTable
          label="Things"
          rows={rows}
          rowKey={rowKey}
          columns={counted}
          selected={selected}
          onSelectedChange={setSelected}
        />
      );
    }
    const rows = items(5);
    const rowKey = (item: Item) => item.id;
    render(<Counted />);
    renders.clear();
    fireEvent.click(screen.getByRole('checkbox', { name: 'Select id_1' }));
    expect(Object.fromEntries(renders)).toEqual({ id_1: 1 });
    expect(bodyRows()[1]?.getAttribute('aria-selected')).toBe('true');
    renders.clear();
    fireEvent.click(screen.getByRole('checkbox', { name: 'Select id_1' }));
    expect(Object.fromEntries(renders)).toEqual({ id_1: 1 });
    expect(bodyRows()[1]?.getAttribute('aria-selected')).toBe('false');
  });

  it('mounts in one commit, and a density change sizes the rows again', () => {
    // As in a browser: the scroll area's size comes after the first layout, not while it mounts.
    vi.stubGlobal(
      'ResizeObserver',
      class {
        observe() {}
        disconnect() {}
        unobserve() {}
      },
    );
    const commits: string[] = [];
    render(
      <Profiler id="table" onRender={(_id, phase) => commits.push(phase)}>
        <Harness rows={items(1000)} />
      </Profiler>,
    );
    // A second commit before paint would render the whole table twice on every visit to a list.
    expect(commits).toEqual(['mount']);
    const spacerHeight = () => {
      const pads = screen
        .getByRole('table', { name: 'Things' })
        .querySelectorAll<HTMLElement>('tr.data-table__pad');
      return Number.parseFloat(pads[pads.length - 1]?.style.height ?? '0');
    };
    const comfortable = spacerHeight();
    act(() => setDensity('compact'));
    try {
      // The rows below the screenful are sized at the compact height: the spacer shrinks.
      expect(spacerHeight()).toBeLessThan(comfortable);
    } finally {
      act(() => setDensity('comfortable'));
    }
  });

  it('sizes the view from a ResizeObserver, without reading the layout or scrolling while it mounts', () => {
    let notify: () => void = () => undefined;
    vi.stubGlobal(
      'ResizeObserver',
      class {
        constructor(callback: () => void) {
          notify = callback;
        }
        observe() {}
        disconnect() {}
        unobserve() {}
      },
    );
    let reads = 0;
    vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockImplementation(() => {
      reads += 1;
      return 220;
    });
    const scrollTo = vi.fn();
    // On HTMLElement itself, removed after the test (jsdom's elements have none of their own).
    Object.defineProperty(HTMLElement.prototype, 'scrollTo', { value: scrollTo, configurable: true });
    try {
      render(<Harness rows={items(1000)} />);
    } finally {
      delete (HTMLElement.prototype as { scrollTo?: unknown }).scrollTo;
    }
    // A reading, or a scroll of the new area to where it already is, would be a forced synchronous
    // layout of the new screen in a real browser.
    expect(reads).toBe(0);
    expect(scrollTo).not.toHaveBeenCalled();
    const guessed = bodyRows().length;
    expect(guessed).toBe(Math.ceil(Math.round(window.innerHeight * 0.7) / 44) + 8);
    act(() => notify());
    expect(reads).toBeGreaterThan(0);
    expect(bodyRows().length).toBe(Math.ceil(220 / 44) + 8);
  });

  it('hidden and shown again (a kept screen), keeps its rows sized for its area and writes the scroll only away from the top', () => {
    const observers: (() => void)[] = [];
    vi.stubGlobal(
      'ResizeObserver',
      class {
        constructor(callback: () => void) {
          observers.push(callback);
        }
        observe() {}
        disconnect() {}
        unobserve() {}
      },
    );
    const notify = () => act(() => observers.at(-1)?.());
    let height = 220;
    vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockImplementation(() => height);
    const scrollTo = vi.fn();
    Object.defineProperty(HTMLElement.prototype, 'scrollTo', { value: scrollTo, configurable: true });
    try {
      const kept = (mode: 'visible' | 'hidden') => (
        <Activity mode={mode}>
          <Harness rows={items(1000)} />
        </Activity>
      );
      const { rerender } = render(kept('visible'));
      notify();
      const sized = Math.ceil(220 / 44) + 8;
      expect(bodyRows()).toHaveLength(sized);
      // The shell hides the screen being left before React does: the area measures 0 meanwhile.
      height = 0;
      notify();
      expect(bodyRows()).toHaveLength(sized);
      rerender(kept('hidden'));
      rerender(kept('visible'));
      // At the top, where a shown area is: no write (a forced layout of the whole screen).
      expect(scrollTo).not.toHaveBeenCalled();
      expect(bodyRows()).toHaveLength(sized);

      height = 220;
      const area = document.querySelector<HTMLElement>('.data-table__scroll') as HTMLElement;
      Object.defineProperty(area, 'scrollTop', { value: 4400, configurable: true });
      fireEvent.scroll(area);
      rerender(kept('hidden'));
      rerender(kept('visible'));
      // Scrolled down when hidden: shown again where it was.
      expect(scrollTo).toHaveBeenCalledWith(expect.objectContaining({ top: 4400 }));
    } finally {
      delete (HTMLElement.prototype as { scrollTo?: unknown }).scrollTo;
    }
  });
});

describe('DataTable: filters, columns, views, export and the keyboard', () => {
  afterEach(() => {
    cleanup();
    vi.restoreAllMocks();
  });

  interface Port {
    id: string;
    name: string;
    status: string;
  }
  const portRows: Port[] = Array.from({ length: 12 }, (_, index) => ({
    id: `p${index}`,
    name: `Port ${index}`,
    status: index % 4 === 0 ? 'Expired' : 'Active',
  }));
  const portColumns: DataColumn<Port>[] = [
    {
      id: 'name',
      header: 'Port',
      rowHeader: true,
      sortValue: (port) => port.name,
      cell: (port) => port.name,
    },
    { id: 'status', header: 'Status', sortValue: (port) => port.status, cell: (port) => port.status },
  ];
  const notSaved: SaveTextFile = () => Promise.resolve({ status: 'cancelled' });
  function Ports({ onOpen, save = notSaved }: { onOpen?: (port: Port) => void; save?: SaveTextFile }) {
    const [selected, setSelected] = useState<Set<string>>(new Set());
    return (
      <DataTable
        label="Ports"
        rows={portRows}
        rowKey={(port) => port.id}
        rowName={(port) => port.name}
        columns={portColumns}
        filters={[{ id: 'status', label: 'Status', value: (port) => port.status }]}
        searchText={(port) => port.name}
        selected={selected}
        onSelectedChange={setSelected}
        {...(onOpen ? { onOpen } : {})}
        exportCsv={{ fileName: 'ports', save }}
      />
    );
  }
  const count = () => screen.getByTestId('row-count').textContent;
  const bodyRows = () =>
    within(screen.getByRole('table', { name: 'Ports' }))
      .getAllByRole('row')
      .filter((row) => row.getAttribute('aria-hidden') !== 'true')
      .slice(1);

  it('lists each filter value with its count, and keeps the rows of the values ticked', () => {
    render(<Ports />);
    const choices = openFilter('Status');
    expect(choiceTexts(choices)).toEqual(['Active9', 'Expired3']);
    fireEvent.click(within(choices).getByRole('checkbox', { name: /Expired/ }));
    expect(count()).toBe('3 of 12 rows');
    expect(bodyRows().map((row) => row.querySelector('th')?.textContent)).toEqual([
      'Port 0',
      'Port 4',
      'Port 8',
    ]);
    fireEvent.click(screen.getByRole('button', { name: 'Clear filters' }));
    expect(count()).toBe('12 rows');
  });

  it('hides a column from the column chooser (never the row name)', () => {
    render(<Ports />);
    const details = openPopover('Choose the columns of ports');
    expect(within(details).queryByRole('checkbox', { name: 'Port' })).toBeNull();
    fireEvent.click(within(details).getByRole('checkbox', { name: 'Status' }));
    expect(screen.queryByRole('columnheader', { name: /Status/ })).toBeNull();
    expect(screen.getByRole('columnheader', { name: /Port/ })).toBeTruthy();
  });

  it('exports what is shown as CSV through the save it is given, and says where it went', async () => {
    const save = vi.fn<SaveTextFile>(() => Promise.resolve({ status: 'downloaded', fileName: 'ports.csv' }));
    render(<Ports save={save} />);
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search ports' }), {
      target: { value: 'port 1' },
    });
    fireEvent.click(screen.getByRole('button', { name: /Export CSV/ }));
    expect(save).toHaveBeenCalledWith({
      fileName: 'ports.csv',
      type: 'text/csv',
      content: 'Port,Status\r\nPort 1,Active\r\nPort 10,Active\r\nPort 11,Active\r\n',
    });
    expect((await screen.findByRole('status')).textContent).toBe('Downloaded as ports.csv. 3 rows.');
  });

  it('moves with the arrows, selects with Space, opens with Enter, and / goes to the search', () => {
    const opened: string[] = [];
    render(<Ports onOpen={(port) => opened.push(port.name)} />);
    const first = bodyRows()[0] as HTMLElement;
    expect(first.tabIndex).toBe(0);
    first.focus();
    fireEvent.keyDown(first, { key: 'ArrowDown' });
    fireEvent.keyDown(first, { key: 'ArrowDown' });
    const third = bodyRows()[2] as HTMLElement;
    expect(document.activeElement).toBe(third);
    fireEvent.keyDown(third, { key: ' ' });
    expect(count()).toBe('12 rows · 1 selected');
    expect(third.getAttribute('aria-selected')).toBe('true');
    fireEvent.keyDown(third, { key: 'Enter' });
    expect(opened).toEqual(['Port 2']);
    fireEvent.keyDown(document.body, { key: '/' });
    expect(document.activeElement).toBe(screen.getByRole('searchbox', { name: 'Search ports' }));
  });

  it('keeps the row tab stop when Tab passes a row’s controls, moves it on a click, and arrows go from the row pressed in', () => {
    render(<Ports />);
    const rowAt = (index: number) => bodyRows()[index] as HTMLElement;
    const controlIn = (index: number) => within(rowAt(index)).getByRole('checkbox');
    expect(rowAt(0).tabIndex).toBe(0);
    // The keyboard passing through a control of the third row (as Tab through a row's buttons does):
    // the stop stays, or it would move behind the focus and Tab would never reach a row.
    act(() => controlIn(2).focus());
    expect(rowAt(0).tabIndex).toBe(0);
    expect(rowAt(2).tabIndex).toBe(-1);
    fireEvent.keyDown(controlIn(2), { key: 'ArrowDown' });
    expect(document.activeElement).toBe(rowAt(3));
    expect(rowAt(3).tabIndex).toBe(0);
    // A click in the fifth row makes it the stop.
    fireEvent.pointerDown(controlIn(4));
    act(() => controlIn(4).focus());
    expect(rowAt(4).tabIndex).toBe(0);
    expect(rowAt(3).tabIndex).toBe(-1);
  });

  it('selects a range with Shift+click', () => {
    render(<Ports />);
    fireEvent.click(screen.getByRole('checkbox', { name: 'Select Port 1' }));
    fireEvent.click(screen.getByRole('checkbox', { name: 'Select Port 5' }), { shiftKey: true });
    expect(count()).toBe('12 rows · 5 selected');
    expect(
      bodyRows()
        .filter((row) => row.getAttribute('aria-selected') === 'true')
        .map((row) => row.querySelector('th')?.textContent),
    ).toEqual(['Port 1', 'Port 2', 'Port 3', 'Port 4', 'Port 5']);
  });
});

describe('DataTable: saved views kept in settings', () => {
  afterEach(cleanup);

  interface Row {
    id: string;
    status: string;
  }
  const rows: Row[] = ['Active', 'Expired', 'Active'].map((status, index) => ({ id: `r${index}`, status }));
  const cols: DataColumn<Row>[] = [
    { id: 'id', header: 'Id', rowHeader: true, sortValue: (row) => row.id, cell: (row) => row.id },
    { id: 'status', header: 'Status', sortValue: (row) => row.status, cell: (row) => row.status },
  ];

  it('saves what is shown under a name and puts it back', async () => {
    const { createFakeApi } = await import('../../support/fake-api');
    const saved: unknown[] = [];
    const fake = createFakeApi({
      'settings:tableViews': () => ({ ok: true, value: {} }),
      'settings:saveTableViews': (input) => {
        saved.push(input);
        return { ok: true, value: { [input.list]: input.views } };
      },
    });
    window.api = fake.api;
    try {
      render(
        <DataTable
          label="Things"
          listId="ports"
          rows={rows}
          rowKey={(row) => row.id}
          columns={cols}
          filters={[{ id: 'status', label: 'Status', value: (row) => row.status }]}
        />,
      );
      fireEvent.click(within(openPopover('Filter by Status')).getByRole('checkbox', { name: /Expired/ }));
      fireEvent.click(screen.getByRole('button', { name: 'Sort by Id' }));
      const views = openPopover('Saved views');
      fireEvent.change(within(views).getByRole('textbox', { name: 'Save what is shown as' }), {
        target: { value: 'Expired ones' },
      });
      fireEvent.click(within(views).getByRole('button', { name: 'Save view' }));
      await act(() => Promise.resolve());
      expect(saved).toEqual([
        {
          list: 'ports',
          views: [
            {
              name: 'Expired ones',
              search: '',
              filters: { status: ['Expired'] },
              sort: { column: 'id', direction: 'ascending' },
              hidden: [],
            },
          ],
        },
      ]);
      fireEvent.click(screen.getByRole('button', { name: 'Clear filters' }));
      expect(screen.getByTestId('row-count').textContent).toBe('3 rows');
      fireEvent.click(within(views).getByRole('button', { name: 'Expired ones' }));
      expect(screen.getByTestId('row-count').textContent).toBe('1 of 3 rows');
    } finally {
      delete window.api;
    }
  });
});
