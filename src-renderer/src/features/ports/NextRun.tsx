import type { PortSchedule } from '../../../../src-shared/contract';
import { Countdown } from '../../shared/components/Countdown';
import { Time } from '../../shared/components/Time';
import { formatUtc } from '../../shared/format/format';
import { useNow } from '../../shared/ticker';

/** Within this, the next run counts down by the second; further away it is a time with "in 3 h". */
const COUNTDOWN_MS = 3_600_000;

/**
 * A schedule's next run for the list and the detail: a countdown within the hour, else a time. Both
 * follow the shared ticker (one interval for the whole page, not one per row).
 */
export function NextRun({ schedule, paused }: { schedule: PortSchedule; paused: boolean }) {
  // The ticker's 30 s clock: enough to switch from a time to a countdown when the run comes within the hour.
  const now = useNow(!paused && schedule.nextRunAt !== null);
  if (paused) return <span className="muted">Paused</span>;
  if (!schedule.nextRunAt) return <span className="muted">No further run</span>;
  const at = Date.parse(schedule.nextRunAt);
  if (at - now > COUNTDOWN_MS) return <Time iso={schedule.nextRunAt} relative />;
  return (
    <time dateTime={schedule.nextRunAt} title={formatUtc(schedule.nextRunAt)}>
      <Countdown until={at} prefix="in" done="due now" />
    </time>
  );
}
