import { useEffect, useRef, useState } from 'react';
import type uPlot from 'uplot';

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
  useEffect(() => {
    const element = holder.current;
    if (!element || !canChart() || points.length === 0) return;
    let disposed = false;
    let plot: { destroy: () => void } | null = null;
    // Loaded on first use: uPlot reads matchMedia when imported, and most screens never chart.
    void import('uplot')
      .then(({ default: UPlot }) => {
        if (disposed) return;
        const width = Math.max(320, element.clientWidth || 640);
        const secondFormat = secondary?.format ?? plain;
        plot = new UPlot(
          {
            width,
            height,
            legend: { show: secondary !== undefined },
            scales: { x: { time: true } },
            axes: [
              {},
              { values: (_chart, ticks) => ticks.map((tick) => format(tick)), size: 80 },
              ...(secondary
                ? [
                    {
                      scale: 'secondary',
                      side: 1,
                      grid: { show: false },
                      values: (_chart: uPlot, ticks: number[]) => ticks.map((tick) => secondFormat(tick)),
                    },
                  ]
                : []),
            ],
            series: [
              {},
              {
                label: valueHeader,
                fill: 'rgba(37, 99, 235, 0.35)',
                stroke: 'rgb(37, 99, 235)',
                paths: UPlot.paths.bars?.({ size: [0.7, 40] }),
                value: (_chart, value) => (value === null ? '—' : format(value)),
              },
              ...(secondary
                ? [
                    {
                      label: secondary.header,
                      scale: 'secondary',
                      stroke: 'rgb(217, 130, 43)',
                      value: (_chart: uPlot, value: number | null) =>
                        value === null ? '—' : secondFormat(value),
                    },
                  ]
                : []),
            ],
          },
          chartColumns(points, secondary),
          element,
        );
      })
      .catch(() => undefined);
    return () => {
      disposed = true;
      plot?.destroy();
    };
  }, [points, format, height, valueHeader, secondary]);

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
                <th scope="row">{point.date}</th>
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
