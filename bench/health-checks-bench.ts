/**
 * `npm run bench -- --only health-checks`: the health-check job at rest with 1,000 ports checked every
 * 5 minutes. The sandbox (API and gateway) runs in a child process with a scale account; this
 * process is the job owner: the job, the probes through the gateway and the health store (SQLite in a
 * temp folder). After a warm-up it measures, over `--seconds` of real time, the checks sent per
 * second, how evenly they are paced (the largest number started in any one second), and this
 * process's CPU time as a share of one core.
 *
 *   tsx bench/health-checks-bench.ts [--ports 1000] [--every 300] [--seconds 60] [--warmup 10]
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { ProxyServiceClient } from '../src-main/api';
import { HealthCheckJob } from '../src-main/core/health/health-check-job';
import { HealthStore } from '../src-main/core/health/health-store';
import { probeProxy } from '../src-main/core/proxy-test/proxy-probe';
import { SANDBOX_ECHO_URL } from '../src-main/core/proxy-test/proxy-test-service';
import { systemClock } from '../src-main/core/runtime/clock';
import { toPortView } from '../src-main/core/ports/ports-service';
import { wholeOption } from './browser-bench-kit';

const { values } = parseArgs({
  options: {
    ports: { type: 'string', default: '1000' },
    every: { type: 'string', default: '300' },
    seconds: { type: 'string', default: '60' },
    warmup: { type: 'string', default: '10' },
  },
  strict: true,
});
const PORTS = wholeOption('ports', values.ports, 1, 20_000);
const EVERY = wholeOption('every', values.every, 30, 86_400);
const SECONDS = wholeOption('seconds', values.seconds, 5, 3600);
const WARMUP = wholeOption('warmup', values.warmup, 0, 600);
const KEY = 'sandbox-demo-key';

interface Ready {
  baseUrl: string;
}

function startSandbox(): Promise<{ ready: Ready; stop: () => void }> {
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      'packages/sandbox/src/cli.ts',
      '--port',
      '0',
      '--latency',
      'fast',
      '--scale',
      `ports=${PORTS}`,
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (text: string) => {
      out += text;
      const line = out.split('\n').find((l) => l.startsWith('SANDBOX_READY '));
      if (line)
        resolve({
          ready: JSON.parse(line.slice('SANDBOX_READY '.length)) as Ready,
          stop: () => child.kill(),
        });
    });
    child.once('exit', (code) => reject(new Error(`the sandbox exited (${code})`)));
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function main(): Promise<void> {
  const { ready, stop } = await startSandbox();
  const dir = mkdtempSync(join(tmpdir(), 'health-checks-bench-'));
  const store = HealthStore.open(join(dir, 'health.sqlite'));
  const client = new ProxyServiceClient({ baseUrl: ready.baseUrl, apiKey: KEY });
  const ports = (await client.listMobilePorts()).map(toPortView);
  const starts: number[] = [];
  let failures = 0;
  const job = new HealthCheckJob({
    clock: systemClock,
    store: () => store,
    profileIds: () => ['bench'],
    ports: () => Promise.resolve(ports),
    policy: () => ({ portsEverySeconds: EVERY, downAfter: 3, upAfter: 2 }),
    checkUrlFor: () => SANDBOX_ECHO_URL,
    probe: async (request) => {
      starts.push(Date.now());
      const outcome = await probeProxy(request, { clock: systemClock });
      if (!outcome.ok) failures += 1;
      return outcome;
    },
    startDelayMs: 0,
  });
  const active = ports.filter((port) => port.status === 'active').length;
  job.start();
  await sleep(WARMUP * 1000);
  const cpuBefore = process.cpuUsage();
  const from = Date.now();
  const startsBefore = starts.length;
  await sleep(SECONDS * 1000);
  const cpu = process.cpuUsage(cpuBefore);
  const wallMs = Date.now() - from;
  const measured = starts.slice(startsBefore);
  await job.stop();
  store.close();
  stop();
  rmSync(dir, { recursive: true, force: true });
  const perSecond = new Map<number, number>();
  for (const at of measured)
    perSecond.set(Math.floor(at / 1000), (perSecond.get(Math.floor(at / 1000)) ?? 0) + 1);
  const result = {
    ports: active,
    everySeconds: EVERY,
    seconds: Math.round(wallMs / 1000),
    checksPerSecond: Number((measured.length / (wallMs / 1000)).toFixed(2)),
    expectedPerSecond: Number((active / EVERY).toFixed(2)),
    mostInOneSecond: Math.max(0, ...perSecond.values()),
    failures,
    cpuPercentOfACore: Number((((cpu.user + cpu.system) / 1000 / wallMs) * 100).toFixed(2)),
    rssMB: Math.round(process.memoryUsage().rss / 1_048_576),
  };
  console.log(
    `health checks: ${active} ports every ${EVERY} s: ${result.checksPerSecond} checks/s (expected ${result.expectedPerSecond}), ` +
      `at most ${result.mostInOneSecond} started in one second, ${failures} failed; owner CPU ${result.cpuPercentOfACore} % of a core, RSS ${result.rssMB} MB`,
  );
  console.log(`BENCH_RESULT ${JSON.stringify(result)}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
