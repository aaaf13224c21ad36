import { mkdtempSync, writeFileSync, mkdirSync } from 'node:fs';
import { request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { IpcResult } from '../../src-shared/contract';
import { type RunningWebServer, startWebServer, type WebSender } from '../../src-main/web/web-server';

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** Raw HTTP, because fetch will not let a test forge Host or Origin. */
function send(
  server: RunningWebServer,
  options: { method?: string; path: string; headers?: Record<string, string>; body?: string },
): Promise<Answer> {
  const { port } = new URL(server.origin);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method: options.method ?? 'GET',
        path: options.path,
        headers: options.headers,
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

/** Opens a raw TCP connection, for requests no HTTP client would send. */
function openSocket(server: RunningWebServer): Promise<Socket> {
  const { port } = new URL(server.origin);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1', () => resolve(socket));
    socket.on('error', reject);
  });
}

/** Resolves with the status line and headers of the first answer on a raw socket (no body). */
function readHead(socket: Socket): Promise<string> {
  return new Promise((resolve, reject) => {
    let received = '';
    const onData = (chunk: Buffer) => {
      received += chunk.toString('latin1');
      const end = received.indexOf('\r\n\r\n');
      if (end < 0) return;
      socket.off('data', onData);
      resolve(received.slice(0, end));
    };
    socket.on('data', onData);
    socket.on('close', () => reject(new Error(`closed before an answer: ${JSON.stringify(received)}`)));
  });
}

const closed = (socket: Socket): Promise<void> =>
  new Promise((resolve) => {
    if (socket.destroyed) resolve();
    else socket.on('close', () => resolve());
  });

/** A WebSocket upgrade request by hand, so that a test can leave out the app's subprotocol. */
function upgradeRequest(server: RunningWebServer, protocols: string[]): string {
  return [
    'GET /events HTTP/1.1',
    `Host: ${new URL(server.origin).host}`,
    'Upgrade: websocket',
    'Connection: Upgrade',
    'Sec-WebSocket-Version: 13',
    'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==',
    `Sec-WebSocket-Protocol: ${protocols.join(', ')}`,
    '',
    '',
  ].join('\r\n');
}

describe('web-mode server', () => {
  let server: RunningWebServer;
  let emit: (channel: string, payload: unknown) => void;
  let dispatched: { sender: WebSender; channel: string; input: unknown }[];

  let clientCounts: number[];
  beforeEach(async () => {
    const staticDir = mkdtempSync(join(tmpdir(), 'pm-web-static-'));
    writeFileSync(join(staticDir, 'index.html'), '<!doctype html><title>app</title>');
    mkdirSync(join(staticDir, 'assets'));
    writeFileSync(join(staticDir, 'assets', 'app.js'), 'console.log(1)');
    writeFileSync(join(staticDir, '..', 'secret-outside.txt'), 'outside');
    dispatched = [];
    // This server's own list: a socket of the previous test may close after this one started.
    const counts: number[] = [];
    clientCounts = counts;
    server = await startWebServer({
      staticDir,
      port: 0,
      token: 'a'.repeat(64),
      onEventClients: (count) => counts.push(count),
      dispatch: (sender, channel, input) => {
        dispatched.push({ sender, channel, input });
        return Promise.resolve({ ok: true, value: { channel, input } } as IpcResult<unknown>);
      },
      subscribe: (listener) => {
        emit = listener;
        return () => undefined;
      },
    });
  });

  afterEach(() => server.close());

  const host = () => new URL(server.origin).host;
  const rpcHeaders = (token = 'a'.repeat(64)) => ({
    Host: host(),
    Authorization: `Bearer ${token}`,
    'Content-Type': 'application/json',
  });

  it('prints a loopback URL whose fragment carries the token', () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/#token=a{64}$/);
  });

  it('serves the renderer without a token, with a strict CSP', async () => {
    const page = await send(server, { path: '/', headers: { Host: host() } });
    expect(page.status).toBe(200);
    expect(page.body).toContain('<title>app</title>');
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    expect(page.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(page.headers['x-content-type-options']).toBe('nosniff');
    const script = await send(server, { path: '/assets/app.js', headers: { Host: host() } });
    expect(script.headers['content-type']).toContain('text/javascript');
  });

  it('refuses any request whose Host is not its own loopback address (DNS rebinding)', async () => {
    for (const badHost of ['evil.example:80', `localhost:${new URL(server.origin).port}`, '127.0.0.1:1']) {
      const page = await send(server, { path: '/', headers: { Host: badHost } });
      expect(page.status, badHost).toBe(403);
      const call = await send(server, {
        method: 'POST',
        path: '/rpc/app:getState',
        headers: { ...rpcHeaders(), Host: badHost },
        body: '{}',
      });
      expect(call.status, badHost).toBe(403);
    }
    expect(dispatched).toEqual([]);
  });

  it('refuses a cross-site Origin even with the right token', async () => {
    const call = await send(server, {
      method: 'POST',
      path: '/rpc/app:getState',
      headers: { ...rpcHeaders(), Origin: 'http://evil.example' },
      body: '{}',
    });
    expect(call.status).toBe(403);
    const sameOrigin = await send(server, {
      method: 'POST',
      path: '/rpc/app:getState',
      headers: { ...rpcHeaders(), Origin: server.origin },
      body: '{}',
    });
    expect(sameOrigin.status).toBe(200);
  });

  it('needs the token for every call', async () => {
    const missing = await send(server, {
      method: 'POST',
      path: '/rpc/app:getState',
      headers: { Host: host(), 'Content-Type': 'application/json' },
      body: '{}',
    });
    expect(missing.status).toBe(401);
    const wrong = await send(server, {
      method: 'POST',
      path: '/rpc/app:getState',
      headers: rpcHeaders('b'.repeat(64)),
      body: '{}',
    });
    expect(wrong.status).toBe(401);
    const short = await send(server, {
      method: 'POST',
      path: '/rpc/app:getState',
      headers: rpcHeaders('a'),
      body: '{}',
    });
    expect(short.status).toBe(401);
    expect(dispatched).toEqual([]);
  });

  it('passes the channel and input to the dispatcher and answers its result', async () => {
    const call = await send(server, {
      method: 'POST',
      path: `/rpc/${encodeURIComponent('catalog:states')}`,
      headers: rpcHeaders(),
      body: JSON.stringify({ input: { countryCode: 'US' } }),
    });
    expect(call.status).toBe(200);
    expect(JSON.parse(call.body)).toEqual({
      ok: true,
      value: { channel: 'catalog:states', input: { countryCode: 'US' } },
    });
    expect(dispatched).toEqual([
      { sender: { kind: 'web', tokenValid: true }, channel: 'catalog:states', input: { countryCode: 'US' } },
    ]);
  });

  it('rejects calls that are not JSON, not POST, or not parseable', async () => {
    const form = await send(server, {
      method: 'POST',
      path: '/rpc/app:getState',
      headers: { ...rpcHeaders(), 'Content-Type': 'text/plain' },
      body: 'input=1',
    });
    expect(form.status).toBe(415);
    const get = await send(server, { path: '/rpc/app:getState', headers: rpcHeaders() });
    expect(get.status).toBe(405);
    const broken = await send(server, {
      method: 'POST',
      path: '/rpc/app:getState',
      headers: rpcHeaders(),
      body: '{oops',
    });
    expect(broken.status).toBe(400);
    expect(JSON.parse(broken.body)).toMatchObject({ ok: false, error: { code: 'invalid_json' } });
    expect(dispatched).toEqual([]);
  });

  it('never serves files outside the renderer folder', async () => {
    for (const path of [
      '/../secret-outside.txt',
      '/%2e%2e/secret-outside.txt',
      '/assets/../../secret-outside.txt',
    ]) {
      const answer = await send(server, { path, headers: { Host: host() } });
      expect(answer.body).not.toContain('outside');
    }
  });

  it('pushes events only to sockets that present the token and the right origin', async () => {
    const wsUrl = `${server.origin.replace('http', 'ws')}/events`;
    const refused = (protocols: string[], headers: Record<string, string> = {}) =>
      new Promise<boolean>((resolve) => {
        const ws = new WebSocket(wsUrl, protocols, { headers });
        ws.on('open', () => {
          ws.close();
          resolve(false);
        });
        ws.on('error', () => resolve(true));
      });
    expect(await refused(['proxy-manager.v1'])).toBe(true);
    expect(await refused(['proxy-manager.v1', `token.${'b'.repeat(64)}`])).toBe(true);
    expect(
      await refused(['proxy-manager.v1', `token.${'a'.repeat(64)}`], { Origin: 'http://evil.example' }),
    ).toBe(true);

    const ws = new WebSocket(wsUrl, ['proxy-manager.v1', `token.${'a'.repeat(64)}`], {
      headers: { Origin: server.origin },
    });
    await new Promise((resolve, reject) => {
      ws.on('open', resolve);
      ws.on('error', reject);
    });
    expect(ws.protocol).toBe('proxy-manager.v1');
    const message = new Promise<string>((resolve) =>
      ws.on('message', (data: Buffer) => resolve(data.toString())),
    );
    emit('app:stateChanged', { hello: 1 });
    expect(JSON.parse(await message)).toEqual({ channel: 'app:stateChanged', payload: { hello: 1 } });
    ws.close();
  });

  it('tells how many pages hold an event socket (web mode counts a connected page as a visible window)', async () => {
    const wsUrl = `${server.origin.replace('http', 'ws')}/events`;
    const open = async () => {
      const ws = new WebSocket(wsUrl, ['proxy-manager.v1', `token.${'a'.repeat(64)}`], {
        headers: { Origin: server.origin },
      });
      await new Promise((resolve, reject) => {
        ws.on('open', resolve);
        ws.on('error', reject);
      });
      return ws;
    };
    const until = async (length: number) => {
      for (let i = 0; i < 500 && clientCounts.length < length; i += 1)
        await new Promise((r) => setTimeout(r, 2));
    };
    const first = await open();
    const second = await open();
    await until(2);
    expect(clientCounts).toEqual([1, 2]);
    first.close();
    await until(3);
    second.close();
    await until(4);
    expect(clientCounts).toEqual([1, 2, 1, 0]);
  });
});

describe('web-mode server under abuse', () => {
  const TOKEN = 'a'.repeat(64);
  let server: RunningWebServer;
  let logLines: string[];
  let dispatched: string[];
  let emit: (channel: string, payload: unknown) => void;

  async function start(limits: Parameters<typeof startWebServer>[0]['limits'] = {}) {
    const staticDir = mkdtempSync(join(tmpdir(), 'pm-web-static-'));
    writeFileSync(join(staticDir, 'index.html'), '<!doctype html><title>app</title>');
    logLines = [];
    dispatched = [];
    server = await startWebServer({
      staticDir,
      port: 0,
      token: TOKEN,
      dispatch: (_sender, channel) => {
        dispatched.push(channel);
        return Promise.resolve({ ok: true, value: channel } as IpcResult<unknown>);
      },
      subscribe: (listener) => {
        emit = listener;
        return () => undefined;
      },
      log: (line) => logLines.push(line),
      limits,
    });
  }

  afterEach(() => server?.close());

  const host = () => new URL(server.origin).host;
  const rpcHeaders = () => ({
    Host: host(),
    Authorization: `Bearer ${TOKEN}`,
    'Content-Type': 'application/json',
  });
  const normalCall = () =>
    send(server, { method: 'POST', path: '/rpc/app:getState', headers: rpcHeaders(), body: '{}' });

  async function openEvents(): Promise<WebSocket> {
    const ws = new WebSocket(`${server.origin.replace('http', 'ws')}/events`, [
      'proxy-manager.v1',
      `token.${TOKEN}`,
    ]);
    await new Promise((resolve, reject) => {
      ws.on('open', resolve);
      ws.on('error', reject);
    });
    return ws;
  }

  const closeCode = (ws: WebSocket) =>
    new Promise<number>((resolve) => ws.on('close', (code: number) => resolve(code)));

  it('drops an event socket that sends a message over the limit, and keeps serving', async () => {
    await start({ maxMessageBytes: 1024 });
    const ws = await openEvents();
    ws.on('error', () => undefined);
    const code = closeCode(ws);
    ws.send(Buffer.alloc(2048));
    expect(await code).toBe(1009);
    expect(logLines.some((line) => line.includes('event socket dropped'))).toBe(true);
    expect((await normalCall()).status).toBe(200);
  });

  it('drops an event socket that sends an invalid frame, and keeps serving', async () => {
    await start();
    const ws = await openEvents();
    ws.on('error', () => undefined);
    const code = closeCode(ws);
    // FIN + reserved opcode 0xF, unmasked, empty: invalid in every way a server checks first.
    (ws as unknown as { _socket: Socket })._socket.write(Buffer.from([0x8f, 0x00]));
    expect(await code).toBe(1002);
    expect(logLines.some((line) => line.includes('event socket dropped'))).toBe(true);
    expect((await normalCall()).status).toBe(200);
    const again = await openEvents();
    const message = new Promise<string>((resolve) =>
      again.on('message', (data: Buffer) => resolve(data.toString())),
    );
    emit('app:stateChanged', 1);
    expect(JSON.parse(await message)).toEqual({ channel: 'app:stateChanged', payload: 1 });
    again.close();
  });

  it('answers 400 to malformed percent-encoding and unparseable targets', async () => {
    await start();
    const call = await send(server, {
      method: 'POST',
      path: '/rpc/app%3getState%',
      headers: rpcHeaders(),
      body: '{}',
    });
    expect(call.status).toBe(400);
    const page = await send(server, { path: '/%E0%A4%A', headers: { Host: host() } });
    expect(page.status).toBe(400);
    const socket = await openSocket(server);
    // `//[` is a path here, not a broken host: the old server threw on it and answered 500.
    socket.write(`GET //[ HTTP/1.1\r\nHost: ${host()}\r\n\r\n`);
    expect(await readHead(socket)).toMatch(/^HTTP\/1\.1 404 /);
    socket.write(`GET * HTTP/1.1\r\nHost: ${host()}\r\n\r\n`);
    expect(await readHead(socket)).toMatch(/^HTTP\/1\.1 400 /);
    socket.destroy();
    expect(dispatched).toEqual([]);
  });

  it('answers 413 as soon as a body is announced over the limit, without waiting for it', async () => {
    await start({ maxBodyBytes: 1000 });
    const socket = await openSocket(server);
    socket.write(
      `POST /rpc/app:getState HTTP/1.1\r\nHost: ${host()}\r\nAuthorization: Bearer ${TOKEN}\r\n` +
        'Content-Type: application/json\r\nContent-Length: 5000\r\n\r\n{"input":',
    );
    const head = await readHead(socket);
    expect(head).toMatch(/^HTTP\/1\.1 413 /);
    expect(head.toLowerCase()).toContain('connection: close');
    socket.destroy();
    expect(dispatched).toEqual([]);
  });

  it('answers 413 once a streamed body passes the limit, before it ends', async () => {
    await start({ maxBodyBytes: 1000 });
    const socket = await openSocket(server);
    const chunk = 'x'.repeat(1500);
    socket.write(
      `POST /rpc/app:getState HTTP/1.1\r\nHost: ${host()}\r\nAuthorization: Bearer ${TOKEN}\r\n` +
        `Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n${chunk.length.toString(16)}\r\n${chunk}\r\n`,
    );
    // The last chunk is never sent: the old server waited for the end of the body forever.
    expect(await readHead(socket)).toMatch(/^HTTP\/1\.1 413 /);
    socket.destroy();
    expect(dispatched).toEqual([]);
  });

  it('takes exactly application/json (with parameters) as the call media type', async () => {
    await start();
    for (const type of [
      'application/jsonfoo',
      'application/json-patch+json',
      'text/plain; x=application/json',
    ]) {
      const call = await send(server, {
        method: 'POST',
        path: '/rpc/app:getState',
        headers: { ...rpcHeaders(), 'Content-Type': type },
        body: '{}',
      });
      expect(call.status, type).toBe(415);
    }
    expect(dispatched).toEqual([]);
    const withCharset = await send(server, {
      method: 'POST',
      path: '/rpc/app:getState',
      headers: { ...rpcHeaders(), 'Content-Type': 'application/json; charset=utf-8' },
      body: '{}',
    });
    expect(withCharset.status).toBe(200);
  });

  it('refuses an event socket that does not ask for the app subprotocol', async () => {
    await start();
    const without = await openSocket(server);
    without.write(upgradeRequest(server, [`token.${TOKEN}`]));
    expect(await readHead(without)).toMatch(/^HTTP\/1\.1 400 /);
    await closed(without);
    const withIt = await openSocket(server);
    withIt.write(upgradeRequest(server, ['proxy-manager.v1', `token.${TOKEN}`]));
    const head = await readHead(withIt);
    expect(head).toMatch(/^HTTP\/1\.1 101 /);
    expect(head).toContain('Sec-WebSocket-Protocol: proxy-manager.v1');
    withIt.destroy();
  });

  it('closes a connection that sends nothing once the header timeout passes', async () => {
    await start({ headersTimeoutMs: 100, requestTimeoutMs: 200, timeoutCheckIntervalMs: 20 });
    const socket = await openSocket(server);
    socket.on('data', () => undefined);
    await closed(socket);
    expect((await normalCall()).status).toBe(200);
  });

  it('closes a connection that stalls after part of its headers', async () => {
    await start({ headersTimeoutMs: 100, requestTimeoutMs: 200, timeoutCheckIntervalMs: 20 });
    const socket = await openSocket(server);
    socket.on('data', () => undefined);
    socket.write(`POST /rpc/app:getState HTTP/1.1\r\nHost: ${host()}\r\n`);
    await closed(socket);
  });

  it('caps open connections', async () => {
    await start({ maxConnections: 3 });
    const held = await Promise.all([openSocket(server), openSocket(server), openSocket(server)]);
    const extra = await openSocket(server);
    await closed(extra);
    expect(logLines.some((line) => line.includes('connection cap (3)'))).toBe(true);
    for (const socket of held) socket.destroy();
  });

  it('caps open event sockets, leaving room for calls', async () => {
    await start({ maxEventSockets: 1 });
    const first = await openEvents();
    const second = await openSocket(server);
    second.write(upgradeRequest(server, ['proxy-manager.v1', `token.${TOKEN}`]));
    expect(await readHead(second)).toMatch(/^HTTP\/1\.1 503 /);
    second.destroy();
    expect((await normalCall()).status).toBe(200);
    first.close();
  });
});
