import type { ProxyExit } from '../../../../src-shared/contract';
import { LocationName } from '../catalog/CatalogNames';
import { ErrorMessage } from '../../shared/components/ErrorMessage';
import { Time } from '../../shared/components/Time';
import type { ProxyTestEntry } from './proxy-test-store';

export const ms = (value: number | null): string => (value === null ? '—' : `${value} ms`);

/**
 * Where the exit is, by its catalog names ("Ho Chi Minh City, Vietnam · Viettel"), the ids in the
 * tooltip; the ids themselves until the catalog is read or when it does not know them.
 */
export function ExitPlace({ exit }: { exit: ProxyExit | null }) {
  if (!exit || (!exit.country && !exit.city && !exit.carrier)) return null;
  return (
    <span className="exit-place">
      {exit.country ? <LocationName countryCode={exit.country} cityId={exit.city} /> : exit.city}
      {exit.carrier ? ` · ${exit.carrier}` : ''}
    </span>
  );
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
          {result.exit.country || result.exit.city || result.exit.carrier ? ' · ' : ''}
          <ExitPlace exit={result.exit} />
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
