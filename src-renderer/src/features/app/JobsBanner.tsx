import { useAppStore } from './app-store';

const DEFAULT_MESSAGE =
  'Background jobs run in another Proxy Manager process for this data folder; this one is read-only for schedules.';

/**
 * Permanent while another process owns the background jobs (schedules, usage polling, payment
 * watching): this window still works, but what it shows of them is run elsewhere. Not a dialog:
 * nothing here needs an answer.
 */
export function JobsBanner() {
  const jobs = useAppStore((store) => store.state?.jobs);
  if (!jobs || jobs.owner) return null;
  return (
    <div className="jobs-banner" role="note" aria-label="Background jobs" data-testid="jobs-banner">
      <p>{jobs.message || DEFAULT_MESSAGE}</p>
    </div>
  );
}
