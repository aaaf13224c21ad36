/**
 * `npm run bench:sandbox`: throughput and latency of the sandbox under a mixed read load on loopback,
 * then memory after 10,000 top-ups created through the API.
 *
 *   npm run bench:sandbox -- [--duration SECONDS] [--requests N] [--concurrency N] [--topups N]
 *
 * The sandbox runs in this process (fast latency, manual clock, fixed seed), so client and server
 * share one event loop: the numbers are a floor for a sandbox on its own. Routes that are not
 * implemented answer 404 and are counted apart, so that the bench runs whatever has landed.
 * Prints a table and one line `BENCH_RESULT {json}`.
 */
import { spawnSync } from 'node:child_process';
import { parseArgs } from 'node:util';
import { Pool } from 'undici';
import { startSandbox, type RunningSandbox } from '../src';

const KEY = 'sandbox-demo-key';

interface BenchOptions {
  durationSeconds: number;
  requests: number | null;
  concurrency: number;
  topUps: number;
}

function readOptions(): BenchOptions {
  const { values } = parseArgs({
    options: {
      duration: { type: 'string', default: '10' },
      requests: { type: 'string' },
      concurrency: { type: 'string', default: '16' },
      topups: { type: 'string', default: '10000' },
    },
    strict: true,
  });
  const whole = (name: string, text: string, min: number): number => {
    const value = Number(text);
    if (!Number.isSafeInteger(value) || value < min)
      throw new Error(`--${name} must be an integer >= ${min}`);
    return value;
  };
  return {
    durationSeconds: whole('duration', values.duration, 1),
    requests: values.requests === undefined ? null : whole('requests', values.requests, 1),
    concurrency: whole('concurrency', values.concurrency, 1),
    topUps: whole('topups', values.topups, 0),
  };
}

/** Memory after a collection is only meaningful with `gc()`: re-run under `--expose-gc` when needed. */
function reExecWithGcIfNeeded(): void {
  if (typeof globalThis.gc === 'function') return;
  const script = process.argv[1];
  if (!script) throw new Error('cannot find the bench script path');
  const result = spawnSync(
    process.execPath,
    ['--expose-gc', '--import', 'tsx', script, ...process.argv.slice(2)],
    {
      stdio: 'inherit',
    },
  );
  process.exit(result.status ?? 1);
}

function collect(): { heapUsedBytes: number; rssBytes: number } {
  // Twice: the first pass can leave weakly held objects for the second.
  globalThis.gc?.();
  globalThis.gc?.();
  const usage = process.memoryUsage();
  return { heapUsedBytes: usage.heapUsed, rssBytes: usage.rss };
}

interface Target {
  name: string;
  path: () => string;
}

interface RouteStats {
  ok: number;
  notImplemented: number;
  errors: number;
}

interface LoadResult {
  requests: number;
  seconds: number;
  requestsPerSecond: number;
  latencyMs: { p50: number; p95: number; p99: number; max: number };
  ok: number;
  notImplemented: number;
  errors: number;
  byRoute: Record<string, RouteStats>;
}

/** Growable buffer of latencies in ms, without boxing 100,000s of numbers. */
class Samples {
  private values = new Float64Array(1 << 16);
  length = 0;

  push(value: number): void {
    if (this.length === this.values.length) {
      const grown = new Float64Array(this.values.length * 2);
      grown.set(this.values);
      this.values = grown;
    }
    this.values[this.length] = value;
    this.length += 1;
  }

  percentiles(): LoadResult['latencyMs'] {
    const sorted = this.values.slice(0, this.length).sort();
    const at = (p: number) =>
      sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
    const round = (ms: number) => Math.round(ms * 1000) / 1000;
    return { p50: round(at(50)), p95: round(at(95)), p99: round(at(99)), max: round(at(100)) };
  }
}

/** GET a `{ data: [...] }` list; an answer that is not one (a 404 while a route is missing) is empty. */
async function getList(pool: Pool, path: string): Promise<Record<string, unknown>[]> {
  const response = await pool.request({ method: 'GET', path, headers: { authorization: `Bearer ${KEY}` } });
  const text = await response.body.text();
  if (response.statusCode !== 200) return [];
  try {
    const parsed = JSON.parse(text) as { data?: unknown };
    return Array.isArray(parsed.data) ? (parsed.data as Record<string, unknown>[]) : [];
  } catch {
    return [];
  }
}

/** Ids to read, found through the API; a missing route leaves a placeholder that will 404. */
async function discoverTargets(pool: Pool, prefix: string): Promise<Target[]> {
  const ids = async (path: string, member: string): Promise<string[]> => {
    const found = (await getList(pool, `${prefix}${path}`))
      .map((item) => item[member])
      .filter((id): id is string => typeof id === 'string');
    return found.length > 0 ? found : ['missing'];
  };
  const countries = await ids('/v1/catalog/countries', 'code');
  const subscriptions = await ids('/v1/residential/subscriptions', 'id');
  const ports = await ids('/v1/mobile', 'id');
  let turn = 0;
  const next = (list: readonly string[]) => list[(turn += 1) % list.length] as string;
  return [
    { name: 'catalog countries', path: () => `${prefix}/v1/catalog/countries` },
    { name: 'catalog cities', path: () => `${prefix}/v1/catalog/countries/${next(countries)}/cities` },
    { name: 'catalog carriers', path: () => `${prefix}/v1/catalog/countries/${next(countries)}/carriers` },
    { name: 'catalog coins', path: () => `${prefix}/v1/catalog/coins` },
    { name: 'subscriptions', path: () => `${prefix}/v1/residential/subscriptions` },
    {
      name: 'sub-users',
      path: () => `${prefix}/v1/residential/subscriptions/${next(subscriptions)}/sub-users`,
    },
    {
      name: 'subscription usage',
      path: () => `${prefix}/v1/residential/subscriptions/${next(subscriptions)}/usage`,
    },
    { name: 'mobile ports', path: () => `${prefix}/v1/mobile` },
    { name: 'ip-history', path: () => `${prefix}/v1/mobile/${next(ports)}/ip-history` },
    { name: 'port usage', path: () => `${prefix}/v1/mobile/${next(ports)}/usage` },
    { name: 'top-ups list', path: () => `${prefix}/v1/topups` },
  ];
}

async function runLoad(
  pool: Pool,
  targets: readonly Target[],
  options: { concurrency: number; durationMs: number | null; requests: number | null },
): Promise<LoadResult> {
  const samples = new Samples();
  const byRoute: Record<string, RouteStats> = {};
  for (const target of targets) byRoute[target.name] = { ok: 0, notImplemented: 0, errors: 0 };
  let issued = 0;
  const started = performance.now();
  const deadline = options.durationMs === null ? Infinity : started + options.durationMs;
  const more = () => (options.requests !== null ? issued < options.requests : performance.now() < deadline);

  const worker = async () => {
    while (more()) {
      const target = targets[issued % targets.length] as Target;
      issued += 1;
      const stats = byRoute[target.name] as RouteStats;
      const begin = performance.now();
      try {
        const response = await pool.request({
          method: 'GET',
          path: target.path(),
          headers: { authorization: `Bearer ${KEY}` },
        });
        await response.body.dump();
        samples.push(performance.now() - begin);
        if (response.statusCode >= 200 && response.statusCode < 300) stats.ok += 1;
        else if (response.statusCode === 404) stats.notImplemented += 1;
        else stats.errors += 1;
      } catch {
        stats.errors += 1;
      }
    }
  };
  await Promise.all(Array.from({ length: options.concurrency }, worker));
  const seconds = (performance.now() - started) / 1000;
  const totals = Object.values(byRoute).reduce(
    (sum, s) => ({
      ok: sum.ok + s.ok,
      notImplemented: sum.notImplemented + s.notImplemented,
      errors: sum.errors + s.errors,
    }),
    { ok: 0, notImplemented: 0, errors: 0 },
  );
  return {
    requests: issued,
    seconds: Math.round(seconds * 1000) / 1000,
    requestsPerSecond: Math.round(issued / seconds),
    latencyMs: samples.percentiles(),
    ...totals,
    byRoute,
  };
}

interface TopUpResult {
  requested: number;
  created: number;
  notImplemented: number;
  errors: number;
  seconds: number;
  createdPerSecond: number;
  firstError: string | null;
}

async function createTopUps(
  pool: Pool,
  prefix: string,
  count: number,
  concurrency: number,
): Promise<TopUpResult> {
  const coins = (await getList(pool, `${prefix}/v1/catalog/coins`)) as unknown as {
    code: string;
    networks: { id: string }[];
  }[];
  const pairs: { coin: string; network: string }[] = [];
  for (const coin of coins) {
    for (const network of coin.networks) pairs.push({ coin: coin.code, network: network.id });
  }
  if (pairs.length === 0) pairs.push({ coin: 'BTC', network: 'bitcoin' });
  const result: TopUpResult = {
    requested: count,
    created: 0,
    notImplemented: 0,
    errors: 0,
    seconds: 0,
    createdPerSecond: 0,
    firstError: null,
  };
  let next = 0;
  const started = performance.now();
  const worker = async () => {
    while (next < count) {
      const i = next;
      next += 1;
      const pair = pairs[i % pairs.length] as { coin: string; network: string };
      // Amounts from 25.00 up, so that the unique-offset search sees many top-ups of one amount too.
      const amountUsd = `${25 + (i % 500)}.${String(i % 100).padStart(2, '0')}`;
      try {
        const response = await pool.request({
          method: 'POST',
          path: `${prefix}/v1/topups`,
          headers: {
            authorization: `Bearer ${KEY}`,
            'content-type': 'application/json',
            'idempotency-key': `bench-${i}`,
          },
          body: JSON.stringify({ amountUsd, ...pair }),
        });
        const text = await response.body.text();
        if (response.statusCode === 201) result.created += 1;
        else if (response.statusCode === 404) result.notImplemented += 1;
        else {
          result.errors += 1;
          result.firstError ??= `${response.statusCode} ${text.slice(0, 200)}`;
        }
      } catch (error) {
        result.errors += 1;
        result.firstError ??= String(error);
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  const seconds = (performance.now() - started) / 1000;
  result.seconds = Math.round(seconds * 1000) / 1000;
  result.createdPerSecond = Math.round(result.created / seconds);
  return result;
}

const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;

function printLoad(title: string, load: LoadResult): void {
  console.log(`\n${title}`);
  console.log(
    `  ${load.requests} requests in ${load.seconds} s = ${load.requestsPerSecond} req/s; latency ms p50 ${load.latencyMs.p50}, p95 ${load.latencyMs.p95}, p99 ${load.latencyMs.p99}, max ${load.latencyMs.max}`,
  );
  console.log(`  ok ${load.ok}, not implemented (404) ${load.notImplemented}, errors ${load.errors}`);
  console.log(`  ${'route'.padEnd(22)}${'ok'.padStart(9)}${'404'.padStart(9)}${'errors'.padStart(9)}`);
  for (const [name, stats] of Object.entries(load.byRoute)) {
    console.log(
      `  ${name.padEnd(22)}${String(stats.ok).padStart(9)}${String(stats.notImplemented).padStart(9)}${String(stats.errors).padStart(9)}`,
    );
  }
}

async function main(): Promise<void> {
  reExecWithGcIfNeeded();
  const options = readOptions();
  const sandbox: RunningSandbox = await startSandbox({
    port: 0,
    latency: 'fast',
    clock: 'manual',
    seed: 7,
    startTime: '2026-03-10T12:00:00.000Z',
    logError: (message) => process.stderr.write(`${message}\n`),
  });
  const base = new URL(sandbox.baseUrl);
  const prefix = base.pathname;
  const pool = new Pool(base.origin, { connections: options.concurrency, pipelining: 1 });
  try {
    const targets = await discoverTargets(pool, prefix);
    const load = {
      concurrency: options.concurrency,
      durationMs: options.requests === null ? options.durationSeconds * 1000 : null,
      requests: options.requests,
    };
    // Warm-up: JIT, connection set-up and lazily built data stay out of the numbers.
    await runLoad(pool, targets, { concurrency: options.concurrency, durationMs: null, requests: 2_000 });
    const reads = await runLoad(pool, targets, load);
    printLoad(`Mixed read load (${options.concurrency} concurrent, keep-alive pool, loopback)`, reads);

    const before = collect();
    const topUps = await createTopUps(pool, prefix, options.topUps, options.concurrency);
    const after = collect();
    console.log(`\nTop-ups through POST /v1/topups`);
    console.log(
      `  created ${topUps.created}/${topUps.requested} in ${topUps.seconds} s (${topUps.createdPerSecond}/s); 404 ${topUps.notImplemented}, errors ${topUps.errors}${topUps.firstError ? ` (first: ${topUps.firstError})` : ''}`,
    );
    console.log(
      `  after GC: heap used ${mib(before.heapUsedBytes)} -> ${mib(after.heapUsedBytes)}, RSS ${mib(before.rssBytes)} -> ${mib(after.rssBytes)}`,
    );
    const perTopUpBytes =
      topUps.created > 0 ? Math.round((after.heapUsedBytes - before.heapUsedBytes) / topUps.created) : null;
    if (perTopUpBytes !== null) console.log(`  about ${perTopUpBytes} bytes of heap per top-up`);

    const readsAfter = await runLoad(pool, targets, {
      ...load,
      durationMs: load.durationMs === null ? null : Math.max(1_000, Math.round(load.durationMs / 3)),
    });
    printLoad(`Mixed read load again, with ${topUps.created} more top-ups in the sandbox`, readsAfter);

    const result = {
      node: process.version,
      concurrency: options.concurrency,
      reads: { ...reads, byRoute: undefined },
      readsAfterTopUps: { ...readsAfter, byRoute: undefined },
      topUps: {
        ...topUps,
        heapUsedBeforeBytes: before.heapUsedBytes,
        heapUsedAfterBytes: after.heapUsedBytes,
        rssBeforeBytes: before.rssBytes,
        rssAfterBytes: after.rssBytes,
        heapPerTopUpBytes: perTopUpBytes,
      },
      notImplementedRoutes: Object.entries(reads.byRoute)
        .filter(([, stats]) => stats.notImplemented > 0)
        .map(([name]) => name),
    };
    console.log(`\nBENCH_RESULT ${JSON.stringify(result)}`);
  } finally {
    await pool.close();
    await sandbox.close();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
  process.exit(1);
});
