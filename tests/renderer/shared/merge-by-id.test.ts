import { describe, expect, it } from 'vitest';
import { mergeById } from '../../../src-renderer/src/shared/merge-by-id';

const a = { id: 'a', v: 1 };
const b = { id: 'b', v: 1 };

describe('mergeById', () => {
  it('replaces items in place and appends new ones by default', () => {
    expect(
      mergeById(
        [a, b],
        [
          { id: 'a', v: 2 },
          { id: 'c', v: 1 },
        ],
      ),
    ).toEqual([{ id: 'a', v: 2 }, b, { id: 'c', v: 1 }]);
  });

  it('lets the caller place or ignore new items', () => {
    expect(mergeById([a], [{ id: 'c', v: 1 }], (list, added) => [...added, ...list])).toEqual([
      { id: 'c', v: 1 },
      a,
    ]);
    expect(mergeById([a], [{ id: 'c', v: 1 }], (list) => list)).toEqual([a]);
  });

  it('answers the same array when nothing changed (no re-render)', () => {
    const list = [a, b];
    expect(mergeById(list, [])).toBe(list);
    expect(mergeById(list, [{ id: 'c', v: 1 }], (kept) => kept)).toBe(list);
  });
});
