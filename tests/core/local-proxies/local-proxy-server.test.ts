import { connect } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { manualPort, TestSandbox } from '@proxy-manager/sandbox/testing';
import {
  ListenError,
  type FailureReport,
  type LocalProxyLimits,
  LocalProxyServer,
} from '../../../src-main/core/local-proxies/local-proxy-server';
import type { Upstream, UpstreamSource } from '../../../src-main/core/local-proxies/upstream';
import { echoOf, viaHttp, viaSocks } from './support/proxy-clients';

/*
 * The listener on its own, in front of the sandbox gateway, with an upstream source the test
 * controls: what it retries and what it does not, its limits, and what it refuses to do.
 */

describe('LocalProxyServer', () => {
  let sandbox: TestSandbox;
  let port: { id: string; currentIp: string; username: string; password: string };
  let servers: LocalProxyServer[];
  let failures: FailureReport[];

  beforeEach(async () => {
    sandbox = await TestSandbox.start();
    port = await manualPort(sandbox);
    servers = [];
    failures = [];
  });

  afterEach(async () => {
    await Promise.all(servers.map((server) => server.close()));
    await sandbox.close();
  });

  const gateway = (password: string, generation = 1): Upstream => ({
    host: '127.0.0.1',
    port: sandbox.sandbox.gateway.httpPort,
    username: port.username,
    password,
    generation,
  });

  /** An upstream source that starts with a wrong password and finds the right one on a re-read. */
  const staleThenFresh = (): UpstreamSource & { refreshes: number } => {
    const source = {
      refreshes: 0,
      current: () => Promise.resolve(gateway('an-old-password')),
      refresh: () => {
        source.refreshes += 1;
        return Promise.resolve(gateway(port.password, 2));
      },
    };
    return source;
  };

  const listen = async (
    upstream: UpstreamSource,
    options: {
      limits?: Partial<LocalProxyLimits>;
      host?: string;
      auth?: { username: string; password: string };
    } = {},
  ) => {
    const server = await LocalProxyServer.listen({
      host: options.host ?? '127.0.0.1',
      port: 0,
      auth: options.auth ?? null,
      upstream,
      label: 'test',
      ...(options.limits ? { limits: options.limits } : {}),
      onFailure: (failure) => failures.push(failure),
    });
    servers.push(server);
    return server;
  };

  it('sends a request body again when it retries after a 407', async () => {
    const source = staleThenFresh();
    const server = await listen(source);
    const answer = await viaHttp(server.address.port, 'http://echo.test/form', {
      method: 'POST',
      body: 'a=1&b=2',
    });
    expect(answer.status).toBe(200);
    expect(echoOf(answer).request).toMatchObject({ method: 'POST', bodyBytes: 7 });
    expect(source.refreshes).toBe(1);
    expect(failures).toEqual([]);
  });

  it('does not retry a body too large to keep, and tells the tool why instead of passing the 407 on', async () => {
    const source = staleThenFresh();
    const server = await listen(source, { limits: { retryBodyBytes: 16 } });
    const answer = await viaHttp(server.address.port, 'http://echo.test/upload', {
      method: 'POST',
      body: 'x'.repeat(1000),
    });
    expect(answer.status).toBe(502);
    expect(answer.headers['proxy-authenticate']).toBeUndefined();
    expect(answer.body).toContain('refused the credentials (407)');
    expect(source.refreshes).toBe(0);
    expect(failures).toEqual([
      expect.objectContaining({ kind: 'credentials', status: 407, target: 'http://echo.test/upload' }),
    ]);
  });

  it('reports a 407 that a re-read does not cure, once per request, without the password', async () => {
    const source: UpstreamSource = {
      current: () => Promise.resolve(gateway('wrong-password-1')),
      refresh: () => Promise.resolve(gateway('wrong-password-2', 2)),
    };
    const server = await listen(source);
    await expect(viaSocks(server.address.port)).rejects.toThrow(/general failure|Socks5 proxy rejected/i);
    expect(failures).toHaveLength(1);
    expect(failures[0]).toMatchObject({ kind: 'credentials', status: 407, target: 'echo.test:80' });
    expect(JSON.stringify(failures)).not.toContain('wrong-password');
  });

  it('says why when the upstream cannot be looked up', async () => {
    const server = await listen({
      current: () => Promise.reject(new Error('The demo is not running: start it (Try demo).')),
      refresh: () => Promise.reject(new Error('unused')),
    });
    const answer = await viaHttp(server.address.port);
    expect(answer.status).toBe(502);
    expect(answer.body).toContain('could not be looked up');
    expect(failures).toEqual([
      expect.objectContaining({ kind: 'lookup', detail: 'The demo is not running: start it (Try demo).' }),
    ]);
  });

  it('holds at most its limit of connections and counts the ones it refused', async () => {
    const server = await listen(staleThenFresh(), { limits: { maxConnections: 3 } });
    const open = await Promise.all(
      Array.from(
        { length: 3 },
        () =>
          new Promise<ReturnType<typeof connect>>((resolve) => {
            const socket = connect(server.address.port, '127.0.0.1', () => resolve(socket));
          }),
      ),
    );
    await expect.poll(() => server.stats().openConnections).toBe(3);
    const extra = connect(server.address.port, '127.0.0.1');
    await new Promise((resolve) => extra.once('close', resolve));
    expect(server.stats()).toMatchObject({ openConnections: 3, rejectedConnections: 1 });
    for (const socket of open) socket.destroy();
    await expect.poll(() => server.stats().openConnections).toBe(0);
  });

  it('answers SOCKS5 commands other than CONNECT with “command not supported”', async () => {
    const server = await listen(staleThenFresh());
    const socket = connect(server.address.port, '127.0.0.1');
    const received: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => received.push(chunk));
    await new Promise((resolve) => socket.once('connect', resolve));
    // Greeting (no auth), then BIND to 0.0.0.0:80.
    socket.write(Buffer.from([0x05, 0x01, 0x00]));
    socket.write(Buffer.from([0x05, 0x02, 0x00, 0x01, 0, 0, 0, 0, 0, 80]));
    await new Promise((resolve) => socket.once('close', resolve));
    const bytes = Buffer.concat(received);
    expect([...bytes.subarray(0, 2)]).toEqual([0x05, 0x00]);
    expect(bytes[3]).toBe(0x07);
  });

  it('refuses to listen off loopback without a local login, and names a taken port', async () => {
    await expect(listen(staleThenFresh(), { host: '0.0.0.0' })).rejects.toMatchObject({
      code: 'auth_required',
    });
    const first = await listen(staleThenFresh());
    const error = await LocalProxyServer.listen({
      host: '127.0.0.1',
      port: first.address.port,
      auth: null,
      upstream: staleThenFresh(),
      label: 'second',
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ListenError);
    expect(error).toMatchObject({
      code: 'port_in_use',
      message: `127.0.0.1:${first.address.port} is already in use by another program: choose another port.`,
    });
  });
});
