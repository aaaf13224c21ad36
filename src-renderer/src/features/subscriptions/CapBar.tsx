import type { SubUser } from '../../../../src-shared/api-types';
import { formatBytes } from '../../shared/format/format';
import { TrafficBar } from './TrafficBar';

/** A sub-user's traffic against its cap, or its traffic alone when it has none. */
export function CapBar({ subUser }: { subUser: SubUser }) {
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
