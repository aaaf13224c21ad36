import { describe, expect, it } from 'vitest';
import { failureKindOf, readEcho, readErrorPage } from '../../../src-main/core/proxy-test/echo-reading';

describe('readEcho', () => {
  it('reads the sandbox echo and the common public IP echoes', () => {
    expect(
      readEcho(
        JSON.stringify({
          exit: { ip: '198.18.0.7', country: 'US', city: 'austin', asn: 7018, carrierName: null },
        }),
        {},
      ),
    ).toEqual({ ip: '198.18.0.7', country: 'US', city: 'austin', asn: 7018, carrier: null });
    expect(readEcho('{"ip":"203.0.113.9"}', {})).toMatchObject({ ip: '203.0.113.9', country: null });
    expect(readEcho('{"query":"203.0.113.9","countryCode":"DE","city":"Berlin"}', {})).toMatchObject({
      ip: '203.0.113.9',
      country: 'DE',
      city: 'Berlin',
    });
    expect(readEcho('{"origin":"203.0.113.9, 10.0.0.1"}', {})?.ip).toBe('203.0.113.9');
    expect(readEcho('2001:db8::1\n', {})?.ip).toBe('2001:db8::1');
  });

  it('finds no IP in an answer that has none', () => {
    expect(readEcho('<html>hello</html>', {})).toBeNull();
    expect(readEcho('{"ip":"not an ip"}', {})).toBeNull();
  });
});

describe('error pages', () => {
  it('reads the heading and first paragraph, entities decoded', () => {
    expect(readErrorPage('<h1>No exit IP</h1><p>Texas &#38; more</p>')).toBe('No exit IP: Texas & more');
  });

  it('takes the gateway header over the status', () => {
    expect(failureKindOf(502, { 'x-sandbox-gateway-error': 'no_exit' })).toBe('no_exit');
    expect(failureKindOf(407, {})).toBe('credentials');
    expect(failureKindOf(502, {})).toBe('refused');
  });
});
