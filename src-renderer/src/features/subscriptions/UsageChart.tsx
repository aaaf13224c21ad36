import { useEffect, useRef } from 'react';
import type uPlot from 'uplot';
import type { UsagePoint } from '../../../../src-main/api/api-types';
import { formatBytes } from '../../shared/format/format';

/** Points as uPlot's columns: seconds since the epoch, bytes, requests. */
export function chartData(points: readonly UsagePoint[]): uPlot.AlignedData {
  const times = new Float64Array(points.length);
  const bytes = new Float64Array(points.length);
  const requests = new Float64Array(points.length);
  points.forEach((point, index) => {
    times[index] = Date.parse(`${point.date}T00:00:00Z`) / 1000;
    bytes[index] = point.bytes;
    requests[index] = point.requests;
  });
  return [times, bytes, requests];
}

/**
 * Daily bytes and requests, with uPlot: ~50 kB, canvas-drawn (a year of days is one draw call per
 * series, not 732 SVG nodes), maintained, with a legend that reads out values. The chart is
 * decorative for screen readers: the same numbers are in the totals and the CSV.
 */
export function UsageChart({ points }: { points: readonly UsagePoint[] }) {
  const host = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = host.current;
    // jsdom has no canvas: the chart is skipped there, the numbers around it are not.
    if (!element || navigator.userAgent.includes('jsdom')) return;
    let plot: uPlot | null = null;
    let cancelled = false;
    // Loaded on first use: uPlot reads matchMedia when imported, and most screens never chart.
    void import('uplot').then(({ default: UPlot }) => {
      if (cancelled) return;
      plot = new UPlot(
        {
          width: Math.max(320, element.clientWidth || 720),
          height: 240,
          scales: { x: { time: true } },
          series: [
            {},
            {
              label: 'Traffic',
              stroke: '#2f6fdf',
              fill: 'rgba(47,111,223,0.15)',
              scale: 'bytes',
              value: (_u, v) => (v === null ? '—' : formatBytes(v)),
            },
            { label: 'Requests', stroke: '#d9822b', scale: 'requests' },
          ],
          axes: [
            {},
            { scale: 'bytes', values: (_u, values) => values.map((v) => formatBytes(v)) },
            { scale: 'requests', side: 1, grid: { show: false } },
          ],
        },
        chartData(points),
        element,
      );
    });
    return () => {
      cancelled = true;
      plot?.destroy();
    };
  }, [points]);
  return <div ref={host} className="usage-chart" aria-hidden="true" data-points={points.length} />;
}
