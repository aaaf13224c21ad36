import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  axisSize,
  BarChart,
  chartColumns,
  chartOptions,
  snappedBars,
} from '../../../../src-renderer/src/shared/components/BarChart';
import { formatDate } from '../../../../src-renderer/src/shared/format/format';

/** uPlot cannot draw in jsdom (no canvas): a stand-in that records each chart made and destroyed. */
const charts = vi.hoisted(() => ({ made: [] as { points: number; destroyed: boolean }[] }));
vi.mock('uplot', () => ({
  default: class {
    private readonly record: { points: number; destroyed: boolean };
    constructor(_options: unknown, data: ArrayLike<number>[]) {
      this.record = { points: data[0]?.length ?? 0, destroyed: false };
      charts.made.push(this.record);
    }
    destroy() {
      this.record.destroyed = true;
    }
  },
}));

describe('BarChart', () => {
  afterEach(cleanup);

  it('starts every value axis at 0, draws the first and last days whole, and sizes axes to their labels', () => {
    const options = chartOptions({
      width: 640,
      height: 220,
      format: (value) => `${value} B`,
      valueHeader: 'Traffic',
      secondary: { header: 'Requests', values: [1, 2] },
    });
    type Range = (chart: unknown, min: number, max: number) => [number, number];
    const y = options.scales?.y?.range as Range;
    const requests = options.scales?.secondary?.range as Range;
    const x = options.scales?.x?.range as Range;
    // Usage between 300 MB and 500 MB: the axis still starts at 0, not near 300 MB.
    expect(y(null, 300e6, 500e6)[0]).toBe(0);
    expect(y(null, 300e6, 500e6)[1]).toBeGreaterThanOrEqual(500e6);
    expect(requests(null, 1200, 1500)[0]).toBe(0);
    // A day's bar is centred on its midnight: half a day more each side, or the last bar is cut.
    const first = Date.parse('2026-03-01T00:00:00Z') / 1000;
    const last = Date.parse('2026-03-30T00:00:00Z') / 1000;
    expect(x(null, first, last)).toEqual([first - 43_200, last + 43_200]);
    // The right axis grows with its longest label instead of cutting it.
    const right = options.axes?.[2]?.size as (chart: unknown, labels: string[]) => number;
    expect(right(null, ['1,234,567'])).toBeGreaterThan(right(null, ['12']));
    expect(axisSize(['1,234,567'])).toBeGreaterThanOrEqual(9 * 7);
    // No drag to zoom (uPlot's default): the mouse alone could do it; the range fields do it for all.
    expect(options.cursor?.drag).toMatchObject({ x: false, y: false, setScale: false });
  });

  it('gives the same figures as a table, formatted', () => {
    render(
      <BarChart
        label="Daily usage"
        points={[
          { date: '2026-03-01', value: 1024 },
          { date: '2026-03-02', value: 0 },
        ]}
        format={(value) => `${value} B`}
        valueHeader="Traffic"
      />,
    );
    expect(screen.getByRole('img', { name: 'Daily usage' })).toBeTruthy();
    const rows = within(screen.getByRole('table', { name: 'Daily usage' })).getAllByRole('row');
    // Days in the user's locale, as every date of the app (not the wire's ISO).
    expect(rows.map((row) => row.textContent)).toEqual([
      'DayTraffic',
      `${formatDate('2026-03-01')}1024 B`,
      `${formatDate('2026-03-02')}0 B`,
    ]);
    expect(formatDate('2026-03-01')).not.toContain('2026-03-01');
  });

  it('adds a second figure per day as a third column, in the points order', () => {
    render(
      <BarChart
        label="Traffic and requests"
        points={[
          { date: '2026-03-01', value: 2048 },
          { date: '2026-03-02', value: 10 },
        ]}
        format={(value) => `${value} B`}
        valueHeader="Traffic"
        secondary={{ header: 'Requests', values: [1200, 3], format: (value) => `${value} req` }}
      />,
    );
    const rows = within(screen.getByRole('table', { name: 'Traffic and requests' })).getAllByRole('row');
    expect(rows.map((row) => row.textContent)).toEqual([
      'DayTrafficRequests',
      `${formatDate('2026-03-01')}2048 B1200 req`,
      `${formatDate('2026-03-02')}10 B3 req`,
    ]);
  });

  it('gives uPlot the days as seconds and both series as columns', () => {
    const [times, values, requests] = chartColumns(
      [
        { date: '2026-03-01', value: 5 },
        { date: '2026-03-02', value: 7 },
      ],
      { header: 'Requests', values: [1, 2] },
    );
    expect(Array.from(times)).toEqual([Date.UTC(2026, 2, 1) / 1000, Date.UTC(2026, 2, 2) / 1000]);
    expect(Array.from(values as ArrayLike<number>)).toEqual([5, 7]);
    expect(Array.from(requests as ArrayLike<number>)).toEqual([1, 2]);
  });

  it('builds the table twin only when it is opened where a chart is drawn (a year of rows waits)', () => {
    // A page that can chart; uPlot itself cannot draw in jsdom (no canvas) and is not what is tested.
    vi.stubGlobal('matchMedia', () => ({ matches: false, addEventListener: () => undefined }));
    try {
      const { container } = render(
        <BarChart
          label="Year"
          points={[{ date: '2026-03-01', value: 1 }]}
          format={(value) => `${value} B`}
        />,
      );
      const table = screen.getByRole('table', { name: 'Year' });
      expect(within(table).getAllByRole('row')).toHaveLength(1);
      const details = container.querySelector('details') as HTMLDetailsElement;
      details.open = true;
      fireEvent(details, new Event('toggle'));
      expect(
        within(table)
          .getAllByRole('row')
          .map((row) => row.textContent),
      ).toEqual(['DayValue', `${formatDate('2026-03-01')}1 B`]);
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('draws a chart in the effect once uPlot is loaded, not a task later', async () => {
    vi.stubGlobal('matchMedia', () => ({ matches: false, addEventListener: () => undefined }));
    try {
      charts.made.length = 0;
      const point = (date: string) => ({ date, value: 1 });
      const format = (value: number) => `${value} B`;
      const first = render(<BarChart label="Month" points={[point('2026-03-01')]} format={format} />);
      // The first chart waits for uPlot's module.
      await vi.waitFor(() => expect(charts.made).toHaveLength(1));
      first.unmount();
      expect(charts.made[0]?.destroyed).toBe(true);
      // Another chart (a new range) is drawn as it mounts: `render` returns after its effects.
      render(<BarChart label="Year" points={[point('2026-03-01'), point('2026-03-02')]} format={format} />);
      expect(charts.made).toHaveLength(2);
      expect(charts.made[1]).toEqual({ points: 2, destroyed: false });
    } finally {
      vi.unstubAllGlobals();
    }
  });

  describe('snappedBars (whole-pixel edges: fractional abutting edges cost the software raster ~60 ms a year)', () => {
    const isWhole = (value: number) => Number.isInteger(value);

    it('puts a year of touching bars on whole pixels, edge to edge, none lost', () => {
      // 366 days over 1,000 px: 2.73 px a column, centres between pixels, some a little off their place.
      const centres = Array.from(
        { length: 366 },
        (_, index) => 80.4 + index * 2.7321 + (index % 7 === 3 ? 0.3 : 0),
      );
      const tops = centres.map((_, index) => 30.25 + (index % 50) * 2.7);
      const { rects, dense } = snappedBars(centres, tops, 200.5);
      expect(dense).toBe(true);
      expect(rects).toHaveLength(366);
      for (const rect of rects) {
        expect([rect.x, rect.y, rect.width, rect.height].every(isWhole)).toBe(true);
        expect(rect.width).toBeGreaterThanOrEqual(2);
        expect(rect.width).toBeLessThanOrEqual(3);
        expect(rect.y + rect.height).toBe(201);
      }
      rects
        .slice(1)
        .forEach((rect, index) => expect(rect.x).toBe((rects[index]?.x ?? 0) + (rects[index]?.width ?? 0)));
    });

    it('leaves a gap between wide columns, 70 % of the column up to the maximum, and skips empty days', () => {
      const { rects, dense } = snappedBars([100.3, 133.6, 166.9], [50.6, null, 120.2], 200, 40);
      expect(dense).toBe(false);
      expect(rects).toEqual([
        { x: 89, y: 51, width: 23, height: 149 },
        { x: 155, y: 120, width: 24, height: 80 },
      ]);
      expect(snappedBars([100, 300], [10, 10], 100, 40).rects.map((rect) => rect.width)).toEqual([40, 40]);
    });
  });
});
