import type { ProxyTestTargetInput } from '../../../../src-shared/contract';
import { ErrorMessage } from '../../shared/components/ErrorMessage';
import { Time } from '../../shared/components/Time';
import { targetKey, useProxyTestStore } from './proxy-test-store';
import { ExitPlace, ms } from './ProxyTestResultView';

export interface NamedTarget {
  target: ProxyTestTargetInput;
  label: string;
  /** The page of what was tested (a port's, a subscription's): its result row links there. */
  href?: string;
}

/**
 * "Test all" for a selection (ports, built strings): one button, then a table with each one's exit
 * IP, place, times and when it was last checked; rows keep their last result between runs.
 */
export function TestAllResults({
  targets,
  what,
  withButton = true,
}: {
  targets: NamedTarget[];
  what: string;
  /** False where the list's toolbar has the "Test all" button (`TestAllButton`). */
  withButton?: boolean;
}) {
  const entries = useProxyTestStore((store) => store.entries);
  const testMany = useProxyTestStore((store) => store.testMany);
  // Nothing tested yet (every list's first render): no key to build for each of 1,000 targets.
  const tested = Object.keys(entries).length
    ? targets.filter(({ target }) => entries[targetKey(target)])
    : [];
  const busy = tested.some(({ target }) => entries[targetKey(target)]?.running);
  if (!withButton && tested.length === 0) return null;
  return (
    <section className="proxy-test-all" aria-label={`Test all ${what}`}>
      {withButton ? (
        <button
          type="button"
          className="button"
          disabled={busy || targets.length === 0}
          onClick={() => void testMany(targets.map(({ target }) => target))}
        >
          {busy ? 'Testing…' : `Test all ${what} (${targets.length})`}
        </button>
      ) : null}
      {tested.length > 0 ? (
        <div className="table-wrap">
          <table className="table" aria-label={`Proxy test results: ${what}`}>
            <thead>
              <tr>
                <th scope="col">Proxy</th>
                <th scope="col">Result</th>
                <th scope="col">Exit IP</th>
                <th scope="col">Place</th>
                <th scope="col">Connect</th>
                <th scope="col">First byte</th>
                <th scope="col">Last checked</th>
              </tr>
            </thead>
            <tbody>
              {tested.map(({ target, label, href }) => {
                const entry = entries[targetKey(target)];
                const result = entry?.result ?? null;
                return (
                  <tr key={targetKey(target)}>
                    <th scope="row">{href ? <a href={href}>{label}</a> : label}</th>
                    <td>
                      {entry?.running ? 'Testing…' : null}
                      {entry?.error ? <ErrorMessage error={entry.error} /> : null}
                      {!entry?.running && result ? (result.ok ? 'Works' : result.failure?.message) : null}
                    </td>
                    <td>{result?.exit ? <code>{result.exit.ip}</code> : '—'}</td>
                    <td>{result?.exit ? <ExitPlace exit={result.exit} /> : '—'}</td>
                    <td className="numeric">{result ? ms(result.timings.connectMs) : '—'}</td>
                    <td className="numeric">{result ? ms(result.timings.firstByteMs) : '—'}</td>
                    <td>{result ? <Time iso={result.checkedAt} relative /> : '—'}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      ) : null}
    </section>
  );
}

/** "Test all" alone, for a list's toolbar (the results table stays under the list). */
export function TestAllButton({ targets, what }: { targets: () => NamedTarget[]; what: string }) {
  const testMany = useProxyTestStore((store) => store.testMany);
  const busy = useProxyTestStore((store) => Object.values(store.entries).some((entry) => entry.running));
  return (
    <button
      type="button"
      className="button button--small"
      disabled={busy}
      onClick={() => void testMany(targets().map(({ target }) => target))}
    >
      {busy ? 'Testing…' : 'Test all'} <span className="visually-hidden">{what}</span>
    </button>
  );
}
