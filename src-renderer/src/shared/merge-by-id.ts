/**
 * Merges pushed changes into a list read earlier: an item whose id is already there is replaced in
 * place (the list keeps its order); the others go through `placeNew`, which may add or ignore them.
 * Answers the same array when nothing changed, so that nothing re-renders for it.
 */
export function mergeById<T extends { id: string }>(
  list: readonly T[],
  changed: readonly T[],
  placeNew: (list: T[], added: T[]) => T[] = (current, added) => [...current, ...added],
): T[] {
  if (changed.length === 0) return list as T[];
  const byId = new Map(changed.map((item) => [item.id, item]));
  let replaced = false;
  const merged = list.map((item) => {
    const update = byId.get(item.id);
    if (!update) return item;
    byId.delete(item.id);
    replaced = true;
    return update;
  });
  const kept = replaced ? merged : (list as T[]);
  const added = [...byId.values()];
  return added.length === 0 ? kept : placeNew(kept, added);
}
