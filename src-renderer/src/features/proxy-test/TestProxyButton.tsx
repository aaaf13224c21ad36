import type { ProxyTestTargetInput } from '../../../../src-shared/contract';
import { targetKey, useProxyTestStore, type ProxyTestEntry } from './proxy-test-store';
import { ProxyTestResultView } from './ProxyTestResultView';

interface TestProxyButtonProps {
  target: ProxyTestTargetInput;
  /** Names the proxy for screen readers, e.g. the port's label. */
  label: string;
  /** False in a list's row: the result shows beside the list, not inside the row (it would widen it). */
  showResult?: boolean;
}

/** The last test in a row, in a word (the details in its tooltip and in the results beside the list). */
function TestOutcome({ entry }: { entry: ProxyTestEntry }) {
  const ok = entry.result?.ok === true;
  const reason = entry.error?.message ?? entry.result?.failure?.message ?? '';
  return (
    <span
      className={`small proxy-test__outcome ${ok ? 'text-ok' : 'text-bad'}`}
      title={ok ? `Exit IP ${entry.result?.exit?.ip ?? ''}` : reason}
    >
      {ok ? '✓ Works' : '✗ Failed'}
    </span>
  );
}

/** "Test" for one credential or built string: one request through it, the result under the button. */
export function TestProxyButton({ target, label, showResult = true }: TestProxyButtonProps) {
  const key = targetKey(target);
  const entry = useProxyTestStore((store) => store.entries[key]);
  const test = useProxyTestStore((store) => store.test);
  // Inline in a row's cell; a block where the result follows the button.
  const Wrapper = showResult ? 'div' : 'span';
  return (
    <Wrapper className="proxy-test">
      <button
        type="button"
        className="button button--small"
        onClick={() => void test(target)}
        disabled={entry?.running}
        aria-label={`Test proxy ${label}`}
      >
        {entry?.running ? 'Testing…' : 'Test'}
      </button>
      {entry && showResult ? <ProxyTestResultView entry={entry} /> : null}
      {entry && !showResult && !entry.running ? <TestOutcome entry={entry} /> : null}
    </Wrapper>
  );
}
