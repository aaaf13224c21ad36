import { useEffect, useRef } from 'react';

/** One bar per day (or any ISO date). */
export interface ChartPoint {
  /** `YYYY-MM-DD`. */
  date: string;
  value: number;
}

interface BarChartProps {
  /** Accessible name, also the caption of the table twin. */
  label: string;
  points: readonly ChartPoint[];
  /** How a value reads (axis, tooltip, table): e.g. `formatBytes`. */
  format: (value: number) => string;
  valueHeader?: string;
  height?: number;
}

const dayToSeconds = (date: string) => Date.parse(`${date}T00:00:00Z`) / 1000;

/**
 * A daily bar chart drawn with uPlot (small, canvas, fast with a year of points; already a
 * dependency), with the same numbers as a table for screen readers and for copying. uPlot needs a
 * canvas and `matchMedia`: without them (jsdom) only the table is there.
 */
export function BarChart({ label, points, format, valueHeader = 'Value', height = 220 }: BarChartProps) {
  const holder = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = holder.current;
    if (!element || typeof window.matchMedia !== 'function' || points.length === 0) return;
    let disposed = false;
    let plot: { destroy: () => void } | null = null;
    void import('uplot')
      .then(({ default: UPlot }) => {
        if (disposed) return;
        const width = Math.max(320, element.clientWidth || 640);
        plot = new UPlot(
          {
            width,
            height,
            legend: { show: false },
            scales: { x: { time: true } },
            axes: [{}, { values: (_chart, ticks) => ticks.map((tick) => format(tick)), size: 80 }],
            series: [
              {},
              {
                label: valueHeader,
                fill: 'rgba(37, 99, 235, 0.35)',
                stroke: 'rgb(37, 99, 235)',
                paths: UPlot.paths.bars?.({ size: [0.7, 40] }),
                value: (_chart, value) => (value === null ? '—' : format(value)),
              },
            ],
          },
          [points.map((point) => dayToSeconds(point.date)), points.map((point) => point.value)],
          element,
        );
      })
      .catch(() => undefined);
    return () => {
      disposed = true;
      plot?.destroy();
    };
  }, [points, format, height, valueHeader]);

  return (
    <figure className="bar-chart">
      <div ref={holder} className="bar-chart__canvas" role="img" aria-label={label} />
      <details className="bar-chart__table">
        <summary>Show as a table</summary>
        <table className="table" aria-label={label}>
          <thead>
            <tr>
              <th scope="col">Day</th>
              <th scope="col" className="numeric">
                {valueHeader}
              </th>
            </tr>
          </thead>
          <tbody>
            {points.map((point) => (
              <tr key={point.date}>
                <th scope="row">{point.date}</th>
                <td className="numeric">{format(point.value)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </figure>
  );
}
