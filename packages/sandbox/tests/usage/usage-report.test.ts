import { describe, expect, it } from 'vitest';
import { QueryReader } from '../../src/http/input-reader';
import { SandboxError } from '../../src/http/sandbox-error';
import {
  buildLedgerReport,
  buildUsageReport,
  CurveCursor,
  curveBytesBetween,
  DAY_MS,
  dailyUsage,
  readUsageWindow,
  requestsForBytes,
  type UsageLedger,
  type UsageSource,
  usedBytesUntil,
} from '../../src/usage/usage-report';

const at = (iso: string): number => Date.parse(iso);
const source: UsageSource = {
  key: 'sub_test',
  activeFromMs: at('2026-03-01T06:00:00Z'),
  meanDailyBytes: 500_000_000,
  countries: ['DE', 'FR', 'NL'],
};

function windowOf(query: string, nowIso = '2026-03-10T12:00:00Z') {
  return readUsageWindow(new QueryReader(new URLSearchParams(query)), at(nowIso));
}

function windowError(query: string): SandboxError {
  try {
    windowOf(query);
  } catch (error) {
    if (error instanceof SandboxError) return error;
    throw error;
  }
  throw new Error(`no error for ${query}`);
}

describe('dailyUsage', () => {
  it('is a pure function of the source and the day', () => {
    const day = at('2026-03-05T00:00:00Z');
    const now = at('2026-03-10T00:00:00Z');
    expect(dailyUsage(source, day, now)).toEqual(dailyUsage({ ...source }, day, now));
    expect(dailyUsage(source, day, now).bytes).toBeGreaterThan(0);
    expect(dailyUsage({ ...source, key: 'other' }, day, now).bytes).not.toBe(
      dailyUsage(source, day, now).bytes,
    );
  });

  it('is zero before the source starts, after it stops and after now', () => {
    const now = at('2026-03-10T00:00:00Z');
    expect(dailyUsage(source, at('2026-02-28T00:00:00Z'), now).bytes).toBe(0);
    expect(
      dailyUsage({ ...source, activeUntilMs: at('2026-03-03T00:00:00Z') }, at('2026-03-04T00:00:00Z'), now)
        .bytes,
    ).toBe(0);
    expect(dailyUsage(source, at('2026-03-11T00:00:00Z'), now).bytes).toBe(0);
  });

  it('counts only the part of a day before now', () => {
    const day = at('2026-03-05T00:00:00Z');
    const whole = dailyUsage(source, day, day + DAY_MS).bytes;
    const half = dailyUsage(source, day, day + DAY_MS / 2).bytes;
    expect(half).toBeGreaterThan(0);
    expect(Math.abs(half * 2 - whole)).toBeLessThanOrEqual(2);
  });

  it('derives requests from bytes (one per 48 KiB)', () => {
    const usage = dailyUsage(source, at('2026-03-05T00:00:00Z'), at('2026-03-10T00:00:00Z'));
    expect(usage.requests).toBe(Math.floor(usage.bytes / 49_152));
    expect(requestsForBytes(49_151)).toBe(0);
    expect(requestsForBytes(49_152)).toBe(1);
  });
});

describe('buildUsageReport', () => {
  const report = buildUsageReport(
    [source, { ...source, key: 'second', countries: ['US'] }],
    at('2026-02-20T00:00:00Z'),
    at('2026-03-10T00:00:00Z'),
    at('2026-03-10T12:00:00Z'),
  );

  it('has one point per day, both ends included', () => {
    expect(report.from).toBe('2026-02-20');
    expect(report.to).toBe('2026-03-10');
    expect(report.points).toHaveLength(19);
    expect(report.points[0]?.date).toBe('2026-02-20');
    expect(report.points.at(-1)?.date).toBe('2026-03-10');
    expect(report.points.filter((p) => p.date < '2026-03-01').every((p) => p.bytes === 0)).toBe(true);
  });

  it('totals are the sums of the points', () => {
    expect(report.totalBytes).toBe(report.points.reduce((s, p) => s + p.bytes, 0));
    expect(report.totalRequests).toBe(report.points.reduce((s, p) => s + p.requests, 0));
    expect(report.totalBytes).toBeGreaterThan(0);
  });

  it('byCountry sums to totalBytes, heaviest first', () => {
    expect(report.byCountry.reduce((s, c) => s + c.bytes, 0)).toBe(report.totalBytes);
    expect(report.byCountry.map((c) => c.country).sort()).toEqual(['DE', 'FR', 'NL', 'US']);
    const bytes = report.byCountry.map((c) => c.bytes);
    expect(bytes).toEqual([...bytes].sort((a, b) => b - a));
  });

  it('agrees with usedBytesUntil over the whole life of a source', () => {
    const now = at('2026-03-10T12:00:00Z');
    const single = buildUsageReport([source], at('2026-03-01T00:00:00Z'), at('2026-03-10T00:00:00Z'), now);
    expect(usedBytesUntil(source, now)).toBe(single.totalBytes);
  });
});

describe('curveBytesBetween', () => {
  const curve = { key: 'su_curve', meanDailyBytes: 300_000_000 };
  const start = at('2026-03-01T05:17:00Z');
  const end = at('2026-03-09T21:03:00Z');

  it('is additive: cutting a span anywhere gives the same total', () => {
    const whole = curveBytesBetween(curve, start, end);
    for (const cut of [start + 1, at('2026-03-02T00:00:00Z'), at('2026-03-04T13:45:12Z'), end - 1]) {
      expect(curveBytesBetween(curve, start, cut) + curveBytesBetween(curve, cut, end)).toBe(whole);
    }
    let stepped = 0;
    for (let t = start; t < end; t += 3_600_000 + 17)
      stepped += curveBytesBetween(curve, t, Math.min(end, t + 3_600_000 + 17));
    expect(stepped).toBe(whole);
  });

  it('grows with time and is zero for an empty span', () => {
    expect(curveBytesBetween(curve, start, start)).toBe(0);
    expect(curveBytesBetween(curve, end, start)).toBe(0);
    const a = curveBytesBetween(curve, start, start + DAY_MS);
    const b = curveBytesBetween(curve, start, start + 2 * DAY_MS);
    expect(a).toBeGreaterThan(0);
    expect(b).toBeGreaterThan(a);
  });

  it('a cursor answers the same as the direct sum at any instant', () => {
    const cursor = new CurveCursor(curve, start, end);
    for (const t of [start, start + 5, at('2026-03-02T00:00:00Z'), at('2026-03-06T08:00:00Z'), end]) {
      expect(cursor.bytesUntil(t)).toBe(curveBytesBetween(curve, start, t));
    }
  });
});

describe('buildLedgerReport', () => {
  const ledgers: UsageLedger[] = [
    { countries: ['GB', 'IE'], daily: { '2026-03-01': 100_000, '2026-03-03': 250_001 } },
    { countries: ['US'], daily: { '2026-03-03': 98_304, '2026-03-20': 5 } },
  ];
  const report = buildLedgerReport(ledgers, at('2026-03-01T00:00:00Z'), at('2026-03-04T00:00:00Z'));

  it('reports the recorded bytes per day and zero on days without traffic', () => {
    expect(report.points).toEqual([
      { date: '2026-03-01', bytes: 100_000, requests: 2 },
      { date: '2026-03-02', bytes: 0, requests: 0 },
      { date: '2026-03-03', bytes: 348_305, requests: 5 + 2 },
      { date: '2026-03-04', bytes: 0, requests: 0 },
    ]);
  });

  it('totals and byCountry are exact sums of the points', () => {
    expect(report.totalBytes).toBe(448_305);
    expect(report.totalRequests).toBe(9);
    expect(report.byCountry.reduce((s, c) => s + c.bytes, 0)).toBe(448_305);
    expect(report.byCountry.find((c) => c.country === 'US')?.bytes).toBe(98_304);
  });
});

describe('readUsageWindow', () => {
  it('defaults to the 30 days that end today (UTC)', () => {
    const window = windowOf('');
    expect(new Date(window.toMs).toISOString()).toBe('2026-03-10T00:00:00.000Z');
    expect(new Date(window.fromMs).toISOString()).toBe('2026-02-09T00:00:00.000Z');
  });

  it('takes from as 29 days before a given to', () => {
    const window = windowOf('to=2026-01-31');
    expect(new Date(window.fromMs).toISOString()).toBe('2026-01-02T00:00:00.000Z');
  });

  it('accepts 366 days counted inclusively and refuses 367', () => {
    expect(() => windowOf('from=2025-03-10&to=2026-03-10')).not.toThrow();
    const error = windowError('from=2025-03-09&to=2026-03-10');
    expect(error.status).toBe(422);
    expect(error.fields).toEqual([expect.objectContaining({ field: 'from', code: 'invalid_range' })]);
  });

  it('refuses from after to', () => {
    expect(windowError('from=2026-03-05&to=2026-03-04').fields?.[0]?.field).toBe('from');
  });

  it('refuses malformed and impossible dates, each on its field', () => {
    const error = windowError('from=2026-02-30&to=10-03-2026');
    expect(error.fields?.map((f) => f.field).sort()).toEqual(['from', 'to']);
  });
});
