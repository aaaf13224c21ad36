/**
 * `npx tsx bench/local-proxy-bench.ts`: what a local proxy costs a tool, against the sandbox gateway
 * (no added latency), each case run `--runs` times:
 *
 * The sandbox runs in its own process (as a remote gateway would); this process holds the tools and
 * the local proxy.
 *
 *   - 200 tools at once, each with its own connection and one request to the gateway's echo: plain
 *     HTTP, a CONNECT tunnel, SOCKS5; through the local proxy, and straight to the gateway with the
 *     credentials (what the local proxy adds is the difference);
 *   - a 20 MB upload inside one CONNECT tunnel (bytes the local proxy copies both ways);
 *   - the main process's heap and RSS with 1,000 idle tunnels open through it.
 *
 *   npx tsx bench/local-proxy-bench.ts [--runs N] [--parallel N]
 *
 * Prints a table and one line `BENCH_RESULT {json}`.
 */
import { request as httpRequest } from 'node:http';
import { connect, type Socket } from 'node:net';
import { parseArgs } from 'node:util';
import { SocksClient } from 'socks';
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { LocalProxyServer } from '../src-main/core/local-proxies/local-proxy-server';
import type { Upstream } from '../src-main/core/local-proxies/upstream';

const { values } = parseArgs({
  options: { runs: { type: 'string', default: '5' }, parallel: { type: 'string', default: '200' } },
});
const RUNS = Number(values.runs);
const PARALLEL = Number(values.parallel);

const median = (numbers: number[]) => [...numbers].sort((a, b) => a - b)[Math.floor(numbers.length / 2)] ?? 0;
const percentile = (numbers: number[], p: number) =>
  [...numbers].sort((a, b) => a - b)[Math.min(numbers.length - 1, Math.floor((numbers.length * p) / 100))] ??
  0;

const basic = (user: string, pass: string) => `Basic ${Buffer.from(`${user}:${pass}`).toString('base64')}`;

function readToEnd(socket: Socket): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.once('close', () => resolve(Buffer.concat(chunks).toString('utf8')));
    socket.once('error', reject);
  });
}

function plainHttp(port: number, auth: string | null): Promise<number> {
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(
      {
        host: '127.0.0.1',
        port,
        path: 'http://echo.test/',
        agent: false,
        headers: { Host: 'echo.test', Connection: 'close', ...(auth ? { 'Proxy-Authorization': auth } : {}) },
      },
      (response) => {
        response.resume();
        response.once('end', () => resolve(response.statusCode ?? 0));
      },
    );
    outgoing.once('error', reject);
    outgoing.end();
  });
}

async function tunnel(port: number, auth: string | null): Promise<Socket> {
  const socket = connect(port, '127.0.0.1');
  await new Promise((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  socket.write(
    `CONNECT echo.test:80 HTTP/1.1\r\nHost: echo.test:80\r\n${auth ? `Proxy-Authorization: ${auth}\r\n` : ''}\r\n`,
  );
  await new Promise<void>((resolve, reject) => {
    let head = '';
    const onData = (chunk: Buffer) => {
      head += chunk.toString('latin1');
      if (!head.includes('\r\n\r\n')) return;
      socket.removeListener('data', onData);
      if (head.startsWith('HTTP/1.1 200')) resolve();
      else reject(new Error(head.split('\r\n')[0]));
    };
    socket.on('data', onData);
    socket.once('close', () => reject(new Error('closed before the tunnel opened')));
  });
  return socket;
}

async function viaConnect(port: number, auth: string | null): Promise<number> {
  const socket = await tunnel(port, auth);
  const reading = readToEnd(socket);
  socket.write('GET / HTTP/1.1\r\nHost: echo.test\r\nConnection: close\r\n\r\n');
  return Number((await reading).slice(9, 12));
}

async function viaSocks(port: number, login: { user: string; pass: string } | null): Promise<number> {
  const { socket } = await SocksClient.createConnection({
    proxy: {
      host: '127.0.0.1',
      port,
      type: 5,
      ...(login ? { userId: login.user, password: login.pass } : {}),
    },
    command: 'connect',
    destination: { host: 'echo.test', port: 80 },
  });
  const reading = readToEnd(socket);
  socket.write('GET / HTTP/1.1\r\nHost: echo.test\r\nConnection: close\r\n\r\n');
  return Number((await reading).slice(9, 12));
}

/** `count` requests at once; each one's time and the whole burst's. */
async function burst(
  count: number,
  one: () => Promise<number>,
): Promise<{ wallMs: number; latencies: number[] }> {
  const started = performance.now();
  const latencies = await Promise.all(
    Array.from({ length: count }, async () => {
      const from = performance.now();
      let timer: NodeJS.Timeout | undefined;
      const status = await Promise.race([
        one(),
        new Promise<number>((_, reject) => {
          timer = setTimeout(() => reject(new Error('a request took over 30 s')), 30_000);
        }),
      ]).finally(() => clearTimeout(timer));
      if (status !== 200) throw new Error(`status ${status}`);
      return performance.now() - from;
    }),
  );
  return { wallMs: performance.now() - started, latencies };
}

async function upload(port: number, auth: string | null, bytes: number): Promise<number> {
  const socket = await tunnel(port, auth);
  const reading = readToEnd(socket);
  const started = performance.now();
  socket.write(
    `POST /upload HTTP/1.1\r\nHost: echo.test\r\nContent-Length: ${bytes}\r\nConnection: close\r\n\r\n`,
  );
  const chunk = Buffer.alloc(64 * 1024, 120);
  for (let sent = 0; sent < bytes; sent += chunk.length) {
    if (!socket.write(chunk.subarray(0, Math.min(chunk.length, bytes - sent)))) {
      await new Promise((resolve) => socket.once('drain', resolve));
    }
  }
  const answer = await reading;
  if (!new RegExp(`"bodyBytes":\\s*${bytes}\\b`).test(answer))
    throw new Error(`upload not echoed: ${answer.slice(0, 300)}`);
  return bytes / 1e6 / ((performance.now() - started) / 1000);
}

/** The sandbox in its own process, as a remote gateway would be: its work is not counted here. */
async function startSandbox() {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'packages/sandbox/src/cli.ts', '--port', '0', '--latency', 'fast', '--seed', '7'],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const line = await new Promise<string>((resolve, reject) => {
    child.once('exit', () => reject(new Error('the sandbox exited')));
    createInterface({ input: child.stdout }).on('line', (text) => {
      if (text.startsWith('SANDBOX_READY ')) resolve(text.slice('SANDBOX_READY '.length));
    });
  });
  const ready = JSON.parse(line) as { baseUrl: string; gateway: { httpPort: number; socksPort: number } };
  const answer = await fetch(`${ready.baseUrl}/v1/mobile`, {
    headers: { Authorization: 'Bearer sandbox-demo-key' },
  });
  const ports = ((await answer.json()) as { data: { status: string; username: string; password: string }[] })
    .data;
  const port = ports.find((candidate) => candidate.status === 'active');
  if (!port) throw new Error('no active port in the sandbox');
  return { port, gateway: ready.gateway, close: () => child.kill('SIGTERM') };
}

async function main(): Promise<void> {
  const sandbox = await startSandbox();
  try {
    const { port, gateway } = sandbox;
    const upstream: Upstream = {
      host: '127.0.0.1',
      port: gateway.httpPort,
      username: port.username,
      password: port.password,
      generation: 1,
    };
    const server = await LocalProxyServer.listen({
      host: '127.0.0.1',
      port: 0,
      auth: null,
      upstream: { current: () => Promise.resolve(upstream), refresh: () => Promise.resolve(upstream) },
      label: 'bench',
    });
    const local = server.address.port;
    const auth = basic(port.username, port.password);
    const login = { user: port.username, pass: port.password };
    const cases: [string, () => Promise<number>][] = [
      ['http, local proxy', () => plainHttp(local, null)],
      ['http, gateway direct', () => plainHttp(gateway.httpPort, auth)],
      ['connect, local proxy', () => viaConnect(local, null)],
      ['connect, gateway direct', () => viaConnect(gateway.httpPort, auth)],
      ['socks5, local proxy', () => viaSocks(local, null)],
      ['socks5, gateway direct', () => viaSocks(gateway.socksPort, login)],
    ];
    const rows: Record<string, { wallMs: number; p50Ms: number; p95Ms: number }> = {};
    for (const [name, one] of cases) {
      await burst(20, one); // warm-up
      const walls: number[] = [];
      const all: number[] = [];
      for (let run = 0; run < RUNS; run += 1) {
        const { wallMs, latencies } = await burst(PARALLEL, one);
        walls.push(wallMs);
        all.push(...latencies);
      }
      rows[name] = { wallMs: median(walls), p50Ms: percentile(all, 50), p95Ms: percentile(all, 95) };
    }
    const uploadLocal: number[] = [];
    const uploadDirect: number[] = [];
    for (let run = 0; run < RUNS; run += 1) {
      uploadLocal.push(await upload(local, null, 20e6));
      uploadDirect.push(await upload(gateway.httpPort, auth, 20e6));
    }
    global.gc?.();
    const before = process.memoryUsage();
    const idle = await Promise.all(Array.from({ length: 1000 }, () => tunnel(local, null)));
    global.gc?.();
    const during = process.memoryUsage();
    for (const socket of idle) socket.destroy();
    console.log(
      `${PARALLEL} tools at once, ${RUNS} runs (median wall time of a burst; latency percentiles over all requests):`,
    );
    console.table(
      Object.fromEntries(
        Object.entries(rows).map(([name, row]) => [
          name,
          {
            'burst ms': row.wallMs.toFixed(0),
            'p50 ms': row.p50Ms.toFixed(1),
            'p95 ms': row.p95Ms.toFixed(1),
          },
        ]),
      ),
    );
    console.log(
      `20 MB upload in a CONNECT tunnel: ${median(uploadLocal).toFixed(0)} MB/s through the local proxy, ${median(uploadDirect).toFixed(0)} MB/s straight to the gateway`,
    );
    const heapPerTunnel = (during.heapUsed - before.heapUsed) / 1000 / 1024;
    console.log(
      `1,000 idle tunnels: heap +${((during.heapUsed - before.heapUsed) / 1e6).toFixed(1)} MB (${heapPerTunnel.toFixed(1)} KiB each, the tool's socket included: this process holds both ends)`,
    );
    console.log(
      `BENCH_RESULT ${JSON.stringify({
        parallel: PARALLEL,
        runs: RUNS,
        bursts: rows,
        uploadMBps: { local: median(uploadLocal), direct: median(uploadDirect) },
        idleTunnels: {
          count: 1000,
          rssBytes: during.rss - before.rss,
          heapBytes: during.heapUsed - before.heapUsed,
        },
        stats: server.stats(),
      })}`,
    );
    await server.close();
  } finally {
    sandbox.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
