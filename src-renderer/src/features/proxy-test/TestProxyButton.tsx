import type { ProxyTestTargetInput } from '../../../../src-shared/contract';
import { targetKey, useProxyTestStore } from './proxy-test-store';
import { ProxyTestResultView } from './ProxyTestResultView';

interface TestProxyButtonProps {
  target: ProxyTestTargetInput;
  /** Names the proxy for screen readers, e.g. the port's label. */
  label: string;
  /** False in a list's row: the result shows beside the list, not inside the row (it would widen it). */
  showResult?: boolean;
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
    </Wrapper>
  );
}
