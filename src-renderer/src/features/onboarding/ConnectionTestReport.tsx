import type { ConnectionTestResult, PathStyle } from '../../../../src-shared/contract';

export const PATH_STYLE_LABELS: Record<PathStyle, string> = {
  literal: 'as written (base URL + /v1/…)',
  'strip-v1': 'without the repeated /v1 (base URL + /…)',
  origin: 'from the host only (https://host/v1/…)',
};

/** The outcome of "Test connection": which reading of the base URL answered, and whether the key was accepted. */
export function ConnectionTestReport({ result }: { result: ConnectionTestResult }) {
  const passed = result.ok && result.pathStyle !== null && result.authenticated.ok;
  return (
    <div
      className={`message ${passed ? 'message--ok' : 'message--error'}`}
      role={passed ? 'status' : 'alert'}
      data-testid="connection-test-result"
    >
      <p>
        <strong>{passed ? 'Connection works.' : 'Connection test failed.'}</strong> {result.message}
      </p>
      <dl className="facts">
        <dt>Base URL</dt>
        <dd data-testid="adopted-base-url">
          <code>{result.baseUrl}</code>
          {result.suffixAdded && result.pathStyle !== null ? (
            <>
              {' '}
              (added <code>{result.suffixAdded}</code>: the service answered there, not at the address as
              typed)
            </>
          ) : null}
        </dd>
        <dt>URL reading</dt>
        <dd>
          {result.pathStyle ? (
            <>
              Adopted: <strong>{PATH_STYLE_LABELS[result.pathStyle]}</strong>
            </>
          ) : (
            'No reading of this base URL answered.'
          )}
        </dd>
        <dt>API key</dt>
        <dd data-testid="key-verdict">
          {result.authenticated.ok ? (
            <>
              <strong>Accepted.</strong> {result.authenticated.message}
            </>
          ) : result.pathStyle === null ? (
            result.authenticated.message
          ) : (
            <>
              <strong>Not accepted.</strong> {result.authenticated.message}
            </>
          )}
        </dd>
      </dl>
      {result.probes.length > 0 ? (
        <details>
          <summary>Probes ({result.probes.length})</summary>
          <ul className="probes">
            {result.probes.map((probe) => (
              // Main asks each URL once: one line per URL, with every reading that leads to it.
              <li key={probe.url} className="probes__line">
                <span className={probe.ok ? 'text-ok' : 'text-bad'}>{probe.ok ? 'answered' : 'failed'}</span>{' '}
                <code>{probe.url}</code>{' '}
                <span className="muted">
                  ({probe.pathStyles.map((style) => PATH_STYLE_LABELS[style]).join('; ')})
                </span>
                {probe.detail ? <span className="muted"> · {probe.detail}</span> : null}
              </li>
            ))}
          </ul>
        </details>
      ) : null}
    </div>
  );
}
