/**
 * `npm run bench:subscriptions`: the subscriptions screen's two targets from issue 9, in the built
 * renderer, in Debian's headless Chromium, with a fake `window.api` that answers at once (so the
 * numbers are the renderer's own cost: React, effects, style, layout, and uPlot's drawing):
 *
 *   - 5,000 sub-users from a click on the detail's "Sub-users" tab to their rows in the DOM
 *     (goal < 100 ms): cold (read from the fake API, then rendered) and warm (from the store's cache,
 *     after a click on "Overview");
 *   - a 366-day usage chart: from a click on "Show" with a 366-day range (the detail's Usage tab
 *     open on its 30 days) to the chart's canvas in the DOM and the end of the next frame
 *     (goal < 50 ms). The report is read, the chart and its 366-row table twin rendered, and uPlot
 *     draws bars and the requests line.
 *
 *   npm run bench:subscriptions -- [--runs N] [--sub-users N] [--days N] [--root DIR] [--no-build] [--trace] [--profile]
 *
 * What the numbers are: "in DOM" ends when a MutationObserver first sees the rows or the chart's
 * canvas (for the chart: uPlot has built it; its drawing may not be rasterised yet). "End of next
 * frame" ends in a task after the next requestAnimationFrame: by then the canvas' drawing has been
 * rasterised (`CanvasRenderingContext2D::FinalizeFrame`, on the main thread in software raster, as
 * in headless Chromium or on a machine without GPU) and the frame's style, layout and paint done:
 * what a user waits for. The script/style/layout counters are Chromium's Performance.getMetrics and
 * do not include the canvas raster; `--trace` adds one chart run under Chromium's tracing and prints
 * the main thread's time per event, FinalizeFrame included.
 *
 * Prints a table and one line `BENCH_RESULT {json}` (the goals and whether each median met them).
 */
import { parseArgs } from 'node:util';
import type { Page } from 'playwright-core';
import {
  COMMON_BENCH_OPTIONS,
  commonOptions,
  type CommonBenchOptions,
  wholeOption,
  breakdown,
  launchBench,
  openPage,
  profileMainThread,
  serveRenderer,
  summarise,
  summaryLine,
  timeClick,
  traceMainThread,
  type BenchAnswers,
  type Timing,
} from './browser-bench-kit';

const SUB_USER_GOAL_MS = 100;
const CHART_GOAL_MS = 50;

interface BenchOptions extends CommonBenchOptions {
  subUsers: number;
  days: number;
}

function readOptions(): BenchOptions {
  const { values } = parseArgs({
    options: {
      ...COMMON_BENCH_OPTIONS,
      'sub-users': { type: 'string', default: '5000' },
      days: { type: 'string', default: '366' },
    },
    strict: true,
  });
  return {
    ...commonOptions(values),
    subUsers: wholeOption('sub-users', values['sub-users'], 1, 100_000),
    days: wholeOption('days', values.days, 2, 366),
  };
}

/**
 * Runs in the page after the kit's base fake API; self-contained (Playwright serialises it). One residential
 * subscription with `subUsers` sub-users; usage answers one point per day of the range asked.
 */
function installFakeApi(config: { subUsers: number; now: string }): void {
  const now = Date.parse(config.now);
  const iso = (offsetMs: number) => new Date(now + offsetMs).toISOString();
  const subscription = {
    id: 'sub_bench',
    productId: 'residential',
    label: 'Bench subscription',
    planId: 'res-500',
    status: 'active',
    trafficTotalBytes: 500_000_000_000,
    trafficUsedBytes: 123_456_789_012,
    trafficRemainingBytes: 376_543_210_988,
    expiresAt: iso(20 * 86_400_000),
    autoRenew: true,
    username: 'ubench',
    password: 'secret',
    endpoint: { host: 'gw.example.com', httpPort: 8000, socksPort: 9000 },
    subUserCount: config.subUsers,
    createdAt: iso(-400 * 86_400_000),
  };
  const subUsers = Array.from({ length: config.subUsers }, (_, index) => ({
    id: `su_${String(index + 1).padStart(5, '0')}`,
    label: `Worker ${index + 1}`,
    username: `ubench_w${index + 1}`,
    trafficLimitBytes: index % 3 === 0 ? null : 1_000_000_000 * (1 + (index % 50)),
    trafficUsedBytes: (index * 7_919_000) % 900_000_000,
    enabled: index % 17 !== 0,
    createdAt: iso(-((index * 3_600_000) % (300 * 86_400_000))),
  }));
  const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
  const usage = (input: { from: string; to: string }) => {
    const start = Date.parse(`${input.from}T00:00:00Z`);
    const end = Date.parse(`${input.to}T00:00:00Z`);
    const points = [];
    for (let t = start, i = 0; t <= end; t += 86_400_000, i += 1) {
      points.push({
        date: day(t),
        bytes: 200_000_000 + ((i * 37_000_003) % 900_000_000),
        requests: 1000 + i,
      });
    }
    return {
      from: input.from,
      to: input.to,
      totalBytes: points.reduce((sum, p) => sum + p.bytes, 0),
      totalRequests: points.reduce((sum, p) => sum + p.requests, 0),
      points,
      byCountry: [
        { country: 'US', bytes: 1_000_000 },
        { country: 'DE', bytes: 500_000 },
      ],
    };
  };
  const answers: BenchAnswers = {
    'subscriptions:list': () => [subscription],
    'subscriptions:get': () => subscription,
    // The lean table main answers (`SubUsersListView`): no passwords.
    'subscriptions:subUsers': () => ({
      columns: ['id', 'label', 'username', 'trafficLimitBytes', 'trafficUsedBytes', 'enabled', 'createdAt'],
      rows: subUsers.map((u) => [
        u.id,
        u.label,
        u.username,
        u.trafficLimitBytes,
        u.trafficUsedBytes,
        u.enabled,
        u.createdAt,
      ]),
      limit: null,
    }),
    'subscriptions:usage': (input: { from: string; to: string }) => usage(input),
    // The detail's Overview builds the main user's line on open.
    'subscriptions:buildProxyString': () => ({
      lines: ['http://ubench:secret@gw.example.com:8000'],
      host: 'gw.example.com',
      port: 8000,
      password: 'secret',
    }),
  };
  Object.assign((globalThis as unknown as { benchAnswers: BenchAnswers }).benchAnswers, answers);
}

const SUB_USER_ROWS = 'table[aria-label="Sub-users"] tbody tr:not([aria-hidden])';
const tab = (page: Page, name: string) => page.getByRole('tab', { name, exact: true });
const clickTab = (page: Page, name: string) => ({
  clickText: name,
  click: () => tab(page, name).click(),
});

/** From a click on "Show" with a range of `days` days up to today to the chart's canvas. */
async function timeChart(
  page: Page,
  client: Parameters<typeof timeClick>[1],
  days: number,
  wrap: (act: () => Promise<Timing>) => Promise<Timing> = (act) => act(),
) {
  await tab(page, 'Usage').click();
  // The tab opens on 30 days: that chart (and uPlot's module) is there before the measured one.
  await page.locator('figure.bar-chart[data-points="30"] canvas').waitFor();
  const to = new Date();
  const from = new Date(to.getTime() - (days - 1) * 86_400_000);
  const range = page.getByRole('form', { name: 'Usage range' });
  await range.getByLabel('From').fill(from.toISOString().slice(0, 10));
  await range.getByLabel('To').fill(to.toISOString().slice(0, 10));
  return wrap(() =>
    timeClick(page, client, {
      clickText: 'Show',
      ready: `figure.bar-chart[data-points="${days}"] canvas`,
      rows: `figure.bar-chart[data-points="${days}"] tbody tr`,
      click: () => range.getByRole('button', { name: 'Show', exact: true }).click(),
    }),
  );
}

async function main(): Promise<void> {
  const options = readOptions();
  const { server, origin } = await serveRenderer(options.root, options.build);
  const bench = await launchBench(installFakeApi, {
    subUsers: options.subUsers,
    now: new Date().toISOString(),
  });
  const openDetail = () =>
    openPage(bench.context, origin, '#/subscriptions/sub_bench', (page) => tab(page, 'Overview'));
  const cold: Timing[] = [];
  const warm: Timing[] = [];
  const chart: Timing[] = [];
  try {
    // One unmeasured round: the first page pays for compiling the bundle and uPlot's chunk.
    const warmUp = await openDetail();
    await timeClick(warmUp.page, warmUp.client, {
      ...clickTab(warmUp.page, 'Sub-users'),
      ready: SUB_USER_ROWS,
      rows: SUB_USER_ROWS,
    });
    await timeChart(warmUp.page, warmUp.client, options.days);
    await warmUp.page.close();

    for (let run = 0; run < options.runs; run += 1) {
      const { page, client } = await openDetail();
      const subUsers = { ...clickTab(page, 'Sub-users'), ready: SUB_USER_ROWS, rows: SUB_USER_ROWS };
      cold.push(await timeClick(page, client, subUsers));
      await tab(page, 'Overview').click();
      // Gone, or kept hidden (the tab stays built once its list is in), as bench:real-path waits.
      await page.locator(SUB_USER_ROWS).first().waitFor({ state: 'hidden' });
      warm.push(await timeClick(page, client, subUsers));
      await page.close();

      // The chart on a fresh page, so that its report is read and not taken from the cache.
      const fresh = await openDetail();
      chart.push(await timeChart(fresh.page, fresh.client, options.days));
      await fresh.page.close();
    }
    if (options.trace) {
      const traced = await openDetail();
      let msByName: [string, number][] = [];
      const timing = await timeChart(traced.page, traced.client, options.days, async (act) => {
        const trace = await traceMainThread(traced.client, act);
        msByName = trace.msByName;
        return trace.result;
      });
      await traced.page.close();
      console.log(
        `\nTraced ${options.days}-day chart: canvas in DOM ${Math.round(timing.domMs)} ms, end of next frame ${Math.round(timing.frameMs)} ms; main thread (ms, names nest):`,
      );
      for (const [name, ms] of msByName) console.log(`  ${ms.toFixed(1).padStart(7)}  ${name}`);
    }
    if (options.profile) {
      const profiled = await openDetail();
      let top: [string, number][] = [];
      const timing = await timeChart(profiled.page, profiled.client, options.days, async (act) => {
        const profile = await profileMainThread(profiled.client, act);
        top = profile.top;
        return profile.result;
      });
      await profiled.page.close();
      console.log(
        `\nProfiled ${options.days}-day chart: canvas in DOM ${Math.round(timing.domMs)} ms; top self time (ms):`,
      );
      for (const [name, ms] of top) console.log(`  ${ms.toFixed(1).padStart(7)}  ${name}`);
    }
  } finally {
    await bench.close();
    server.close();
  }

  const median = (list: Timing[], pick: (t: Timing) => number) => summarise(list.map(pick));
  const result = {
    bench: 'subscriptions',
    root: options.root,
    subUsers: options.subUsers,
    days: options.days,
    runs: options.runs,
    goals: { subUsersMs: SUB_USER_GOAL_MS, chartMs: CHART_GOAL_MS },
    subUserRowsInDom: cold[0]?.rows ?? 0,
    subUsersColdDomMs: median(cold, (t) => t.domMs),
    subUsersColdFrameMs: median(cold, (t) => t.frameMs),
    subUsersWarmDomMs: median(warm, (t) => t.domMs),
    subUsersWarmFrameMs: median(warm, (t) => t.frameMs),
    chartDomMs: median(chart, (t) => t.domMs),
    chartFrameMs: median(chart, (t) => t.frameMs),
    subUsersCold: breakdown(cold),
    subUsersWarm: breakdown(warm),
    chart: breakdown(chart),
    metGoals: {
      subUsers: median(cold, (t) => t.frameMs).median < SUB_USER_GOAL_MS,
      chart: median(chart, (t) => t.frameMs).median < CHART_GOAL_MS,
    },
  };
  console.log(`\n${options.subUsers} sub-users, a ${options.days}-day chart, ${options.runs} runs (ms)`);
  console.log(summaryLine('sub-users cold (read + render): rows in DOM', result.subUsersColdDomMs));
  console.log(summaryLine('sub-users cold: end of next frame', result.subUsersColdFrameMs));
  console.log(summaryLine('sub-users warm (cached): rows in DOM', result.subUsersWarmDomMs));
  console.log(summaryLine('sub-users warm: end of next frame', result.subUsersWarmFrameMs));
  console.log(`  sub-user rows in the DOM after the click: ${result.subUserRowsInDom}`);
  console.log(summaryLine(`${options.days}-day chart: canvas in DOM`, result.chartDomMs));
  console.log(summaryLine(`${options.days}-day chart: end of next frame`, result.chartFrameMs));
  for (const [name, parts] of [
    ['sub-users cold', result.subUsersCold],
    ['sub-users warm', result.subUsersWarm],
    ['chart', result.chart],
  ] as const) {
    console.log(
      `  ${name}: medians of ${parts.commitsToDom} React commits to the DOM (${parts.commits} to the frame), ${parts.layouts} layouts, layout ${parts.layoutMs} ms, style ${parts.styleMs} ms, script ${parts.scriptMs} ms`,
    );
  }
  console.log(
    `  goals (median to the end of the next frame): sub-users < ${SUB_USER_GOAL_MS} ms ${result.metGoals.subUsers ? 'met' : 'NOT met'}, chart < ${CHART_GOAL_MS} ms ${result.metGoals.chart ? 'met' : 'NOT met'}`,
  );
  console.log(`\nBENCH_RESULT ${JSON.stringify(result)}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
