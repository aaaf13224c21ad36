import { describe, expect, it } from 'vitest';
import { MASK, maskSecret } from '../../../src-renderer/src/shared/mask-secret';

describe('maskSecret', () => {
  it('masks the password where every proxy format puts it, typed or percent-encoded', () => {
    expect(maskSecret('gw.example.com:8000:user1:p@ss:w', 'p@ss:w')).toBe(
      `gw.example.com:8000:user1:${MASK}`,
    );
    expect(maskSecret('user1:p@ss:w@gw.example.com:8000', 'p@ss:w')).toBe(
      `user1:${MASK}@gw.example.com:8000`,
    );
    expect(maskSecret('http://user1:p%40ss%3Aw@gw.example.com:8000', 'p@ss:w')).toBe(
      `http://user1:${MASK}@gw.example.com:8000`,
    );
  });

  it('leaves the rest of the line alone when the password is short', () => {
    expect(maskSecret('http://u-country-us:p@gw.example.com:8000', 'p')).toBe(
      `http://u-country-us:${MASK}@gw.example.com:8000`,
    );
  });

  it('masks every occurrence in a text of another shape, and nothing without a secret', () => {
    expect(maskSecret('secret and secret', 'secret')).toBe(`${MASK} and ${MASK}`);
    expect(maskSecret('plain', '')).toBe('plain');
  });
});
