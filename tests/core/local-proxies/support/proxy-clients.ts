import { createServer as createHttpServer, request as httpRequest } from 'node:http';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { SocksClient } from 'socks';

/**
 * Tools as a local proxy sees them: an HTTP client that sends absolute-form requests, one that opens
 * a CONNECT tunnel, and a SOCKS5 client (the `socks` package), each asking the sandbox gateway's echo
 * (`http://echo.test/`) through the local proxy. Plus the plumbing a relocation test needs.
 */

export interface Answer {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** Everything the tool received, head and body: what must never hold the upstream's password. */
  raw: string;
}

export interface Echo {
  exit: { ip: string; country: string | null; state: string | null; city: string | null };
  account: { type: string; id: string; username: string };
  via: string;
  request: { headers: Record<string, string> };
}

export const echoOf = (answer: Answer): Echo => JSON.parse(answer.body) as Echo;

const basic = (login: { username: string; password: string }) =>
  `Basic ${Buffer.from(`${login.username}:${login.password}`).toString('base64')}`;

/** A free port on loopback (the OS picks one, then lets it go). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

/** A plain-http request through the local proxy (absolute-form, as tools send to an HTTP proxy). */
export function viaHttp(
  port: number,
  url = 'http://echo.test/',
  options: { login?: { username: string; password: string }; method?: string; body?: string } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(
      {
        host: '127.0.0.1',
        port,
        method: options.method ?? 'GET',
        path: url,
        agent: false,
        headers: {
          Host: new URL(url).host,
          Connection: 'close',
          ...(options.login ? { 'Proxy-Authorization': basic(options.login) } : {}),
          ...(options.body !== undefined ? { 'Content-Type': 'text/plain' } : {}),
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.once('end', () => {
          const body = Buffer.concat(chunks).toString('utf8');
          const head = response.rawHeaders.join('\n');
          resolve({
            status: response.statusCode ?? 0,
            headers: Object.fromEntries(
              Object.entries(response.headers).map(([name, value]) => [name, String(value)]),
            ),
            body,
            raw: `${head}\n\n${body}`,
          });
        });
        response.once('error', reject);
      },
    );
    outgoing.once('error', reject);
    outgoing.end(options.body);
  });
}

/** Reads a socket to its end (the answers here all close their connection). */
function readAll(socket: Socket): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.once('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    socket.once('close', () => resolve(Buffer.concat(chunks).toString('utf8')));
    socket.once('error', reject);
  });
}

function parseAnswer(text: string): Answer {
  const split = text.indexOf('\r\n\r\n');
  const head = split < 0 ? text : text.slice(0, split);
  const body = split < 0 ? '' : text.slice(split + 4);
  const [statusLine = '', ...lines] = head.split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { status: Number(/^HTTP\/\S+ (\d{3})/.exec(statusLine)?.[1] ?? 0), headers, body, raw: text };
}

const ECHO_REQUEST = 'GET / HTTP/1.1\r\nHost: echo.test\r\nConnection: close\r\n\r\n';

/** Waits for a socket's `data` until the head of an answer (`\r\n\r\n`) has come. */
function readHead(socket: Socket): Promise<{ head: string; rest: Buffer }> {
  return new Promise((resolve, reject) => {
    let received = Buffer.alloc(0);
    const onData = (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      const end = received.indexOf('\r\n\r\n');
      if (end < 0) return;
      socket.removeListener('data', onData);
      socket.pause();
      resolve({ head: received.subarray(0, end).toString('latin1'), rest: received.subarray(end + 4) });
    };
    socket.on('data', onData);
    socket.once('error', reject);
    socket.once('close', () => reject(new Error(`closed before a head: ${received.toString('latin1')}`)));
  });
}

/** Opens a CONNECT tunnel through the local proxy; resolves with the open tunnel or the refusal. */
export async function openConnect(
  port: number,
  target = 'echo.test:80',
  login?: { username: string; password: string },
): Promise<{ socket: Socket; status: number; head: string; refusal: Answer | null }> {
  const socket = connect({ host: '127.0.0.1', port });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  socket.write(
    `CONNECT ${target} HTTP/1.1\r\nHost: ${target}\r\n${login ? `Proxy-Authorization: ${basic(login)}\r\n` : ''}\r\n`,
  );
  const { head, rest } = await readHead(socket);
  const status = Number(/^HTTP\/\S+ (\d{3})/.exec(head)?.[1] ?? 0);
  if (status === 200) return { socket, status, head, refusal: null };
  socket.unshift(rest);
  socket.resume();
  const body = await readAll(socket);
  return { socket, status, head, refusal: parseAnswer(`${head}\r\n\r\n${body}`) };
}

/** One echo request inside a CONNECT tunnel; the tunnel's own answer comes back when it is refused. */
export async function viaConnect(
  port: number,
  login?: { username: string; password: string },
): Promise<Answer> {
  const tunnel = await openConnect(port, 'echo.test:80', login);
  if (tunnel.refusal) return tunnel.refusal;
  const reading = readAll(tunnel.socket);
  tunnel.socket.resume();
  tunnel.socket.write(ECHO_REQUEST);
  const answer = parseAnswer(await reading);
  return { ...answer, raw: `${tunnel.head}\r\n\r\n${answer.raw}` };
}

/** Opens a SOCKS5 connection to `echo.test:80` through the local proxy. */
export async function openSocks(
  port: number,
  login?: { username: string; password: string },
): Promise<Socket> {
  const { socket } = await SocksClient.createConnection({
    proxy: {
      host: '127.0.0.1',
      port,
      type: 5,
      ...(login ? { userId: login.username, password: login.password } : {}),
    },
    command: 'connect',
    destination: { host: 'echo.test', port: 80 },
    timeout: 10_000,
  });
  return socket;
}

/** One echo request over SOCKS5 through the local proxy. */
export async function viaSocks(
  port: number,
  login?: { username: string; password: string },
): Promise<Answer> {
  const socket = await openSocks(port, login);
  const reading = readAll(socket);
  socket.write(ECHO_REQUEST);
  return parseAnswer(await reading);
}

/** A TCP relay to `targetPort` on loopback: a stand-in for an endpoint a relocation moves away from. */
export interface Relay {
  port: number;
  close(): Promise<void>;
}

export async function startRelay(targetPort: number): Promise<Relay> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    const upstream = connect({ host: '127.0.0.1', port: targetPort });
    sockets.add(client).add(upstream);
    client.pipe(upstream).pipe(client);
    const close = () => {
      client.destroy();
      upstream.destroy();
    };
    client.once('error', close).once('close', close);
    upstream.once('error', close).once('close', close);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  return {
    port: typeof address === 'object' && address ? address.port : 0,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/**
 * The service's API as the app reads it, passed through with every `httpPort` of the gateway
 * replaced by `httpPort()`: a port whose endpoint moves (a relocation to another host or port),
 * which the sandbox, with one gateway for everything, never does itself.
 */
export interface ApiRewriter {
  baseUrl: string;
  close(): Promise<void>;
}

export async function startApiRewriter(
  sandboxBaseUrl: string,
  gatewayHttpPort: number,
  httpPort: () => number,
): Promise<ApiRewriter> {
  const target = new URL(sandboxBaseUrl);
  const server = createHttpServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.once('end', () => {
      const headers: Record<string, string> = {};
      for (const name of ['authorization', 'content-type', 'idempotency-key', 'accept']) {
        const value = req.headers[name];
        if (typeof value === 'string') headers[name] = value;
      }
      const body = chunks.length > 0 ? Buffer.concat(chunks) : undefined;
      fetch(`${target.origin}${req.url ?? '/'}`, { method: req.method ?? 'GET', headers, body }).then(
        async (answer) => {
          const text = (await answer.text()).replaceAll(
            `"httpPort":${gatewayHttpPort}`,
            `"httpPort":${httpPort()}`,
          );
          res.writeHead(answer.status, {
            'Content-Type': answer.headers.get('content-type') ?? 'application/json',
          });
          res.end(text);
        },
        () => {
          res.writeHead(502);
          res.end();
        },
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    baseUrl: `http://127.0.0.1:${port}${target.pathname}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
