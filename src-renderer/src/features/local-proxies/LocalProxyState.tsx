import type { LocalProxyView } from '../../../../src-shared/contract';

const STATES: Record<LocalProxyView['state'], { tone: string; text: string }> = {
  running: { tone: 'ok', text: 'Running' },
  stopped: { tone: 'muted', text: 'Stopped' },
  failed: { tone: 'bad', text: 'Not listening' },
  elsewhere: { tone: 'info', text: 'Runs in the other process' },
};

/** The state's words, as the badge says them (the table's filter, sort and CSV). */
export const localProxyStateText = (state: LocalProxyView['state']) => STATES[state].text;

/** Whether a local proxy accepts connections, as a badge. */
export function LocalProxyState({ proxy }: { proxy: Pick<LocalProxyView, 'state'> }) {
  const { tone, text } = STATES[proxy.state];
  return <span className={`badge badge--${tone}`}>{text}</span>;
}
