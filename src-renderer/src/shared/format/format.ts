/**
 * Display formats. Bytes use decimal units (1 GB = 10^9 bytes) because the service bills traffic per
 * GB; money is never parsed: it is shown exactly as the decimal string that arrived.
 */

const BYTE_UNITS = ['B', 'kB', 'MB', 'GB', 'TB', 'PB'] as const;

export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes)) return '—';
  const sign = bytes < 0 ? '-' : '';
  let value = Math.abs(bytes);
  let unit = 0;
  while (value >= 1000 && unit < BYTE_UNITS.length - 1) {
    value /= 1000;
    unit += 1;
  }
  const digits = unit === 0 || value >= 100 ? 0 : value >= 10 ? 1 : 2;
  return `${sign}${value.toFixed(digits)} ${BYTE_UNITS[unit]}`;
}

/** `used` as a percentage of `total`, one decimal, clamped to 0–100; null when total is 0. */
export function percentOf(used: number, total: number): number | null {
  if (!(total > 0)) return null;
  return Math.min(100, Math.max(0, Math.round((used / total) * 1000) / 10));
}

export function formatUsd(amount: string): string {
  return `${amount} USD`;
}

const dateTimeFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

export function formatDateTime(iso: string | null | undefined): string {
  if (!iso) return '—';
  const ms = Date.parse(iso);
  return Number.isFinite(ms) ? dateTimeFormat.format(ms) : iso;
}

// Calendar days (`2026-03-01`, the usage reports' days) are UTC days: formatted in UTC so that they
// stay the same day wherever the user is, in the same locale style as the times.
const dayFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeZone: 'UTC' });
const shortDayFormat = new Intl.DateTimeFormat(undefined, {
  month: 'short',
  day: 'numeric',
  timeZone: 'UTC',
});

/** A calendar day (`YYYY-MM-DD`) in the user's locale: "1 Mar 2026" / "Mar 1, 2026". */
export function formatDate(day: string | null | undefined): string {
  if (!day) return '—';
  const ms = Date.parse(`${day.slice(0, 10)}T00:00:00Z`);
  return Number.isFinite(ms) ? dayFormat.format(ms) : day;
}

/** A day on a chart's axis, short: "1 Mar" / "Mar 1" (epoch ms of the UTC day). */
export function formatDayShort(ms: number): string {
  return Number.isFinite(ms) ? shortDayFormat.format(ms) : '';
}

/** The exact instant in UTC, for a tooltip: "2026-03-12 14:05:09 UTC" (the wire's ISO, made readable). */
export function formatUtc(iso: string | null | undefined): string {
  if (!iso) return '';
  const ms = Date.parse(iso);
  if (!Number.isFinite(ms)) return iso;
  return `${new Date(ms).toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}

const RELATIVE_UNITS: readonly (readonly [string, number])[] = [
  ['d', 86_400_000],
  ['h', 3_600_000],
  ['min', 60_000],
  ['s', 1000],
];

/** "3 min ago", "in 2 h": coarse on purpose; the exact time goes in the element's title. */
export function formatRelative(iso: string | null | undefined, nowMs: number): string {
  if (!iso) return '';
  const ms = Date.parse(iso);
  if (!Number.isFinite(ms)) return '';
  const diff = ms - nowMs;
  const abs = Math.abs(diff);
  if (abs < 10_000) return 'just now';
  const [unit, unitMs] = RELATIVE_UNITS.find(([, size]) => abs >= size) ?? ['s', 1000];
  const count = Math.floor(abs / unitMs);
  return diff < 0 ? `${count} ${unit} ago` : `in ${count} ${unit}`;
}

/** How long a call took: "12 ms", "1.4 s", "2 min 5 s". */
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return '—';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`;
  const seconds = Math.round(ms / 1000);
  const minutes = Math.floor(seconds / 60);
  return seconds % 60 === 0 ? `${minutes} min` : `${minutes} min ${seconds % 60} s`;
}

/** `awaiting_payment` -> `Awaiting payment`; unknown values pass through readable. */
export function humanize(value: string): string {
  const spaced = value.replace(/[_-]+/g, ' ').trim();
  return spaced.charAt(0).toUpperCase() + spaced.slice(1);
}
