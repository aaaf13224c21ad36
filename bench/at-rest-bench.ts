/**
 * `npm run bench:at-rest`: the requests the app sends to the service in an hour at rest, per endpoint.
 *
 *   npm run bench:at-rest -- [--root DIR] [--hours N] [--ports N] [--sub-users N] [--topups N] [--abandoned N]
 *
 * The whole core of `--root` (default: this checkout), as `createNodeAppCore` builds it (settings in a
 * fresh folder, a memory keychain, the undici client), with a saved profile for the account, runs
 * against a scale sandbox (1,000 ports, 5,000 sub-users, 300 top-ups of which 20 were abandoned: they
 * expired unpaid in the last 72 hours and stay non-final until their txid deadline) whose clock is
 * manual, kept in step with the core's FakeClock: an hour of background work takes seconds. Two
 * scenarios, each from a fresh start:
 *   - window open on Ports: the window is seen, and it has read what the Ports screen reads
 *     (`app:getState`, `ports:list`, `schedules:list`, the catalog's countries and cities);
 *   - no window: the app in the tray, nobody looking.
 * The first minute (start-up reads) is counted apart from the rest, which is what "at rest" costs;
 * requests per hour are those of the rest, scaled to an hour. Counted from the sandbox's request log.
 *
 * Prints a table per scenario and one line `BENCH_RESULT {json}`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { startSandbox } from '@proxy-manager/sandbox';
import type * as apiModule from '../src-main/api';
import type * as coreRootModule from '../src-main/core/create-app-core';
import type * as fakeClockModule from '../src-main/core/runtime/fake-clock';
import type * as secretsModule from '../src-main/core/secrets/session-secret-store';
import type * as settingsStoreModule from '../src-main/core/settings/settings-store';
import type * as dispatcherModule from '../src-main/dispatch/guarded-dispatcher';
import type * as handlerTableModule from '../src-main/dispatch/handler-table';
import type { AppCore } from '../src-main/core/app-core';
import { wholeOption } from './browser-bench-kit';
import { endpointOf } from './real-path-kit';

const KEY = 'sandbox-demo-key';
const START = '2026-03-10T12:00:00.000Z';
const MINUTE_MS = 60_000;

const { values } = parseArgs({
  options: {
    root: { type: 'string', default: process.cwd() },
    hours: { type: 'string', default: '1' },
    ports: { type: 'string', default: '1000' },
    'sub-users': { type: 'string', default: '5000' },
    topups: { type: 'string', default: '300' },
    abandoned: { type: 'string', default: '20' },
  },
  strict: true,
});
const root = resolve(values.root);
const hours = wholeOption('hours', values.hours, 1, 72);

/**
 * The modules of `--root`'s core, typed as this checkout's: the bench uses only what both have (the
 * composition root, the client, the fake clock, the dispatcher).
 */
interface CoreModules {
  api: typeof apiModule;
  coreRoot: typeof coreRootModule;
  fakeClock: typeof fakeClockModule;
  secrets: typeof secretsModule;
  settingsStore: typeof settingsStoreModule;
  dispatcher: typeof dispatcherModule;
  handlerTable: typeof handlerTableModule;
}

async function loadCore(): Promise<CoreModules> {
  const from = <T>(path: string) => import(join(root, path)) as Promise<T>;
  return {
    api: await from('src-main/api/index.ts'),
    coreRoot: await from('src-main/core/create-app-core.ts'),
    fakeClock: await from('src-main/core/runtime/fake-clock.ts'),
    secrets: await from('src-main/core/secrets/session-secret-store.ts'),
    settingsStore: await from('src-main/core/settings/settings-store.ts'),
    dispatcher: await from('src-main/dispatch/guarded-dispatcher.ts'),
    handlerTable: await from('src-main/dispatch/handler-table.ts'),
  };
}

/** The ports of a `ports:list` answer: a list of ports, or (newer) an object with `rows`. */
/** The ports' countries, from a `ports:list` answer of either shape (`--root` may be older code). */
function countriesOf(value: unknown): string[] {
  if (Array.isArray(value)) return (value as { country: string }[]).map((port) => port.country);
  const table = value as { columns?: unknown; rows?: unknown } | null;
  const column = Array.isArray(table?.columns) ? table.columns.indexOf('country') : -1;
  if (column < 0 || !Array.isArray(table?.rows)) return [];
  return (table.rows as unknown[][]).map((values) => String(values[column]));
}

interface Counts {
  startup: Map<string, number>;
  rest: Map<string, number>;
}

async function runScenario(modules: CoreModules, windowOpen: boolean): Promise<Counts> {
  const sandbox = await startSandbox({
    port: 0,
    clock: 'manual',
    latency: 'fast',
    seed: 1,
    startTime: START,
    keys: [{ key: KEY, scopes: ['proxies'] }],
    scale: {
      ports: wholeOption('ports', values.ports, 1, 20_000),
      subUsers: wholeOption('sub-users', values['sub-users'], 0, 50_000),
      topUps: wholeOption('topups', values.topups, 0, 20_000),
      abandonedTopUps: wholeOption('abandoned', values.abandoned, 0, 20_000),
    },
  });
  const control = async (method: string, path: string, body?: unknown): Promise<unknown> => {
    const response = await fetch(`${sandbox.controlUrl}${path}`, {
      method,
      headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`control ${method} ${path}: ${response.status}`);
    return response.status === 204 ? null : response.json();
  };
  const dataDir = mkdtempSync(join(tmpdir(), 'pm-at-rest-'));
  const clock = new modules.fakeClock.FakeClock(Date.parse(START));
  // One keychain for both cores: the profile saved by the first is there, with its key, for the second.
  const keychain = new modules.secrets.SessionSecretStore();
  const build = async () =>
    modules.coreRoot.buildAppCore({
      mode: 'web',
      settings: await modules.settingsStore.SettingsStore.open({ dataDir }),
      keychain,
      keychainStatus: () => ({ available: true }),
      createClient: (config) =>
        new modules.api.ProxyServiceClient({
          ...config,
          now: () => clock.now(),
          sleep: () => Promise.resolve(),
        }),
      probeBaseUrl: (baseUrl) => modules.api.probeBaseUrl(baseUrl),
      startDemoSandbox: () => Promise.reject(new Error('no demo here')),
      now: () => new Date(clock.now()),
      clock,
      windowVisible: windowOpen,
      log: () => undefined,
    });
  const dispatcherOf = (core: AppCore) => {
    const dispatch = modules.dispatcher.createGuardedDispatcher({
      handlers: modules.handlerTable.createIpcHandlers(core),
      isTrustedSender: () => true,
      log: () => undefined,
    });
    return (channel: string, input?: unknown) => dispatch('window', channel, input);
  };
  // A saved profile, as a user has: the app finds it at start (the environment's would come later).
  const setup = await build();
  await setup.start();
  const created = await dispatcherOf(setup)('profiles:create', {
    name: 'Scale',
    baseUrl: sandbox.baseUrl,
    apiKey: KEY,
  });
  if (!created.ok) throw new Error(`profiles:create: ${created.error.message}`);
  await setup.dispose();
  await control('DELETE', '/requests');
  const core = await build();
  const counts: Counts = { startup: new Map(), rest: new Map() };
  const collect = async (into: Map<string, number>) => {
    const log = (await control('GET', '/requests')) as { data: { method: string; path: string }[] };
    await control('DELETE', '/requests');
    for (const request of log.data) {
      const endpoint = endpointOf(request.method, request.path);
      into.set(endpoint, (into.get(endpoint) ?? 0) + 1);
    }
  };
  /**
   * Waits (real time) until the jobs woken have gone back to sleep (as many sleepers as before the
   * wake-up) and nothing has changed for a moment: their requests are answered by then.
   */
  const quiet = async (sleepersBefore: number) => {
    let last = -1;
    let stable = 0;
    for (let round = 0; round < 300 && stable < 3; round += 1) {
      await new Promise((done) => setTimeout(done, 10));
      const calls = clock.sleeps.length;
      stable = calls === last && clock.pending.length >= sleepersBefore ? stable + 1 : 0;
      last = calls;
    }
  };
  try {
    await core.start();
    if (windowOpen) {
      const call = dispatcherOf(core);
      await call('app:getState');
      const [ports] = await Promise.all([call('ports:list'), call('schedules:list')]);
      await call('catalog:countries');
      const countryCodes = [...new Set(countriesOf(ports.ok ? ports.value : null))];
      if (countryCodes.length > 0) await call('catalog:citiesOf', { countryCodes });
      // The window's read-ahead once it is idle: the other lists behind the navigation.
      await Promise.all([call('subscriptions:list'), call('topups:list')]);
    }
    await quiet(0);
    const end = clock.now() + hours * 60 * MINUTE_MS;
    let minuteMark = clock.now() + MINUTE_MS;
    let into = counts.startup;
    while (clock.now() < end) {
      const next = Math.min(clock.pending[0]?.until ?? end, minuteMark, end);
      const step = Math.max(0, next - clock.now());
      if (step > 0) await control('POST', '/clock', { advanceSeconds: step / 1000 });
      const sleepers = clock.pending.length;
      await clock.runUntil(next);
      await quiet(sleepers);
      if (clock.now() >= minuteMark) {
        await collect(into);
        into = counts.rest;
        minuteMark += MINUTE_MS;
      }
    }
    await collect(into);
  } finally {
    await core.dispose();
    await sandbox.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
  return counts;
}

async function main(): Promise<void> {
  const modules = await loadCore();
  const wallStart = performance.now();
  const result: Record<string, unknown> = { bench: 'at-rest', root, hours };
  for (const [name, windowOpen] of [
    ['windowOpen', true],
    ['noWindow', false],
  ] as const) {
    const counts = await runScenario(modules, windowOpen);
    const restMinutes = hours * 60 - 1;
    const perHour = Object.fromEntries(
      [...counts.rest.entries()]
        .sort((a, b) => b[1] - a[1])
        .map(([endpoint, count]) => [endpoint, Math.round((count / restMinutes) * 60)]),
    );
    const total = Object.values(perHour).reduce((sum, count) => sum + count, 0);
    result[name] = {
      requestsPerHour: total,
      perEndpoint: perHour,
      firstMinute: Object.fromEntries(counts.startup),
    };
    console.log(
      `\n${windowOpen ? 'Window open on Ports' : 'No window'}: ${total} requests per hour at rest (after the first minute)`,
    );
    for (const [endpoint, count] of Object.entries(perHour)) {
      console.log(`  ${endpoint.padEnd(48)} ${String(count).padStart(6)} /h`);
    }
    console.log(
      `  first minute (start-up): ${[...counts.startup.entries()].map(([endpoint, count]) => `${endpoint} ${count}`).join(', ')}`,
    );
  }
  result.wallMs = Math.round(performance.now() - wallStart);
  console.log(`\nBENCH_RESULT ${JSON.stringify(result)}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
