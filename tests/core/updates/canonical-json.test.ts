import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../../../src-main/core/updates/canonical-json';

describe('canonicalJson (RFC 8785)', () => {
  it('sorts keys by UTF-16 code units at every level and drops whitespace', () => {
    // RFC 8785 section 3.2.3's sorting example, in part.
    const value = {
      '\u20ac': 'Euro Sign',
      '\r': 'Carriage Return',
      '\ufb33': 'Hebrew Letter Dalet With Dagesh',
      '1': 'One',
      '\u00fc': 'Latin Small Letter U With Diaeresis',
      '\u0080': 'Control',
      '\ud83d\ude00': 'Emoji: Grinning Face',
    };
    // Read back from the text: JSON.parse would move the integer-like key "1" first again.
    const order = [...canonicalJson(value).matchAll(/"((?:[^"\\]|\\.)*)":/g)].map((match) => match[1]);
    expect(order).toEqual(['\\r', '1', '\u0080', '\u00fc', '\u20ac', '\ud83d\ude00', '\ufb33']);
    expect(canonicalJson({ b: [3, { d: 1, c: 2 }], a: null })).toBe('{"a":null,"b":[3,{"c":2,"d":1}]}');
  });

  it('writes numbers as ECMAScript does and strings with JSON escapes only', () => {
    // RFC 8785 section 3.2.2.3 examples.
    expect(canonicalJson([333333333.3333333, 1e30, 4.5, 0.002, 1e-27, -0])).toBe(
      '[333333333.3333333,1e+30,4.5,0.002,1e-27,0]',
    );
    expect(canonicalJson('\u20ac$\u000f\nA\'B"\\\\"/')).toBe('"€$\\u000f\\nA\'B\\"\\\\\\\\\\"/"');
  });

  it('refuses what JSON cannot hold', () => {
    expect(() => canonicalJson(Number.NaN)).toThrow(TypeError);
    expect(() => canonicalJson({ a: () => 1 })).toThrow(TypeError);
  });
});
