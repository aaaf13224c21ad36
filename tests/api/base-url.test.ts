import { describe, expect, it } from 'vitest';
import { InvalidBaseUrlError, joinUrl, normalizeBaseUrl, withQuery } from '../../src-main/api/base-url';

describe('normalizeBaseUrl', () => {
  it('trims and drops trailing slashes', () => {
    expect(normalizeBaseUrl('  https://api.example.com/api/v1//  ')).toBe('https://api.example.com/api/v1');
    expect(normalizeBaseUrl('http://127.0.0.1:4010')).toBe('http://127.0.0.1:4010');
  });

  it.each([
    ['not a url', /not a valid URL/],
    ['ftp://host/api/v1', /https:\/\//],
    ['https://user:secret-pass@host/api/v1', /user name or password/],
    ['https://host/api/v1?key=abc', /query/],
    ['https://host/api/v1#x', /fragment/],
  ])('refuses %s with a message that does not repeat the input', (input, message) => {
    let error: unknown;
    try {
      normalizeBaseUrl(input);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(InvalidBaseUrlError);
    expect((error as Error).message).toMatch(message);
    expect((error as Error).message).not.toContain('secret-pass');
    expect((error as Error).message).not.toContain('key=abc');
  });
});

describe('joinUrl', () => {
  const base = 'https://api.example.com/api/v1';

  it('joins literally by default', () => {
    expect(joinUrl(base, '/v1/mobile')).toBe('https://api.example.com/api/v1/v1/mobile');
  });

  it('strips the leading /v1 segment only under strip-v1', () => {
    expect(joinUrl(base, '/v1/mobile', 'strip-v1')).toBe('https://api.example.com/api/v1/mobile');
    expect(joinUrl(base, '/v1', 'strip-v1')).toBe('https://api.example.com/api/v1/');
    expect(joinUrl(base, '/v10/x', 'strip-v1')).toBe('https://api.example.com/api/v1/v10/x');
  });

  it('joins to the origin under origin', () => {
    expect(joinUrl(`${base}/`, '/v1/catalog/coins', 'origin')).toBe(
      'https://api.example.com/v1/catalog/coins',
    );
  });

  it('adds query values, skipping null and undefined, encoding the rest', () => {
    expect(
      joinUrl(base, '/v1/topups', 'literal', { page: 2, status: undefined, perPage: null, q: 'a b&c' }),
    ).toBe('https://api.example.com/api/v1/v1/topups?page=2&q=a+b%26c');
    expect(withQuery('https://x/y?a=1', { b: true })).toBe('https://x/y?a=1&b=true');
    expect(withQuery('https://x/y', {})).toBe('https://x/y');
  });

  it('refuses a path without a leading slash', () => {
    expect(() => joinUrl(base, 'v1/mobile')).toThrow(TypeError);
  });
});
