/**
 * `npm run bench -- --only port-health-render`: how long the port page's uptime bar and latency band
 * (`UptimeBar` in `features/ports/PortHealthPanel.tsx`) with the scores take to render, in jsdom:
 * a fresh mount of 96 quarter hours (24 h) and of 30 days, React's work and the DOM it writes,
 * timed with `flushSync` (no browser layout or paint: `bench:renderer` measures those for lists).
 * Target: under 50 ms.
 *
 *   tsx bench/port-health-render-bench.ts [--runs 30]
 */
import { parseArgs } from 'node:util';
import type { PortHealth, PortHealthHistory } from '../src-shared/contract';
import { wholeOption } from './browser-bench-kit';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '30' } }, strict: true });
const RUNS = wholeOption('runs', values.runs, 1, 1000);
/** Mounts first thrown away: the JIT warms up on them. */
const WARM_UP = 10;

function history(range: '24h' | '30d'): PortHealthHistory {
  const count = range === '24h' ? 96 : 30;
  const step = range === '24h' ? 15 * 60_000 : 86_400_000;
  return {
    portId: 'port_1',
    range,
    segments: Array.from({ length: count }, (_, i) => ({
      start: new Date(Date.parse('2026-11-28T00:00:00.000Z') + i * step).toISOString(),
      checks: range === '24h' ? 3 : 288,
      failures: i % 17 === 0 ? 1 : 0,
      firstByteP50: 100 + (i % 13) * 7,
      firstByteP95: 300 + (i % 11) * 19,
    })),
    recent: [],
  };
}

const HEALTH: PortHealth = {
  portId: 'port_1',
  status: 'up',
  statusSince: '2026-11-28T10:00:00.000Z',
  failuresInARow: 0,
  lastCheck: null,
  uptime24h: 0.99,
  uptime30d: 0.998,
  checks24h: 288,
  checks30d: 8640,
  latency24h: { connectP50: 5, connectP95: 20, firstByteP50: 120, firstByteP95: 480, firstByteMax: 900 },
  rotations30d: 50,
  uniqueIpRatio30d: 0.96,
  unchanged30d: 1,
  repeated30d: 1,
  drift30d: 0,
  lastVerdict: null,
};

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

async function main(): Promise<void> {
  // jsdom ships no types of its own (vitest's renderer project uses it the same way).
  const jsdomModule = 'jsdom';
  const { JSDOM } = (await import(jsdomModule)) as {
    JSDOM: new (html: string, options: object) => { window: Window & typeof globalThis };
  };
  const dom = new JSDOM('<!doctype html><html><body></body></html>', { pretendToBeVisual: true });
  // Node has its own `navigator`; React needs only `window` and `document`.
  Object.assign(globalThis, { window: dom.window, document: dom.window.document });
  const React = await import('react');
  // tsx compiles the renderer's .tsx with this checkout's root tsconfig, whose JSX is the classic
  // `React.createElement`: the component finds React as a global.
  Object.assign(globalThis, { React });
  const { flushSync } = await import('react-dom');
  const { createRoot } = await import('react-dom/client');
  const { HealthScores, UptimeBar } = await import('../src-renderer/src/features/ports/PortHealthPanel');
  const result: Record<string, number> = {};
  for (const range of ['24h', '30d'] as const) {
    const times: number[] = [];
    const data = history(range);
    for (let run = 0; run < RUNS + WARM_UP; run += 1) {
      const host = document.createElement('div');
      document.body.append(host);
      const root = createRoot(host);
      const started = performance.now();
      flushSync(() =>
        root.render(
          React.createElement(
            'div',
            null,
            React.createElement(HealthScores, { health: HEALTH }),
            React.createElement(UptimeBar, { history: data }),
          ),
        ),
      );
      const took = performance.now() - started;
      if (host.querySelectorAll('rect').length !== data.segments.length)
        throw new Error('the bar did not render');
      if (run >= WARM_UP) times.push(took);
      root.unmount();
      host.remove();
    }
    result[`${range}MedianMs`] = Number(median(times).toFixed(2));
    result[`${range}MaxMs`] = Number(Math.max(...times).toFixed(2));
  }
  console.log(
    `uptime bar + scores, fresh mount in jsdom (median of ${RUNS}): 24 h ${result['24hMedianMs']} ms, 30 d ${result['30dMedianMs']} ms (target < 50 ms)`,
  );
  console.log(`BENCH_RESULT ${JSON.stringify(result)}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
