import type { ProxyTestTargetInput } from '../../../../src-shared/contract';
import { targetKey, useProxyTestStore } from './proxy-test-store';
import { ProxyTestResultView } from './ProxyTestResultView';

interface TestProxyButtonProps {
  target: ProxyTestTargetInput;
  /** Names the proxy for screen readers, e.g. the port's label. */
  label: string;
}

/** "Test" for one credential or built string: one request through it, the result under the button. */
export function TestProxyButton({ target, label }: TestProxyButtonProps) {
  const key = targetKey(target);
  const entry = useProxyTestStore((store) => store.entries[key]);
  const test = useProxyTestStore((store) => store.test);
  return (
    <div className="proxy-test">
      <button
        type="button"
        className="button button--small"
        onClick={() => void test(target)}
        disabled={entry?.running}
        aria-label={`Test proxy ${label}`}
      >
        {entry?.running ? 'Testing…' : 'Test'}
      </button>
      {entry ? <ProxyTestResultView entry={entry} /> : null}
    </div>
  );
}
