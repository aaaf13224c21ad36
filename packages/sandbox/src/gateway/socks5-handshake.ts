import type { Socket } from 'node:net';

/*
 * The server side of a SOCKS5 handshake (RFC 1928) with username/password login (RFC 1929), CONNECT
 * only. Hand-written: the npm SOCKS servers either dial the destination themselves (the gateway never
 * connects anywhere), are unmaintained (socksv5, socks5-server), or re-push unread bytes into the
 * socket's readable side (@pondwader/socks5-server), which breaks handing the socket on to the HTTP
 * parser that answers inside the tunnel. The subset needed is a few dozen lines.
 */

const SOCKS_VERSION = 0x05;
const AUTH_VERSION = 0x01;
const METHOD_USERNAME_PASSWORD = 0x02;
const METHOD_NONE_ACCEPTABLE = 0xff;
const COMMAND_CONNECT = 0x01;
export const REPLY_SUCCEEDED = 0x00;
const REPLY_COMMAND_NOT_SUPPORTED = 0x07;
const REPLY_ADDRESS_TYPE_NOT_SUPPORTED = 0x08;

interface Socks5Target {
  host: string;
  port: number;
}

export interface Socks5Hooks {
  /** RFC 1929 login: false fails it (status 0x01) and closes the connection. */
  login(username: string, password: string): boolean;
  /**
   * The CONNECT request: a reply code (0x00 grants it). `handshakeBytes`: every byte of the handshake,
   * read and written, including the reply about to be sent.
   */
  connect(target: Socks5Target, handshakeBytes: number): number;
}

export type Socks5Outcome =
  { granted: true; target: Socks5Target; handshakeBytes: number; rest: Buffer } | { granted: false };

class HandshakeEnded extends Error {}

/** Reads exact byte counts from a socket; `release` gives back what was read past the handshake. */
class ByteReader {
  private buffer = Buffer.alloc(0);
  private wake: (() => void) | null = null;
  private ended = false;
  bytesRead = 0;

  private readonly onData = (chunk: Buffer) => {
    this.buffer = Buffer.concat([this.buffer, chunk]);
    this.wake?.();
  };

  private readonly onEnd = () => {
    this.ended = true;
    this.wake?.();
  };

  constructor(private readonly socket: Socket) {
    socket.on('data', this.onData);
    socket.once('end', this.onEnd);
    socket.once('close', this.onEnd);
  }

  async read(length: number): Promise<Buffer> {
    while (this.buffer.length < length) {
      if (this.ended) throw new HandshakeEnded();
      await new Promise<void>((resolve) => (this.wake = resolve));
      this.wake = null;
    }
    const out = this.buffer.subarray(0, length);
    this.buffer = this.buffer.subarray(length);
    this.bytesRead += length;
    return out;
  }

  async byte(): Promise<number> {
    return (await this.read(1))[0] as number;
  }

  release(): Buffer {
    this.socket.off('data', this.onData);
    this.socket.off('end', this.onEnd);
    this.socket.off('close', this.onEnd);
    this.socket.pause();
    return this.buffer;
  }
}

/** A reply with BND.ADDR 0.0.0.0:0: the gateway binds nothing a client could use. */
const reply = (code: number): Buffer => Buffer.from([SOCKS_VERSION, code, 0x00, 0x01, 0, 0, 0, 0, 0, 0]);

function formatIpv6(bytes: Buffer): string {
  const groups: string[] = [];
  for (let i = 0; i < 16; i += 2) groups.push(bytes.readUInt16BE(i).toString(16));
  return groups.join(':');
}

/** Runs the handshake on a fresh connection; on success the socket is paused, ready to hand on. */
export async function runSocks5Handshake(socket: Socket, hooks: Socks5Hooks): Promise<Socks5Outcome> {
  const reader = new ByteReader(socket);
  let written = 0;
  const send = (bytes: Buffer) => {
    written += bytes.length;
    socket.write(bytes);
  };
  const refuse = (bytes: Buffer): Socks5Outcome => {
    reader.release();
    socket.end(bytes);
    return { granted: false };
  };
  try {
    if ((await reader.byte()) !== SOCKS_VERSION) {
      reader.release();
      socket.destroy();
      return { granted: false };
    }
    const methods = await reader.read(await reader.byte());
    if (!methods.includes(METHOD_USERNAME_PASSWORD)) {
      return refuse(Buffer.from([SOCKS_VERSION, METHOD_NONE_ACCEPTABLE]));
    }
    send(Buffer.from([SOCKS_VERSION, METHOD_USERNAME_PASSWORD]));

    if ((await reader.byte()) !== AUTH_VERSION) return refuse(Buffer.from([AUTH_VERSION, 0x01]));
    const username = (await reader.read(await reader.byte())).toString('utf8');
    const password = (await reader.read(await reader.byte())).toString('utf8');
    if (!hooks.login(username, password)) return refuse(Buffer.from([AUTH_VERSION, 0x01]));
    send(Buffer.from([AUTH_VERSION, 0x00]));

    const [version, command, , addressType] = await reader.read(4);
    if (version !== SOCKS_VERSION) {
      reader.release();
      socket.destroy();
      return { granted: false };
    }
    let host: string;
    if (addressType === 0x01) host = [...(await reader.read(4))].join('.');
    else if (addressType === 0x03) host = (await reader.read(await reader.byte())).toString('utf8');
    else if (addressType === 0x04) host = formatIpv6(await reader.read(16));
    else return refuse(reply(REPLY_ADDRESS_TYPE_NOT_SUPPORTED));
    const port = (await reader.read(2)).readUInt16BE(0);
    if (command !== COMMAND_CONNECT) return refuse(reply(REPLY_COMMAND_NOT_SUPPORTED));
    const target = { host, port };
    const handshakeBytes = reader.bytesRead + written + reply(0).length;
    const code = hooks.connect(target, handshakeBytes);
    if (code !== REPLY_SUCCEEDED) return refuse(reply(code));
    send(reply(REPLY_SUCCEEDED));
    return { granted: true, target, handshakeBytes, rest: reader.release() };
  } catch (error) {
    reader.release();
    if (error instanceof HandshakeEnded) {
      socket.destroy();
      return { granted: false };
    }
    throw error;
  }
}
