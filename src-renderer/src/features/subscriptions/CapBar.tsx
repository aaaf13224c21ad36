import type { SubUserRow } from '../../../../src-shared/contract';
import { formatBytes } from '../../shared/format/format';
import { TrafficBar } from './TrafficBar';

/** A sub-user's traffic against its cap, or its traffic alone when it has none. */
export function CapBar({ subUser }: { subUser: SubUserRow }) {
  const cap = subUser.trafficLimitBytes;
  if (cap === null) {
    return (
      <span>
        {formatBytes(subUser.trafficUsedBytes)} used · <span className="muted">no cap</span>
      </span>
    );
  }
  return <TrafficBar used={subUser.trafficUsedBytes} total={cap} label="Cap used" low={null} high={0.8} />;
}
