/** What changed between two reads of one list, by id: items new or different, and ids gone. */
export interface DiffById<T> {
  changed: T[];
  removed: string[];
}

/**
 * Compares two reads of a list item by item (equal: the same JSON, as the service sent them). A
 * background read of 1,000 ports where nothing moved gives nothing to send.
 */
export function diffById<T extends { id: string }>(before: readonly T[], after: readonly T[]): DiffById<T> {
  const previous = new Map(before.map((item) => [item.id, item]));
  const changed: T[] = [];
  for (const item of after) {
    const old = previous.get(item.id);
    previous.delete(item.id);
    if (!old || JSON.stringify(old) !== JSON.stringify(item)) changed.push(item);
  }
  return { changed, removed: [...previous.keys()] };
}
