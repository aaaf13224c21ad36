import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { BarChart } from '../../../../src-renderer/src/shared/components/BarChart';

describe('BarChart', () => {
  afterEach(cleanup);

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
    expect(rows.map((row) => row.textContent)).toEqual(['DayTraffic', '2026-03-011024 B', '2026-03-020 B']);
  });
});
