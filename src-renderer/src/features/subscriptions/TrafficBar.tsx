import { formatBytes, percentOf } from '../../shared/format/format';

interface TrafficBarProps {
  used: number;
  total: number;
  /** The meter's name, before the numbers: "Traffic used: 1 GB of 2 GB". */
  label?: string;
  /** The shares of the total from which the meter warns (`low`; null for none) and alarms (`high`). */
  low?: number | null;
  high?: number;
}

/** Traffic used of a total (a subscription's, a sub-user's cap): a meter, the exact bytes in its tooltip. */
export function TrafficBar({ used, total, label = 'Traffic used', low = 0.75, high = 0.9 }: TrafficBarProps) {
  const percent = percentOf(used, total);
  const text = `${formatBytes(used)} of ${formatBytes(total)}`;
  return (
    <div className="traffic">
      <meter
        className="traffic__meter"
        min={0}
        max={Math.max(total, 1)}
        value={Math.min(used, Math.max(total, 1))}
        low={low === null ? undefined : total * low}
        high={total * high}
        optimum={0}
        aria-label={`${label}: ${text}`}
      />
      <span className="traffic__text" title={`${used} of ${total} bytes`}>
        {text}
        {percent === null ? '' : ` (${percent}%)`}
      </span>
    </div>
  );
}
