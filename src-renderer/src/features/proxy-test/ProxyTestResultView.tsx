import type { ProxyTestResult } from '../../../../src-shared/contract';
import { ErrorMessage } from '../../shared/components/ErrorMessage';
import { Time } from '../../shared/components/Time';
import type { ProxyTestEntry } from './proxy-test-store';

export const ms = (value: number | null): string => (value === null ? '—' : `${value} ms`);

export function placeOf(result: ProxyTestResult): string {
  const exit = result.exit;
  if (!exit) return '';
  return [exit.country, exit.city, exit.carrier].filter(Boolean).join(' · ');
}

/** What one test found: the exit IP, where it is and how fast, or why the proxy refused. */
export function ProxyTestResultView({ entry }: { entry: ProxyTestEntry }) {
  if (entry.error) return <ErrorMessage error={entry.error} title="Could not test" />;
  const result = entry.result;
  if (!result) return entry.running ? <p className="muted small">Testing…</p> : null;
  return (
    <div className="proxy-test-result" aria-live="polite" data-testid="proxy-test-result">
      {result.ok && result.exit ? (
        <p>
          Exit IP <code data-testid="exit-ip">{result.exit.ip}</code>
          {placeOf(result) ? ` · ${placeOf(result)}` : ''}
        </p>
      ) : (
        <div className="message message--error" role="alert">
          <p>{result.failure?.message}</p>
          {result.failure?.detail ? <p className="muted small">Proxy said: {result.failure.detail}</p> : null}
        </div>
      )}
      <p className="muted small">
        {result.proxy.protocol.toUpperCase()} · connect {ms(result.timings.connectMs)} · first byte{' '}
        {ms(result.timings.firstByteMs)} · checked <Time iso={result.checkedAt} relative />
        {entry.running ? ' · testing again…' : ''}
      </p>
    </div>
  );
}
