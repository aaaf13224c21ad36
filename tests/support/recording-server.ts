import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
}

/**
 * A plain HTTP server on loopback that records every request it gets (headers included) and answers
 * like a permissive service would (an empty list, a countries list for the catalog), so that a client
 * has every reason to go on talking to it. Stands in for a host the user never confirmed a key for.
 */
export class RecordingServer {
  readonly requests: RecordedRequest[] = [];

  private constructor(
    private readonly server: Server,
    readonly origin: string,
  ) {}

  static async start(): Promise<RecordingServer> {
    let recorder: RecordingServer | null = null;
    const server = createServer((req, res) => {
      recorder?.requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers });
      req.resume();
      const body = (req.url ?? '').includes('/catalog/countries')
        ? {
            data: [
              {
                code: 'US',
                name: 'United States',
                region: 'Americas',
                products: ['mobile'],
                cities: 1,
                asns: 1,
                carriers: 1,
              },
            ],
          }
        : { data: [], pagination: { page: 1, perPage: 1, total: 0, totalPages: 0 } };
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(body));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    recorder = new RecordingServer(server, `http://127.0.0.1:${port}`);
    return recorder;
  }

  /** The `Authorization` headers it was sent, in order. */
  get authorizations(): string[] {
    return this.requests.flatMap((r) => (r.headers.authorization ? [r.headers.authorization] : []));
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      this.server.close(() => resolve());
      this.server.closeAllConnections();
    });
  }
}
