/**
 * `npm run bench:renderer`: how long the renderer takes from a click on a navigation link to the rows
 * of a long list being in the DOM, in the built renderer, in Debian's Chromium.
 *
 *   npm run bench:renderer -- [--runs N] [--ports N] [--root DIR] [--no-build] [--profile] [--trace]
 *
 * It builds the renderer (`electron-vite build`, output in `<root>/out/renderer`), serves that folder
 * on loopback, and opens it in headless Chromium with a fake `window.api` injected before the page's
 * own scripts (Playwright `addInitScript`). The fake answers at once, so the numbers are the
 * renderer's own cost: React rendering, effects, style and layout.
 *
 * Each run opens a fresh page on Settings, then:
 *   - cold: click "Ports"; the ports are read from the (fake) API and rendered;
 *   - warm: click "Settings", then "Ports" again; the ports come from the store's cache;
 *   - then, on that list: tick "Provisioning" in the Status filter (faceted counts open), clear it,
 *     sort by Location from its header, and select all shown (each from the click to the DOM and
 *     to the end of the next frame).
 * Each is timed in the page from the click (a capture listener) to the moment a MutationObserver
 * sees the first data row (`domMs`), and to the end of the next frame (`frameMs`, a requestAnimationFrame
 * callback followed by a task: style, layout and paint of what was committed).
 *
 * Chromium's own counters (Performance.getMetrics: layouts, layout, style and script time) are
 * reported too: the machine may be shared, and they say where the time went; and the number of React
 * commits (renders of the tree) from the click, counted through React DevTools' global hook, which
 * the fake installs as a counter: each commit after the first that carries the rows is work a user waits for.
 *
 * `--root` measures another checkout (e.g. the code before a change) with this same script.
 * `--profile` adds one cold run under Chromium's sampling profiler and prints the functions with the
 * most self time (names from the built bundle, with its file:line:column). `--trace` adds one cold
 * run under Chromium's tracing: the main thread's time per event up to the end of the next frame.
 * Prints a table and one line `BENCH_RESULT {json}`.
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
  timeNavigation,
  traceMainThread,
  type BenchAnswers,
  type Timing,
} from './browser-bench-kit';

interface BenchOptions extends CommonBenchOptions {
  ports: number;
}

function readOptions(): BenchOptions {
  const { values } = parseArgs({
    options: { ...COMMON_BENCH_OPTIONS, ports: { type: 'string', default: '1000' } },
    strict: true,
  });
  return { ...commonOptions(values), ports: wholeOption('ports', values.ports, 1) };
}

/**
 * Runs in the page after the kit's base fake API. It must be self-contained (Playwright serialises
 * it), so the fixtures are built here rather than imported: `ports:list` answers them at once.
 */
function installFakeApi(config: { ports: number; now: string }): void {
  const now = Date.parse(config.now);
  const iso = (offsetMs: number) => new Date(now + offsetMs).toISOString();
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
  const profileId = 'prof_bench';
  const schedules = {
    profileId,
    paused: false,
    schedules: ports
      .filter((_port, index) => index % 3 === 0)
      .map((port, index) => ({
        profileId,
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
  const answers = (globalThis as unknown as { benchAnswers: BenchAnswers }).benchAnswers;
  // `ports:list` is lean: a table of what the list shows (`PortsListView`), as main sends it.
  const columns = [
    'id',
    'label',
    'status',
    'country',
    'city',
    'carrierName',
    'networkType',
    'currentIp',
    'ipChangedAt',
    'expiresAt',
    'autoRenew',
    'rotationMode',
    'rotationMinutes',
  ];
  const list = {
    profileId,
    asOf: new Date().toISOString(),
    revalidating: false,
    columns,
    rows: ports.map((port) => [
      port.id,
      port.label,
      port.status,
      port.country,
      port.city,
      port.carrierName,
      port.networkType,
      port.currentIp,
      port.ipChangedAt,
      port.expiresAt,
      port.autoRenew,
      port.rotation.mode,
      port.rotation.intervalMinutes,
    ]),
  };
  answers['ports:list'] = () => list;
  answers['schedules:list'] = () => schedules;
}

const PORT_ROWS = 'table[aria-label="Mobile ports"] tbody tr';

interface InteractionTiming {
  domMs: number;
  frameMs: number;
}

/**
 * Times one interaction on the list already on screen: from the click (taken in the page, a capture
 * listener on any click) until the text of `watch` matches `expect` (a MutationObserver: the DOM has
 * the answer), and to the end of the next frame (style, layout and paint of it).
 */
async function timeInteraction(
  page: Page,
  watch: string,
  expect: RegExp,
  act: () => Promise<void>,
): Promise<InteractionTiming> {
  await page.evaluate(
    ({ watch: selector, source }) => {
      const holder = window as unknown as { benchInteraction?: Promise<unknown> };
      const pattern = new RegExp(source);
      holder.benchInteraction = new Promise((done, fail) => {
        let clickedAt = 0;
        const onClick = () => {
          clickedAt = performance.now();
          document.removeEventListener('click', onClick, true);
        };
        document.addEventListener('click', onClick, true);
        const observer = new MutationObserver(() => {
          if (!clickedAt || !pattern.test(document.querySelector(selector)?.textContent ?? '')) return;
          const domMs = performance.now() - clickedAt;
          observer.disconnect();
          requestAnimationFrame(() =>
            setTimeout(() => done({ domMs, frameMs: performance.now() - clickedAt }), 0),
          );
        });
        observer.observe(document.body, { childList: true, subtree: true, characterData: true });
        setTimeout(() => fail(new Error(`"${selector}" never matched ${source}`)), 30_000);
      });
    },
    { watch, source: expect.source },
  );
  await act();
  return (await page.evaluate(
    () => (window as unknown as { benchInteraction: Promise<unknown> }).benchInteraction,
  )) as InteractionTiming;
}

interface ListInteractions {
  filter: InteractionTiming;
  sort: InteractionTiming;
  selectAll: InteractionTiming;
}

/**
 * On the Ports screen with its 1,000 rows: tick one status in the Status filter (with its faceted
 * counts open), sort by Location from its header, and select all shown.
 */
async function timeListInteractions(page: Page, ports: number): Promise<ListInteractions> {
  const count = '[data-testid="row-count"]';
  await page.getByLabel('Filter by Status').click();
  const choices = page.getByRole('group', { name: 'Status', exact: true });
  await choices.waitFor();
  const filter = await timeInteraction(page, count, new RegExp(`^\\d+ of ${ports} rows`), () =>
    choices.getByRole('checkbox', { name: /Provisioning/ }).click(),
  );
  await page.keyboard.press('Escape');
  await page.getByRole('button', { name: 'Clear filters' }).click();
  await page
    .locator(count)
    .filter({ hasText: new RegExp(`^${ports} rows`) })
    .waitFor();
  // Berlin sorts first by place; it is the third port of the fixture.
  const sort = await timeInteraction(page, `${PORT_ROWS}[data-index="0"] th code`, /^port_00003$/, () =>
    page.getByRole('button', { name: 'Sort by Location' }).click(),
  );
  const selectAll = await timeInteraction(page, count, new RegExp(`${ports} selected`), () =>
    page.getByRole('checkbox', { name: 'Select all shown' }).click(),
  );
  return { filter, sort, selectAll };
}

async function main(): Promise<void> {
  const options = readOptions();
  const { server, origin } = await serveRenderer(options.root, options.build);
  const bench = await launchBench(installFakeApi, { ports: options.ports, now: new Date().toISOString() });
  const openOnSettings = () =>
    openPage(bench.context, origin, '#/settings', (page) =>
      page.getByRole('heading', { level: 1, name: 'Settings' }),
    );
  const cold: Timing[] = [];
  const warm: Timing[] = [];
  const interactions: ListInteractions[] = [];
  try {
    // One unmeasured run: the first page pays for compiling the bundle.
    const warmUp = await openOnSettings();
    await timeNavigation(warmUp.page, warmUp.client, 'Ports', PORT_ROWS);
    await warmUp.page.close();

    for (let run = 0; run < options.runs; run += 1) {
      const { page, client } = await openOnSettings();
      cold.push(await timeNavigation(page, client, 'Ports', PORT_ROWS));
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settings' }).click();
      await page.getByRole('heading', { level: 1, name: 'Settings' }).waitFor();
      warm.push(await timeNavigation(page, client, 'Ports', PORT_ROWS));
      interactions.push(await timeListInteractions(page, options.ports));
      await page.close();
    }
    if (options.profile) {
      const { page, client } = await openOnSettings();
      const profile = await profileMainThread(client, () => timeNavigation(page, client, 'Ports', PORT_ROWS));
      await page.close();
      console.log(
        `\nProfiled cold run: rows in DOM ${Math.round(profile.result.domMs)} ms; top self time (ms):`,
      );
      for (const [name, ms] of profile.top) console.log(`  ${ms.toFixed(1).padStart(7)}  ${name}`);
    }
    if (options.trace) {
      const { page, client } = await openOnSettings();
      const trace = await traceMainThread(client, () => timeNavigation(page, client, 'Ports', PORT_ROWS));
      await page.close();
      console.log(
        `\nTraced cold run: rows in DOM ${Math.round(trace.result.domMs)} ms, end of next frame ${Math.round(trace.result.frameMs)} ms; main thread (ms, names nest):`,
      );
      for (const [name, ms] of trace.msByName) console.log(`  ${ms.toFixed(1).padStart(7)}  ${name}`);
    }
  } finally {
    await bench.close();
    server.close();
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
    filterFrameMs: summarise(interactions.map((t) => t.filter.frameMs)),
    sortFrameMs: summarise(interactions.map((t) => t.sort.frameMs)),
    selectAllFrameMs: summarise(interactions.map((t) => t.selectAll.frameMs)),
    filterDomMs: summarise(interactions.map((t) => t.filter.domMs)),
    sortDomMs: summarise(interactions.map((t) => t.sort.domMs)),
    selectAllDomMs: summarise(interactions.map((t) => t.selectAll.domMs)),
  };
  const line = summaryLine;
  console.log(`\nClick on "Ports" to rows, ${options.ports} ports, ${options.runs} runs (ms)`);
  console.log(line('cold (read + render): rows in DOM', result.coldDomMs));
  console.log(line('cold: end of next frame', result.coldFrameMs));
  console.log(line('warm (cached): rows in DOM', result.warmDomMs));
  console.log(line('warm: end of next frame', result.warmFrameMs));
  console.log(`  rows in the DOM after the click: ${result.rowsInDom}`);
  console.log(`\nOn the list, ${options.ports} ports: click to the end of the next frame (ms)`);
  console.log(line('filter by a status (faceted)', result.filterFrameMs));
  console.log(line('sort by a header', result.sortFrameMs));
  console.log(line('select all shown', result.selectAllFrameMs));
  for (const [name, parts] of [
    ['cold', result.cold],
    ['warm', result.warm],
  ] as const) {
    console.log(
      `  ${name}: medians of ${parts.commitsToDom} React commits to the DOM (${parts.commits} to the frame), ${parts.layouts} layouts, layout ${parts.layoutMs} ms, style ${parts.styleMs} ms, script ${parts.scriptMs} ms`,
    );
  }
  console.log(`\nBENCH_RESULT ${JSON.stringify(result)}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
