import { describe, expect, it } from 'vitest';
import { mapBounded } from '../../src-main/lib/map-bounded';

describe('mapBounded', () => {
  it('keeps order and never runs more than the limit', async () => {
    let running = 0;
    let peak = 0;
    const out = await mapBounded([5, 1, 4, 2, 3, 0, 6], 3, async (n) => {
      running += 1;
      peak = Math.max(peak, running);
      await new Promise((resolve) => setImmediate(resolve));
      running -= 1;
      return n * 2;
    });
    expect(out).toEqual([10, 2, 8, 4, 6, 0, 12]);
    expect(peak).toBe(3);
  });
});
