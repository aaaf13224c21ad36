import { describe, expect, it } from 'vitest';
import {
  daysUntilRunOut,
  forecastText,
  recentPace,
} from '../../../../src-renderer/src/features/subscriptions/subscription-list';
import { checkRange, presetRange } from '../../../../src-renderer/src/features/subscriptions/usage-range';

describe('subscription list helpers', () => {
  it('forecasts whole days at the pace, none without a pace, zero when nothing is left', () => {
    expect(daysUntilRunOut(10_000, 3_000)).toBe(4);
    expect(daysUntilRunOut(9_000, 3_000)).toBe(3);
    expect(daysUntilRunOut(10_000, 0)).toBeNull();
    expect(daysUntilRunOut(0, 5)).toBe(0);
    expect(forecastText(1)).toBe('runs out in about 1 day');
    expect(forecastText(4)).toBe('runs out in about 4 days');
    expect(forecastText(null)).toBeNull();
  });

  it("paces the last 7 days over the time they have really run (today's part, a young subscription)", () => {
    const now = Date.parse('2026-03-20T12:00:00Z');
    const week = { from: '2026-03-14', totalBytes: 6_500_000_000 };
    // 14 March 00:00 to 20 March 12:00: 6.5 days.
    expect(recentPace(week, '2026-01-01T00:00:00Z', now)).toBeCloseTo(1_000_000_000);
    // Created on 18 March at noon: two days of use, not six and a half.
    expect(recentPace(week, '2026-03-18T12:00:00Z', now)).toBeCloseTo(3_250_000_000);
    // A quiet week: no pace, so "no use yet" rather than a forecast.
    expect(daysUntilRunOut(1_000, recentPace({ ...week, totalBytes: 0 }, '2026-01-01T00:00:00Z', now))).toBe(
      null,
    );
    expect(daysUntilRunOut(10_000_000_000, recentPace(week, '2026-01-01T00:00:00Z', now))).toBe(10);
  });
});

describe('usage range', () => {
  const now = Date.parse('2026-03-15T18:00:00Z');
  it('presets end today (UTC) and include both ends', () => {
    expect(presetRange(7, now)).toEqual({ from: '2026-03-09', to: '2026-03-15' });
    expect(presetRange(30, now)).toEqual({ from: '2026-02-14', to: '2026-03-15' });
  });
  it('accepts 366 days, refuses 367, an inverted range and a non-date', () => {
    expect(checkRange('2025-03-15', '2026-03-15')).toMatchObject({ ok: true, days: 366 });
    expect(checkRange('2025-03-14', '2026-03-15')).toMatchObject({ ok: false, field: 'from' });
    expect(checkRange('2026-03-15', '2026-03-14')).toEqual({
      ok: false,
      field: 'to',
      message: 'The end is before the start',
    });
    expect(checkRange('2026-02-30', '2026-03-01')).toMatchObject({ ok: false, field: 'from' });
  });
});
