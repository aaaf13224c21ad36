/**
 * `npm run bench:renderer`: how long the renderer takes from a click on a navigation link to the rows
 * of a long list being in the DOM, in the built renderer, in Debian's Chromium.
 *
 *   npm run bench:renderer -- [--runs N] [--ports N] [--root DIR] [--no-build] [--profile]
 *
 * It builds the renderer (`electron-vite build`, output in `<root>/out/renderer`), serves that folder
 * on loopback, and opens it in headless Chromium with a fake `window.api` injected before the page's
 * own scripts (Playwright `addInitScript`). The fake answers at once, so the numbers are the
 * renderer's own cost: React rendering, effects, style and layout.
 *
 * Each run opens a fresh page on Settings, then:
 *   - cold: click "Ports"; the ports are read from the (fake) API and rendered;
 *   - warm: click "Settings", then "Ports" again; the ports come from the store's cache.
 * Each is timed in the page from the click (a capture listener) to the moment a MutationObserver
 * sees the first data row (`domMs`), and to the end of the next frame (`frameMs`, a requestAnimationFrame
 * callback followed by a task: style, layout and paint of what was committed).
 *
 * Chromium's own counters (Performance.getMetrics: layouts, layout, style and script time) are
 * reported too: the machine may be shared, and they say where the time went.
 *
 * `--root` measures another checkout (e.g. the code before a change) with this same script.
 * `--profile` adds one cold run under Chromium's sampling profiler and prints the functions with the
 * most self time (names from the built bundle, with its file:line:column).
 * Prints a table and one line `BENCH_RESULT {json}`.
 */
import { spawnSync } from 'node:child_process';
import { createReadStream, existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { parseArgs } from 'node:util';
import { chromium, type BrowserContext, type CDPSession, type Page } from 'playwright-core';

const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];

interface BenchOptions {
  runs: number;
  ports: number;
  root: string;
  build: boolean;
  profile: boolean;
}

function readOptions(): BenchOptions {
  const { values } = parseArgs({
    options: {
      runs: { type: 'string', default: '15' },
      ports: { type: 'string', default: '1000' },
      root: { type: 'string', default: process.cwd() },
      'no-build': { type: 'boolean', default: false },
      profile: { type: 'boolean', default: false },
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
    runs: whole('runs', values.runs, 1),
    ports: whole('ports', values.ports, 1),
    root: resolve(values.root),
    build: !values['no-build'],
    profile: values.profile,
  };
}

function buildRenderer(root: string): void {
  const started = performance.now();
  const result = spawnSync('npx', ['electron-vite', 'build'], { cwd: root, encoding: 'utf8' });
  if (result.status !== 0) {
    process.stderr.write(result.stdout + result.stderr);
    throw new Error(`electron-vite build failed in ${root}`);
  }
  console.log(`built ${root}/out/renderer in ${Math.round(performance.now() - started)} ms`);
}

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.json': 'application/json',
};

/** A static server for the built renderer: nothing else (no /rpc: the page gets a fake `window.api`). */
async function serve(folder: string): Promise<{ server: Server; origin: string }> {
  const server = createServer((request, response) => {
    const path = decodeURIComponent(new URL(request.url ?? '/', 'http://x').pathname);
    const file = normalize(join(folder, path === '/' ? 'index.html' : path));
    if (!file.startsWith(folder + sep) || !existsSync(file) || !statSync(file).isFile()) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, {
      'Content-Type': CONTENT_TYPES[extname(file)] ?? 'application/octet-stream',
      'Cache-Control': 'no-store',
    });
    createReadStream(file).pipe(response);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  return { server, origin: `http://127.0.0.1:${port}` };
}

/**
 * Runs in the page before its scripts. It must be self-contained (Playwright serialises it), so the
 * fixtures are built here rather than imported. Calls answer `{ ok: true }` at once; channels the
 * bench does not know answer an empty list, so a screen never spins on them.
 */
function installFakeApi(config: { ports: number; now: string }): void {
  const now = Date.parse(config.now);
  const iso = (offsetMs: number) => new Date(now + offsetMs).toISOString();
  const profile = {
    id: 'prof_bench',
    name: 'Bench',
    baseUrl: 'https://api.example.com/api/v1',
    pathStyle: 'literal',
    kind: 'account',
    active: true,
    key: { configured: true, masked: '…a1b2', source: 'keychain' },
  };
  const appState = {
    mode: 'desktop',
    profiles: [profile],
    activeProfile: profile,
    connection: { status: 'online', message: 'Connected to Bench.', checkedAt: iso(-60_000) },
    keychain: { available: true, reason: null },
    demo: { running: false },
    notices: [],
    jobs: { owner: true, message: null },
  };
  const settings = {
    theme: 'light',
    polling: { usageMinutes: 15, topUpVerifyingSeconds: 10, topUpAwaitingPaymentSeconds: 30 },
    alerts: { trafficRemainingPercent: 10, expiryWarningDays: 3 },
    desktop: { closeToTray: true, startAtLogin: false, startMinimized: false },
  };
  const cities = ['los_angeles', 'new_york', 'berlin', 'paris', 'madrid', null];
  const countries = ['US', 'US', 'DE', 'FR', 'ES', 'GB'];
  const ports = Array.from({ length: config.ports }, (_, index) => ({
    id: `port_${String(index + 1).padStart(5, '0')}`,
    label: index % 7 === 0 ? '' : `Port ${index + 1}`,
    status: index % 11 === 0 ? 'provisioning' : 'active',
    country: countries[index % countries.length],
    city: cities[index % cities.length],
    carrier: 'tmobile_us',
    carrierName: 'T-Mobile US',
    networkType: index % 3 === 0 ? '4G' : '5G',
    currentIp: `100.85.${Math.floor(index / 250)}.${index % 250}`,
    ipChangedAt: iso(-((index * 61_000) % 86_400_000)),
    endpoint: { host: 'gw.example.com', httpPort: 8000 + index, socksPort: 9000 + index },
    username: `user${index}`,
    password: 'secret',
    rotation:
      index % 4 === 0
        ? { mode: 'manual', intervalMinutes: null }
        : { mode: 'interval', intervalMinutes: 5 * (1 + (index % 12)) },
    minRotationIntervalSeconds: 30,
    planId: 'mobile-30d',
    autoRenew: index % 2 === 0,
    createdAt: iso(-30 * 86_400_000),
    expiresAt: iso((1 + (index % 29)) * 86_400_000),
    hasRotationLink: true,
  }));
  // Every third port has an app schedule, half of them within the hour (a countdown on the row).
  const schedules = {
    profileId: profile.id,
    paused: false,
    schedules: ports
      .filter((_port, index) => index % 3 === 0)
      .map((port, index) => ({
        profileId: profile.id,
        portId: port.id,
        cadence: { kind: 'every', seconds: 300 },
        jitterSeconds: 0,
        staggerSeconds: 0,
        offsetSeconds: 0,
        nextRunAt: iso(index % 2 === 0 ? 60_000 + index * 1000 : 7_200_000),
        consecutiveFailures: 0,
        lastRuns: [],
      })),
  };
  const answers: Record<string, () => unknown> = {
    'app:getState': () => appState,
    'schedules:list': () => schedules,
    'settings:get': () => settings,
    'ports:list': () => ports,
    'topups:list': () => ({ data: [], pagination: { page: 1, perPage: 20, total: 0, totalPages: 0 } }),
  };
  const domain = (name: string) =>
    new Proxy(
      {},
      {
        get(_target, member) {
          if (typeof member !== 'string' || member === 'then') return undefined;
          // Events: the bench pushes none; subscribing must still work and answer an unsubscribe.
          if (/^on[A-Z]/.test(member)) return () => () => undefined;
          const answer = answers[`${name}:${member}`];
          return () => Promise.resolve({ ok: true, value: answer ? answer() : [] });
        },
      },
    );
  (window as unknown as { api: unknown }).api = new Proxy(
    {},
    {
      get(_target, name) {
        return typeof name === 'string' && name !== 'then' ? domain(name) : undefined;
      },
    },
  );
}

interface Timing {
  domMs: number;
  frameMs: number;
  rows: number;
  /** From Chromium's own counters, from before the click to the end of the next frame. */
  layouts: number;
  layoutMs: number;
  styleMs: number;
  scriptMs: number;
}

const METRICS = ['LayoutCount', 'LayoutDuration', 'RecalcStyleDuration', 'ScriptDuration'] as const;

async function readMetrics(client: CDPSession): Promise<Record<(typeof METRICS)[number], number>> {
  const { metrics } = await client.send('Performance.getMetrics');
  const value = (name: string) => metrics.find((metric) => metric.name === name)?.value ?? 0;
  return Object.fromEntries(METRICS.map((name) => [name, value(name)])) as Record<
    (typeof METRICS)[number],
    number
  >;
}

/**
 * Arms the page's timer, then clicks the link. The click time is taken in the page (a capture
 * listener on the document) so that the bench's own round trips are not counted. Arming is awaited
 * before the click so that the listener is surely in place.
 */
async function timeNavigation(
  page: Page,
  client: CDPSession,
  linkName: string,
  tableName: string,
): Promise<Timing> {
  await page.evaluate(
    ({ linkName: link, tableName: table }) => {
      const holder = window as unknown as { benchTiming?: Promise<unknown> };
      holder.benchTiming = new Promise((done, fail) => {
        let clickedAt = 0;
        let domMs = -1;
        const rowsNow = () => document.querySelectorAll(`table[aria-label="${table}"] tbody tr`).length;
        const onClick = (event: Event) => {
          const target = event.target as HTMLElement | null;
          if (target?.closest('a')?.textContent?.trim() !== link) return;
          clickedAt = performance.now();
          document.removeEventListener('click', onClick, true);
        };
        document.addEventListener('click', onClick, true);
        const observer = new MutationObserver(() => {
          if (!clickedAt || domMs >= 0 || rowsNow() === 0) return;
          domMs = performance.now() - clickedAt;
          observer.disconnect();
          requestAnimationFrame(() =>
            setTimeout(() => done({ domMs, frameMs: performance.now() - clickedAt, rows: rowsNow() }), 0),
          );
        });
        observer.observe(document.body, { childList: true, subtree: true });
        setTimeout(() => fail(new Error(`no rows in "${table}" 30 s after clicking "${link}"`)), 30_000);
      });
    },
    { linkName, tableName },
  );
  const before = await readMetrics(client);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: linkName }).click();
  const timing = (await page.evaluate(
    () => (window as unknown as { benchTiming: Promise<unknown> }).benchTiming,
  )) as Pick<Timing, 'domMs' | 'frameMs' | 'rows'>;
  const after = await readMetrics(client);
  const ms = (name: (typeof METRICS)[number]) => Math.round((after[name] - before[name]) * 10_000) / 10;
  return {
    ...timing,
    layouts: after.LayoutCount - before.LayoutCount,
    layoutMs: ms('LayoutDuration'),
    styleMs: ms('RecalcStyleDuration'),
    scriptMs: ms('ScriptDuration'),
  };
}

async function openOnSettings(
  context: BrowserContext,
  origin: string,
): Promise<{ page: Page; client: CDPSession }> {
  const page = await context.newPage();
  page.on('pageerror', (error) => console.error('page error:', error));
  const client = await context.newCDPSession(page);
  await client.send('Performance.enable');
  await page.goto(`${origin}/index.html#/settings`);
  await page.getByRole('heading', { level: 1, name: 'Settings' }).waitFor();
  return { page, client };
}

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  hitCount?: number;
}

/** One cold navigation under the sampling profiler: the top functions by self time. */
async function profileCold(context: BrowserContext, origin: string): Promise<void> {
  const { page, client } = await openOnSettings(context, origin);
  await client.send('Profiler.enable');
  await client.send('Profiler.setSamplingInterval', { interval: 100 });
  await client.send('Profiler.start');
  const timing = await timeNavigation(page, client, 'Ports', 'Mobile ports');
  const { profile } = (await client.send('Profiler.stop')) as unknown as {
    profile: { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] };
  };
  await page.close();
  const selfMs = new Map<number, number>();
  profile.samples.forEach((id, index) => {
    selfMs.set(id, (selfMs.get(id) ?? 0) + (profile.timeDeltas[index] ?? 0) / 1000);
  });
  const byFunction = new Map<string, number>();
  for (const node of profile.nodes) {
    const { functionName, url, lineNumber, columnNumber } = node.callFrame;
    const file = url ? url.slice(url.lastIndexOf('/') + 1) : '';
    const name = `${functionName || '(anonymous)'} ${file}:${lineNumber + 1}:${columnNumber + 1}`;
    byFunction.set(name, (byFunction.get(name) ?? 0) + (selfMs.get(node.id) ?? 0));
  }
  const top = [...byFunction.entries()]
    .filter(([name]) => !name.startsWith('(idle)'))
    .sort((a, b) => b[1] - a[1])
    .slice(0, 20);
  console.log(`
Profiled cold run: rows in DOM ${Math.round(timing.domMs)} ms; top self time (ms):`);
  for (const [name, ms] of top) console.log(`  ${ms.toFixed(1).padStart(7)}  ${name}`);
}

interface Summary {
  median: number;
  min: number;
  max: number;
}

function summarise(values: number[]): Summary {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  const median =
    sorted.length % 2 === 1 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
  const round = (value: number) => Math.round(value * 10) / 10;
  return { median: round(median), min: round(sorted[0] ?? 0), max: round(sorted.at(-1) ?? 0) };
}

/** Medians of Chromium's counters: where the time went, less sensitive to a busy machine than wall time. */
function breakdown(timings: Timing[]) {
  const median = (pick: (timing: Timing) => number) => summarise(timings.map(pick)).median;
  return {
    layouts: median((t) => t.layouts),
    layoutMs: median((t) => t.layoutMs),
    styleMs: median((t) => t.styleMs),
    scriptMs: median((t) => t.scriptMs),
  };
}

async function main(): Promise<void> {
  const options = readOptions();
  if (options.build) buildRenderer(options.root);
  const folder = join(options.root, 'out', 'renderer');
  if (!existsSync(join(folder, 'index.html'))) throw new Error(`no built renderer in ${folder}`);

  const { server, origin } = await serve(folder);
  const profileDir = mkdtempSync(join(tmpdir(), 'renderer-bench-'));
  const context = await chromium.launchPersistentContext(profileDir, {
    executablePath: '/usr/bin/chromium',
    args: CHROMIUM_ARGS,
    headless: true,
    viewport: { width: 1280, height: 800 },
    // The built page's CSP forbids inline scripts; the fake API is the bench's, not the page's.
    bypassCSP: true,
  });
  const cold: Timing[] = [];
  const warm: Timing[] = [];
  try {
    // tsx compiles this file with esbuild's keepNames, which wraps functions in `__name(...)`: the
    // functions sent to the page need that helper there too.
    await context.addInitScript({ content: 'globalThis.__name ??= (fn) => fn;' });
    await context.addInitScript(installFakeApi, {
      ports: options.ports,
      now: new Date().toISOString(),
    });
    // One unmeasured run: the first page pays for compiling the bundle.
    const warmUp = await openOnSettings(context, origin);
    await timeNavigation(warmUp.page, warmUp.client, 'Ports', 'Mobile ports');
    await warmUp.page.close();

    for (let run = 0; run < options.runs; run += 1) {
      const { page, client } = await openOnSettings(context, origin);
      cold.push(await timeNavigation(page, client, 'Ports', 'Mobile ports'));
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settings' }).click();
      await page.getByRole('heading', { level: 1, name: 'Settings' }).waitFor();
      warm.push(await timeNavigation(page, client, 'Ports', 'Mobile ports'));
      await page.close();
    }
    if (options.profile) await profileCold(context, origin);
  } finally {
    await context.close();
    server.close();
    rmSync(profileDir, { recursive: true, force: true });
  }

  const result = {
    bench: 'renderer-list',
    root: options.root,
    ports: options.ports,
    runs: options.runs,
    rowsInDom: cold[0]?.rows ?? 0,
    coldDomMs: summarise(cold.map((t) => t.domMs)),
    coldFrameMs: summarise(cold.map((t) => t.frameMs)),
    warmDomMs: summarise(warm.map((t) => t.domMs)),
    warmFrameMs: summarise(warm.map((t) => t.frameMs)),
    cold: breakdown(cold),
    warm: breakdown(warm),
  };
  const line = (name: string, summary: Summary) =>
    `  ${name.padEnd(34)} median ${String(summary.median).padStart(7)}  min ${String(summary.min).padStart(7)}  max ${String(summary.max).padStart(7)}`;
  console.log(`\nClick on "Ports" to rows, ${options.ports} ports, ${options.runs} runs (ms)`);
  console.log(line('cold (read + render): rows in DOM', result.coldDomMs));
  console.log(line('cold: end of next frame', result.coldFrameMs));
  console.log(line('warm (cached): rows in DOM', result.warmDomMs));
  console.log(line('warm: end of next frame', result.warmFrameMs));
  console.log(`  rows in the DOM after the click: ${result.rowsInDom}`);
  for (const [name, parts] of [
    ['cold', result.cold],
    ['warm', result.warm],
  ] as const) {
    console.log(
      `  ${name}: medians of ${parts.layouts} layouts, layout ${parts.layoutMs} ms, style ${parts.styleMs} ms, script ${parts.scriptMs} ms`,
    );
  }
  console.log(`\nBENCH_RESULT ${JSON.stringify(result)}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
