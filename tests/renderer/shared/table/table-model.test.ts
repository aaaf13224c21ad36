import { describe, expect, it } from 'vitest';
import {
  buildTableModel,
  expiryWindow,
  toCsv,
  type DataColumn,
  type DataFilter,
  type TableQuery,
} from '../../../../src-renderer/src/shared/table/table-model';

interface Item {
  id: string;
  name: string;
  size: number | null;
  status: string;
  country: string;
}

const columns: DataColumn<Item>[] = [
  { id: 'name', header: 'Name', rowHeader: true, sortValue: (item) => item.name, cell: (item) => item.name },
  {
    id: 'size',
    header: 'Size',
    sortValue: (item) => item.size,
    text: (item) => String(item.size ?? ''),
    cell: () => null,
  },
];
const filters: DataFilter<Item>[] = [
  { id: 'status', label: 'Status', value: (item) => item.status, order: ['Active', 'Expired'] },
  { id: 'country', label: 'Country', value: (item) => item.country },
];
const items = (count: number): Item[] =>
  Array.from({ length: count }, (_, index) => ({
    id: `id_${index}`,
    name: `Item ${index}`,
    size: index % 5 === 0 ? null : (index * 7) % 13,
    status: index % 4 === 0 ? 'Expired' : 'Active',
    country: ['Germany', 'France', 'Spain'][index % 3] as string,
  }));
const query = (change: Partial<TableQuery> = {}): TableQuery => ({
  search: '',
  filters: {},
  sort: null,
  ...change,
});
const model = (rows: Item[], q: TableQuery) =>
  buildTableModel({ rows, rowKey: (item) => item.id, columns, filters, searchText: (item) => item.name }, q);

describe('buildTableModel (TanStack Table)', () => {
  it('keeps rows matching every word of the search, case-insensitive', () => {
    const shown = model(items(30), query({ search: ' ITEM 2 ' })).shown;
    expect(shown.map((row) => row.name)).toEqual([
      'Item 2',
      'Item 12',
      ...items(30)
        .slice(20)
        .map((row) => row.name),
    ]);
    expect(model(items(30), query({ search: 'item 2 nothing' })).shown).toEqual([]);
  });

  it('sorts numbers as numbers and strings naturally, empty values last in both directions', () => {
    const rows = items(11);
    const sizes = (list: Item[]) => list.map((row) => row.size);
    const up = model(rows, query({ sort: { column: 'size', direction: 'ascending' } })).shown;
    const down = model(rows, query({ sort: { column: 'size', direction: 'descending' } })).shown;
    expect(sizes(up)).toEqual([1, 2, 3, 4, 7, 8, 10, 11, null, null, null]);
    expect(sizes(down)).toEqual([11, 10, 8, 7, 4, 3, 2, 1, null, null, null]);
    const names = model(rows, query({ sort: { column: 'name', direction: 'ascending' } })).shown;
    expect(names.slice(0, 3).map((row) => row.name)).toEqual(['Item 0', 'Item 1', 'Item 2']);
    expect(names.at(-1)?.name).toBe('Item 10');
  });

  it('counts each filter over what the other filters and the search keep (faceted counts)', () => {
    const rows = items(12);
    const plain = model(rows, query());
    expect(plain.facets('status')).toEqual([
      { value: 'Active', count: 9 },
      { value: 'Expired', count: 3 },
    ]);
    expect(plain.facets('country')).toEqual([
      { value: 'France', count: 4 },
      { value: 'Germany', count: 4 },
      { value: 'Spain', count: 4 },
    ]);
    const expired = model(rows, query({ filters: { status: ['Expired'] } }));
    expect(expired.shown.map((row) => row.id)).toEqual(['id_0', 'id_4', 'id_8']);
    // Its own filter does not narrow its own choices; the other one's counts follow it.
    expect(expired.facets('status')).toEqual(plain.facets('status'));
    expect(expired.facets('country')).toEqual([
      { value: 'France', count: 1 },
      { value: 'Germany', count: 1 },
      { value: 'Spain', count: 1 },
    ]);
    const two = model(rows, query({ filters: { status: ['Expired'], country: ['Germany', 'Spain'] } }));
    expect(two.shown.map((row) => row.id)).toEqual(['id_0', 'id_8']);
  });

  it('keeps a chosen value listed at 0 when the other filters leave no row for it', () => {
    const result = model(items(12), query({ filters: { country: ['Atlantis'] } }));
    expect(result.shown).toEqual([]);
    expect(result.facets('country')).toContainEqual({ value: 'Atlantis', count: 0 });
  });
});

describe('toCsv', () => {
  it('writes the header and each row, quoting separators and defusing formulas', () => {
    const csv = toCsv(
      [
        { id: 'a', name: 'Plain', size: 1, status: '', country: '' },
        { id: 'b', name: 'Has, comma "and quotes"', size: null, status: '', country: '' },
        { id: 'c', name: '=HYPERLINK("x")', size: 3, status: '', country: '' },
      ],
      columns,
    );
    expect(csv).toBe('Name,Size\r\nPlain,1\r\n"Has, comma ""and quotes""",\r\n"\'=HYPERLINK(""x"")",3\r\n');
  });
});

describe('expiryWindow', () => {
  const now = Date.parse('2026-03-10T00:00:00Z');
  it('puts a date in the first window it falls in', () => {
    expect(expiryWindow('2026-03-09T23:00:00Z', now)).toBe('Expired');
    expect(expiryWindow('2026-03-11T12:00:00Z', now)).toBe('Within 2 days');
    expect(expiryWindow('2026-03-16T00:00:00Z', now)).toBe('Within 7 days');
    expect(expiryWindow('2026-04-01T00:00:00Z', now)).toBe('Within 30 days');
    expect(expiryWindow('2026-06-01T00:00:00Z', now)).toBe('Later');
    expect(expiryWindow(null, now)).toBeNull();
  });
});
