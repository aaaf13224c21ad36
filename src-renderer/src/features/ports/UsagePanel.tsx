import { useMemo, useState, type FormEvent } from 'react';
import { AsyncContent } from '../../shared/components/AsyncContent';
import { BarChart } from '../../shared/components/BarChart';
import { TextField } from '../../shared/components/TextField';
import type { FieldErrors } from '../../shared/field-errors';
import { fieldErrorsOf } from '../../shared/field-errors';
import { formatBytes, formatDate } from '../../shared/format/format';
import { useLoadable } from '../../shared/loadable-slice';
import { USAGE_RANGE_MAX_DAYS } from './port-limits';
import { usageList, usePortsStore } from './ports-store';

const DAY_MS = 86_400_000;
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const PRESETS = [
  { id: '7', label: 'Last 7 days', days: 7 },
  { id: '30', label: 'Last 30 days', days: 30 },
  { id: '90', label: 'Last 90 days', days: 90 },
] as const;

/** A preset as a range ending today (UTC, the service's days). */
function presetRange(days: number, now: number = Date.now()): { from: string; to: string } {
  return { from: isoDay(now - (days - 1) * DAY_MS), to: isoDay(now) };
}

/** The contract's checks, on the form, before anything is asked. */
export function validateRange(from: string, to: string): FieldErrors {
  const errors: FieldErrors = {};
  const day = /^\d{4}-\d{2}-\d{2}$/;
  const valid = (value: string) => day.test(value) && !Number.isNaN(Date.parse(`${value}T00:00:00Z`));
  if (!valid(from)) errors.from = 'A date as YYYY-MM-DD';
  if (!valid(to)) errors.to = 'A date as YYYY-MM-DD';
  if (Object.keys(errors).length) return errors;
  const days = Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS) + 1;
  if (days < 1) errors.to = 'The end is before the start';
  else if (days > USAGE_RANGE_MAX_DAYS)
    errors.from = `At most ${USAGE_RANGE_MAX_DAYS} days (this range has ${days})`;
  return errors;
}

export function UsagePanel({ portId }: { portId: string }) {
  const [range, setRange] = useState<{ from: string; to: string }>(() => presetRange(30));
  const [preset, setPreset] = useState<string>('30');
  const [from, setFrom] = useState(range.from);
  const [to, setTo] = useState(range.to);
  const [errors, setErrors] = useState<FieldErrors>({});
  const { loadable, retry } = useLoadable(usePortsStore, usageList, portId, range.from, range.to);
  const serverErrors = fieldErrorsOf(loadable?.error);
  const points = useMemo(
    () => (loadable?.data?.points ?? []).map((point) => ({ date: point.date, value: point.bytes })),
    [loadable?.data],
  );
  const choosePreset = (id: string, days: number) => {
    const next = presetRange(days);
    setPreset(id);
    setFrom(next.from);
    setTo(next.to);
    setErrors({});
    setRange(next);
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const local = validateRange(from, to);
    setErrors(local);
    if (Object.keys(local).length) return;
    setPreset('custom');
    setRange({ from, to });
  };
  return (
    <section className="panel" aria-labelledby="usage-heading">
      <h2 id="usage-heading">Usage</h2>
      <p className="muted">
        Bandwidth on mobile ports is unlimited: these figures are informational, nothing is charged by volume.
      </p>
      <div className="usage-presets" role="group" aria-label="Usage range">
        {PRESETS.map((option) => (
          <button
            key={option.id}
            type="button"
            className="button button--small"
            aria-pressed={preset === option.id}
            onClick={() => choosePreset(option.id, option.days)}
          >
            {option.label}
          </button>
        ))}
      </div>
      <form className="usage-range" onSubmit={submit} noValidate>
        <TextField
          label="From"
          type="date"
          value={from}
          onChange={setFrom}
          error={errors.from ?? serverErrors.from}
        />
        <TextField label="To" type="date" value={to} onChange={setTo} error={errors.to ?? serverErrors.to} />
        <button type="submit" className="button">
          Show range
        </button>
      </form>
      <AsyncContent loadable={loadable} what="usage" onRetry={retry}>
        {(report) => (
          <>
            <p>
              {formatBytes(report.totalBytes)} and {report.totalRequests.toLocaleString()} requests from{' '}
              {formatDate(report.from)} to {formatDate(report.to)}.
            </p>
            <BarChart label="Daily usage" points={points} format={formatBytes} valueHeader="Traffic" />
          </>
        )}
      </AsyncContent>
    </section>
  );
}
