/**
 * What the browser benchmarks share: building the renderer, serving it on loopback, opening it in
 * Debian's headless Chromium with a fake `window.api`, and timing a click until something is in the
 * DOM and until the end of the next frame, with Chromium's own counters beside the wall time.
 */
import { spawnSync } from 'node:child_process';
import { createReadStream, existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { chromium, type BrowserContext, type CDPSession, type Locator, type Page } from 'playwright-core';
import { defaultSettings } from '../src-main/core/settings/settings-schema';
import { toSettingsView } from '../src-main/core/settings/settings-service';

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];

export function buildRenderer(root: string): void {
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
export async function serve(folder: string): Promise<{ server: Server; origin: string }> {
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

export interface Timing {
  domMs: number;
  frameMs: number;
  rows: number;
  /** From Chromium's own counters, from before the click to the end of the next frame. */
  layouts: number;
  /** React commits from the click to the rows in the DOM, and to the end of the next frame. */
  commitsToDom: number;
  commits: number;
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

export interface ClickTiming {
  /** The visible text of the link or button clicked (matched on the click's target in the page). */
  clickText: string;
  /** CSS selector whose first match ends the timing (`domMs`). */
  ready: string;
  /** CSS selector of the rows counted when ready (reported as `rows`). */
  rows: string;
  /** Makes the click (through Playwright, so that it is a real one). */
  click: () => Promise<void>;
}

/**
 * Arms the page's timer, then clicks. The click time is taken in the page (a capture listener on
 * the document) so that the bench's own round trips are not counted. Arming is awaited before the
 * click so that the listener is surely in place. `domMs` ends when a MutationObserver first sees
 * `ready`; `frameMs` at the end of the next frame (a requestAnimationFrame callback followed by a
 * task: style, layout and paint of what was committed).
 */
export async function timeClick(page: Page, client: CDPSession, timing: ClickTiming): Promise<Timing> {
  await page.evaluate(
    ({ clickText, ready, rows }) => {
      const holder = window as unknown as { benchTiming?: Promise<unknown> };
      const hook = (window as unknown as { benchCommits?: { count: number } }).benchCommits;
      holder.benchTiming = new Promise((done, fail) => {
        let clickedAt = 0;
        let domMs = -1;
        let commitsAtClick = 0;
        let commitsToDom = 0;
        const commitsNow = () => (hook ? hook.count - commitsAtClick : 0);
        // A screen kept hidden (the app keeps list screens mounted) has its rows in the DOM already:
        // only rows outside a hidden element count, read from attributes (no layout forced).
        const shown = (selector: string) =>
          [...document.querySelectorAll(selector)].filter(
            (element) => element.closest('[hidden], [style*="display: none"]') === null,
          );
        const rowsNow = () => shown(rows).length;
        const onClick = (event: Event) => {
          const target = event.target as HTMLElement | null;
          // A navigation link may carry its screen's badge after its name ("Ports 3").
          const text = target?.closest('a, button')?.textContent?.trim() ?? '';
          if (text !== clickText && !text.startsWith(`${clickText} `)) return;
          clickedAt = performance.now();
          commitsAtClick = hook?.count ?? 0;
          document.removeEventListener('click', onClick, true);
        };
        document.addEventListener('click', onClick, true);
        const observer = new MutationObserver(() => {
          if (!clickedAt || domMs >= 0 || shown(ready).length === 0) return;
          domMs = performance.now() - clickedAt;
          commitsToDom = commitsNow();
          observer.disconnect();
          requestAnimationFrame(() =>
            setTimeout(
              () =>
                done({
                  domMs,
                  frameMs: performance.now() - clickedAt,
                  rows: rowsNow(),
                  commitsToDom,
                  commits: commitsNow(),
                }),
              0,
            ),
          );
        });
        observer.observe(document.body, {
          childList: true,
          subtree: true,
          attributes: true,
          attributeFilter: ['hidden', 'style'],
        });
        setTimeout(() => fail(new Error(`no "${ready}" 30 s after clicking "${clickText}"`)), 30_000);
      });
    },
    { clickText: timing.clickText, ready: timing.ready, rows: timing.rows },
  );
  const before = await readMetrics(client);
  await timing.click();
  const result = (await page.evaluate(
    () => (window as unknown as { benchTiming: Promise<unknown> }).benchTiming,
  )) as Pick<Timing, 'domMs' | 'frameMs' | 'rows' | 'commitsToDom' | 'commits'>;
  const after = await readMetrics(client);
  const ms = (name: (typeof METRICS)[number]) => Math.round((after[name] - before[name]) * 10_000) / 10;
  return {
    ...result,
    layouts: after.LayoutCount - before.LayoutCount,
    layoutMs: ms('LayoutDuration'),
    styleMs: ms('RecalcStyleDuration'),
    scriptMs: ms('ScriptDuration'),
  };
}

/** Clicks a link of the main navigation and times it until `rows` has a first match. */
export function timeNavigation(page: Page, client: CDPSession, linkName: string, rows: string) {
  return timeClick(page, client, {
    clickText: linkName,
    ready: rows,
    rows,
    click: () => page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: linkName }).click(),
  });
}

/** A new page with Chromium's counters on, at `hash`, once `ready` is visible. */
export async function openPage(
  context: BrowserContext,
  origin: string,
  hash: string,
  ready: (page: Page) => Locator,
): Promise<{ page: Page; client: CDPSession }> {
  const page = await context.newPage();
  page.on('pageerror', (error) => console.error('page error:', error));
  const client = await context.newCDPSession(page);
  await client.send('Performance.enable');
  await page.goto(`${origin}/index.html${hash}`);
  await ready(page).waitFor();
  return { page, client };
}

/**
 * Runs in the page before its scripts and before the bench's own `install`: a `window.api` with an
 * online account and the app's default settings (made in Node from the settings service). Calls answer `{ ok: true }` at once with what a bench put in
 * `globalThis.benchAnswers` (`'ports:list': (input) => …`); channels no bench answers get an empty
 * list, so a screen never spins on them. Self-contained: Playwright serialises it.
 */
function installBaseFakeApi(config: { now: string; settings: unknown }): void {
  const now = Date.parse(config.now);
  // React DevTools' hook, reduced to a commit counter: React (production builds too) calls
  // `onCommitFiberRoot` once per commit when the hook exists as it starts.
  const commits = { count: 0 };
  (window as unknown as { benchCommits: typeof commits }).benchCommits = commits;
  (window as unknown as { __REACT_DEVTOOLS_GLOBAL_HOOK__: unknown }).__REACT_DEVTOOLS_GLOBAL_HOOK__ = {
    supportsFiber: true,
    isDisabled: false,
    renderers: new Map(),
    inject: () => 1,
    checkDCE: () => undefined,
    onCommitFiberRoot: () => {
      commits.count += 1;
      (window as unknown as { benchCommitTimes?: number[] }).benchCommitTimes?.push(performance.now());
    },
  };
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
    connection: {
      status: 'online',
      message: 'Connected to Bench.',
      checkedAt: new Date(now - 60_000).toISOString(),
    },
    keychain: { available: true, reason: null },
    demo: { running: false },
    notices: [],
    jobs: { owner: true, message: null },
  };
  const holder = globalThis as unknown as { benchAnswers: Record<string, (input: never) => unknown> };
  holder.benchAnswers = {
    'app:getState': () => appState,
    'settings:get': () => config.settings,
    'topups:list': () => ({ data: [], pagination: { page: 1, perPage: 20, total: 0, totalPages: 0 } }),
    // Settings (where every page starts) reads these as it opens: an empty list in their place threw.
    'alertRouting:deliveries': () => ({ entries: [], sendsHere: true }),
    'alertRouting:localReceiver': () => ({ url: null, messages: [] }),
    'automation:restStatus': () => ({ enabled: false, port: 24_080, url: null, error: null }),
    'updates:status': () => ({
      currentVersion: '0.0.0-bench',
      installKind: 'unpackaged',
      preferences: { checkAutomatically: false, checkInDemo: false, proxyUrl: null },
      phase: 'idle',
      lastCheckedAt: null,
      available: null,
      heldBack: null,
      progress: null,
      ready: null,
      problem: null,
    }),
    // The navigation's badges read this snapshot on every screen: an empty list in its place threw.
    'overview:get': () => {
      const readAt = new Date(now).toISOString();
      const read = { state: 'held', readAt };
      return {
        profileId: profile.id,
        generatedAt: readAt,
        expiryWarningDays: 7,
        items: [],
        counts: { error: 0, warning: 0, info: 0 },
        totals: { ports: 0, subscriptions: 0, pendingTopUps: 0, schedules: 0 },
        sources: { ports: read, subscriptions: read, topups: read },
        badges: { ports: 0, subscriptions: 0, topups: 0, 'local-proxies': 0, settings: 0 },
        cards: [],
        allGood: true,
      };
    },
  };
  const domain = (name: string) =>
    new Proxy(
      {},
      {
        get(_target, member) {
          if (typeof member !== 'string' || member === 'then') return undefined;
          // Events: the benches push none; subscribing must still work and answer an unsubscribe.
          if (/^on[A-Z]/.test(member)) return () => () => undefined;
          return (input: never) => {
            const answer = holder.benchAnswers[`${name}:${member}`];
            return Promise.resolve({ ok: true, value: answer ? answer(input) : [] });
          };
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

/** What a bench's `install` adds to the base fake API (it runs in the page). */
export type BenchAnswers = Record<string, (input: never) => unknown>;

/**
 * Headless Chromium on a fresh profile, the built page's CSP bypassed (the fake API is the bench's,
 * not the page's), the base fake API and then `install` (which adds its answers to
 * `globalThis.benchAnswers`) run in every page before its own scripts, with `config`.
 */
export async function launchBench<C extends { now: string }>(
  install: (config: C) => void,
  config: C,
): Promise<{ context: BrowserContext; close: () => Promise<void> }> {
  const profileDir = mkdtempSync(join(tmpdir(), 'renderer-bench-'));
  const context = await chromium.launchPersistentContext(profileDir, {
    executablePath: '/usr/bin/chromium',
    args: CHROMIUM_ARGS,
    headless: true,
    viewport: { width: 1280, height: 800 },
    bypassCSP: true,
  });
  // tsx compiles the benches with esbuild's keepNames, which wraps functions in `__name(...)`: the
  // functions sent to the page need that helper there too.
  await context.addInitScript({ content: 'globalThis.__name ??= (fn) => fn;' });
  // The app's own defaults: a hand-made copy fell behind the settings view once (Settings threw).
  const settings = toSettingsView(defaultSettings());
  await context.addInitScript(installBaseFakeApi, { now: config.now, settings });
  // Playwright's own parameter type unboxes `C`; the config is plain JSON, so nothing is unboxed.
  await context.addInitScript(install as (config: unknown) => void, config);
  return {
    context,
    close: async () => {
      await context.close();
      rmSync(profileDir, { recursive: true, force: true });
    },
  };
}

/** Builds the renderer (unless told not to) and serves `<root>/out/renderer`. */
export async function serveRenderer(
  root: string,
  build: boolean,
): Promise<{ server: Server; origin: string }> {
  if (build) buildRenderer(root);
  const folder = join(root, 'out', 'renderer');
  if (!existsSync(join(folder, 'index.html'))) throw new Error(`no built renderer in ${folder}`);
  return serve(folder);
}

/** `name  median …  min …  max …` for the printed table. */
export const summaryLine = (name: string, summary: Summary) =>
  `  ${name.padEnd(40)} median ${String(summary.median).padStart(7)}  min ${String(summary.min).padStart(7)}  max ${String(summary.max).padStart(7)}`;

export interface Summary {
  median: number;
  min: number;
  max: number;
}

export function summarise(values: number[]): Summary {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  const median =
    sorted.length % 2 === 1 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
  const round = (value: number) => Math.round(value * 10) / 10;
  return { median: round(median), min: round(sorted[0] ?? 0), max: round(sorted.at(-1) ?? 0) };
}

/** Medians of Chromium's counters: where the time went, less sensitive to a busy machine than wall time. */
export function breakdown(timings: Timing[]) {
  const median = (pick: (timing: Timing) => number) => summarise(timings.map(pick)).median;
  return {
    layouts: median((t) => t.layouts),
    commitsToDom: median((t) => t.commitsToDom),
    commits: median((t) => t.commits),
    layoutMs: median((t) => t.layoutMs),
    styleMs: median((t) => t.styleMs),
    scriptMs: median((t) => t.scriptMs),
  };
}

interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  pid: number;
  tid: number;
  args?: { name?: string; data?: { type?: string } };
}

/**
 * Runs `act` (a timed click) under Chromium's tracing (devtools.timeline) and sums the renderer main
 * thread's time per event name from the click on, for the names that say where a frame's time goes
 * (script, style, layout, paint, and `CanvasRenderingContext2D::FinalizeFrame`: a canvas' drawing
 * rasterised, which Performance.getMetrics counts under none of its durations), up to the end of
 * the next frame (`frameMs`). Names nest (a FunctionCall inside an EventDispatch): not a sum.
 */
export async function traceMainThread(
  client: CDPSession,
  act: () => Promise<Timing>,
): Promise<{ result: Timing; msByName: [string, number][] }> {
  const events: TraceEvent[] = [];
  const collect = (data: { value: object[] }) => {
    events.push(...(data.value as TraceEvent[]));
  };
  client.on('Tracing.dataCollected', collect);
  const complete = new Promise<void>((done) => client.once('Tracing.tracingComplete', () => done()));
  await client.send('Tracing.start', {
    traceConfig: {
      // `blink`: FinalizeFrame is there (and much else, filtered out below).
      includedCategories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'blink'],
    },
    transferMode: 'ReportEvents',
  });
  const result = await act();
  await client.send('Tracing.end');
  await complete;
  client.off('Tracing.dataCollected', collect);
  const click = events.find((event) => event.name === 'EventDispatch' && event.args?.data?.type === 'click');
  const msByName = new Map<string, number>();
  if (click) {
    const wanted = new Set([
      'EventDispatch',
      'FunctionCall',
      'RunMicrotasks',
      'TimerFire',
      'FireAnimationFrame',
      'UpdateLayoutTree',
      'Layout',
      'PrePaint',
      'Paint',
      'Layerize',
      'CanvasRenderingContext2D::FinalizeFrame',
    ]);
    for (const event of events) {
      if (event.pid !== click.pid || event.tid !== click.tid) continue;
      if (event.ts < click.ts || event.ts > click.ts + result.frameMs * 1000) continue;
      if (event.ph !== 'X' || !wanted.has(event.name)) continue;
      msByName.set(event.name, (msByName.get(event.name) ?? 0) + (event.dur ?? 0) / 1000);
    }
  }
  return { result, msByName: [...msByName.entries()].sort((a, b) => b[1] - a[1]) };
}

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
}

/**
 * Runs `act` (a timed click) under Chromium's sampling profiler (0.1 ms) and returns the 20
 * functions with the most self time (names from the built bundle, with its file:line:column).
 */
export async function profileMainThread(
  client: CDPSession,
  act: () => Promise<Timing>,
): Promise<{ result: Timing; top: [string, number][] }> {
  await client.send('Profiler.enable');
  await client.send('Profiler.setSamplingInterval', { interval: 100 });
  await client.send('Profiler.start');
  const result = await act();
  const { profile } = (await client.send('Profiler.stop')) as unknown as {
    profile: { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] };
  };
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
  return { result, top };
}

/** The options every browser bench takes; a bench adds its own (`--ports`, `--sub-users`, …). */
export const COMMON_BENCH_OPTIONS = {
  runs: { type: 'string', default: '15' },
  root: { type: 'string', default: process.cwd() },
  'no-build': { type: 'boolean', default: false },
  profile: { type: 'boolean', default: false },
  trace: { type: 'boolean', default: false },
} as const;

export interface CommonBenchOptions {
  runs: number;
  root: string;
  build: boolean;
  profile: boolean;
  trace: boolean;
}

/** A whole-number option within bounds, or a message naming the option. */
export function wholeOption(name: string, text: string, min: number, max = Number.MAX_SAFE_INTEGER): number {
  const value = Number(text);
  if (!Number.isSafeInteger(value) || value < min || value > max)
    throw new Error(`--${name} must be an integer from ${min} to ${max}`);
  return value;
}

export function commonOptions(values: {
  runs: string;
  root: string;
  'no-build': boolean;
  profile: boolean;
  trace: boolean;
}): CommonBenchOptions {
  return {
    runs: wholeOption('runs', values.runs, 1, 1000),
    root: resolve(values.root),
    build: !values['no-build'],
    profile: values.profile,
    trace: values.trace,
  };
}
