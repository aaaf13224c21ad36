/** What changed between two reads of one list, by id: items new or different, and ids gone. */
export interface RowDiff<T> {
  changed: T[];
  removed: string[];
}

/**
 * Compares two reads of a list item by item (`same` decides equality; default: the same JSON). A
 * background read of 1,000 ports where nothing moved gives nothing to send.
 */
export function diffRows<T extends { id: string }>(
  before: readonly T[],
  after: readonly T[],
  same: (a: T, b: T) => boolean = (a, b) => JSON.stringify(a) === JSON.stringify(b),
): RowDiff<T> {
  const previous = new Map(before.map((row) => [row.id, row]));
  const changed: T[] = [];
  for (const row of after) {
    const old = previous.get(row.id);
    previous.delete(row.id);
    if (!old || !same(old, row)) changed.push(row);
  }
  return { changed, removed: [...previous.keys()] };
}

/** `list` with `changed` put in place of the items with their ids, new ones added at the end. */
export function mergeRows<T extends { id: string }>(list: readonly T[], changed: readonly T[]): T[] {
  const byId = new Map(changed.map((row) => [row.id, row]));
  const merged = list.map((row) => {
    const next = byId.get(row.id);
    if (!next) return row;
    byId.delete(row.id);
    return next;
  });
  return [...merged, ...byId.values()];
}
