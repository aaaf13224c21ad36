import { connect, type Socket } from 'node:net';
import type { GatewayEndpoint } from '../../src';

/*
 * Hand-written proxy clients over raw sockets: they count every byte both ways (to check the usage
 * the gateway records) and speak SOCKS5 without a client library (`socks` is not a dependency).
 */

export interface RawResponse {
  status: number;
  /** Header names in lower case. */
  headers: Record<string, string>;
  body: string;
  /** The body parsed as JSON, or null. */
  json: any;
  /** Bytes of the whole response (head and body) as received. */
  bytes: number;
}

/** Reads from a socket into a buffer and lets callers wait for a number of bytes or a delimiter. */
export class SocketReader {
  private buffer = Buffer.alloc(0);
  private waiters: (() => void)[] = [];
  private ended = false;
  received = 0;
  sent = 0;

  constructor(readonly socket: Socket) {
    socket.on('data', (chunk: Buffer) => {
      this.received += chunk.length;
      this.buffer = Buffer.concat([this.buffer, chunk]);
      this.wakeAll();
    });
    socket.on('close', () => {
      this.ended = true;
      this.wakeAll();
    });
    socket.on('error', () => undefined);
  }

  private wakeAll(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const wake of waiters) wake();
  }

  private async until(ready: () => boolean): Promise<void> {
    while (!ready()) {
      if (this.ended)
        throw new Error(`connection closed; unread: ${JSON.stringify(this.buffer.toString('latin1'))}`);
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    }
  }

  write(data: string | Buffer): void {
    const bytes = typeof data === 'string' ? Buffer.from(data, 'latin1') : data;
    this.sent += bytes.length;
    this.socket.write(bytes);
  }

  async take(length: number): Promise<Buffer> {
    await this.until(() => this.buffer.length >= length);
    const out = this.buffer.subarray(0, length);
    this.buffer = this.buffer.subarray(length);
    return out;
  }

  /** Everything until the connection closes. */
  async rest(): Promise<Buffer> {
    await this.until(() => this.ended);
    const out = this.buffer;
    this.buffer = Buffer.alloc(0);
    return out;
  }

  /** One HTTP response (Content-Length framed; a CONNECT 200 has no body). */
  async response(options: { noBody?: boolean } = {}): Promise<RawResponse> {
    await this.until(() => this.buffer.includes('\r\n\r\n'));
    const end = this.buffer.indexOf('\r\n\r\n') + 4;
    const head = this.buffer.subarray(0, end).toString('latin1');
    this.buffer = this.buffer.subarray(end);
    const [statusLine, ...lines] = head.trimEnd().split('\r\n');
    const headers: Record<string, string> = {};
    for (const line of lines) {
      const colon = line.indexOf(':');
      headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
    }
    const length = options.noBody ? 0 : Number(headers['content-length'] ?? 0);
    const body = (await this.take(length)).toString('utf8');
    let json: any;
    try {
      json = JSON.parse(body);
    } catch {
      json = null;
    }
    return { status: Number(statusLine?.split(' ')[1]), headers, body, json, bytes: end + length };
  }

  close(): void {
    this.socket.destroy();
  }
}

export function open(port: number): Promise<SocketReader> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => resolve(new SocketReader(socket)));
    socket.once('error', reject);
  });
}

const basic = (username: string, password: string): string =>
  `Basic ${Buffer.from(`${username}:${password}`, 'utf8').toString('base64')}`;

export interface Credentials {
  username: string;
  password: string;
}

/** A plain proxied request (absolute URL), answered on its own connection. */
export async function proxyGet(
  gateway: GatewayEndpoint,
  credentials: Credentials | null,
  url: string,
  extraHeaders: Record<string, string> = {},
): Promise<RawResponse & { sent: number; received: number }> {
  const reader = await open(gateway.httpPort);
  try {
    const host = new URL(url).host;
    let head = `GET ${url} HTTP/1.1\r\nHost: ${host}\r\n`;
    if (credentials) head += `Proxy-Authorization: ${basic(credentials.username, credentials.password)}\r\n`;
    for (const [name, value] of Object.entries(extraHeaders)) head += `${name}: ${value}\r\n`;
    reader.write(`${head}Connection: close\r\n\r\n`);
    const response = await reader.response();
    return { ...response, sent: reader.sent, received: reader.received };
  } finally {
    reader.close();
  }
}

/** Sends `GET path` inside an open tunnel and reads the answer. */
export async function getInTunnel(reader: SocketReader, host: string, path = '/'): Promise<RawResponse> {
  reader.write(`GET ${path} HTTP/1.1\r\nHost: ${host}\r\nUser-Agent: gateway-test\r\n\r\n`);
  return reader.response();
}

/** Opens a CONNECT tunnel; `response` is the gateway's answer to the CONNECT itself. */
export async function connectTunnel(
  gateway: GatewayEndpoint,
  credentials: Credentials | null,
  target: string,
): Promise<{ reader: SocketReader; response: RawResponse }> {
  const reader = await open(gateway.httpPort);
  let head = `CONNECT ${target} HTTP/1.1\r\nHost: ${target}\r\n`;
  if (credentials) head += `Proxy-Authorization: ${basic(credentials.username, credentials.password)}\r\n`;
  reader.write(`${head}\r\n`);
  const peek = await reader.response({ noBody: true });
  const response =
    peek.status === 200
      ? peek
      : { ...peek, ...(await readBody(reader, Number(peek.headers['content-length'] ?? 0))) };
  return { reader, response };
}

async function readBody(reader: SocketReader, length: number): Promise<{ body: string }> {
  return { body: (await reader.take(length)).toString('utf8') };
}

export interface SocksOutcome {
  reader: SocketReader;
  /** The method the server chose (0x02 username/password, 0xff none acceptable). */
  method: number;
  /** RFC 1929 status (0 success), or null when the login did not happen. */
  authStatus: number | null;
  /** RFC 1928 reply code (0 succeeded), or null when the request was not sent. */
  reply: number | null;
}

/**
 * A SOCKS5 client: greeting with `methods`, RFC 1929 login, then a request (`command` 1 = CONNECT)
 * for a domain name or an IPv4 address.
 */
export async function socks5(
  gateway: GatewayEndpoint,
  credentials: Credentials,
  target: { host: string; port: number },
  options: { methods?: number[]; command?: number } = {},
): Promise<SocksOutcome> {
  const reader = await open(gateway.socksPort);
  const methods = options.methods ?? [0x00, 0x02];
  reader.write(Buffer.from([0x05, methods.length, ...methods]));
  const [, method] = await reader.take(2);
  if (method !== 0x02) return { reader, method: method as number, authStatus: null, reply: null };
  const user = Buffer.from(credentials.username, 'utf8');
  const pass = Buffer.from(credentials.password, 'utf8');
  reader.write(Buffer.concat([Buffer.from([0x01, user.length]), user, Buffer.from([pass.length]), pass]));
  const [, authStatus] = await reader.take(2);
  if (authStatus !== 0x00) return { reader, method, authStatus: authStatus as number, reply: null };
  const ipv4 = /^\d+\.\d+\.\d+\.\d+$/.test(target.host);
  const address = ipv4
    ? Buffer.from([0x01, ...target.host.split('.').map(Number)])
    : Buffer.concat([Buffer.from([0x03, Buffer.byteLength(target.host)]), Buffer.from(target.host)]);
  const port = Buffer.alloc(2);
  port.writeUInt16BE(target.port, 0);
  reader.write(Buffer.concat([Buffer.from([0x05, options.command ?? 0x01, 0x00]), address, port]));
  const replyHead = await reader.take(10);
  return { reader, method, authStatus, reply: replyHead[1] as number };
}
