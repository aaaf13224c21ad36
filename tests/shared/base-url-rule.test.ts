import { describe, expect, it } from 'vitest';
import { checkBaseUrl, isLoopbackHost, originOf } from '../../src-shared/base-url-rule';

describe('checkBaseUrl: the one rule for a base URL the key may be sent to', () => {
  it.each([
    ['https://API.Example.com:443/api/v1/', 'https://api.example.com/api/v1', 'https://api.example.com'],
    [
      '  https://api.example.com:8443/api/v1  ',
      'https://api.example.com:8443/api/v1',
      'https://api.example.com:8443',
    ],
    ['http://127.0.0.1:4010/api/v1', 'http://127.0.0.1:4010/api/v1', 'http://127.0.0.1:4010'],
    ['http://localhost:4010/api/v1', 'http://localhost:4010/api/v1', 'http://localhost:4010'],
    ['http://[::1]:4010/api/v1', 'http://[::1]:4010/api/v1', 'http://[::1]:4010'],
  ])('accepts %j', (input, url, origin) => {
    expect(checkBaseUrl(input)).toEqual({ ok: true, url, origin });
  });

  it.each([
    ['', /Enter the base URL/],
    ['api.example.com/api/v1', /full https:\/\/ URL/],
    ['ftp://api.example.com', /must start with https:\/\//],
    ['javascript:alert(1)', /must start with https:\/\//],
    ['http://api.example.com/api/v1', /unencrypted/],
    ['http://10.1.2.3/api/v1', /unencrypted/],
    ['http://127.0.0.1.nip.io/api/v1', /unencrypted/],
    ['http://localhost.example.com/api/v1', /unencrypted/],
    ['https://user:pw@api.example.com/api/v1', /user name or password/],
    ['https://api.example.com/api/v1?key=sk_live_123', /query/],
    ['https://api.example.com/api/v1?', /query/],
    ['https://api.example.com/api/v1#frag', /fragment/],
    [`https://api.example.com/${'a'.repeat(2048)}`, /at most 2048/],
  ])('refuses %j with a message that does not repeat it', (input, message) => {
    const check = checkBaseUrl(input);
    expect(check).toMatchObject({ ok: false, message: expect.stringMatching(message) });
    if (!check.ok) {
      expect(check.message).not.toContain('sk_live_123');
      expect(check.message).not.toContain('pw@');
    }
  });
});

describe('isLoopbackHost', () => {
  it.each(['localhost', 'LOCALHOST', '127.0.0.1', '127.1.2.3', '127.255.255.255', '[::1]'])(
    '%s is this machine',
    (host) => {
      expect(isLoopbackHost(host)).toBe(true);
    },
  );

  it.each(['0.0.0.0', '128.0.0.1', '127.0.0.256', '10.0.0.1', 'example.com', '127.0.0.1.nip.io', '[::2]'])(
    '%s is not',
    (host) => {
      expect(isLoopbackHost(host)).toBe(false);
    },
  );
});

describe('originOf', () => {
  it('gives scheme, host and port, or null for something that is not a URL', () => {
    expect(originOf('https://api.example.com:8443/api/v1')).toBe('https://api.example.com:8443');
    expect(originOf('not a url')).toBeNull();
  });
});
