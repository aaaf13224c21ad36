/** Usage ranges as the form sees them: whole UTC days, both ends included, at most 366 days. */

const USAGE_MAX_DAYS = 366;
export const USAGE_PRESETS = [7, 30, 90] as const;
const DAY_MS = 86_400_000;
const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;

const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** The last `days` days up to today (UTC), both included. */
export function presetRange(days: number, nowMs: number): { from: string; to: string } {
  const today = Math.floor(nowMs / DAY_MS) * DAY_MS;
  return { from: isoDay(today - (days - 1) * DAY_MS), to: isoDay(today) };
}

function parseDay(value: string): number | null {
  if (!ISO_DAY.test(value)) return null;
  const ms = Date.parse(`${value}T00:00:00Z`);
  return Number.isFinite(ms) && isoDay(ms) === value ? ms : null;
}

export type RangeCheck =
  { ok: true; from: string; to: string; days: number } | { ok: false; field: 'from' | 'to'; message: string };

/** Refuses a range the service would refuse, before anything is asked. */
export function checkRange(from: string, to: string): RangeCheck {
  const start = parseDay(from);
  if (start === null) return { ok: false, field: 'from', message: 'A start date as YYYY-MM-DD' };
  const end = parseDay(to);
  if (end === null) return { ok: false, field: 'to', message: 'An end date as YYYY-MM-DD' };
  const days = Math.round((end - start) / DAY_MS) + 1;
  if (days < 1) return { ok: false, field: 'to', message: 'The end is before the start' };
  if (days > USAGE_MAX_DAYS) {
    return { ok: false, field: 'from', message: `At most ${USAGE_MAX_DAYS} days (this range has ${days})` };
  }
  return { ok: true, from, to, days };
}
