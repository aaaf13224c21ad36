import { useEffect, useRef, useState } from 'react';
import type uPlot from 'uplot';
import { formatDate, formatDayShort } from '../format/format';

/** One bar per day (or any ISO date). */
export interface ChartPoint {
  /** `YYYY-MM-DD`. */
  date: string;
  value: number;
}

/** A second figure per day, drawn as a line on its own scale (right axis), e.g. requests. */
export interface ChartLine {
  header: string;
  /** One value per point, in the points' order. */
  values: readonly number[];
  format?: (value: number) => string;
}

interface BarChartProps {
  /** Accessible name, also the caption of the table twin. */
  label: string;
  points: readonly ChartPoint[];
  /** How a value reads (axis, tooltip, table): e.g. `formatBytes`. */
  format: (value: number) => string;
  valueHeader?: string;
  height?: number;
  secondary?: ChartLine;
}

const dayToSeconds = (date: string) => Date.parse(`${date}T00:00:00Z`) / 1000;
// One formatter: `toLocaleString` builds a new one per call, which a year of rows pays 366 times.
const NUMBER = new Intl.NumberFormat();
const plain = (value: number) => NUMBER.format(value);

let loadedUPlot: typeof uPlot | null = null;

/** Loaded on first use: uPlot reads matchMedia when imported, and most screens never chart. */
async function loadUPlot(): Promise<typeof uPlot> {
  const { default: UPlot } = await import('uplot');
  loadedUPlot = UPlot;
  return UPlot;
}

/** uPlot needs `matchMedia` (and a canvas): without it (jsdom) there is no chart, only the table. */
const canChart = () => typeof window.matchMedia === 'function';

/** The points as uPlot's columns (seconds since the epoch, values[, secondary]), in typed arrays. */
export function chartColumns(points: readonly ChartPoint[], secondary?: ChartLine): uPlot.AlignedData {
  const times = new Float64Array(points.length);
  const values = new Float64Array(points.length);
  points.forEach((point, index) => {
    times[index] = dayToSeconds(point.date);
    values[index] = point.value;
  });
  return secondary ? [times, values, Float64Array.from(secondary.values)] : [times, values];
}

export interface BarRect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Share of a column a bar takes when there is room for a gap (as uPlot's `bars({ size: [0.7, …] })`). */
const BAR_SHARE = 0.7;
const MAX_BAR_PX = 40;

/** The chart's colours: the theme's tokens (`--chart-*` in styles/tokens.css), read when it draws. */
interface ChartColors {
  text: string;
  grid: string;
  bar: string;
  barFill: string;
  line: string;
}

/** The light theme's, for where no style sheet is loaded (tests). */
const DEFAULT_COLORS: ChartColors = {
  text: '#4b5461',
  grid: 'rgb(0 0 0 / 10%)',
  bar: 'rgb(37 99 235)',
  barFill: 'rgb(37 99 235 / 35%)',
  line: 'rgb(180 83 9)',
};

function themeColors(): ChartColors {
  const style = getComputedStyle(document.documentElement);
  const read = (name: string, fallback: string) => style.getPropertyValue(name).trim() || fallback;
  return {
    text: read('--chart-text', DEFAULT_COLORS.text),
    grid: read('--chart-grid', DEFAULT_COLORS.grid),
    bar: read('--chart-bar', DEFAULT_COLORS.bar),
    barFill: read('--chart-bar-fill', DEFAULT_COLORS.barFill),
    line: read('--chart-line', DEFAULT_COLORS.line),
  };
}

/** The theme on <html> (`data-theme`), followed live: a chart is drawn again in the new colours. */
function useThemeName(): string {
  const [theme, setTheme] = useState(() => document.documentElement.dataset.theme ?? '');
  useEffect(() => {
    const observer = new MutationObserver(() => setTheme(document.documentElement.dataset.theme ?? ''));
    observer.observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme'] });
    return () => observer.disconnect();
  }, []);
  return theme;
}

/**
 * Bars with every edge on a whole canvas pixel. uPlot's own bar builder stops snapping once the gap
 * between bars is under 5 px (a year in ~1,000 px), and a path of hundreds of abutting rectangles
 * with fractional edges costs Chromium's software raster (no GPU: headless, many VMs and remote
 * desktops) 50-90 ms per draw, against 3-5 ms with whole-pixel edges (measured in
 * `bench/subscriptions-bench.ts --trace`: `CanvasRenderingContext2D::FinalizeFrame`). Where a
 * column has under a pixel to spare the bars touch (`dense`, no gap, as uPlot draws them).
 *
 * `centres` and `tops` are canvas pixels of each point (`null`: no bar), `base` the value axis' 0.
 */
export function snappedBars(
  centres: readonly number[],
  tops: readonly (number | null)[],
  base: number,
  maxWidth = MAX_BAR_PX,
): { rects: BarRect[]; dense: boolean } {
  let column = Infinity;
  for (let index = 1; index < centres.length; index += 1)
    column = Math.min(column, Math.abs((centres[index] ?? 0) - (centres[index - 1] ?? 0)));
  if (!Number.isFinite(column)) column = maxWidth / BAR_SHARE;
  const shared = Math.min(column * BAR_SHARE, maxWidth);
  const dense = column - shared < 1;
  const width = dense ? column : shared;
  const bottom = Math.round(base);
  const rects: BarRect[] = [];
  let previousRight = -Infinity;
  centres.forEach((centre, index) => {
    const top = tops[index];
    if (top === null || top === undefined) return;
    // Never over the bar before (a translucent fill would darken the overlap), never under 1 px wide.
    let left = Math.max(Math.round(centre - width / 2), previousRight);
    // Touching bars share their edge: rounding a half pixel either way must not open a 1 px gap.
    if (dense && left - previousRight === 1) left = previousRight;
    const right = Math.max(Math.round(centre + width / 2), left + 1);
    previousRight = right;
    const y = Math.round(top);
    rects.push({ x: left, y: Math.min(y, bottom), width: right - left, height: Math.abs(bottom - y) });
  });
  return { rects, dense };
}

/**
 * `snappedBars` as a uPlot path builder for a series with `pxAlign: 0`: dense bars are filled in the
 * stroke's colour, unstroked (as uPlot's own bars are when they touch).
 */
function snappedBarsPath(chart: uPlot, seriesIndex: number, first: number, last: number): uPlot.Series.Paths {
  const series = chart.series[seriesIndex];
  const scale = series?.scale ?? 'y';
  const times = chart.data[0];
  const values = chart.data[seriesIndex] ?? [];
  const centres: number[] = [];
  const tops: (number | null)[] = [];
  for (let index = first; index <= last; index += 1) {
    const value = values[index];
    centres.push(chart.valToPos(times[index] ?? 0, 'x', true));
    tops.push(value === null || value === undefined ? null : chart.valToPos(value, scale, true));
  }
  const { rects, dense } = snappedBars(
    centres,
    tops,
    chart.valToPos(0, scale, true),
    MAX_BAR_PX * devicePixelRatio,
  );
  const fill = new Path2D();
  for (const rect of rects) fill.rect(rect.x, rect.y, rect.width, rect.height);
  if (dense) {
    // uPlot keeps a series' stroke as a function once the chart is made: its colour is what it answers.
    const stroke = series?.stroke;
    const colour = typeof stroke === 'function' ? stroke(chart, seriesIndex) : stroke;
    return { fill, stroke: null, _fill: typeof colour === 'string' ? colour : undefined };
  }
  // The series is not shifted half a pixel (`pxAlign: 0`, which would put the fill's edges back
  // between pixels): the 1 px outline goes through the centres of the bar's outer pixels instead.
  const stroke = new Path2D();
  for (const rect of rects)
    stroke.rect(rect.x + 0.5, rect.y + 0.5, rect.width - 1, Math.max(0, rect.height - 1));
  return { fill, stroke };
}

const HALF_DAY_S = 43_200;
/** Roughly a label character's width at the axis font (12 px system-ui), with room for the tick. */
const CHAR_PX = 7.5;
const AXIS_PAD_PX = 18;

/** An axis wide enough for its longest label, so that none is cut at the chart's edge. */
export function axisSize(labels: readonly string[] | null | undefined, minimum = 50): number {
  const longest = Math.max(0, ...(labels ?? []).map((label) => label.length));
  return Math.max(minimum, Math.ceil(longest * CHAR_PX + AXIS_PAD_PX));
}

/** Every value axis starts at 0 (a bar's height is its value), with a little room above the top. */
function fromZero(_chart: unknown, _min: number | null, max: number | null): uPlot.Range.MinMax {
  const top = max !== null && Number.isFinite(max) && max > 0 ? max * 1.08 : 1;
  return [0, top];
}

/** Half a day either side of the first and last day: their bars are drawn whole, not cut in two. */
function wholeDays(_chart: unknown, min: number | null, max: number | null): uPlot.Range.MinMax {
  if (min === null || max === null) return [min, max];
  return [min - HALF_DAY_S, max + HALF_DAY_S];
}

/** The chart's uPlot options: days on x in the user's locale, values from 0, no clipped label. */
export function chartOptions({
  width,
  height,
  format,
  valueHeader,
  secondary,
  colors = DEFAULT_COLORS,
}: {
  width: number;
  height: number;
  format: (value: number) => string;
  valueHeader: string;
  secondary?: ChartLine | undefined;
  colors?: ChartColors;
}): uPlot.Options {
  const secondFormat = secondary?.format ?? plain;
  const axis = { stroke: colors.text, grid: { stroke: colors.grid }, ticks: { stroke: colors.grid } };
  return {
    width,
    height,
    legend: { show: secondary !== undefined },
    // No drag to zoom: a mouse-only action, whose range the range fields and the table never knew;
    // the range is chosen with those fields (and their presets), which the keyboard reaches.
    cursor: { drag: { x: false, y: false, setScale: false } },
    scales: {
      x: { time: true, range: wholeDays },
      y: { range: fromZero },
      ...(secondary ? { secondary: { range: fromZero } } : {}),
    },
    axes: [
      { ...axis, values: (_chart, ticks) => ticks.map((tick) => formatDayShort(tick * 1000)) },
      {
        ...axis,
        values: (_chart, ticks) => ticks.map((tick) => format(tick)),
        size: (_chart, labels) => axisSize(labels, 60),
      },
      ...(secondary
        ? [
            {
              ...axis,
              scale: 'secondary',
              side: 1,
              grid: { show: false },
              values: (_chart: uPlot, ticks: number[]) => ticks.map((tick) => secondFormat(tick)),
              size: (_chart: uPlot, labels: string[]) => axisSize(labels),
            },
          ]
        : []),
    ],
    series: [
      {},
      {
        label: valueHeader,
        fill: colors.barFill,
        stroke: colors.bar,
        paths: snappedBarsPath,
        pxAlign: 0,
        value: (_chart, value) => (value === null ? '—' : format(value)),
      },
      ...(secondary
        ? [
            {
              label: secondary.header,
              scale: 'secondary',
              stroke: colors.line,
              value: (_chart: uPlot, value: number | null) => (value === null ? '—' : secondFormat(value)),
            },
          ]
        : []),
    ],
  };
}

/**
 * A daily bar chart drawn with uPlot (small, canvas, fast with a year of points: one draw call per
 * series, not hundreds of SVG nodes; already a dependency), with the same numbers as a table for
 * screen readers and for copying. uPlot needs a canvas and `matchMedia`: without them (jsdom) only
 * the table is there. Shared by the ports' and the subscriptions' usage.
 */
export function BarChart({
  label,
  points,
  format,
  valueHeader = 'Value',
  height = 220,
  secondary,
}: BarChartProps) {
  const holder = useRef<HTMLDivElement>(null);
  const theme = useThemeName();
  useEffect(() => {
    const element = holder.current;
    if (!element || !canChart() || points.length === 0) return;
    let disposed = false;
    let plot: { destroy: () => void } | null = null;
    // uPlot's legend hides a series on a click, which no key can give (its entries are not
    // focusable, and inside the chart's role="img" they could not be controls): here the legend is
    // a key to the colours only, and every figure is in the table below.
    const keepSeries = (event: MouseEvent) => {
      if ((event.target as Element | null)?.closest('.u-legend')) event.stopPropagation();
    };
    element.addEventListener('click', keepSeries, true);
    const draw = (UPlot: typeof uPlot) => {
      const width = Math.max(320, element.clientWidth || 640);
      plot = new UPlot(
        chartOptions({ width, height, format, valueHeader, secondary, colors: themeColors() }),
        chartColumns(points, secondary),
        element,
      );
    };
    // Once loaded, drawn in this effect: a settled `import()` still answers a task later (10-15 ms
    // of a 366-day chart's click in the subscriptions benchmark, with the data already committed).
    if (loadedUPlot) draw(loadedUPlot);
    else
      void loadUPlot()
        .then((UPlot) => {
          if (!disposed) draw(UPlot);
        })
        .catch(() => undefined);
    return () => {
      disposed = true;
      element.removeEventListener('click', keepSeries, true);
      plot?.destroy();
    };
    // `theme`: drawn again in the new theme's colours (a canvas does not follow CSS by itself).
  }, [points, format, height, valueHeader, secondary, theme]);

  // The table twin is built when it is opened (a closed <details> shows nobody its rows): a year of
  // rows is 1,500 elements that must not hold back the chart. Without a chart it is the content.
  const [open, setOpen] = useState(false);
  const rowsShown = open || !canChart();
  const secondFormat = secondary?.format ?? plain;
  return (
    <figure className="bar-chart" data-points={points.length}>
      <div ref={holder} className="bar-chart__canvas" role="img" aria-label={label} />
      <details className="bar-chart__table" onToggle={(event) => setOpen(event.currentTarget.open)}>
        <summary>Show as a table</summary>
        <table className="table" aria-label={label}>
          <thead>
            <tr>
              <th scope="col">Day</th>
              <th scope="col" className="numeric">
                {valueHeader}
              </th>
              {secondary ? (
                <th scope="col" className="numeric">
                  {secondary.header}
                </th>
              ) : null}
            </tr>
          </thead>
          <tbody>
            {(rowsShown ? points : []).map((point, index) => (
              <tr key={point.date}>
                <th scope="row">
                  <time dateTime={point.date}>{formatDate(point.date)}</time>
                </th>
                <td className="numeric">{format(point.value)}</td>
                {secondary ? <td className="numeric">{secondFormat(secondary.values[index] ?? 0)}</td> : null}
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </figure>
  );
}
