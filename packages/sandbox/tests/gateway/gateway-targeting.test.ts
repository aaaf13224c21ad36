import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findCountry } from '../../src/catalog/catalog-queries';
import { TestSandbox } from '../../src/testing';
import { manualPort } from '../mobile/mobile-test-support';
import { SEEDED_SUBSCRIPTION_LABELS, subscriptionByLabel } from '../subscriptions/subscription-helpers';
import { connectTunnel, proxyGet, socks5 } from './gateway-clients';

let sandbox: TestSandbox;
let residential: { username: string; password: string };
let mobileGb: { username: string; password: string };

beforeAll(async () => {
  sandbox = await TestSandbox.start();
  residential = await subscriptionByLabel(sandbox, SEEDED_SUBSCRIPTION_LABELS.withSubUsers);
  mobileGb = await subscriptionByLabel(sandbox, SEEDED_SUBSCRIPTION_LABELS.neverExpires);
});

afterAll(async () => {
  await sandbox.close();
});

const gateway = () => sandbox.sandbox.gateway;
const as = (account: { username: string; password: string }, targeting: string) => ({
  username: `${account.username}${targeting}`,
  password: account.password,
});
const echo = async (account: { username: string; password: string }, targeting: string) => {
  const answer = await proxyGet(gateway(), as(account, targeting), 'http://example.com/');
  expect(answer.status, answer.body).toBe(200);
  return answer.json;
};

describe('sandbox gateway: username targeting that matches', () => {
  it('exits in the state asked for (-state-), in one of its cities when the catalog lists any', async () => {
    const { exit } = await echo(residential, '-country-us-state-texas');
    expect(exit).toMatchObject({ country: 'US', state: 'texas' });
    expect(['austin', 'dallas', 'houston', 'san_antonio']).toContain(exit.city);
  });

  it('exits in the city and ASN asked for, and takes any 5-digit ZIP as a US exit', async () => {
    expect((await echo(residential, '-country-us-city-seattle')).exit).toMatchObject({
      country: 'US',
      city: 'seattle',
      state: 'washington',
    });
    expect((await echo(residential, '-country-us-asn-7922')).exit).toMatchObject({
      asn: 7922,
      asnName: 'Comcast Cable Communications',
    });
    expect((await echo(residential, '-zip-90210')).exit).toMatchObject({ country: 'US', zip: '90210' });
    expect((await echo(residential, '-country-US-zip-00501')).exit).toMatchObject({ zip: '00501' });
  });

  it('takes a state with a ZIP: the exit is in that state (a city of it), the ZIP echoed as asked', async () => {
    const { exit } = await echo(residential, '-country-us-state-texas-zip-73301');
    expect(exit).toMatchObject({ country: 'US', state: 'texas', zip: '73301' });
    expect(['austin', 'dallas', 'houston', 'san_antonio']).toContain(exit.city);
    // Alone, a ZIP is placed nowhere finer than the country (the sandbox has no ZIP database).
    expect((await echo(residential, '-zip-73301')).exit).toMatchObject({ state: null, city: null });
    const mobile = await echo(mobileGb, '-country-us-state-california-zip-90210');
    expect(mobile.exit).toMatchObject({ country: 'US', state: 'california', zip: '90210' });
  });

  it('exits a mobile-gb subscription through a carrier of the country that has modems there', async () => {
    const { exit } = await echo(mobileGb, '-country-de-city-berlin');
    expect(exit).toMatchObject({ country: 'DE', city: 'berlin', asn: null });
    const carrier = findCountry('DE')?.carriers.find((c) => c.id === exit.carrier);
    expect(carrier?.available).toBe(true);
    expect(carrier?.cities).toContain('berlin');
    expect(exit.ip).toMatch(/^100\.(6[4-9]|[7-9]\d|1[01]\d|12[0-7])\./);
  });

  it('keeps the exit IP of a -session- for 10 minutes of sandbox clock, then draws a new one', async () => {
    const first = await echo(residential, '-country-us-session-abc');
    expect(first.session).toEqual({
      id: 'abc',
      ipKeptUntil: new Date(Date.parse(await sandbox.now()) + 10 * 60_000).toISOString(),
    });
    await sandbox.advance(9 * 60 + 59);
    expect((await echo(residential, '-country-us-session-abc')).exit).toEqual(first.exit);
    // Another session id is another exit.
    expect((await echo(residential, '-country-us-session-xyz')).exit.ip).not.toBe(first.exit.ip);
    await sandbox.advance(1);
    const renewed = await echo(residential, '-country-us-session-abc');
    expect(renewed.exit.ip).not.toBe(first.exit.ip);
    expect(renewed.session.ipKeptUntil).not.toBe(first.session.ipKeptUntil);
  });

  it('draws a new exit for every request without a session', async () => {
    const ips = new Set<string>();
    for (let i = 0; i < 5; i += 1) ips.add((await echo(residential, '-country-us')).exit.ip);
    expect(ips.size).toBeGreaterThan(1);
  });
});

describe('sandbox gateway: targeting that no exit IP matches, or malformed', () => {
  it.each([
    ['-country-us-state-bavaria', 'is not a state of United States'],
    ['-country-de-state-california', 'Germany has no state targeting'],
    ['-country-us-city-berlin', 'is not a city of United States'],
    ['-country-us-state-texas-city-seattle', 'Seattle is not in texas'],
    ['-country-de-zip-10115', 'US ZIP codes only'],
    ['-country-us-state-bavaria-zip-90210', 'is not a state of United States'],
    ['-country-us-asn-3320', 'AS3320 is not an ISP of United States'],
    ['-country-zz', 'ZZ is not a country of the catalog'],
  ])('answers %s with a 502 HTML page: %s', async (targeting, reason) => {
    const answer = await proxyGet(gateway(), as(residential, targeting), 'http://example.com/');
    expect(answer.status).toBe(502);
    expect(answer.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(answer.headers['x-sandbox-gateway-error']).toBe('no_exit');
    expect(answer.body).toContain('<h1>No exit IP matches</h1>');
    expect(answer.body).toContain(reason);
  });

  it('refuses ASN targeting on a mobile-gb subscription (it exits by carrier)', async () => {
    const answer = await proxyGet(gateway(), as(mobileGb, '-country-us-asn-7922'), 'http://example.com/');
    expect(answer.status).toBe(502);
    expect(answer.body).toContain('residential traffic only');
  });

  it.each([
    ['-colour-blue', 'Unknown targeting segment'],
    ['-state-texas', 'needs a country'],
    ['-zip-123', '5-digit US ZIP'],
    ['-country-usa', 'two-letter country code'],
    ['-country-us-country-de', 'given twice'],
    ['-country-us-zip-90210-city-los_angeles', 'cannot be combined'],
    ['-country-us-asn-7922-zip-90210', 'cannot be combined'],
    ['-session', 'has no value'],
  ])('answers the malformed %s with a 400 page (%s)', async (targeting, reason) => {
    const answer = await proxyGet(gateway(), as(residential, targeting), 'http://example.com/');
    expect(answer.status).toBe(400);
    expect(answer.body).toContain(reason);
  });

  it('checks the password before the targeting: wrong credentials are 407 whatever the segments', async () => {
    const answer = await proxyGet(
      gateway(),
      { username: `${residential.username}-country-zz`, password: 'wrong' },
      'http://example.com/',
    );
    expect(answer.status).toBe(407);
  });

  it('answers an unmatched CONNECT with the 502 page, and SOCKS5 with reply 0x04 (host unreachable)', async () => {
    const tunnel = await connectTunnel(
      gateway(),
      as(residential, '-country-de-state-texas'),
      'example.com:80',
    );
    expect(tunnel.response.status).toBe(502);
    expect(tunnel.response.body).toContain('No exit IP matches');
    tunnel.reader.close();
    const socks = await socks5(gateway(), as(residential, '-country-de-state-texas'), {
      host: 'example.com',
      port: 80,
    });
    expect(socks).toMatchObject({ authStatus: 0x00, reply: 0x04 });
    socks.reader.close();
  });

  it('refuses targeting segments on a mobile port (400): its exit is its modem', async () => {
    const port = await manualPort(sandbox);
    const answer = await proxyGet(gateway(), as(port, '-country-us'), 'http://example.com/');
    expect(answer.status).toBe(400);
    expect(answer.body).toContain('Mobile ports take no targeting segments');
  });
});
