import { useMemo, useState } from 'react';
import type { Subscription, UsagePoint } from '../../../../src-shared/api-types';
import { AsyncContent } from '../../shared/components/AsyncContent';
import { BarChart } from '../../shared/components/BarChart';
import { TextField } from '../../shared/components/TextField';
import { formatBytes, formatDate } from '../../shared/format/format';
import { useLoadable } from '../../shared/loadable-slice';
import { useNow } from '../../shared/ticker';
import { SaveOutcomeMessage } from '../../shared/components/SaveOutcomeMessage';
import type { SaveOutcome } from '../../shared/save-outcome';
import { useAppStore } from '../app/app-store';
import { useCountries } from '../catalog/catalog-hooks';
import { subUserLists, usageReports, useSubscriptionsStore, type UsageQuery } from './subscriptions-store';
import { checkRange, presetRange, USAGE_PRESETS } from './usage-range';

/** Daily bytes as bars and requests as a line; memoised so that uPlot draws once per report. */
function UsageChart({ points }: { points: readonly UsagePoint[] }) {
  const bars = useMemo(() => points.map((p) => ({ date: p.date, value: p.bytes })), [points]);
  const requests = useMemo(() => ({ header: 'Requests', values: points.map((p) => p.requests) }), [points]);
  return (
    <BarChart
      label="Daily traffic and requests"
      points={bars}
      format={formatBytes}
      valueHeader="Traffic"
      secondary={requests}
      height={240}
    />
  );
}

function UsageReportView({ query }: { query: UsageQuery }) {
  const { loadable, retry } = useLoadable(useSubscriptionsStore, usageReports, query);
  const countries = useCountries('all').loadable?.data ?? [];
  const nameOf = (code: string) => countries.find((c) => c.code === code)?.name ?? code;
  return (
    <AsyncContent loadable={loadable} what="usage" onRetry={retry} isEmpty={() => false}>
      {(report) => (
        <div className="stack">
          <p aria-label="Usage totals">
            <strong>{formatBytes(report.totalBytes)}</strong> in{' '}
            <strong>{report.totalRequests.toLocaleString()}</strong> requests from {formatDate(report.from)}{' '}
            to {formatDate(report.to)}
          </p>
          <UsageChart points={report.points} />
          <table className="table" aria-label="Usage by country">
            <thead>
              <tr>
                <th scope="col">Country</th>
                <th scope="col" className="numeric">
                  Traffic
                </th>
              </tr>
            </thead>
            <tbody>
              {report.byCountry.map((row) => (
                <tr key={row.country}>
                  <th scope="row">{nameOf(row.country)}</th>
                  <td className="numeric">{formatBytes(row.bytes)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </AsyncContent>
  );
}

export function UsagePanel({ subscription }: { subscription: Subscription }) {
  const nowMs = useNow(false);
  const initial = presetRange(30, nowMs);
  const [from, setFrom] = useState(initial.from);
  const [to, setTo] = useState(initial.to);
  const [subUserId, setSubUserId] = useState('');
  const [query, setQuery] = useState<UsageQuery>({ subscriptionId: subscription.id, ...initial });
  const [rangeError, setRangeError] = useState<{ field: 'from' | 'to'; message: string } | null>(null);
  const [exported, setExported] = useState<SaveOutcome | null>(null);
  const saveTextFile = useAppStore((store) => store.saveTextFile);
  const subUsers =
    useLoadable(useSubscriptionsStore, subUserLists, subscription.id).loadable?.data?.rows ?? [];
  const exportUsage = useSubscriptionsStore((store) => store.exportUsage);

  const show = (range: { from: string; to: string }, who = subUserId) => {
    const check = checkRange(range.from, range.to);
    if (!check.ok) {
      setRangeError(check);
      return;
    }
    setRangeError(null);
    setQuery({
      subscriptionId: subscription.id,
      from: check.from,
      to: check.to,
      subUserId: who || undefined,
    });
  };
  const preset = (days: number) => {
    const range = presetRange(days, nowMs);
    setFrom(range.from);
    setTo(range.to);
    show(range);
  };
  const exportCsv = async () => {
    setExported(null);
    const result = await exportUsage(query);
    setExported(
      result.ok
        ? await saveTextFile({
            fileName: result.value.fileName,
            content: result.value.text,
            type: 'text/csv',
          })
        : { status: 'failed', error: result.error },
    );
  };
  return (
    <div className="stack">
      <form
        className="form form--inline"
        aria-label="Usage range"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          show({ from, to });
        }}
      >
        <div role="group" aria-label="Presets" className="toolbar">
          {USAGE_PRESETS.map((days) => (
            <button key={days} type="button" className="button button--quiet" onClick={() => preset(days)}>
              Last {days} days
            </button>
          ))}
        </div>
        <TextField
          label="From"
          type="date"
          value={from}
          onChange={setFrom}
          error={rangeError?.field === 'from' ? rangeError.message : undefined}
        />
        <TextField
          label="To"
          type="date"
          value={to}
          onChange={setTo}
          error={rangeError?.field === 'to' ? rangeError.message : undefined}
        />
        <label className="field field--inline">
          <span>Sub-user</span>
          <select
            value={subUserId}
            onChange={(event) => {
              setSubUserId(event.target.value);
              show({ from: query.from, to: query.to }, event.target.value);
            }}
          >
            <option value="">Everyone (main user and sub-users)</option>
            {subUsers.map((s) => (
              <option key={s.id} value={s.id}>
                {s.label}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" className="button">
          Show
        </button>
        <button type="button" className="button button--quiet" onClick={() => void exportCsv()}>
          Export CSV
        </button>
      </form>
      <SaveOutcomeMessage outcome={exported} failedTitle="Could not export the usage" />
      <UsageReportView query={query} />
    </div>
  );
}
