import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ControlConnection } from '../../src-main/control/control-client';
import { controlEndpoint } from '../../src-main/control/control-protocol';
import {
  type ControlSender,
  type ControlServer,
  startControlServer,
} from '../../src-main/control/control-server';
import type { GuardedDispatch } from '../../src-main/dispatch/guarded-dispatcher';
import { tempDataDir } from '../cli/support/cli-harness';

// The control socket's protocol and defences, with a dispatcher that records what it was asked.

const posix = process.platform !== 'win32';
const servers: ControlServer[] = [];
const sockets: Socket[] = [];

afterEach(async () => {
  sockets.splice(0).forEach((socket) => socket.destroy());
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

interface Recorded {
  grant: string[];
  channel: string;
  input: unknown;
}

function recordingDispatch(calls: Recorded[]): GuardedDispatch<ControlSender> {
  return (sender, channel, input) => {
    calls.push({ grant: [...sender.grant].sort(), channel, input });
    if (channel === 'app:getState') {
      return Promise.resolve({
        ok: true,
        value: { mode: 'web', activeProfile: { id: 'p1', name: 'Work', kind: 'account', extra: 1 } },
      });
    }
    return Promise.resolve({ ok: true, value: { echoed: input } });
  };
}

async function start(dataDir: string, calls: Recorded[] = [], limits = {}): Promise<ControlServer> {
  const server = await startControlServer({
    dataDir,
    dispatch: recordingDispatch(calls),
    log: () => undefined,
    limits,
    keyFingerprint: () => Promise.resolve('f1ngerprint'),
  });
  servers.push(server);
  return server;
}

/** A raw client: sends lines, collects answer lines. */
function rawClient(
  endpoint: string,
): Promise<{ socket: Socket; lines: () => Promise<any[]>; closed: Promise<void> }> {
  return new Promise((resolve, reject) => {
    const socket = connect(endpoint);
    sockets.push(socket);
    let buffer = '';
    const waiting: ((value: any[]) => void)[] = [];
    const received: any[] = [];
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      buffer += chunk;
      const parts = buffer.split('\n');
      buffer = parts.pop() ?? '';
      for (const part of parts) received.push(JSON.parse(part));
      waiting.splice(0).forEach((resolveWait) => resolveWait([...received]));
    });
    const closed = new Promise<void>((resolveClosed) => socket.on('close', () => resolveClosed()));
    socket.on('error', () => undefined);
    socket.once('connect', () =>
      resolve({
        socket,
        closed,
        lines: () =>
          new Promise((resolveLines) =>
            received.length > 0 ? resolveLines([...received]) : waiting.push(resolveLines),
          ),
      }),
    );
    socket.once('error', reject);
  });
}

describe('control server', () => {
  it.runIf(posix)(
    'listens on <dataDir>/control.sock (0600) in a folder made 0700, with a 0600 token file',
    async () => {
      const dataDir = join(tempDataDir(), 'data');
      mkdirSync(dataDir, { mode: 0o755 });
      chmodSync(dataDir, 0o755);
      const server = await start(dataDir);
      expect(server.endpoint).toBe(join(dataDir, 'control.sock'));
      expect(statSync(dataDir).mode & 0o777).toBe(0o700);
      expect(statSync(server.endpoint).mode & 0o777).toBe(0o600);
      expect(statSync(server.tokenFile).mode & 0o777).toBe(0o600);
      expect(readFileSync(server.tokenFile, 'utf8')).toMatch(/^[0-9a-f]{64}\n$/);
    },
  );

  it('answers hello and runs calls with the grant each request asks for', async () => {
    const dataDir = tempDataDir();
    const calls: Recorded[] = [];
    await start(dataDir, calls);
    const connection = await ControlConnection.open(dataDir);
    expect(connection).not.toBeNull();
    expect(await connection?.hello()).toEqual({
      pid: process.pid,
      mode: 'web',
      activeProfile: { name: 'Work', kind: 'account' },
      // The key's fingerprint, never the key: a command holding the same key comes through here.
      keyFingerprint: 'f1ngerprint',
    });
    const result = await connection?.call('ports:get', { portId: 'p' }, ['read', 'rotate']);
    expect(result).toEqual({ ok: true, value: { echoed: { portId: 'p' } } });
    expect(calls.at(-1)).toEqual({ grant: ['read', 'rotate'], channel: 'ports:get', input: { portId: 'p' } });
    connection?.close();
  });

  it('refuses a wrong token and closes the connection; a new start writes a new token', async () => {
    const dataDir = tempDataDir();
    const calls: Recorded[] = [];
    const server = await start(dataDir, calls);
    const client = await rawClient(server.endpoint);
    client.socket.write(`${JSON.stringify({ id: 1, token: 'f'.repeat(64), channel: 'ports:list' })}\n`);
    expect(await client.lines()).toEqual([
      { id: 1, ok: false, error: expect.objectContaining({ code: 'forbidden' }) },
    ]);
    await client.closed;
    expect(calls).toEqual([]);

    const oldToken = readFileSync(server.tokenFile, 'utf8');
    await server.close();
    servers.splice(0);
    await start(dataDir);
    expect(readFileSync(join(dataDir, 'control.token'), 'utf8')).not.toBe(oldToken);
  });

  it('drops a request line over the limit and a connection over the limit', async () => {
    const dataDir = tempDataDir();
    const server = await start(dataDir, [], { maxLineBytes: 1024, maxConnections: 1 });
    const big = await rawClient(server.endpoint);
    big.socket.write('x'.repeat(2048));
    expect(await big.lines()).toEqual([
      { id: null, ok: false, error: expect.objectContaining({ code: 'too_large' }) },
    ]);
    await big.closed;

    const first = await rawClient(server.endpoint);
    const second = await rawClient(server.endpoint);
    expect(await second.lines()).toEqual([
      { id: null, ok: false, error: expect.objectContaining({ code: 'busy' }) },
    ]);
    await second.closed;
    first.socket.destroy();
  });

  it('answers a line that is not a request with bad_request', async () => {
    const server = await start(tempDataDir());
    const client = await rawClient(server.endpoint);
    client.socket.write('{"id": 3, "token": 5}\n');
    expect(await client.lines()).toEqual([
      { id: 3, ok: false, error: expect.objectContaining({ code: 'bad_request' }) },
    ]);
  });

  it.runIf(posix)(
    'replaces a socket left by a crash, and removes its socket and token when closed',
    async () => {
      const dataDir = tempDataDir();
      writeFileSync(join(dataDir, 'control.sock'), 'left over');
      const server = await start(dataDir);
      expect(await ControlConnection.open(dataDir)).not.toBeNull();
      await server.close();
      expect(existsSync(server.endpoint)).toBe(false);
      expect(existsSync(server.tokenFile)).toBe(false);
      expect(await ControlConnection.open(dataDir)).toBeNull();
    },
  );

  it('an owner that lost the jobs lock closes without taking the new owner’s socket or token', async () => {
    const dataDir = tempDataDir();
    const calls: Recorded[] = [];
    const old = await start(dataDir, calls);
    const newer = await start(dataDir, calls);
    await old.close();
    const connection = await ControlConnection.open(dataDir);
    expect(await connection?.call('ports:list', undefined, ['read'])).toEqual({
      ok: true,
      value: { echoed: undefined },
    });
    connection?.close();
    await newer.close();
    expect(existsSync(join(dataDir, 'control.token'))).toBe(false);
  });

  it('puts the socket in a short private folder when the data folder’s path is too long for one', () => {
    const deep = join('/tmp', 'x'.repeat(120));
    const endpoint = controlEndpoint(deep, 'linux');
    expect(Buffer.byteLength(endpoint)).toBeLessThanOrEqual(100);
    expect(endpoint).toMatch(/proxy-manager-[^/]+\/[0-9a-f]{24}\.sock$/);
    expect(controlEndpoint('C:\\Users\\me\\AppData\\Roaming\\proxy-manager', 'win32')).toMatch(
      /^\\\\\.\\pipe\\proxy-manager-[0-9a-f]{24}$/,
    );
  });
});
