import { describe, expect, it } from 'vitest';
import {
  formatProxyLine,
  portForFormat,
  sessionLines,
  targetedUsername,
  validateTargeting,
  type ProxyFormat,
  type Targeting,
  type TargetingCatalog,
} from '../../../src-main/core/subscriptions/proxy-string';

const US: TargetingCatalog = { stateIds: ['california', 'new_york'], cityIds: ['los_angeles', 'new_york'] };
const DE: TargetingCatalog = { stateIds: [], cityIds: ['berlin'] };

describe('targetedUsername', () => {
  it.each<[string, Targeting, string]>([
    ['no targeting', {}, 'u123'],
    ['country', { country: 'US' }, 'u123-country-us'],
    ['state', { country: 'US', state: 'california' }, 'u123-country-us-state-california'],
    ['city', { country: 'DE', city: 'berlin' }, 'u123-country-de-city-berlin'],
    ['asn', { country: 'US', asn: 7922 }, 'u123-country-us-asn-7922'],
    ['zip names the US', { zip: '90210' }, 'u123-country-us-zip-90210'],
    ['zip with US', { country: 'US', zip: '10001' }, 'u123-country-us-zip-10001'],
    [
      'state and zip',
      { country: 'US', state: 'california', zip: '90210' },
      'u123-country-us-state-california-zip-90210',
    ],
    ['session', { session: 'abc_1' }, 'u123-session-abc_1'],
    [
      'every segment in table order',
      { session: 's1', city: 'los_angeles', state: 'california', country: 'US' },
      'u123-country-us-state-california-city-los_angeles-session-s1',
    ],
    ['empty strings are absent', { country: '', state: '', session: '' }, 'u123'],
  ])('%s', (_name, targeting, expected) => {
    expect(targetedUsername('u123', targeting)).toBe(expected);
  });
});

describe('validateTargeting', () => {
  it.each<[string, Targeting, TargetingCatalog | undefined, string[]]>([
    ['nothing chosen', {}, undefined, []],
    ['valid state', { country: 'US', state: 'california' }, US, []],
    ['state of a country without states', { country: 'DE', state: 'bavaria' }, DE, ['state']],
    ['unknown state', { country: 'US', state: 'atlantis' }, US, ['state']],
    ['state without country', { state: 'california' }, undefined, ['state']],
    ['state shape without catalog', { country: 'US', state: 'New-York' }, undefined, ['state']],
    ['unknown city', { country: 'DE', city: 'paris' }, DE, ['city']],
    ['lower-case country', { country: 'us' }, undefined, ['country']],
    ['zip of 4 digits', { zip: '9021' }, undefined, ['zip']],
    ['zip of 6 digits', { zip: '902101' }, undefined, ['zip']],
    ['zip with letters', { zip: '9021a' }, undefined, ['zip']],
    ['zip plus 4', { zip: '90210-1234' }, undefined, ['zip']],
    ['zip outside the US', { country: 'DE', zip: '10115' }, DE, ['zip']],
    ['zip with a state', { country: 'US', state: 'california', zip: '90210' }, US, []],
    [
      'zip with a state of the US catalog only',
      { country: 'US', state: 'bavaria', zip: '90210' },
      US,
      ['state'],
    ],
    ['zip with a city', { country: 'US', city: 'los_angeles', zip: '90210' }, US, ['zip']],
    ['zip with an asn', { country: 'US', asn: 7922, zip: '90210' }, US, ['zip']],
    ['zip with a state, no country', { state: 'california', zip: '90210' }, undefined, ['state']],
    ['valid zip', { country: 'US', zip: '90210' }, US, []],
    ['asn zero', { asn: 0 }, undefined, ['asn']],
    ['asn fraction', { asn: 1.5 }, undefined, ['asn']],
    ['session with hyphen', { session: 'a-b' }, undefined, ['session']],
    ['session too long', { session: 'x'.repeat(65) }, undefined, ['session']],
  ])('%s', (_name, targeting, catalog, fields) => {
    expect(validateTargeting(targeting, catalog).map((error) => error.field)).toEqual(fields);
  });

  it('says plainly that a country has no state targeting', () => {
    expect(validateTargeting({ country: 'DE', state: 'bavaria' }, DE)[0]?.message).toBe(
      'DE has no state targeting.',
    );
  });
});

describe('formatProxyLine', () => {
  const credentials = { host: 'gw.example.com', port: 8080, username: 'u1-state-ny', password: 'p@ss:w/rd' };
  it.each<[ProxyFormat, string]>([
    ['http_url', 'http://u1-state-ny:p%40ss%3Aw%2Frd@gw.example.com:8080'],
    ['socks5_url', 'socks5://u1-state-ny:p%40ss%3Aw%2Frd@gw.example.com:8080'],
    ['host_port_user_pass', 'gw.example.com:8080:u1-state-ny:p@ss:w/rd'],
    ['user_pass_at_host_port', 'u1-state-ny:p@ss:w/rd@gw.example.com:8080'],
  ])('%s', (format, expected) => {
    expect(formatProxyLine(credentials, format)).toBe(expected);
  });

  it('round-trips URL formats through the URL parser', () => {
    const url = new URL(formatProxyLine(credentials, 'http_url'));
    expect(decodeURIComponent(url.password)).toBe(credentials.password);
    expect(url.port).toBe('8080');
  });

  it('brackets IPv6 hosts in URLs', () => {
    expect(formatProxyLine({ ...credentials, host: '::1', password: 'x' }, 'http_url')).toBe(
      'http://u1-state-ny:x@[::1]:8080',
    );
  });
});

describe('portForFormat', () => {
  const endpoint = { httpPort: 8000, socksPort: 1080 };
  it('takes the port the protocol needs', () => {
    expect(portForFormat(endpoint, 'http_url', 'socks5')).toBe(8000);
    expect(portForFormat(endpoint, 'socks5_url', 'http')).toBe(1080);
    expect(portForFormat(endpoint, 'host_port_user_pass', 'socks5')).toBe(1080);
    expect(portForFormat(endpoint, 'user_pass_at_host_port', 'http')).toBe(8000);
  });
});

describe('sessionLines', () => {
  it('numbers sticky sessions', () => {
    const lines = sessionLines(
      { host: 'h', port: 1, baseUsername: 'u', password: 'p' },
      { country: 'US' },
      'host_port_user_pass',
      3,
      'run',
    );
    expect(lines).toEqual([
      'h:1:u-country-us-session-run1:p',
      'h:1:u-country-us-session-run2:p',
      'h:1:u-country-us-session-run3:p',
    ]);
  });
});
