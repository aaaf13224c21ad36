import { useEffect, useState } from 'react';
import type {
  PortHealth,
  PortHealthHistory,
  PortHealthSegment,
  RotationVerdict,
} from '../../../../src-shared/contract';
import { AsyncContent } from '../../shared/components/AsyncContent';
import {
  HealthStatusLine,
  LastCheckLine,
  percentText,
  type StatusWords,
  UptimeLatencyFacts,
} from '../../shared/components/HealthFacts';
import { RadioGroup } from '../../shared/components/RadioGroup';
import { type HealthRange, usePortsStore } from './ports-store';

const BAR_WIDTH = 600;
const BAR_HEIGHT = 24;
const BAND_HEIGHT = 48;

const percent = percentText;

const STATUS_TEXT: StatusWords = {
  up: { text: 'Up', badge: 'badge--ok' },
  down: { text: 'Down', badge: 'badge--bad' },
  unknown: { text: 'Not checked yet', badge: 'badge--muted' },
};

const VERDICT_TEXT: Record<RotationVerdict['kind'], { text: string; badge: string }> = {
  clean: { text: 'clean', badge: 'badge--ok' },
  unchanged: { text: 'unchanged', badge: 'badge--bad' },
  repeat: { text: 'repeat', badge: 'badge--warn' },
  drift: { text: 'drift', badge: 'badge--warn' },
  unknown: { text: 'not checked', badge: 'badge--muted' },
};

/** A verdict's word, as its badge says it (the receipts table's filter and CSV). */
export const verdictText = (kind: RotationVerdict['kind']) => VERDICT_TEXT[kind].text;

/** A rotation's verdict as a badge with its sentence (the receipt, the health panel). */
export function VerdictBadge({ verdict }: { verdict: RotationVerdict }) {
  const shown = VERDICT_TEXT[verdict.kind];
  return (
    <span>
      <span className={`badge ${shown.badge}`}>{shown.text}</span> {verdict.message}
    </span>
  );
}

function segmentClass(segment: PortHealthSegment): string {
  if (segment.checks === 0) return 'uptime-bar__none';
  if (segment.failures === 0) return 'uptime-bar__up';
  return segment.failures === segment.checks ? 'uptime-bar__down' : 'uptime-bar__partial';
}

/** One formatter per range, made once: a `toLocaleString` per block would build 96 of them a render. */
const SEGMENT_FORMATS: Record<HealthRange, Intl.DateTimeFormat> = {
  '24h': new Intl.DateTimeFormat(undefined, { timeStyle: 'short' }),
  '30d': new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' }),
};

function segmentTitle(segment: PortHealthSegment, range: HealthRange): string {
  const when = SEGMENT_FORMATS[range].format(new Date(segment.start));
  if (segment.checks === 0) return `${when}: no checks`;
  const latency =
    segment.firstByteP50 === null
      ? ''
      : `, first byte ${segment.firstByteP50}-${segment.firstByteP95 ?? '?'} ms`;
  return `${when}: ${segment.checks - segment.failures} of ${segment.checks} checks good${latency}`;
}

/**
 * The uptime bar (one block per quarter hour or day, coloured by its failed checks) and the latency
 * band under it (first byte, p50 to p95 per block). Plain SVG: 30-96 rectangles and two polylines.
 */
export function UptimeBar({ history }: { history: PortHealthHistory }) {
  const { segments, range } = history;
  const width = BAR_WIDTH / Math.max(1, segments.length);
  const checked = segments.filter((s) => s.checks > 0);
  const checks = checked.reduce((sum, s) => sum + s.checks, 0);
  const failures = checked.reduce((sum, s) => sum + s.failures, 0);
  const top = Math.max(1, ...segments.map((s) => s.firstByteP95 ?? 0));
  const y = (value: number) => BAND_HEIGHT - (value / top) * (BAND_HEIGHT - 2) - 1;
  const points = (pick: (s: PortHealthSegment) => number | null) =>
    segments
      .map((s, i) => {
        const value = pick(s);
        return value === null ? null : `${(i + 0.5) * width},${y(value)}`;
      })
      .filter((point): point is string => point !== null)
      .join(' ');
  const span = range === '24h' ? '24 hours' : '30 days';
  const summary =
    checks === 0
      ? `No checks in the last ${span}`
      : `Uptime ${percent((checks - failures) / checks)} over the last ${span}: ${failures} of ${checks} checks failed`;
  return (
    <figure className="uptime">
      <svg
        className="uptime-bar"
        viewBox={`0 0 ${BAR_WIDTH} ${BAR_HEIGHT}`}
        preserveAspectRatio="none"
        role="img"
        aria-label={summary}
      >
        {segments.map((segment, i) => (
          <rect
            key={segment.start}
            className={segmentClass(segment)}
            x={i * width + 0.5}
            y={0}
            width={Math.max(1, width - 1)}
            height={BAR_HEIGHT}
          >
            <title>{segmentTitle(segment, range)}</title>
          </rect>
        ))}
      </svg>
      <svg
        className="latency-band"
        viewBox={`0 0 ${BAR_WIDTH} ${BAND_HEIGHT}`}
        preserveAspectRatio="none"
        role="img"
        aria-label={`First-byte latency, p50 to p95, up to ${top} ms`}
      >
        <polyline className="latency-band__p95" points={points((s) => s.firstByteP95)} fill="none" />
        <polyline className="latency-band__p50" points={points((s) => s.firstByteP50)} fill="none" />
      </svg>
      <figcaption className="muted small">{summary}</figcaption>
    </figure>
  );
}

/** The scores of one port: status, uptime, latency and what its rotations' verdicts were. */
export function HealthScores({ health }: { health: PortHealth }) {
  return (
    <>
      <HealthStatusLine health={health} words={STATUS_TEXT} />
      <LastCheckLine check={health.lastCheck} />
      <dl className="receipt__facts">
        <UptimeLatencyFacts health={health} />
        <dt>Rotations, 30 days</dt>
        <dd>
          {health.rotations30d} · unique IPs {percent(health.uniqueIpRatio30d)} · unchanged{' '}
          {health.unchanged30d} · repeated {health.repeated30d} · drift {health.drift30d}
        </dd>
        {health.lastVerdict ? (
          <>
            <dt>Last rotation</dt>
            <dd>
              <VerdictBadge verdict={health.lastVerdict} />
            </dd>
          </>
        ) : null}
      </dl>
    </>
  );
}

const RANGES: readonly { value: HealthRange; label: string }[] = [
  { value: '24h', label: '24 hours' },
  { value: '30d', label: '30 days' },
];

/** The port page's health: checks through the port (uptime bar, latency band) and its scores. */
export function PortHealthPanel({ portId }: { portId: string }) {
  const [range, setRange] = useState<HealthRange>('24h');
  const loadHealth = usePortsStore((store) => store.loadPortHealth);
  const loadHistory = usePortsStore((store) => store.loadHealthHistory);
  const scores = usePortsStore((store) => store.portHealth[portId]);
  const history = usePortsStore((store) => store.healthHistory[`${portId}|${range}`]);
  useEffect(() => void loadHealth(portId, true), [portId, loadHealth]);
  useEffect(() => void loadHistory(portId, range, true), [portId, range, loadHistory]);
  const health = scores?.data?.find((entry) => entry.portId === portId) ?? null;
  return (
    <section className="panel" aria-labelledby={`health-${portId}`}>
      <h2 id={`health-${portId}`}>Health</h2>
      <p className="muted small">
        A request through the port to the check URL on the schedule set in Settings → Health checks (the
        process that runs background jobs sends them).
      </p>
      <AsyncContent
        loadable={scores}
        what="health scores"
        onRetry={() => void loadHealth(portId, true)}
        isEmpty={() => health === null}
        empty={<p className="muted">No health data for this port yet.</p>}
      >
        {() => (health ? <HealthScores health={health} /> : null)}
      </AsyncContent>
      <RadioGroup legend="Range" value={range} options={RANGES} onChange={setRange} segmented />
      <AsyncContent
        loadable={history}
        what="the uptime bar"
        onRetry={() => void loadHistory(portId, range, true)}
        isEmpty={() => false}
      >
        {(data) => <UptimeBar history={data} />}
      </AsyncContent>
    </section>
  );
}
