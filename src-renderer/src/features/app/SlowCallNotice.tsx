import { useSlowCallsStore } from './slow-calls-store';

/** What a channel does, in words: `ports:ipHistory` → "ports: ip history". */
function describeChannel(channel: string): string {
  const [domain = '', name = ''] = channel.split(':');
  return `${domain}: ${name.replace(/([A-Z])/g, ' $1').toLowerCase()}`;
}

/** Shown while a call waits past its budget's "still waiting" point, with a Cancel that really aborts it. */
export function SlowCallNotice() {
  const slow = useSlowCallsStore((store) => store.slow);
  const cancelling = useSlowCallsStore((store) => store.cancelling);
  const cancel = useSlowCallsStore((store) => store.cancel);
  if (slow.length === 0) return null;
  return (
    <aside className="notices" aria-label="Waiting for the service" aria-live="polite">
      <ul>
        {slow.map((call) => (
          <li key={call.callId} className="notice notice--info">
            <p>
              <strong>Still waiting…</strong> The service has not answered ({describeChannel(call.channel)})
              after {Math.round(call.elapsedMs / 1000)} s; the app gives up after{' '}
              {Math.round(call.budgetMs / 1000)} s.
            </p>
            <button
              type="button"
              className="button button--small"
              disabled={cancelling.includes(call.callId)}
              onClick={() => void cancel(call.callId)}
            >
              Cancel
            </button>
          </li>
        ))}
      </ul>
    </aside>
  );
}
