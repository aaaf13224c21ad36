import type { ChildProcess } from 'node:child_process';
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { spawnTs } from '../support/spawn-ts';

const ROOT = join(__dirname, '..', '..');

interface Target {
  child: ChildProcess;
  origin: string;
  token: string;
  stderr: () => string;
}

/** Starts the web server in its own process with short timeouts, so that idle sockets close quickly. */
function startTarget(limits: Record<string, number>): Promise<Target> {
  const child = spawnTs('tests/web/support/abuse-target.ts', [JSON.stringify(limits)], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve, reject) => {
    let buffer = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      buffer += chunk.toString();
      const match = /^ABUSE_READY (\{.*\})$/m.exec(buffer);
      if (match?.[1]) {
        const ready = JSON.parse(match[1]) as { origin: string; token: string };
        resolve({ child, ...ready, stderr: () => stderr });
      }
    });
    child.on('exit', (code) => reject(new Error(`abuse target exited ${code}: ${stderr}`)));
  });
}

function rawSocket(origin: string): Promise<Socket> {
  const { port } = new URL(origin);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1', () => resolve(socket));
    socket.on('error', reject);
  });
}

/** Everything the server sends until it closes the connection (errors count as closed). */
function untilClosed(socket: Socket): Promise<string> {
  return new Promise((resolve) => {
    let received = '';
    socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
    socket.on('error', () => undefined);
    socket.on('close', () => resolve(received));
  });
}

describe('web mode under a scripted abuse run', () => {
  let target: Target;
  const exits: (number | null)[] = [];

  beforeAll(async () => {
    target = await startTarget({ headersTimeoutMs: 300, requestTimeoutMs: 600, timeoutCheckIntervalMs: 50 });
    target.child.on('exit', (code) => exits.push(code));
  }, 60_000);

  afterAll(() => {
    target?.child.kill('SIGTERM');
  });

  const host = () => new URL(target.origin).host;

  async function normalCall(): Promise<number> {
    const response = await fetch(`${target.origin}/rpc/app:getState`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${target.token}`, 'Content-Type': 'application/json' },
      body: '{}',
    });
    await response.text();
    return response.status;
  }

  async function eventSocket(): Promise<WebSocket> {
    const ws = new WebSocket(`${target.origin.replace('http', 'ws')}/events`, [
      'proxy-manager.v1',
      `token.${target.token}`,
    ]);
    ws.on('error', () => undefined);
    await new Promise((resolve, reject) => {
      ws.on('open', resolve);
      ws.on('close', reject);
    });
    return ws;
  }

  const closeCode = (ws: WebSocket) => new Promise<number>((resolve) => ws.on('close', resolve));

  it('survives bad frames, oversized frames, 1,000 idle sockets and malformed URLs, then answers', async () => {
    expect(await normalCall()).toBe(200);

    // Oversized message (over the 4 KiB default), then frames no WebSocket server may accept.
    const big = await eventSocket();
    const bigClosed = closeCode(big);
    big.send(Buffer.alloc(64 * 1024 + 1));
    expect(await bigClosed).toBe(1009);
    const badFrames = [
      Buffer.from([0x8f, 0x00]), // reserved opcode
      Buffer.from([0x81, 0x05, 0x68, 0x65, 0x6c, 0x6c, 0x6f]), // unmasked client frame
      Buffer.from([0xc1, 0x80, 0, 0, 0, 0]), // RSV1 without a negotiated extension
      Buffer.from([0x89, 0xfe, 0x01, 0x00, 0, 0, 0, 0]), // control frame over 125 bytes
      Buffer.from([0x81, 0x82, 0, 0, 0, 0, 0xff, 0xfe]), // text that is not UTF-8
    ];
    for (const frame of badFrames) {
      const ws = await eventSocket();
      const code = closeCode(ws);
      (ws as unknown as { _socket: Socket })._socket.write(frame);
      expect([1002, 1007, 1009]).toContain(await code);
    }
    expect(exits).toEqual([]);

    // 1,000 connections that never send a byte: over the cap they are dropped, the rest time out.
    // In waves of 200, below the kernel's accept backlog (511): past it, the kernel itself holds
    // connections back from the server and retries them for up to a minute, whatever the server does.
    for (let wave = 0; wave < 5; wave += 1) {
      const idle = await Promise.all(Array.from({ length: 200 }, () => rawSocket(target.origin)));
      await Promise.all(idle.map(untilClosed));
    }

    // Malformed targets and encodings, each on its own connection.
    for (const line of [
      'GET /%E0%A4%A HTTP/1.1',
      'POST /rpc/%ZZ HTTP/1.1',
      'GET //[ HTTP/1.1',
      'GET * HTTP/1.1',
      'GET /\u0000 HTTP/1.1',
      'BREW /coffee HTCPCP/1.0',
      'GET /events HTTP/1.1\r\nUpgrade: websocket\r\nConnection: Upgrade',
    ]) {
      const socket = await rawSocket(target.origin);
      const answer = untilClosed(socket);
      socket.end(`${line}\r\nHost: ${host()}\r\nAuthorization: Bearer ${target.token}\r\n\r\n`);
      expect(await answer, line).not.toMatch(/^HTTP\/1\.1 5\d\d/);
    }

    expect(exits).toEqual([]);
    expect(await normalCall()).toBe(200);
    const events = await eventSocket();
    events.close();
    expect(target.stderr()).toContain('connection cap (64) reached');
  }, 60_000);
});
