/**
 * `npm run bench`: every benchmark, one after the other (they would disturb each other's timings if
 * run together), each with its own output, then their `BENCH_RESULT` lines side by side.
 *
 *   npm run bench -- [--only sandbox,renderer,subscriptions,real-path,at-rest,topups,schedules,health-store,health-checks,port-health-render,cli-startup]
 *
 * Exits non-zero when one of them failed, after running the others.
 */
import { spawn } from 'node:child_process';
import { parseArgs } from 'node:util';

interface Bench {
  name: string;
  script: string;
  /** Node flags the script needs (the heap bench measures after forced collections). */
  nodeFlags?: readonly string[];
}

const BENCHES: readonly Bench[] = [
  { name: 'sandbox', script: 'packages/sandbox/bench/sandbox-bench.ts' },
  { name: 'renderer', script: 'bench/renderer-list-bench.ts' },
  { name: 'subscriptions', script: 'bench/subscriptions-bench.ts' },
  { name: 'real-path', script: 'bench/real-path-bench.ts' },
  { name: 'at-rest', script: 'bench/at-rest-bench.ts' },
  { name: 'topups', script: 'bench/topup-cadence-bench.ts' },
  { name: 'schedules', script: 'bench/schedules-heap-bench.ts', nodeFlags: ['--expose-gc'] },
  { name: 'local-proxy', script: 'bench/local-proxy-bench.ts' },
  { name: 'health-store', script: 'bench/health-store-bench.ts' },
  { name: 'health-checks', script: 'bench/health-checks-bench.ts' },
  { name: 'port-health-render', script: 'bench/port-health-render-bench.ts' },
  { name: 'cli-startup', script: 'bench/cli-startup-bench.ts' },
];

function runOne(bench: Bench): Promise<{ code: number; result: unknown }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [...(bench.nodeFlags ?? []), '--import', 'tsx', bench.script], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      process.stdout.write(chunk);
      output += chunk.toString();
    });
    child.on('close', (code) => {
      const line = output.split('\n').find((text) => text.startsWith('BENCH_RESULT '));
      let result: unknown;
      try {
        result = line ? JSON.parse(line.slice('BENCH_RESULT '.length)) : null;
      } catch {
        result = null;
      }
      done({ code: code ?? 1, result });
    });
  });
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { only: { type: 'string' } }, strict: true });
  const wanted = values.only?.split(',').map((name) => name.trim());
  const chosen = BENCHES.filter((bench) => !wanted || wanted.includes(bench.name));
  if (chosen.length === 0) throw new Error(`--only names none of: ${BENCHES.map((b) => b.name).join(', ')}`);

  const results: Record<string, unknown> = {};
  let failed = false;
  for (const bench of chosen) {
    console.log(`\n===== ${bench.name} (${bench.script}) =====`);
    const { code, result } = await runOne(bench);
    results[bench.name] = result;
    if (code !== 0 || result === null) failed = true;
  }

  console.log('\n===== all benchmarks =====');
  for (const bench of chosen) {
    console.log(`${bench.name.padEnd(10)} ${JSON.stringify(results[bench.name])}`);
  }
  console.log(`\nBENCH_RESULT ${JSON.stringify(results)}`);
  if (failed) process.exitCode = 1;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
