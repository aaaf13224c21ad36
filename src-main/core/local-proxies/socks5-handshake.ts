import type { Socket } from 'node:net';
import type { LocalProxyErrorKind } from '../../../src-shared/contract';
import { hostPort } from './upstream';

/** RFC 1928 reply codes the local proxy answers with. */
export const SOCKS_REPLY = {
  succeeded: 0x00,
  generalFailure: 0x01,
  notAllowed: 0x02,
  networkUnreachable: 0x03,
  hostUnreachable: 0x04,
  connectionRefused: 0x05,
  ttlExpired: 0x06,
  commandNotSupported: 0x07,
  addressTypeNotSupported: 0x08,
} as const;

/** What a refusal of the upstream becomes for a SOCKS5 client (the gateway's codes where it has them). */
export function socksReplyFor(kind: LocalProxyErrorKind): number {
  switch (kind) {
    case 'forbidden':
      return SOCKS_REPLY.notAllowed;
    case 'unavailable':
      return SOCKS_REPLY.networkUnreachable;
    case 'no_exit':
    case 'targeting':
      return SOCKS_REPLY.hostUnreachable;
    case 'timeout':
      return SOCKS_REPLY.ttlExpired;
    case 'refused':
      return SOCKS_REPLY.connectionRefused;
    case 'credentials':
    case 'lookup':
    case 'unreachable':
      return SOCKS_REPLY.generalFailure;
  }
}

class SocksProtocolError extends Error {}

/**
 * Reads exact byte counts from a socket during a handshake, then hands the socket back paused with
 * whatever came after the handshake, so that the tunnel gets every byte in order.
 */
class HandshakeReader {
  private buffer = Buffer.alloc(0);
  private waiting: { size: number; resolve: (bytes: Buffer) => void; reject: (error: Error) => void } | null =
    null;
  private ended: Error | null = null;
  private readonly onData = (chunk: Buffer) => {
    this.buffer = Buffer.concat([this.buffer, chunk]);
    if (this.buffer.length > 4096) this.fail(new SocksProtocolError('handshake too long'));
    this.serve();
  };
  private readonly onEnd = () => this.fail(new SocksProtocolError('the client closed the connection'));

  constructor(private readonly socket: Socket) {
    socket.on('data', this.onData);
    socket.once('end', this.onEnd);
    socket.once('close', this.onEnd);
  }

  read(size: number): Promise<Buffer> {
    if (this.ended) return Promise.reject(this.ended);
    return new Promise((resolve, reject) => {
      this.waiting = { size, resolve, reject };
      this.serve();
    });
  }

  /** Stops reading; the socket is paused and the bytes read past the handshake are returned. */
  release(): Buffer {
    this.socket.pause();
    this.socket.removeListener('data', this.onData);
    this.socket.removeListener('end', this.onEnd);
    this.socket.removeListener('close', this.onEnd);
    const rest = this.buffer;
    this.buffer = Buffer.alloc(0);
    return rest;
  }

  private serve(): void {
    const waiting = this.waiting;
    if (!waiting || this.buffer.length < waiting.size) return;
    this.waiting = null;
    const bytes = this.buffer.subarray(0, waiting.size);
    this.buffer = this.buffer.subarray(waiting.size);
    waiting.resolve(bytes);
  }

  private fail(error: Error): void {
    this.ended ??= error;
    const waiting = this.waiting;
    this.waiting = null;
    waiting?.reject(error);
  }
}

export interface SocksRequest {
  /** `host:port` for the upstream's CONNECT. */
  target: string;
  /** Bytes the client sent after its request (a client may not wait for the reply). */
  rest: Buffer;
}

export interface SocksHandshakeOptions {
  /** The local user name and password a client must log in with, or null (any client on loopback). */
  checkLogin: ((username: string, password: string) => boolean) | null;
}

/**
 * The server side of a SOCKS5 handshake (RFC 1928, with RFC 1929 user/password): greeting, login
 * when required, and one CONNECT request. Other commands and SOCKS4 are refused with their reply.
 * Resolves with the target; a refused or malformed handshake has been answered and the socket ended.
 */
export async function socks5Handshake(
  socket: Socket,
  options: SocksHandshakeOptions,
): Promise<SocksRequest | null> {
  const reader = new HandshakeReader(socket);
  const refuse = (bytes: number[]) => {
    reader.release();
    socket.end(Buffer.from(bytes));
    return null;
  };
  try {
    const [version, methodCount] = await reader.read(2);
    if (version !== 0x05) return refuse([]);
    const methods = [...(await reader.read(methodCount ?? 0))];
    let method: number;
    if (options.checkLogin) method = methods.includes(0x02) ? 0x02 : 0xff;
    // Without a local password any client may use it, including one that always sends a login.
    else method = methods.includes(0x00) ? 0x00 : methods.includes(0x02) ? 0x02 : 0xff;
    socket.write(Buffer.from([0x05, method]));
    if (method === 0xff) return refuse([]);
    if (method === 0x02) {
      const [, userLength] = await reader.read(2);
      const username = (await reader.read(userLength ?? 0)).toString('utf8');
      const [passwordLength] = await reader.read(1);
      const password = (await reader.read(passwordLength ?? 0)).toString('utf8');
      const accepted = options.checkLogin ? options.checkLogin(username, password) : true;
      socket.write(Buffer.from([0x01, accepted ? 0x00 : 0x01]));
      if (!accepted) return refuse([]);
    }
    const [requestVersion, command, , addressType] = await reader.read(4);
    if (requestVersion !== 0x05) return refuse([]);
    let host: string;
    if (addressType === 0x01) {
      host = [...(await reader.read(4))].join('.');
    } else if (addressType === 0x03) {
      const [length] = await reader.read(1);
      host = (await reader.read(length ?? 0)).toString('utf8');
    } else if (addressType === 0x04) {
      const bytes = await reader.read(16);
      const groups: string[] = [];
      for (let index = 0; index < 16; index += 2) groups.push(bytes.readUInt16BE(index).toString(16));
      host = groups.join(':');
    } else {
      return refuse(replyBytes(SOCKS_REPLY.addressTypeNotSupported));
    }
    const port = (await reader.read(2)).readUInt16BE(0);
    if (command !== 0x01) return refuse(replyBytes(SOCKS_REPLY.commandNotSupported));
    if (host === '' || port === 0) return refuse(replyBytes(SOCKS_REPLY.hostUnreachable));
    return { target: hostPort(host, port), rest: reader.release() };
  } catch (error) {
    reader.release();
    if (!(error instanceof SocksProtocolError)) throw error;
    socket.destroy();
    return null;
  }
}

/** A SOCKS5 reply with the unspecified bound address 0.0.0.0:0. */
export function replyBytes(code: number): number[] {
  return [0x05, code, 0x00, 0x01, 0, 0, 0, 0, 0, 0];
}
