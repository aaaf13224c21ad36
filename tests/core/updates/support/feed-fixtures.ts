/**
 * A local feed server on 127.0.0.1 and signing keys made per test run: what the update tests
 * publish, sign and tamper with. The app's own trusted keys are never used here.
 */
import { createHash, generateKeyPairSync, type KeyObject, sign } from 'node:crypto';
import { createServer, request as httpRequest, type Server } from 'node:http';
import { type AddressInfo, connect } from 'node:net';
import { canonicalJson } from '../../../../src-main/core/updates/canonical-json';

export interface TestKey {
  /** Raw public key, hex: the `keyid` and what the client is told to trust. */
  publicHex: string;
  privateKey: KeyObject;
}

export function makeKey(): TestKey {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  const x = publicKey.export({ format: 'jwk' }).x ?? '';
  return { publicHex: Buffer.from(x, 'base64url').toString('hex'), privateKey };
}

export function sha256(data: Uint8Array | string): string {
  return createHash('sha256').update(data).digest('hex');
}

/** The envelope, signed by each of `keys` over the canonical JSON of `signed`. */
export function signFeed(signed: Record<string, unknown>, keys: readonly TestKey[]): string {
  const bytes = Buffer.from(canonicalJson(signed), 'utf8');
  return JSON.stringify({
    signed,
    signatures: keys.map((key) => ({
      keyid: key.publicHex,
      sig: sign(null, bytes, key.privateKey).toString('base64'),
    })),
  });
}

type Route =
  | {
      kind: 'body';
      body: string | Buffer;
      status?: number;
      /** Answer 503 to this many requests first. */ failFirst?: number;
    }
  /** Announces `length` bytes but closes the connection after `body`. */
  | { kind: 'cut'; body: Buffer; length: number };

/** Serves fixed routes; counts requests per path. */
export class FeedServer {
  readonly routes = new Map<string, Route>();
  readonly hits = new Map<string, number>();
  #server: Server | null = null;
  #base = '';

  get baseUrl(): string {
    return this.#base;
  }

  url(path: string): string {
    return `${this.#base}${path}`;
  }

  set(path: string, route: Route): void {
    this.routes.set(path, route);
  }

  async start(): Promise<void> {
    this.#server = createServer((req, res) => {
      const path = req.url ?? '/';
      this.hits.set(path, (this.hits.get(path) ?? 0) + 1);
      const route = this.routes.get(path);
      if (!route) {
        res.writeHead(404).end('not found');
        return;
      }
      if (route.kind === 'body') {
        if ((route.failFirst ?? 0) >= (this.hits.get(path) ?? 0)) {
          res.writeHead(503).end('busy');
          return;
        }
        res.writeHead(route.status ?? 200, { 'content-length': Buffer.byteLength(route.body) });
        res.end(route.body);
        return;
      }
      res.writeHead(200, { 'content-length': route.length });
      res.write(route.body, () => res.destroy());
    });
    await new Promise<void>((resolve) => this.#server?.listen(0, '127.0.0.1', resolve));
    const { port } = this.#server.address() as AddressInfo;
    this.#base = `http://127.0.0.1:${port}`;
  }

  async stop(): Promise<void> {
    this.#server?.closeAllConnections();
    await new Promise<void>((resolve) => this.#server?.close(() => resolve()) ?? resolve());
  }
}

/** An HTTP proxy on 127.0.0.1 (CONNECT tunnels and absolute-URI requests) that counts what it carried. */
export class CountingProxy {
  carried = 0;
  #server: Server | null = null;
  url = '';

  async start(): Promise<void> {
    this.#server = createServer((req, res) => {
      this.carried += 1;
      const target = new URL(req.url ?? '/');
      const upstream = httpRequest(
        {
          host: target.hostname,
          port: target.port,
          path: target.pathname,
          method: req.method,
          headers: req.headers,
        },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      req.pipe(upstream);
    });
    this.#server.on('connect', (req, socket, head) => {
      this.carried += 1;
      const [host, port] = (req.url ?? '').split(':');
      const upstream = connect(Number(port), host ?? '127.0.0.1', () => {
        socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
        upstream.write(head);
        upstream.pipe(socket);
        socket.pipe(upstream);
      });
      upstream.on('error', () => socket.destroy());
      socket.on('error', () => upstream.destroy());
    });
    await new Promise<void>((resolve) => this.#server?.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    this.#server?.closeAllConnections();
    await new Promise<void>((resolve) => this.#server?.close(() => resolve()) ?? resolve());
  }
}
