import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestSandbox } from '../../src/testing';
import { portByLabel, SEEDED_PORT_LABELS } from '../mobile/mobile-test-support';
import { SEEDED_SUBSCRIPTION_LABELS, subscriptionByLabel } from '../subscriptions/subscription-helpers';
import { connectTunnel, getInTunnel, open, proxyGet, socks5 } from './gateway-clients';

let sandbox: TestSandbox;
let main: { username: string; password: string; id: string };

beforeAll(async () => {
  sandbox = await TestSandbox.start();
  main = await subscriptionByLabel(sandbox, SEEDED_SUBSCRIPTION_LABELS.withSubUsers);
});

afterAll(async () => {
  await sandbox.close();
});

const gateway = () => sandbox.sandbox.gateway;

describe('sandbox gateway: HTTP proxy', () => {
  it('listens on 127.0.0.1 at the endpoint every subscription and port shows', async () => {
    expect(gateway().host).toBe('127.0.0.1');
    expect(main).toMatchObject({ endpoint: gateway() });
    expect(await portByLabel(sandbox, SEEDED_PORT_LABELS.berlin)).toMatchObject({ endpoint: gateway() });
  });

  it("answers a proxied request itself with an echo of the exit and the request, without the proxy's credentials", async () => {
    const answer = await proxyGet(gateway(), main, 'http://example.com/path?q=1', { 'X-Probe': 'yes' });
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(answer.json).toMatchObject({
      account: { type: 'subscription', id: main.id, username: main.username },
      via: 'http',
      tunnelTarget: null,
      request: { method: 'GET', url: 'http://example.com/path?q=1', httpVersion: '1.1', bodyBytes: 0 },
      at: await sandbox.now(),
    });
    expect(answer.json.request.headers).toMatchObject({ host: 'example.com', 'x-probe': 'yes' });
    expect(answer.json.request.headers).not.toHaveProperty('proxy-authorization');
    expect(answer.body).not.toContain(main.password);
    expect(answer.json.exit.ip).toMatch(/^198\.1[89]\.\d+\.\d+$/);
    expect(answer.headers['x-sandbox-exit-ip']).toBe(answer.json.exit.ip);
    expect(answer.json.exit.asn).toEqual(expect.any(Number));
  });

  it('asks for credentials with 407 and Proxy-Authenticate when none, wrong ones or an unknown user are sent', async () => {
    for (const credentials of [
      null,
      { username: main.username, password: `${main.password}x` },
      { username: 'unothere1', password: main.password },
    ]) {
      const answer = await proxyGet(gateway(), credentials, 'http://example.com/');
      expect(answer.status).toBe(407);
      expect(answer.headers['proxy-authenticate']).toBe('Basic realm="Proxy Manager sandbox gateway"');
      expect(answer.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(answer.body).toContain('<h1>Proxy authentication required</h1>');
    }
  });

  it('answers a request that is not a proxy request with a page saying how to use the proxy', async () => {
    const reader = await open(gateway().httpPort);
    reader.write('GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n');
    const answer = await reader.response();
    reader.close();
    expect(answer.status).toBe(400);
    expect(answer.body).toContain('curl -x');
  });
});

describe('sandbox gateway: CONNECT', () => {
  it('opens a tunnel for good credentials and answers plain HTTP inside it, one exit IP per tunnel', async () => {
    const { reader, response } = await connectTunnel(gateway(), main, 'shop.example:80');
    try {
      expect(response.status).toBe(200);
      const first = await getInTunnel(reader, 'shop.example', '/a');
      const second = await getInTunnel(reader, 'shop.example', '/b');
      expect(first.status).toBe(200);
      expect(first.json).toMatchObject({
        via: 'connect',
        tunnelTarget: 'shop.example:80',
        account: { id: main.id },
        request: { method: 'GET', url: 'http://shop.example/a' },
      });
      expect(second.json.request.url).toBe('http://shop.example/b');
      expect(second.json.exit).toEqual(first.json.exit);
    } finally {
      reader.close();
    }
  });

  it('answers a CONNECT with wrong or missing credentials with a 407 page and closes', async () => {
    for (const credentials of [null, { username: main.username, password: 'nope' }]) {
      const { reader, response } = await connectTunnel(gateway(), credentials, 'shop.example:443');
      expect(response.status).toBe(407);
      expect(response.headers['proxy-authenticate']).toContain('Basic realm=');
      expect(response.body).toContain('Proxy authentication required');
      await reader.rest();
    }
  });

  it('ends a TLS handshake inside the tunnel with a handshake_failure alert (the echo is plain HTTP only)', async () => {
    const { reader, response } = await connectTunnel(gateway(), main, 'shop.example:443');
    expect(response.status).toBe(200);
    // The first bytes of a TLS ClientHello record.
    reader.write(Buffer.from([0x16, 0x03, 0x01, 0x00, 0x05, 0x01, 0x00, 0x00, 0x01, 0x00]));
    expect([...(await reader.rest())]).toEqual([0x15, 0x03, 0x03, 0x00, 0x02, 0x02, 0x28]);
  });
});

describe('sandbox gateway: SOCKS5', () => {
  it('logs in with username and password (RFC 1929) and answers plain HTTP inside the tunnel', async () => {
    const port = await portByLabel(sandbox, SEEDED_PORT_LABELS.berlin);
    const outcome = await socks5(gateway(), port, { host: 'example.org', port: 80 });
    try {
      expect(outcome).toMatchObject({ method: 0x02, authStatus: 0x00, reply: 0x00 });
      const answer = await getInTunnel(outcome.reader, 'example.org', '/socks');
      expect(answer.json).toMatchObject({
        via: 'socks5',
        tunnelTarget: 'example.org:80',
        account: { type: 'mobile-port', id: port.id, username: port.username },
        exit: { ip: port.currentIp, country: 'DE', carrier: port.carrier, networkType: port.networkType },
        request: { url: 'http://example.org/socks' },
      });
    } finally {
      outcome.reader.close();
    }
  });

  it('takes an IPv4 destination as well as a domain name', async () => {
    const outcome = await socks5(gateway(), main, { host: '203.0.113.9', port: 8080 });
    try {
      expect(outcome.reply).toBe(0x00);
      const answer = await getInTunnel(outcome.reader, '203.0.113.9:8080');
      expect(answer.json.tunnelTarget).toBe('203.0.113.9:8080');
    } finally {
      outcome.reader.close();
    }
  });

  it('fails the login (status 0x01) for a wrong password and closes', async () => {
    const outcome = await socks5(
      gateway(),
      { username: main.username, password: 'wrong' },
      { host: 'a.b', port: 80 },
    );
    expect(outcome).toMatchObject({ method: 0x02, authStatus: 0x01, reply: null });
    await outcome.reader.rest();
  });

  it('refuses clients that cannot log in with a password (0xff) and commands other than CONNECT (0x07)', async () => {
    const noAuth = await socks5(gateway(), main, { host: 'a.b', port: 80 }, { methods: [0x00] });
    expect(noAuth.method).toBe(0xff);
    await noAuth.reader.rest();
    const bind = await socks5(gateway(), main, { host: 'a.b', port: 80 }, { command: 0x02 });
    expect(bind.reply).toBe(0x07);
    await bind.reader.rest();
  });
});
