/**
 * `npm run bench -- --only cli-startup`: how long `proxy-manager` takes from the shell, as cold
 * processes (a new `node` each time, median of 10), beside bare Node (`node -e 0`) in the same run:
 *
 * - `--help` and `--version` (target: within 100 ms of bare Node);
 * - `ports list --json` through a running app (an owner of the jobs answering on its control
 *   socket; target: within 150 ms of bare Node);
 * - `ports list --json` with no app, a key in the environment, a core of its own (target: within
 *   400 ms of bare Node plus the service's answer, measured here as a direct `GET /v1/mobile`).
 *
 * The CLI is the prebuilt bundle (scripts/build-cli.mjs, built first). Prints a table and one line
 * `BENCH_RESULT {json}`.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEMO_KEY, TestSandbox } from '@proxy-manager/sandbox/testing';
import { createControlDispatcher, startControlServer } from '../src-main/control/control-server';
import { createNodeAppCore } from '../src-main/core/node-app-core';
import { createIpcHandlers } from '../src-main/dispatch/handler-table';

const ROOT = join(__dirname, '..');
const BIN = join(ROOT, 'bin', 'proxy-manager.mjs');
const RUNS = 10;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] ?? 0)
    : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

/** One cold process: milliseconds from spawn to exit (exit code 0 required). */
function timeProcess(args: readonly string[], env: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(process.execPath, args, {
      env: { ...process.env, ...env, DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      if (code === 0) resolve(ms);
      else reject(new Error(`${args.join(' ')} exited ${code}: ${stderr.trim()}`));
    });
  });
}

interface Case {
  args: readonly string[];
  env?: Record<string, string>;
}

/**
 * The median of `RUNS` cold processes of each case, run in rounds (one of each case per round), so
 * that a shared machine's changing load falls on every case alike rather than on whichever ran last.
 */
async function mediansOf(cases: readonly Case[]): Promise<number[]> {
  // One run of each first: V8's compile cache and the remembered base-URL probe are what a user's
  // second command gets; the measured runs are each a new process all the same.
  for (const one of cases) await timeProcess(one.args, one.env ?? {});
  const times = cases.map((): number[] => []);
  for (let run = 0; run < RUNS; run += 1) {
    for (const [index, one] of cases.entries())
      times[index]?.push(await timeProcess(one.args, one.env ?? {}));
  }
  return times.map(median);
}

async function serviceAnswerMs(sandbox: TestSandbox): Promise<number> {
  const times: number[] = [];
  for (let run = 0; run < RUNS; run += 1) {
    const started = process.hrtime.bigint();
    await sandbox.request('GET', '/v1/mobile');
    times.push(Number(process.hrtime.bigint() - started) / 1e6);
  }
  return median(times);
}

async function main(): Promise<void> {
  execFileSync(process.execPath, [join(ROOT, 'scripts', 'build-cli.mjs')], { stdio: 'inherit' });
  const sandbox = await TestSandbox.start();
  const ownerDir = mkdtempSync(join(tmpdir(), 'pm-bench-owner-'));
  const core = await createNodeAppCore({
    mode: 'web',
    dataDir: ownerDir,
    windowVisible: false,
    keychainProbeTimeoutMs: 2_000,
    log: () => undefined,
  });
  await core.start({ environment: { apiKey: DEMO_KEY, baseUrl: sandbox.baseUrl } });
  const dispatch = createControlDispatcher(createIpcHandlers(core), () => undefined);
  const control = await startControlServer({ dataDir: ownerDir, log: () => undefined, dispatch });
  try {
    const [node = 0, help = 0, version = 0, throughApp = 0, alone = 0] = await mediansOf([
      { args: ['-e', '0'] },
      { args: [BIN, '--help'] },
      { args: [BIN, '--version'] },
      { args: [BIN, 'ports', 'list', '--json'], env: { PROXY_MANAGER_DATA_DIR: ownerDir } },
      {
        args: [BIN, 'ports', 'list', '--json'],
        env: {
          PROXY_MANAGER_DATA_DIR: mkdtempSync(join(tmpdir(), 'pm-bench-alone-')),
          PROXY_MANAGER_API_KEY: DEMO_KEY,
          PROXY_MANAGER_BASE_URL: sandbox.baseUrl,
        },
      },
    ]);
    const service = await serviceAnswerMs(sandbox);
    const rows = [
      { what: '--help', ms: help, budget: node + 100 },
      { what: '--version', ms: version, budget: node + 100 },
      { what: 'ports list --json (through the app)', ms: throughApp, budget: node + 150 },
      { what: 'ports list --json (no app)', ms: alone, budget: node + 400 + service },
    ];
    console.log(
      `node -e 0: ${node.toFixed(0)} ms; the service's answer: ${service.toFixed(1)} ms (median of ${RUNS})`,
    );
    for (const row of rows) {
      console.log(
        `${row.what.padEnd(38)} ${row.ms.toFixed(0).padStart(5)} ms  (node + ${(row.ms - node).toFixed(0)} ms; budget ${row.budget.toFixed(0)} ms) ${row.ms <= row.budget ? 'ok' : 'OVER'}`,
      );
    }
    console.log(
      `BENCH_RESULT ${JSON.stringify({
        nodeMs: Math.round(node),
        serviceMs: Math.round(service),
        helpMs: Math.round(help),
        versionMs: Math.round(version),
        listThroughAppMs: Math.round(throughApp),
        listAloneMs: Math.round(alone),
        withinTargets: rows.every((row) => row.ms <= row.budget),
      })}`,
    );
  } finally {
    await control.close();
    await core.dispose();
    await sandbox.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
