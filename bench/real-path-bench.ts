/**
 * `npm run bench:real-path`: the list screens on the real path, and what the app costs at rest.
 *
 *   npm run bench:real-path -- [--runs N] [--root DIR] [--no-build] [--ports N] [--sub-users N]
 *                              [--topups N] [--idle-seconds S] [--click-after settled|online]
 *                              [--only ports,sub-users,topups,idle]
 *
 * Nothing is faked: a scale sandbox (1,000 ports, 5,000 sub-users, 300 top-ups by default) answers
 * over HTTP on loopback like the service; web mode of `--root` (default: this checkout) runs the core
 * in its own Node process, connected to it with an API key from the environment; the page runs in
 * Debian's headless Chromium and reaches the core over HTTP and the event socket. The sandbox runs in
 * the bench's own process (it is the service: its time is the service's time).
 *
 * For each list, each run:
 *   - after a reload: the page is reloaded on another screen (Settings; for sub-users, the
 *     subscription's Overview tab), then the link (tab) is clicked once the window has settled (no
 *     request for 0.5 s: it has read what it reads at start; `--click-after online`: at once);
 *   - warm: another screen, then the same click again.
 * Timed in the page from the click to the first row in the DOM and to the end of the next frame, as
 * the in-page benches do (`bench/browser-bench-kit.ts`), with the React commits from the click.
 *
 * Then the bytes on the wire: the largest answer body of each `/rpc/<channel>` the page received.
 *
 * First the idle cost (`idle`), before the list benches (their garbage, collected later, read as
 * rest): the page reloaded on Ports (a window open there), 10 s to settle, then with the 1,000 ports on screen and nothing touched for `--idle-seconds`
 * (default 60), the CPU time of the main process (web mode's Node process) and of Chromium's renderer
 * process, per minute and as a share of one core, and the requests the sandbox received meanwhile,
 * per endpoint (see also `bench:at-rest`, which simulates a whole hour).
 *
 * Prints tables and one line `BENCH_RESULT {json}`.
 */
import { parseArgs } from 'node:util';
import type { CDPSession, Page } from 'playwright-core';
import type { RunningSandbox } from '@proxy-manager/sandbox';
import {
  breakdown,
  buildRenderer,
  summarise,
  summaryLine,
  timeClick,
  timeNavigation,
  type Timing,
  wholeOption,
} from './browser-bench-kit';
import {
  endpointOf,
  launchRealBrowser,
  processCpuSeconds,
  type RealBrowser,
  recordRpcBytes,
  rendererCpuSeconds,
  SCALE_KEY,
  sandboxRequests,
  startScaleSandbox,
  startWebMode,
  type WebModeProcess,
} from './real-path-kit';

const GOAL_MS = 50;
const LISTS = ['ports', 'sub-users', 'topups'] as const;
type ListName = (typeof LISTS)[number];
const PARTS = [...LISTS, 'idle'] as const;

const PORT_ROWS = 'table[aria-label="Mobile ports"] tbody tr:not([aria-hidden])';
const SUB_USER_ROWS = 'table[aria-label="Sub-users"] tbody tr:not([aria-hidden])';
const TOP_UP_ROWS = 'table[aria-label="Top-ups"] tbody tr';

function readOptions() {
  const { values } = parseArgs({
    options: {
      runs: { type: 'string', default: '9' },
      root: { type: 'string', default: process.cwd() },
      'no-build': { type: 'boolean', default: false },
      ports: { type: 'string', default: '1000' },
      'sub-users': { type: 'string', default: '5000' },
      topups: { type: 'string', default: '300' },
      'idle-seconds': { type: 'string', default: '60' },
      'click-after': { type: 'string', default: 'settled' },
      only: { type: 'string' },
    },
    strict: true,
  });
  const clickAfter = clickAfterOption(values['click-after']);
  const only = values.only?.split(',').map((part) => part.trim()) ?? [...PARTS];
  for (const part of only) {
    if (!(PARTS as readonly string[]).includes(part)) throw new Error(`--only takes ${PARTS.join(', ')}`);
  }
  return {
    runs: wholeOption('runs', values.runs, 1, 1000),
    root: values.root,
    build: !values['no-build'],
    ports: wholeOption('ports', values.ports, 1, 20_000),
    subUsers: wholeOption('sub-users', values['sub-users'], 1, 50_000),
    topUps: wholeOption('topups', values.topups, 1, 20_000),
    idleSeconds: wholeOption('idle-seconds', values['idle-seconds'], 5, 3600),
    clickAfter,
    only: new Set(only),
  };
}

/**
 * When the click after a reload comes: `settled`, once the window has read what it reads at start
 * (no request for 0.5 s, which a person's first click does not beat); `online`, as soon as the page
 * says it is connected (start-up work still running: the worst case, and this bench's first method).
 */
type ClickAfter = 'settled' | 'online';

function clickAfterOption(text: string): ClickAfter {
  if (text !== 'settled' && text !== 'online') throw new Error('--click-after takes settled or online');
  return text;
}

const online = (page: Page) =>
  page.locator('[data-testid="connection-status"][data-status="online"]').waitFor({ timeout: 60_000 });
const navLink = (page: Page, name: string) =>
  page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: new RegExp(`^${name}( |$)`) });
const heading = (page: Page, name: string) => page.getByRole('heading', { level: 1, name });
const tab = (page: Page, name: string) => page.getByRole('tab', { name, exact: true });

async function goTo(page: Page, screen: string): Promise<void> {
  await navLink(page, screen).click();
  await heading(page, screen).waitFor();
}

interface ListScenario {
  name: ListName;
  rows: string;
  /** Puts the page where the click starts (after a reload: the page was just reloaded there). */
  prepare: (page: Page) => Promise<void>;
  /** The screen (or tab) the user leaves to, before a warm click. */
  leave: (page: Page) => Promise<void>;
  time: (page: Page, client: CDPSession) => Promise<Timing>;
}

function scenarios(subscriptionId: string): Record<ListName, ListScenario> {
  const viaNavigation = (name: ListName, link: string, rows: string): ListScenario => ({
    name,
    rows,
    prepare: async (page) => {
      if (!page.url().endsWith('#/settings')) await goTo(page, 'Settings');
    },
    leave: (page) => goTo(page, 'Settings'),
    time: (page, client) => timeNavigation(page, client, link, rows),
  });
  return {
    ports: viaNavigation('ports', 'Ports', PORT_ROWS),
    topups: viaNavigation('topups', 'Top-ups', TOP_UP_ROWS),
    'sub-users': {
      name: 'sub-users',
      rows: SUB_USER_ROWS,
      prepare: async (page) => {
        const detail = `#/subscriptions/${encodeURIComponent(subscriptionId)}`;
        if (!page.url().endsWith(detail)) {
          await page.evaluate((hash) => (window.location.hash = hash), detail);
        }
        await tab(page, 'Overview').waitFor();
      },
      leave: async (page) => {
        await tab(page, 'Overview').click();
        // Gone, or kept hidden (the tab stays built once its list is in).
        await page.locator(SUB_USER_ROWS).first().waitFor({ state: 'hidden' });
      },
      time: (page, client) =>
        timeClick(page, client, {
          clickText: 'Sub-users',
          ready: SUB_USER_ROWS,
          rows: SUB_USER_ROWS,
          click: () => tab(page, 'Sub-users').click(),
        }),
    },
  };
}

async function scaleSubscriptionId(sandbox: RunningSandbox): Promise<string> {
  const response = await fetch(`${sandbox.baseUrl}/v1/residential/subscriptions`, {
    headers: { Authorization: `Bearer ${SCALE_KEY}` },
  });
  const body = (await response.json()) as { data: { id: string; label: string }[] };
  const team = body.data.find((sub) => sub.label === 'Scale team');
  if (!team) throw new Error('the scale sandbox has no "Scale team" subscription');
  return team.id;
}

async function measureList(
  page: Page,
  client: CDPSession,
  scenario: ListScenario,
  runs: number,
  clickAfter: ClickAfter,
): Promise<{ reload: Timing[]; warm: Timing[] }> {
  // One unmeasured click: the first pays for compiling the screen's code, in the page and in main.
  await scenario.prepare(page);
  await scenario.time(page, client);
  const reload: Timing[] = [];
  const warm: Timing[] = [];
  for (let run = 0; run < runs; run += 1) {
    await scenario.prepare(page);
    await page.reload();
    await online(page);
    await scenario.prepare(page);
    if (clickAfter === 'settled') await page.waitForLoadState('networkidle');
    reload.push(await scenario.time(page, client));
    await scenario.leave(page);
    warm.push(await scenario.time(page, client));
  }
  return { reload, warm };
}

async function measureIdle(
  page: Page,
  real: RealBrowser,
  web: WebModeProcess,
  sandbox: RunningSandbox,
  seconds: number,
) {
  await goTo(page, 'Ports');
  await page.locator(PORT_ROWS).first().waitFor();
  // A window opened on Ports, not one that has just run the list benches (their sub-users, pages and
  // collected garbage would be counted as rest): reloaded there, then its own loads left to finish.
  await page.reload();
  await page.locator(PORT_ROWS).first().waitFor();
  await new Promise((done) => setTimeout(done, 10_000));
  await fetch(`${sandbox.controlUrl}/requests`, { method: 'DELETE' });
  const mainBefore = processCpuSeconds(web.pid);
  const rendererBefore = await rendererCpuSeconds(real.session);
  const started = performance.now();
  await new Promise((done) => setTimeout(done, seconds * 1000));
  const elapsed = (performance.now() - started) / 1000;
  const mainCpu = processCpuSeconds(web.pid) - mainBefore;
  const rendererCpu = (await rendererCpuSeconds(real.session)) - rendererBefore;
  const requests = await sandboxRequests(sandbox);
  const perEndpoint = new Map<string, number>();
  for (const request of requests) {
    const endpoint = endpointOf(request.method, request.path);
    perEndpoint.set(endpoint, (perEndpoint.get(endpoint) ?? 0) + 1);
  }
  const perMinute = (value: number) => Math.round((value / elapsed) * 60 * 1000) / 1000;
  return {
    seconds: Math.round(elapsed),
    mainCpuSecondsPerMinute: perMinute(mainCpu),
    rendererCpuSecondsPerMinute: perMinute(rendererCpu),
    mainCpuPercent: Math.round((mainCpu / elapsed) * 10_000) / 100,
    rendererCpuPercent: Math.round((rendererCpu / elapsed) * 10_000) / 100,
    requests: requests.length,
    requestsPerHour: Object.fromEntries(
      [...perEndpoint.entries()]
        .sort((a, b) => b[1] - a[1])
        .map(([endpoint, count]) => [endpoint, Math.round((count / elapsed) * 3600)]),
    ),
  };
}

async function main(): Promise<void> {
  const options = readOptions();
  if (options.build) buildRenderer(options.root);
  const loadBefore = (await import('node:os')).loadavg();
  const sandbox = await startScaleSandbox({
    ports: options.ports,
    subUsers: options.subUsers,
    topUps: options.topUps,
  });
  const web = await startWebMode(options.root, sandbox.baseUrl);
  const real = await launchRealBrowser();
  const results: Record<string, unknown> = {};
  const lines: string[] = [];
  try {
    const page = await real.context.newPage();
    page.on('pageerror', (error) => console.error('page error:', error));
    const client = await real.context.newCDPSession(page);
    await client.send('Performance.enable');
    const bytes = recordRpcBytes(page);
    await page.goto(web.url);
    await online(page);
    // At rest first: a window that has not run the list benches (their garbage, collected later,
    // would be counted as rest).
    if (options.only.has('idle')) {
      const idle = await measureIdle(page, real, web, sandbox, options.idleSeconds);
      results.idle = idle;
      lines.push(
        `\nAt rest for ${idle.seconds} s with ${options.ports} ports on screen:`,
        `  main process (web mode): ${idle.mainCpuSecondsPerMinute} CPU s per minute (${idle.mainCpuPercent} % of a core)`,
        `  renderer: ${idle.rendererCpuSecondsPerMinute} CPU s per minute (${idle.rendererCpuPercent} % of a core)`,
        `  requests to the service: ${idle.requests}; per hour at this pace, per endpoint:`,
        ...Object.entries(idle.requestsPerHour).map(
          ([endpoint, count]) => `    ${endpoint.padEnd(44)} ${String(count).padStart(6)}`,
        ),
      );
    }
    const all = scenarios(await scaleSubscriptionId(sandbox));
    for (const name of LISTS) {
      if (!options.only.has(name)) continue;
      const { reload, warm } = await measureList(page, client, all[name], options.runs, options.clickAfter);
      const summary = {
        rows: reload[0]?.rows ?? 0,
        reloadDomMs: summarise(reload.map((t) => t.domMs)),
        reloadFrameMs: summarise(reload.map((t) => t.frameMs)),
        warmDomMs: summarise(warm.map((t) => t.domMs)),
        warmFrameMs: summarise(warm.map((t) => t.frameMs)),
        reload: breakdown(reload),
        warm: breakdown(warm),
      };
      results[name] = {
        ...summary,
        goalMs: GOAL_MS,
        metGoal: summary.reloadFrameMs.median <= GOAL_MS && summary.warmFrameMs.median <= GOAL_MS,
      };
      lines.push(
        `\n${name}: click to rows, real path, ${options.runs} runs, the click after a reload once ${options.clickAfter} (ms)`,
        summaryLine('after a reload: rows in DOM', summary.reloadDomMs),
        summaryLine('after a reload: end of next frame', summary.reloadFrameMs),
        summaryLine('warm: rows in DOM', summary.warmDomMs),
        summaryLine('warm: end of next frame', summary.warmFrameMs),
        `  React commits (medians): after a reload ${summary.reload.commitsToDom} to the DOM, ${summary.reload.commits} to the frame; warm ${summary.warm.commitsToDom} / ${summary.warm.commits}`,
      );
    }
    await new Promise((done) => setTimeout(done, 500));
    results.rpcBytes = Object.fromEntries([...bytes.entries()].sort((a, b) => b[1] - a[1]));
    lines.push('\nLargest answer per channel on the wire (bytes):');
    for (const [channel, size] of [...bytes.entries()].sort((a, b) => b[1] - a[1]).slice(0, 12)) {
      lines.push(`  ${channel.padEnd(32)} ${String(size).padStart(9)}`);
    }
  } finally {
    await real.close();
    await web.stop();
    await sandbox.close();
  }
  const loadAfter = (await import('node:os')).loadavg();
  const load = `${loadBefore[0]?.toFixed(2)} -> ${loadAfter[0]?.toFixed(2)}`;
  console.log(lines.join('\n'));
  console.log(`\nload average (1 min) ${load}`);
  const result = {
    bench: 'real-path',
    root: options.root,
    ports: options.ports,
    subUsers: options.subUsers,
    topUps: options.topUps,
    runs: options.runs,
    clickAfter: options.clickAfter,
    load,
    ...results,
  };
  console.log(`\nBENCH_RESULT ${JSON.stringify(result)}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
