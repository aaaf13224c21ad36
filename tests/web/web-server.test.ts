import { mkdtempSync, writeFileSync, mkdirSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { IpcResult } from '../../src-main/ipc/contract';
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

describe('web-mode server', () => {
  let server: RunningWebServer;
  let emit: (channel: string, payload: unknown) => void;
  let dispatched: { sender: WebSender; channel: string; input: unknown }[];

  beforeEach(async () => {
    const staticDir = mkdtempSync(join(tmpdir(), 'pm-web-static-'));
    writeFileSync(join(staticDir, 'index.html'), '<!doctype html><title>app</title>');
    mkdirSync(join(staticDir, 'assets'));
    writeFileSync(join(staticDir, 'assets', 'app.js'), 'console.log(1)');
    writeFileSync(join(staticDir, '..', 'secret-outside.txt'), 'outside');
    dispatched = [];
    server = await startWebServer({
      staticDir,
      port: 0,
      token: 'a'.repeat(64),
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
});
