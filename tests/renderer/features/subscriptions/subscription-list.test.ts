import { describe, expect, it } from 'vitest';
import {
  daysUntilRunOut,
  forecastText,
  matchesSearch,
  recentPace,
  sortSubscriptions,
} from '../../../../src-renderer/src/features/subscriptions/subscription-list';
import { checkRange, presetRange } from '../../../../src-renderer/src/features/subscriptions/usage-range';
import { subscription } from '../../support/fixtures';

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

  it('searches label, id and username case-insensitively', () => {
    const s = subscription({ label: 'Price Monitoring', username: 'acme_user' });
    expect(matchesSearch(s, 'monitor')).toBe(true);
    expect(matchesSearch(s, 'SUB_1')).toBe(true);
    expect(matchesSearch(s, 'acme')).toBe(true);
    expect(matchesSearch(s, 'nothing')).toBe(false);
  });

  it('sorts by expiry with no expiry last in both directions', () => {
    const a = subscription({ id: 'a', expiresAt: '2026-05-01T00:00:00.000Z' });
    const b = subscription({ id: 'b', expiresAt: null });
    const c = subscription({ id: 'c', expiresAt: '2026-04-01T00:00:00.000Z' });
    const ids = (direction: 'asc' | 'desc') =>
      sortSubscriptions([a, b, c], { key: 'expires', direction }, () => null).map((s) => s.id);
    expect(ids('asc')).toEqual(['c', 'a', 'b']);
    expect(ids('desc')).toEqual(['a', 'c', 'b']);
  });

  it('sorts labels naturally: numbers inside them as numbers', () => {
    const labels = [
      'Mobile GB plan 133',
      'Mobile GB plan 13',
      'Mobile GB plan 129',
      'Mobile GB plan 10',
      'mobile GB plan 119',
      'Mobile GB plan 127',
    ];
    const subscriptions = labels.map((label, index) => subscription({ id: `sub_${index}`, label }));
    const sorted = sortSubscriptions(subscriptions, { key: 'label', direction: 'asc' }, () => null);
    expect(sorted.map((s) => s.label)).toEqual([
      'Mobile GB plan 10',
      'Mobile GB plan 13',
      'mobile GB plan 119',
      'Mobile GB plan 127',
      'Mobile GB plan 129',
      'Mobile GB plan 133',
    ]);
    // Ties fall back to the id, naturally too.
    const twins = ['sub_10', 'sub_9'].map((id) => subscription({ id, label: 'Same' }));
    expect(sortSubscriptions(twins, { key: 'label', direction: 'asc' }, () => null).map((s) => s.id)).toEqual(
      ['sub_9', 'sub_10'],
    );
  });

  it('sorts by share used', () => {
    const low = subscription({ id: 'low', trafficUsedBytes: 1, trafficTotalBytes: 10 });
    const high = subscription({ id: 'high', trafficUsedBytes: 9, trafficTotalBytes: 10 });
    expect(sortSubscriptions([high, low], { key: 'used', direction: 'asc' }, () => null)[0]?.id).toBe('low');
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
