import { describe, expect, it } from 'vitest';
import { SeededRandom, stableHash } from '../src/seeded-random';

const draw = (random: SeededRandom, n: number) => Array.from({ length: n }, () => random.next());

describe('SeededRandom', () => {
  it('gives the same sequence for the same seed and another for another seed', () => {
    expect(draw(new SeededRandom(7), 20)).toEqual(draw(new SeededRandom(7), 20));
    expect(draw(new SeededRandom(7), 20)).not.toEqual(draw(new SeededRandom(8), 20));
  });

  it('draws in [0, 1)', () => {
    for (const value of draw(new SeededRandom(1), 5_000)) {
      expect(value).toBeGreaterThanOrEqual(0);
      expect(value).toBeLessThan(1);
    }
  });

  it('int covers both bounds and nothing outside them', () => {
    const random = new SeededRandom(3);
    const seen = new Set<number>();
    for (let i = 0; i < 2_000; i += 1) seen.add(random.int(5, 9));
    expect([...seen].sort()).toEqual([5, 6, 7, 8, 9]);
  });

  it('continues the same sequence from a snapshot of its state', () => {
    const random = new SeededRandom(42);
    draw(random, 10);
    const resumed = new SeededRandom(random.snapshot);
    expect(draw(resumed, 10)).toEqual(draw(random, 10));
  });

  it('picks from a list, refuses an empty one, and makes strings from an alphabet', () => {
    const random = new SeededRandom(5);
    expect(['a', 'b', 'c']).toContain(random.pick(['a', 'b', 'c']));
    expect(() => random.pick([])).toThrow(RangeError);
    expect(random.chars(12, 'xy')).toMatch(/^[xy]{12}$/);
    expect(random.chars(6)).toMatch(/^[a-z0-9]{6}$/);
  });

  it('chance(0) is never and chance(1) is always', () => {
    const random = new SeededRandom(9);
    for (let i = 0; i < 100; i += 1) {
      expect(random.chance(0)).toBe(false);
      expect(random.chance(1)).toBe(true);
    }
  });
});

describe('stableHash', () => {
  it('is the 32-bit FNV-1a hash (same value whoever asks)', () => {
    expect(stableHash('')).toBe(0x811c9dc5);
    expect(stableHash('a')).toBe(0xe40c292c);
    expect(stableHash('foobar')).toBe(0xbf9cf968);
  });
});
